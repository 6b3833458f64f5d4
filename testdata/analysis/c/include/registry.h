#ifndef REGISTRY_H
#define REGISTRY_H

#define MAX_TOOLS 16

typedef struct ToolRegistry {
    const char *items[MAX_TOOLS];
    int count;
} ToolRegistry;

struct SpecialRegistry {
    ToolRegistry base;
};

ToolRegistry *create_registry(void);
void registry_register(ToolRegistry *r, const char *tool);

#endif
