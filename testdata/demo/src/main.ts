import { ToolRegistry } from './registry.js';
import { ReadFileTool, GrepTool } from './tool.js';
import { log } from './log.js';

export async function createToolRegistry(): Promise<ToolRegistry> {
  const registry = new ToolRegistry();
  registry.registerTool(new ReadFileTool());
  registry.registerTool(new GrepTool());
  return registry;
}

export async function main(): Promise<void> {
  const registry = await createToolRegistry();
  const result = await registry.run('grep', { pattern: 'TODO' });
  log.info(result.llmContent);
  console.log('done');
}
