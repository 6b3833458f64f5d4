fn broken(x: i32 -> i32 {
    let y = x +;
    match y {
        1 => "one"
        _ =>
    }
}

struct S { a: i32 b: u8 }
