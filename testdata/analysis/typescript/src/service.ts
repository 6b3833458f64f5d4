import { ToolRegistry, type Tool } from './registry.js';
import * as util from './util';
import './polyfill';
export function createRegistry(): ToolRegistry {
  return new ToolRegistry();
}
export class Service {
  private toolRegistry?: ToolRegistry;
  init(tool: Tool): void {
    this.toolRegistry = createRegistry();
    this.toolRegistry.register(tool);
    util.log('ready');
  }
  reset = () => {
    this.toolRegistry?.getTool?.('x');
    createRegistry();
  };
}
