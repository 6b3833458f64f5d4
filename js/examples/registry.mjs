// Registers loupe's tools in a small agent-style tool registry and runs one
// call, the way a TypeScript agent CLI would.
//   node examples/registry.mjs [workspaceRoot] [pattern] [language]
import { createTools } from '../dist/index.js';

class ToolRegistry {
  #tools = new Map();
  register(tool) {
    this.#tools.set(tool.name, tool);
  }
  declarations() {
    return [...this.#tools.values()].map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  }
  async run(name, params, signal) {
    const tool = this.#tools.get(name);
    if (!tool) throw new Error(`no tool ${name}`);
    return tool.execute(params, { signal });
  }
}

const registry = new ToolRegistry();
const { tools, reason } = await createTools({ workspaceRoot: process.argv[2] ?? process.cwd() });
if (reason) {
  // Graceful degradation: the agent runs on without these tools.
  console.error(`structural tools unavailable: ${reason}`);
} else {
  tools.forEach((t) => registry.register(t));
}
console.log('registered:', registry.declarations().map((d) => d.name).join(', ') || '(none)');
if (tools.length > 0) {
  const result = await registry.run('ast_grep', {
    pattern: process.argv[3] ?? 'console.log($$$ARGS)',
    language: process.argv[4] ?? 'typescript',
  });
  console.log(result.llmContent);
}
