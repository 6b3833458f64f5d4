package com.example.registry;

public interface Named {
    String name();
}
