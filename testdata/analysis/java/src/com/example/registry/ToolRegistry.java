package com.example.registry;

public class ToolRegistry extends BaseRegistry implements Registry, java.io.Serializable {
    public ToolRegistry() {
        super();
    }

    @Override
    public void register(String tool) {
        items.add(tool);
    }

    public String name() {
        return "tools";
    }

    private int count() {
        return items.size();
    }
}

class SpecialRegistry extends ToolRegistry {
}
