package com.example.util

object Log {
    fun log(msg: String) {
        println(msg)
    }
}
