#include "registry.h"
#include "util/log.h"

namespace app {

class Service {
 public:
  void init(const std::string& tool) {
    toolRegistry = create_registry();
    toolRegistry->add(tool);
    util::log("ready");
  }
  void reset() {
    auto again = [] { return create_registry(); };
    again();
  }

 private:
  ToolRegistry* toolRegistry = nullptr;
};

}  // namespace app
