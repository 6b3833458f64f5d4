// The context budget: what an MCP client loads before its first call
// (the server's instructions and every tool's name, title, description,
// input and output schemas and annotations, as tools/list sends them),
// counted in tokens with the o200k_base tokenizer (gpt-tokenizer), for
// `loupe mcp` serving every tool, the project index's ten included.
//
//   node js/bench/budget.mjs [path/to/loupe]    prints the count per tool
//
// js/test/budget.test.mjs holds the budget to its limits.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The budget loupe holds itself to, in o200k tokens. */
export const limits = { total: 8000, perTool: 1200 };

/** Counts the tokens of one string. */
export const tokens = (s) => encode(s).length;

/**
 * Measures what a client loads before its first call from the loupe
 * binary at bin: { instructions, tools: [{ name, total, description,
 * input, output }], total }, each in tokens; a tool's total is its whole
 * tools/list entry as JSON.
 */
export async function measure(bin = join(repo, 'bin/loupe')) {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-budget-'));
  try {
    cpSync(join(repo, 'testdata/demo'), dir, { recursive: true });
    execFileSync(bin, ['index', dir], { stdio: 'ignore' });
    const client = new Client({ name: 'budget', version: '1' });
    await client.connect(new StdioClientTransport({ command: bin, args: ['mcp', '--workspace', dir] }));
    try {
      const instructions = tokens(client.getInstructions() ?? '');
      const { tools: listed } = await client.listTools();
      const tools = listed.map((t) => ({
        name: t.name,
        total: tokens(JSON.stringify(t)),
        description: tokens(t.description ?? ''),
        input: tokens(JSON.stringify(t.inputSchema)),
        output: tokens(JSON.stringify(t.outputSchema ?? {})),
      }));
      return { instructions, tools, total: instructions + tools.reduce((n, t) => n + t.total, 0) };
    } finally {
      await client.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const m = await measure(process.argv[2]);
  console.log(`context before the first call (o200k tokens; limits: ${limits.total} in all, ${limits.perTool} per tool)`);
  console.log(`${'tool'.padEnd(22)} ${'total'.padStart(6)} ${'descr'.padStart(6)} ${'input'.padStart(6)} ${'output'.padStart(6)}`);
  for (const t of m.tools) {
    console.log(`${t.name.padEnd(22)} ${String(t.total).padStart(6)} ${String(t.description).padStart(6)} ${String(t.input).padStart(6)} ${String(t.output).padStart(6)}`);
  }
  console.log(`${'instructions'.padEnd(22)} ${String(m.instructions).padStart(6)}`);
  console.log(`${'all'.padEnd(22)} ${String(m.total).padStart(6)}`);
}
