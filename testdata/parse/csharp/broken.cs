public class Broken {
    public int F(int x { return x + ; }
    public string Name { get; set
}
