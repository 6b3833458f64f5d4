public class Broken {
    void f(int x {
        int y = x + ;
    }
    String g() { return "a" }
}
