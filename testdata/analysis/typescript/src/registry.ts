export interface Registry {
  register(tool: Tool): void;
}
export interface Tool { name: string }
export abstract class BaseRegistry {
  protected items: Tool[] = [];
}
export class ToolRegistry extends BaseRegistry implements Registry {
  register(tool: Tool): void {
    this.items.push(tool);
  }
  getTool(name: string): Tool | undefined {
    return this.items.find((t) => t.name === name);
  }
}
export class SpecialRegistry extends ToolRegistry {}
export default ToolRegistry;
