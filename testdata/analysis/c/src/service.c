#include <stdio.h>
#include "../include/registry.h"
#include "util/log.h"

static ToolRegistry *tool_registry;

void service_init(const char *tool) {
    tool_registry = create_registry();
    registry_register(tool_registry, tool);
    log_msg("ready");
}

void service_reset(void) {
    void (*again)(void) = 0;
    create_registry();
}
