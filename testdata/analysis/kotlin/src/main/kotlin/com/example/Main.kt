package com.example

import com.example.service.Service

fun main() {
    val s = Service()
    s.init("a")
    ping(3)
    s.builder().with("x").build()
}

fun ping(n: Int) {
    if (n > 0) {
        pong(n - 1)
    }
}

// ping(n) in a comment is not a call
fun pong(n: Int) {
    ping(n)
}
