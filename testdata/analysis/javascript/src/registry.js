export class BaseRegistry {
  items = [];
}
export class ToolRegistry extends BaseRegistry {
  register(tool) {
    this.items.push(tool);
  }
  #secret() {
    return 1;
  }
}
export class SpecialRegistry extends ToolRegistry {}
export default ToolRegistry;
