package com.example.service;

import com.example.registry.ToolRegistry;
import com.example.util.*;
import static com.example.util.Log.log;

public class Service {
    private ToolRegistry toolRegistry;

    public static ToolRegistry createRegistry() {
        return new ToolRegistry();
    }

    public void init(String tool) {
        this.toolRegistry = createRegistry();
        this.toolRegistry.register(tool);
        Log.log("ready");
    }

    public void reset() {
        Runnable again = () -> createRegistry();
        again.run();
    }
}
