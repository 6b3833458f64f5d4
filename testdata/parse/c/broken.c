int broken(int a, {
    int x = a + ;
    if (x > 0 {
        return x
    }
}

struct s { int a int b; };
