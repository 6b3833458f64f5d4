using Example.Service;

public static class Program
{
    public static void Main()
    {
        var s = new Service();
        s.Init("a");
        Ping(3);
        s.Builder().With("x").Build();
    }

    static void Ping(int n)
    {
        if (n > 0) Pong(n - 1);
    }

    // Ping(n) in a comment is not a call
    static void Pong(int n) => Ping(n);
}
