// An order-processing service, to exercise the C# grammar.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace Shop.Orders;

public enum OrderState { New, Paid, Shipped, Cancelled }

public record Line(string Sku, int Quantity, decimal Price)
{
    public decimal Total => Quantity * Price;
}

public interface IRepository<T> where T : class
{
    Task<T?> FindAsync(Guid id, CancellationToken ct = default);
    Task SaveAsync(T item, CancellationToken ct = default);
}

/// <summary>An order with its lines.</summary>
public sealed class Order
{
    private readonly List<Line> _lines = new();

    public Guid Id { get; } = Guid.NewGuid();
    public string Kunde { get; init; } = "Jürgen Müller";
    public OrderState State { get; private set; } = OrderState.New;
    public IReadOnlyList<Line> Lines => _lines;

    public event EventHandler<OrderState>? StateChanged;

    public decimal Total => _lines.Sum(l => l.Total);

    public void Add(Line line)
    {
        if (line is null) throw new ArgumentNullException(nameof(line));
        if (line is { Quantity: <= 0 })
        {
            throw new ArgumentException($"bad quantity {line.Quantity} for {line.Sku}");
        }
        _lines.Add(line);
    }

    public void MoveTo(OrderState next)
    {
        State = (State, next) switch
        {
            (OrderState.New, OrderState.Paid) => next,
            (OrderState.Paid, OrderState.Shipped) => next,
            (_, OrderState.Cancelled) when State != OrderState.Shipped => next,
            _ => throw new InvalidOperationException($"{State} → {next} is not allowed"),
        };
        StateChanged?.Invoke(this, State);
    }
}

public class InMemoryRepository<T> : IRepository<T> where T : class
{
    private readonly Dictionary<Guid, T> _items = new();
    private readonly Func<T, Guid> _key;

    public InMemoryRepository(Func<T, Guid> key) => _key = key;

    public Task<T?> FindAsync(Guid id, CancellationToken ct = default)
    {
        ct.ThrowIfCancellationRequested();
        return Task.FromResult(_items.TryGetValue(id, out var item) ? item : null);
    }

    public Task SaveAsync(T item, CancellationToken ct = default)
    {
        lock (_items)
        {
            _items[_key(item)] = item;
        }
        return Task.CompletedTask;
    }
}

public static class Program
{
    private const string Greeting = "Grüß Gott — 你好 — 🛒";

    public static async Task<int> Main(string[] args)
    {
        var repo = new InMemoryRepository<Order>(o => o.Id);
        var order = new Order { Kunde = args.FirstOrDefault() ?? "Zoë" };
        order.StateChanged += (_, s) => Console.WriteLine($"state: {s}");
        order.Add(new Line("A-1", 2, 9.99m));
        order.Add(new("B-2", 1, 24.50m));
        order.MoveTo(OrderState.Paid);
        await repo.SaveAsync(order);

        var expensive = from l in order.Lines
                        where l.Total > 10m
                        orderby l.Total descending
                        select new { l.Sku, l.Total };
        foreach (var e in expensive)
        {
            Console.WriteLine($"{e.Sku,-6}{e.Total:C}");
        }
        var found = await repo.FindAsync(order.Id);
        Console.WriteLine(@"verbatim \path " + Greeting + found?.Total);
        return found is not null ? 0 : 1;
    }
}
