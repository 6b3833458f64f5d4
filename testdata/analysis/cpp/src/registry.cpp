#include "registry.h"

namespace app {

void ToolRegistry::add(const std::string& tool) { items.push_back(tool); }

int ToolRegistry::count() const { return static_cast<int>(items.size()); }

ToolRegistry* create_registry() { return new ToolRegistry(); }

static int hidden = 0;

}  // namespace app
