using System;
using System.Collections.Generic;
using System.Linq;

namespace Accounts
{
    public interface IAccount
    {
        decimal Balance { get; }
        void Deposit(decimal amount);
    }

    public class Account : IAccount
    {
        private readonly List<decimal> _entries = new List<decimal>();

        public string Owner { get; set; }
        public decimal Balance => _entries.Sum();

        public Account(string owner)
        {
            Owner = owner ?? throw new ArgumentNullException(nameof(owner));
        }

        public void Deposit(decimal amount)
        {
            if (amount <= 0)
            {
                throw new ArgumentException("amount must be positive");
            }
            _entries.Add(amount);
        }

        public bool Withdraw(decimal amount)
        {
            if (amount > Balance)
            {
                return false;
            }
            _entries.Add(-amount);
            return true;
        }

        public override string ToString() => $"{Owner}: {Balance}";
    }

    public static class Program
    {
        public static void Main(string[] args)
        {
            var a = new Account("ann");
            a.Deposit(10m);
            a.Withdraw(3m);
            Console.WriteLine(a);
            var rich = new[] { a }.Where(x => x.Balance > 5).Select(x => x.Owner).ToList();
            foreach (var name in rich)
            {
                Console.WriteLine(name);
            }
            try
            {
                a.Deposit(-1);
            }
            catch (ArgumentException e)
            {
                Console.WriteLine(e.Message);
            }
        }
    }
}
