package com.example.util;

public final class Log {
    public static void log(String msg) {
        System.out.println(msg);
    }
}
