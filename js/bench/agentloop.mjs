// The offline agent loop: a scripted client answers a fixed set of
// navigation questions about a pinned corpus (zod 4.6.7's src, 332 files)
// through `loupe mcp`, following only what the tools say (a capped answer's
// "N more of M: call again with offset=K"), and counts the o200k tokens of
// every answer it reads. Each answer is checked against the corpus itself.
//
//   node js/bench/agentloop.mjs [path/to/loupe]    prints the tokens per question
//
// js/test/agentloop.test.mjs holds the answers to being right.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The pinned corpus: an npm package and the folder of it searched. */
export const corpus = { name: 'zod', version: '4.6.7', dir: 'src' };

/**
 * Returns the corpus folder, fetched with `npm pack` into .cache/corpora on
 * first use (where the Go tests fetch it too).
 */
export function corpusDir() {
  const dest = join(process.env.LOUPE_CACHE ?? join(repo, '.cache'), 'corpora', `${corpus.name}-${corpus.version}`);
  const pkg = join(dest, 'package');
  if (!existsSync(pkg)) {
    const tmp = mkdtempSync(join(tmpdir(), 'loupe-corpus-'));
    try {
      const tgz = execFileSync('npm', ['pack', '--silent', `${corpus.name}@${corpus.version}`, '--pack-destination', tmp]).toString().trim();
      mkdirSync(dest, { recursive: true });
      execFileSync('tar', ['-xzf', join(tmp, tgz), '-C', dest]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return join(pkg, corpus.dir);
}

/** Every file below dir, as paths relative to it with forward slashes. */
function walk(dir, base = dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p, base));
    else out.push(relative(base, p).split('\\').join('/'));
  }
  return out.sort();
}

const more = /(\d+) more of (\d+): call again with offset=(\d+)/;

/**
 * The questions. Each asks through `ask` (one call, its text) and `askAll`
 * (a call followed to its last page by the offsets its text gives), and
 * returns { answer, expected }: what it found, and what the corpus (read
 * directly, at root) says.
 */
export const questions = [
  {
    q: 'Where is the class ZodError defined?',
    async run({ ask }) {
      const text = await ask('structural_analysis', { mode: 'definitions', language: 'typescript', symbol: 'ZodError' });
      const m = text.match(/class ZodError\s+(\S+:\d+)/);
      return { answer: m?.[1], expected: 'v3/ZodError.ts:194' };
    },
  },
  {
    q: 'Where are the functions named datetime defined?',
    async run({ ask, files, read }) {
      const text = await ask('structural_analysis', { mode: 'definitions', language: 'typescript', symbol: 'datetime' });
      const answer = [...text.matchAll(/function datetime\s+(\S+):\d+/g)].map((m) => m[1]).sort();
      const expected = files.filter((f) => f.endsWith('.ts') && /^export function datetime\(/m.test(read(f)));
      return { answer, expected };
    },
  },
  {
    q: 'Which files call flattenError?',
    async run({ ask, files, read }) {
      const text = await ask('structural_analysis', { mode: 'callers', language: 'typescript', symbol: 'flattenError' });
      const answer = [...new Set([...text.matchAll(/← \S+\s+(\S+):\d+/g)].map((m) => m[1]))].sort();
      const expected = files.filter((f) => read(f).split('\n').some((l) => /\bflattenError\(/.test(l) && !/^\s*(export )?function /.test(l)));
      return { answer, expected };
    },
  },
  {
    q: 'Where is prettifyError defined? (project index)',
    async run({ ask, files, read }) {
      const text = await ask('get_symbol', { name: 'prettifyError' });
      const answer = JSON.parse(text.split('\n')[0]).map((s) => `${s.file_path}:${s.line}`).sort();
      const expected = files.flatMap((f) => read(f).split('\n').flatMap((l, i) => (/^export function prettifyError\(/.test(l) ? [`${f}:${i + 1}`] : [])));
      return { answer, expected };
    },
  },
  {
    q: 'Which test files are there under v4/classic/tests?',
    async run({ askAll, files }) {
      const pages = await askAll('glob', { pattern: 'v4/classic/tests/**/*.test.ts' });
      const answer = pages.flatMap((t) => t.split('\n').filter((l) => l.endsWith('.test.ts'))).sort();
      const expected = files.filter((f) => f.startsWith('v4/classic/tests/') && f.endsWith('.test.ts'));
      return { answer, expected };
    },
  },
  {
    q: 'Which files call safeParse? (grep, paged to the end)',
    async run({ askAll, files, read }) {
      const pages = await askAll('grep', { pattern: 'safeParse\\(', context_lines: 0 });
      const answer = [...new Set(pages.flatMap((t) => t.split('\n').filter((l) => /^\S+\.ts$/.test(l))))].sort();
      const expected = files.filter((f) => /safeParse\(/.test(read(f)));
      return { answer, expected };
    },
  },
  {
    q: 'Where is the file to-json-schema.ts?',
    async run({ ask, files }) {
      const text = await ask('search', { query: 'to-json-schema.ts' });
      const answer = text.split('\n').find((l) => l.includes('(exact)'))?.split('  ')[0];
      return { answer, expected: files.find((f) => f.endsWith('/to-json-schema.ts')) };
    },
  },
  {
    q: 'Which functions does v4/core/errors.ts export?',
    async run({ ask, read }) {
      const text = await ask('structural_analysis', { mode: 'exports', language: 'typescript', target: 'v4/core/errors.ts' });
      const answer = [...new Set([...text.matchAll(/^\s+function (\w+)/gm)].map((m) => m[1]))].sort();
      const expected = [...new Set([...read('v4/core/errors.ts').matchAll(/^export function (\w+)/gm)].map((m) => m[1]))].sort();
      return { answer, expected };
    },
  },
  {
    q: 'Which files import v4/core/errors.ts?',
    async run({ ask, files, read }) {
      const text = await ask('structural_analysis', { mode: 'dependencies', language: 'typescript', target: 'v4/core/errors.ts', reverse: true });
      const answer = [...new Set([...text.split('Imported by')[1].matchAll(/← (\S+):\d+/g)].map((m) => m[1]))].sort();
      const expected = files.filter((f) => {
        const dir = f.split('/').slice(0, -1).join('/');
        return [...read(f).matchAll(/from\s+["'](\.[^"']*)["']/g)].some((m) => {
          const target = join(dir, m[1]).split('\\').join('/').replace(/\.js$/, '.ts');
          return target === 'v4/core/errors.ts';
        });
      });
      return { answer, expected };
    },
  },
  {
    q: 'How many .optional() calls are in v4/classic? (ast_grep, paged to the end)',
    async run({ askAll }) {
      const pages = await askAll('ast_grep', { pattern: '$A.optional()', language: 'typescript', path: 'v4/classic' });
      const listed = pages.flatMap((t) => t.split('\n').filter((l) => /^\S+:\d+:\d+ \[call_expression\]/.test(l)));
      const total = Number(pages[0].match(/^(\d+) matches/m)?.[1]);
      return { answer: [listed.length, new Set(listed).size], expected: [total, total] };
    },
  },
  {
    q: 'What is in the v4/core directory?',
    async run({ askAll, root }) {
      const pages = await askAll('list_directory', { path: 'v4/core' });
      const answer = pages.flatMap((t) => t.split('\n').filter((l) => /^\S+(\/|  \(.*\))$/.test(l)).map((l) => l.split('  ')[0])).sort();
      const expected = readdirSync(join(root, 'v4/core')).map((n) => (statSync(join(root, 'v4/core', n)).isDirectory() ? `${n}/` : n)).sort();
      return { answer, expected };
    },
  },
];

/** Counts the tokens of one string. */
export const tokens = (s) => encode(s).length;

/**
 * Runs every question against the loupe binary at bin: [{ q, calls,
 * tokens, answer, expected, ok }].
 */
export async function run(bin = join(repo, 'bin/loupe')) {
  const src = corpusDir();
  const root = mkdtempSync(join(tmpdir(), 'loupe-agentloop-'));
  try {
    cpSync(src, root, { recursive: true });
    execFileSync(bin, ['index', root], { stdio: 'ignore' });
    const files = walk(root).filter((f) => !f.startsWith('.loupe/'));
    const read = (f) => readFileSync(join(root, f), 'utf8');
    const client = new Client({ name: 'agentloop', version: '1' });
    await client.connect(new StdioClientTransport({ command: bin, args: ['mcp', '--workspace', root] }));
    try {
      const results = [];
      for (const { q, run: answer } of questions) {
        let calls = 0;
        let read_ = 0;
        const ask = async (name, args) => {
          const r = await client.callTool({ name, arguments: args });
          const text = r.content.map((c) => c.text ?? '').join('');
          if (r.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${text}`);
          calls++;
          read_ += tokens(text);
          return text;
        };
        // Follows a capped answer to its last page, as its text says.
        const askAll = async (name, args) => {
          const pages = [await ask(name, args)];
          for (let m = pages[0].match(more); m; m = pages.at(-1).match(more)) {
            pages.push(await ask(name, { ...args, offset: Number(m[3]) }));
          }
          return pages;
        };
        const { answer: got, expected } = await answer({ ask, askAll, files, read, root });
        results.push({ q, calls, tokens: read_, answer: got, expected, ok: JSON.stringify(got) === JSON.stringify(expected) });
      }
      return results;
    } finally {
      await client.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = await run(process.argv[2]);
  console.log(`agent loop on ${corpus.name}@${corpus.version}/${corpus.dir} (o200k tokens read per answer)`);
  console.log(`${'question'.padEnd(72)} ${'calls'.padStart(5)} ${'tokens'.padStart(7)}  right`);
  for (const r of results) {
    console.log(`${r.q.padEnd(72)} ${String(r.calls).padStart(5)} ${String(r.tokens).padStart(7)}  ${r.ok ? 'yes' : 'NO'}`);
  }
  const sum = (k) => results.reduce((n, r) => n + r[k], 0);
  console.log(`${'all'.padEnd(72)} ${String(sum('calls')).padStart(5)} ${String(sum('tokens')).padStart(7)}  ${results.filter((r) => r.ok).length}/${results.length}`);
  for (const r of results.filter((r) => !r.ok)) {
    console.log(`wrong: ${r.q}\n  answer:   ${JSON.stringify(r.answer)}\n  expected: ${JSON.stringify(r.expected)}`);
  }
}
