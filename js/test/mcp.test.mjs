// The loupe binary's MCP server (loupe mcp, Go) driven by the official
// TypeScript client: every tool listed and called, progress and logging,
// and an older client negotiating protocol 2024-11-05. make test builds
// bin/loupe before it runs these tests.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createTools } from '../dist/index.js';

const loupe = join(dirname(fileURLToPath(import.meta.url)), '../../bin/loupe');

let root;
/**
 * A workspace for every tool's call: each writing tool has a file of its
 * own, so the calls may come in any order (the server lists the tools by
 * name), and each test gets a fresh one.
 */
function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-mcp-'));
  writeFileSync(join(dir, 'a.ts'), 'x.foo(1);\n// x.foo(2)\n');
  writeFileSync(join(dir, 'bin.ts'), Buffer.from('x.foo(3);\x00\n'));
  writeFileSync(join(dir, 'calls.ts'), 'export function top() { mid(); }\nexport function mid() { leaf(); }\nexport function leaf() { return 1; }\n');
  for (const f of ['notes.txt', 'doomed.txt', 'edit.txt', 'replace.txt', 'update.txt']) writeFileSync(join(dir, f), 'one\ntwo\n');
  return dir;
}
before(() => {
  assert.ok(existsSync(loupe), `${loupe} is missing: run make build (make test does)`);
  root = workspace();
});

/**
 * A stdio transport that records the negotiated protocol version and the
 * messages received, and, given protocolVersion, asks for it in
 * initialize instead of the client's latest: an older client.
 */
class Transport extends StdioClientTransport {
  constructor(options, protocolVersion) {
    super(options);
    this.protocolVersion = protocolVersion;
    this.received = [];
  }

  send(message, options) {
    if (message.method === 'initialize' && this.protocolVersion) {
      message = { ...message, params: { ...message.params, protocolVersion: this.protocolVersion } };
    }
    return super.send(message, options);
  }

  setProtocolVersion(version) {
    this.negotiated = version;
  }
}

async function connect(protocolVersion, dir = root) {
  const client = new Client({ name: 'loupe-test', version: '1.0.0' });
  const transport = new Transport({ command: loupe, args: ['mcp', '--workspace', dir], stderr: 'pipe' }, protocolVersion);
  await client.connect(transport);
  // The client's own progress callbacks miss the notifications read in the
  // same chunk as the response (it handles notifications a tick later), so
  // the tests read the messages off the wire.
  const handle = transport.onmessage;
  transport.onmessage = (message, extra) => {
    transport.received.push(message);
    handle(message, extra);
  };
  return { client, transport };
}

/** A call of every tool, by name: a test fails when a tool has none. */
const calls = {
  ast_grep: { args: { pattern: '$O.foo($A)', language: 'typescript' }, text: /a\.ts:1:1 \[call_expression\] x\.foo\(1\)/ },
  structural_analysis: { args: { mode: 'callers', language: 'typescript', symbol: 'leaf', depth: 2 }, text: /← top\(\)  calls\.ts:1/ },
  outline: { args: {}, text: /^calls\.ts\n1: export function top\(\) \{ mid\(\); \}\n2: / },
  grep: { args: { pattern: 'foo\\(\\d\\)', file_type: 'ts' }, text: /a\.ts/ },
  glob: { args: { pattern: '*.ts' }, text: /calls\.ts/ },
  search: { args: { query: 'calls' }, text: /calls\.ts/ },
  list_directory: { args: {}, text: /notes\.txt/ },
  read_file: { args: { path: 'calls.ts', start_line: 2, end_line: 2 }, text: /export function mid\(\)/ },
  // The writes: an MCP client asks its user before it calls a tool not
  // annotated read-only, so the server writes what it is called to.
  create_file: { args: { path: 'created.txt', content: 'new\n' }, text: /created\.txt/ },
  update_file: { args: { path: 'update.txt', content: 'uno\ndos\n' }, text: /update\.txt/ },
  append_file: { args: { path: 'notes.txt', content: 'three' }, text: /3 lines/ },
  replace_in_file: { args: { path: 'replace.txt', find: 'two', replace: '2' }, text: /Replaced 1 occurrence/ },
  edit_lines: { args: { path: 'edit.txt', operation: 'delete', start_line: 1, end_line: 1 }, text: /1 line/ },
  delete_file: { args: { path: 'doomed.txt' }, text: /doomed\.txt/ },
};

test('the MCP server lists every tool of the registry, as the npm package does', async () => {
  const { client, transport } = await connect();
  try {
    assert.equal(transport.negotiated, '2025-11-25');
    assert.equal(client.getServerVersion().name, 'loupe');
    // The instructions say how the tools combine; each tool's own text comes with tools/list.
    assert.match(client.getInstructions(), /How the tools combine/);
    const { tools } = await client.listTools();
    const npm = await createTools({ workspaceRoot: root, workers: 0 });
    assert.equal(npm.reason, undefined);
    // One registry behind both faces: names, descriptions, schemas, prompt.
    assert.deepEqual(tools.map((t) => t.name).sort(), npm.tools.map((t) => t.name).sort());
    for (const t of tools) {
      const js = npm.tools.find((x) => x.name === t.name);
      assert.equal(t.description, js.description, t.name);
      assert.equal(t.title, js.title, t.name);
      assert.deepEqual(t.inputSchema, js.parameters, t.name);
      assert.equal(t.outputSchema.type, 'object', t.name);
      const readOnly = js.permissions.every((p) => p === 'ReadFiles');
      assert.equal(t.annotations.readOnlyHint, readOnly, t.name);
      // An append only adds; every other writing tool may change what exists.
      if (!readOnly) assert.equal(t.annotations.destructiveHint, t.name !== 'append_file', t.name);
    }
  } finally {
    await client.close();
  }
});

test('every tool is called, with progress, structured content and logged warnings', async () => {
  const { client, transport } = await connect();
  const logs = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
  try {
    await client.setLoggingLevel('warning');
    const { tools } = await client.listTools();
    for (const t of tools) {
      const c = calls[t.name];
      assert.ok(c, `no test call of ${t.name}`);
      transport.received = [];
      // The client validates structuredContent against the tool's
      // outputSchema; onprogress makes it send a progress token.
      const r = await client.callTool({ name: t.name, arguments: c.args }, undefined, { onprogress: () => {} });
      assert.equal(r.isError, undefined, `${t.name}: ${JSON.stringify(r.content)}`);
      assert.match(r.content[0].text, c.text);
      assert.ok(r.structuredContent, t.name);
      const progress = transport.received.filter((m) => m.method === 'notifications/progress').map((m) => m.params);
      // The pipeline's tools report each pass from 0; the others (the
      // file tools) say only that they are done.
      const passes = t.name === 'ast_grep' || t.name === 'structural_analysis' || t.name === 'outline';
      assert.ok(progress.length >= (passes ? 2 : 1), `${t.name}: progress ${JSON.stringify(progress)}`);
      if (passes) assert.equal(progress[0].progress, 0, t.name);
      assert.equal(progress.at(-1).progress, progress.at(-1).total, t.name);
      assert.ok(progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress), t.name);
    }
    // The writes happened, atomically, each to its own file.
    const read = (f) => readFileSync(join(root, f), 'utf8');
    assert.equal(read('created.txt'), 'new\n');
    assert.equal(read('update.txt'), 'uno\ndos\n');
    assert.equal(read('notes.txt'), 'one\ntwo\nthree\n');
    assert.equal(read('replace.txt'), 'one\n2\n');
    assert.equal(read('edit.txt'), 'two\n');
    assert.equal(existsSync(join(root, 'doomed.txt')), false);
    const bad = await client.callTool({ name: 'ast_grep', arguments: { patern: 'x' } });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /unknown field "patern"/);
    // Warnings at the level set, from the calls that skipped a file.
    assert.deepEqual(logs.map((l) => `${l.level} ${l.data}`), [
      'warning ast_grep skipped bin.ts (binary)',
      'warning grep: 1 binary file skipped (bin.ts)',
      'warning outline skipped bin.ts (binary)',
      'warning structural_analysis skipped 1 file (binary, too large or unreadable)',
    ]);
  } finally {
    await client.close();
  }
});

test('an older client negotiates protocol 2024-11-05 and calls every tool', async () => {
  const { client, transport } = await connect('2024-11-05', workspace());
  try {
    assert.equal(transport.negotiated, '2024-11-05');
    const { tools } = await client.listTools();
    assert.ok(tools.length >= 2);
    for (const t of tools) {
      const r = await client.callTool({ name: t.name, arguments: calls[t.name].args });
      assert.equal(r.isError, undefined, t.name);
      assert.match(r.content[0].text, calls[t.name].text);
    }
  } finally {
    await client.close();
  }
});
