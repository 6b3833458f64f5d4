#pragma once
#include <string>
#include <vector>

namespace app {

class Named {
 public:
  virtual ~Named() = default;
  virtual std::string name() const = 0;
};

class Registry : public Named {
 public:
  virtual void add(const std::string& tool) = 0;
};

struct BaseRegistry {
  std::vector<std::string> items;
};

class ToolRegistry : public BaseRegistry, public Registry {
 public:
  void add(const std::string& tool) override;
  std::string name() const override { return "tools"; }

 private:
  int count() const;
};

class SpecialRegistry final : public ToolRegistry {};

ToolRegistry* create_registry();

}  // namespace app
