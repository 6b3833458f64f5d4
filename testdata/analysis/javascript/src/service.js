import { ToolRegistry } from './registry.js';
import * as util from './util/index.mjs';
import './polyfill.js';

export function createRegistry() {
  return new ToolRegistry();
}

export class Service {
  init(tool) {
    this.toolRegistry = createRegistry();
    this.toolRegistry.register(tool);
    util.log('ready');
  }
  reset = () => {
    this.toolRegistry?.register?.('x');
    createRegistry();
  };
}
