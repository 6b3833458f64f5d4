class Broken {
public
    int f(int x { return x +; }
};

template <typename T
void g() {}
