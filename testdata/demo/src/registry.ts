import { Tool, ToolResult } from './tool.js';
import { log } from './log.js';

/** ToolRegistry keeps the tools an agent may call. */
export class ToolRegistry {
  private tools = new Map<string, Tool>();

  registerTool(tool: Tool): void {
    if (this.tools.has(tool.name)) {
      log.warn(`tool ${tool.name} registered twice`);
    }
    this.tools.set(tool.name, tool);
  }

  getTool(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  async run(name: string, params: unknown): Promise<ToolResult> {
    const tool = this.getTool(name);
    if (!tool) {
      throw new Error(`unknown tool ${name}`);
    }
    log.info('running', name);
    return tool.execute(params);
  }
}
