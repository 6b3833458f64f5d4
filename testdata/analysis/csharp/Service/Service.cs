using Example.Registry;
using Log = Example.Util.Log;

namespace Example.Service;

public class Service
{
    private ToolRegistry? toolRegistry;

    public static ToolRegistry CreateRegistry()
    {
        return new ToolRegistry();
    }

    public void Init(string tool)
    {
        this.toolRegistry = CreateRegistry();
        toolRegistry?.Register(tool);
        Log.Write("ready");
    }

    public void Reset()
    {
        void Again() => CreateRegistry();
        Again();
    }
}
