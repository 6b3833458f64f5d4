// Every tool's schemas as model providers and strict validators take
// them: ajv in strict mode compiles each input schema and each output
// schema `loupe mcp` lists (make test builds bin/loupe first), and the
// `ai` package's OpenAI, Anthropic and Google providers send each input
// schema to their APIs unchanged (their requests are captured by a fetch
// that answers nothing, so the test needs no network). The npm package's
// tools are the registry's, as the MCP server's are (mcp.test.mjs).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { generateText, jsonSchema, tool } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createTools } from '../dist/index.js';

const loupe = join(dirname(fileURLToPath(import.meta.url)), '../../bin/loupe');

let tools, listed;
before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-schemas-'));
  writeFileSync(join(dir, 'a.ts'), 'console.log(1);\n');
  ({ tools } = await createTools({ workspaceRoot: dir, workers: 0 }));
  assert.ok(tools.length > 0);
  const client = new Client({ name: 'schemas', version: '1' });
  await client.connect(new StdioClientTransport({ command: loupe, args: ['mcp', '--workspace', dir] }));
  try {
    ({ tools: listed } = await client.listTools());
  } finally {
    await client.close();
  }
});

test('ajv in strict mode compiles every input and output schema', () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  for (const t of tools) assert.doesNotThrow(() => ajv.compile(t.parameters), `${t.name} input`);
  assert.equal(listed.length, tools.length);
  for (const t of listed) assert.doesNotThrow(() => ajv.compile(t.outputSchema), `${t.name} output`);
  // The validator refuses what the tools refuse by their schema: a
  // parameter of the wrong type, an unknown or misspelt one.
  const astGrep = ajv.compile(tools.find((t) => t.name === 'ast_grep').parameters);
  assert.equal(astGrep({ pattern: 'f($A)', language: 'go' }), true);
  assert.equal(astGrep({ rule: { kind: 'call_expression' }, language: 'go' }), true);
  assert.equal(astGrep({ rule: 'kind: call_expression', language: 'go' }), true);
  assert.equal(astGrep({ pattern: 1 }), false);
  assert.equal(astGrep({ Pattern: 'f($A)' }), false);
});

// Each provider's request, captured, and where its tools are in it.
const providers = [
  ['openai', (fetch) => createOpenAI({ apiKey: 'offline', fetch })('gpt-4o'), (body) => body.tools.map((t) => [t.name, t.parameters])],
  ['anthropic', (fetch) => createAnthropic({ apiKey: 'offline', fetch })('claude-sonnet-4-5'), (body) => body.tools.map((t) => [t.name, t.input_schema])],
  ['google', (fetch) => createGoogleGenerativeAI({ apiKey: 'offline', fetch })('gemini-2.5-pro'), (body) => body.tools[0].functionDeclarations.map((t) => [t.name, t.parametersJsonSchema ?? t.parameters])],
];

for (const [name, model, toolsOf] of providers) {
  test(`the ${name} provider sends every schema unchanged`, async () => {
    let body;
    const fetch = async (_url, init) => {
      body = JSON.parse(init.body);
      throw new Error('offline');
    };
    const sdkTools = Object.fromEntries(tools.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.parameters) })]));
    await assert.rejects(generateText({ model: model(fetch), tools: sdkTools, prompt: 'find the console.log calls', maxRetries: 0 }));
    assert.ok(body, 'no request was made');
    const sent = new Map(toolsOf(body));
    assert.deepEqual([...sent.keys()].sort(), tools.map((t) => t.name).sort());
    for (const t of tools) assert.deepEqual(sent.get(t.name), t.parameters, `${name}: ${t.name}`);
  });
}

test('a call naming neither pattern nor rule is refused in their names', async () => {
  const astGrep = tools.find((t) => t.name === 'ast_grep');
  for (const params of [{}, { language: 'typescript' }]) {
    const r = await astGrep.execute(params);
    assert.match(r.llmContent, /exactly one of pattern or rule/, JSON.stringify(params));
  }
});
