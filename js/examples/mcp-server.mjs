// Serves loupe's two tools over MCP (stdio) with the official SDK.
//   node examples/mcp-server.mjs [workspaceRoot]
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createTools } from '../dist/index.js';

const { tools, reason } = await createTools({ workspaceRoot: process.argv[2] ?? process.cwd() });
if (reason) {
  console.error(reason);
  process.exit(1);
}
const server = new Server({ name: 'loupe', version: '0.1.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters })),
}));
server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
  const tool = tools.find((t) => t.name === req.params.name);
  if (!tool) {
    return { content: [{ type: 'text', text: `unknown tool ${req.params.name}` }], isError: true };
  }
  const r = await tool.execute(req.params.arguments ?? {}, { signal: extra.signal });
  return {
    content: [{ type: 'text', text: r.llmContent }],
    structuredContent: r.metadata,
    isError: 'error' in r.metadata,
  };
});
await server.connect(new StdioServerTransport());
