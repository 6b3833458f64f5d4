// The repositories and scenarios of the project-index tests
// (js/test/index-npm.test.mjs in Node, js/test/browser.test.mjs in
// Chromium): a pnpm workspace and a Go module from the registries, pinned
// and fetched into the cache at test time, the calls of every scenario of
// seed 004 on each, and the MCP server's answers to compare with.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');
/** The CLI the MCP answers come from (make build). */
export const loupe = join(repo, 'bin/loupe');
const cache = process.env.LOUPE_CACHE || join(repo, '.cache');

/** An npm package's unpacked tarball, fetched into the cache (as tests/difftest's NpmPackage). */
function npmPackage(name, version) {
  const dest = join(cache, 'corpora', `${name}-${version}`);
  const pkg = join(dest, 'package');
  if (existsSync(pkg)) return pkg;
  mkdirSync(dirname(dest), { recursive: true });
  const tmp = mkdtempSync(join(dirname(dest), '.fetch-'));
  try {
    const tgz = execFileSync('npm', ['pack', '--silent', `${name}@${version}`, '--pack-destination', tmp], { encoding: 'utf8' }).trim();
    mkdirSync(join(tmp, 'x'));
    execFileSync('tar', ['xzf', join(tmp, tgz), '-C', join(tmp, 'x')]);
    renameSync(join(tmp, 'x'), dest);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return pkg;
}

/** A Go module's folder in the module cache (go mod download). */
function goModule(path, version) {
  return JSON.parse(execFileSync('go', ['mod', 'download', '-json', `${path}@${version}`], { encoding: 'utf8' })).Dir;
}

/** Copies src to a new temporary folder, writable (the module cache's files are not). */
export function copy(src, prefix) {
  const root = join(mkdtempSync(join(tmpdir(), prefix)), 'repo');
  cpSync(src, root, { recursive: true });
  const writable = (p) => {
    chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
    if (statSync(p).isDirectory()) for (const e of readdirSync(p)) writable(join(p, e));
  };
  writable(root);
  return root;
}

/**
 * The two repositories, each copied to a new temporary folder: pnpm, the
 * workspace @icebreakers/monorepo-templates 2.0.1 scaffolds (its assets
 * as the root, its templates as the workspace's packages), and go, the
 * module golang.org/x/mod v0.42.0.
 */
export function repositories() {
  const templates = npmPackage('@icebreakers/monorepo-templates', '2.0.1');
  const pnpm = copy(join(templates, 'assets'), 'loupe-pnpm-');
  cpSync(join(templates, 'templates'), join(pnpm, 'templates'), { recursive: true });
  return { pnpm, go: copy(goModule('golang.org/x/mod', 'v0.42.0'), 'loupe-gomod-') };
}

/** The text files under root, as slash-separated path → content (what a browser is given). */
export function textFiles(root) {
  const files = {};
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const bytes = readFileSync(p);
        const text = bytes.toString('utf8');
        if (Buffer.from(text, 'utf8').equals(bytes)) files[relative(root, p).split(sep).join('/')] = text;
      }
    }
  };
  walk(root);
  return files;
}

/** The scenarios of seed 004 on one repository: [tool, arguments], with the names it holds. */
function scenarios(pkg, dependency, symbol, pkgWord, symWord) {
  return [
    ['search_packages', { query: pkgWord }],
    ['search_packages', { query: '' }],
    ['search_packages', { query: '   ' }],
    ['search_packages', { query: '"web" OR NEAR(a b) c++ -x* ( name:core ^start' }],
    ['get_package', { name: pkg }],
    ['get_package', { name: 'left-pad' }],
    ['package_dependencies', { name: pkg, internal_only: false }],
    ['package_dependencies', { name: pkg, internal_only: true }],
    ['package_dependents', { name: dependency }],
    ['dependency_graph', { name: pkg, depth: 2 }],
    ['dependency_graph', { name: pkg, depth: 1000 }],
    ['list_packages', {}],
    ['list_packages', { kind: 'npm' }],
    ['list_packages', { kind: 'go' }],
    ['index_status', {}],
    ['search_symbols', { query: symWord }],
    ['search_symbols', { query: '' }],
    ['search_symbols', { query: symWord, package: pkg }],
    ['search_symbols', { query: symWord, kind: 'function' }],
    ['search_symbols', { query: '"(' }],
    ['get_package_symbols', { package: pkg }],
    ['get_package_symbols', { package: pkg, kind: 'function' }],
    ['get_symbol', { name: symbol }],
    ['get_symbol', { name: symbol, package: pkg }],
    ['get_symbol', { name: 'noSuchSymbolAnywhere' }],
  ];
}

/** Each repository's scenarios. */
export const cases = {
  pnpm: () => scenarios('usage-esm', 'icebreaker-npm-basic-package', 'sayHello', 'basic', 'sayHello'),
  go: () => scenarios('golang.org/x/mod', 'golang.org/x/tools', 'Parse', 'mod', 'version'),
};

/** Every scenario's answer through the MCP server over db: {text, structured} or {error}. */
export async function mcpAnswers(root, db, calls) {
  const client = new Client({ name: 'index-npm-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: loupe, args: ['mcp', '-w', root, '--index', db], stderr: 'pipe' }));
  try {
    const out = [];
    for (const [name, args] of calls) {
      const r = await client.callTool({ name, arguments: args });
      out.push(r.isError ? { error: r.content[0].text } : { text: r.content[0].text, structured: r.structuredContent });
    }
    return out;
  } finally {
    await client.close();
  }
}

/** Asserts two faces' answers are the same, scenario by scenario. */
export function same(calls, got, want, ignoreIndexedAt = false) {
  for (let i = 0; i < calls.length; i++) {
    let [g, w] = [got[i], want[i]];
    if (ignoreIndexedAt && calls[i][0] === 'index_status') {
      const drop = (a) => ({ ...a, text: a.text.replace(/"indexed_at":"[^"]*"/, ''), structured: { ...a.structured, indexed_at: undefined } });
      [g, w] = [drop(g), drop(w)];
    }
    assert.deepEqual(g, w, `${calls[i][0]} ${JSON.stringify(calls[i][1])}`);
  }
}

