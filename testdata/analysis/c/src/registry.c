#include <stdlib.h>
#include "registry.h"

static int registry_full(const ToolRegistry *r) {
    return r->count >= MAX_TOOLS;
}

ToolRegistry *create_registry(void) {
    return calloc(1, sizeof(ToolRegistry));
}

void registry_register(ToolRegistry *r, const char *tool) {
    if (!registry_full(r)) {
        r->items[r->count++] = tool;
    }
}

int registry_version = 1;
