package com.example.registry;

public interface Registry extends Named {
    void register(String tool);
}
