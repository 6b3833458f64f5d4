using System;
using System.Collections.Generic;

namespace Example.Registry
{
    public interface INamed
    {
        string Name();
    }

    public interface IRegistry : INamed
    {
        void Register(string tool);
    }

    public abstract class BaseRegistry
    {
        protected readonly List<string> items = new List<string>();
    }

    public class ToolRegistry : BaseRegistry, IRegistry
    {
        public void Register(string tool)
        {
            items.Add(tool);
        }

        public string Name() => "tools";

        private int Count() => items.Count;
    }

    internal class SpecialRegistry : ToolRegistry
    {
    }
}
