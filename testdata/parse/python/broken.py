def broken(a, b:
    return a +

class Half
    x = [1, 2
