// The examples run for real: the registry one as a script, the MCP one
// driven by the official SDK's client over stdio.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'loupe-ex-'));
writeFileSync(join(root, 'a.ts'), 'console.log("hi", 1);\nfoo();\n');

test('registry example registers both tools and runs a query', () => {
  const out = execFileSync(process.execPath, [join(here, '../examples/registry.mjs'), root], { encoding: 'utf8' });
  assert.match(out, /registered: ast_grep/);
  assert.match(out, /a\.ts:1:1 \[call_expression\] console\.log\("hi", 1\)/);
});

test('MCP example serves the tools to the SDK client', async () => {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(here, '../examples/mcp-server.mjs'), root] }));
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'ast_grep' && t.inputSchema.properties.pattern));
    const r = await client.callTool({ name: 'ast_grep', arguments: { pattern: 'console.log($$$A)', language: 'typescript' } });
    assert.equal(r.isError, false);
    assert.equal(r.structuredContent.totalMatches, 1);
    const bad = await client.callTool({ name: 'ast_grep', arguments: { language: 'typescript' } });
    assert.equal(bad.isError, true);
  } finally {
    await client.close();
  }
});
