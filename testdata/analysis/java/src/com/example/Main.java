package com.example;

import com.example.service.Service;

public class Main {
    public static void main(String[] args) {
        Service s = new Service();
        s.init("a");
        ping(3);
        s.builder().with("x").build();
    }

    static void ping(int n) {
        if (n > 0) {
            pong(n - 1);
        }
    }

    // ping(n) in a comment is not a call
    static void pong(int n) {
        ping(n);
    }
}
