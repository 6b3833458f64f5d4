package com.example.registry;

import java.util.ArrayList;
import java.util.List;

public abstract class BaseRegistry {
    protected final List<String> items = new ArrayList<>();
}
