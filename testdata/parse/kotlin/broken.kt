fun broken(x: Int -> Int {
    val y = x +
    return y
}

class C(val a: Int, {
