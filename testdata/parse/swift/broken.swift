func broken(x: Int -> Int {
    let y = x +
    return y
}

struct S { var a: = 1
