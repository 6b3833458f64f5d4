// The package's types as a TypeScript user gets them from the built
// package: under a bundler's resolution with the browser condition, "."
// is the browser entry with its types (createTools takes files and
// baseUrl); without it, "." is the Node entry with its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(pkgDir, 'node_modules', 'typescript', 'bin', 'tsc');

const browserApp = `import { createTools, type LoupeTool } from '@loupe-dev/loupe';
import { createTools as fromSubpath } from '@loupe-dev/loupe/browser';

const files = { 'src/a.ts': 'export const a = foo(1);\\n' };
const { tools, reason } = await createTools({ files, baseUrl: new URL('/loupe/', location.href) });
const same: typeof fromSubpath = createTools;
const ast: LoupeTool | undefined = tools.find((t) => t.name === 'ast_grep');
document.body.textContent = reason ?? String(ast && (await ast.execute({ pattern: 'foo($A)', language: 'typescript' })).llmContent);
void same;
`;

const nodeApp = `import { createTools } from '@loupe-dev/loupe';
const { tools } = await createTools({ workspaceRoot: process.cwd(), workers: 2 });
console.log(tools.length);
`;

/** Type-checks app in a project that depends on this package (its dist/), with the given compiler options; returns tsc's output. */
function typecheck(t, app, options) {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-types-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'node_modules', '@loupe-dev'), { recursive: true });
  symlinkSync(pkgDir, join(dir, 'node_modules', '@loupe-dev', 'loupe'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{"name":"app","private":true,"type":"module"}');
  writeFileSync(join(dir, 'app.ts'), app);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'ESNext', strict: true, noEmit: true, skipLibCheck: false, ...options },
    files: ['app.ts'],
  }));
  try {
    execFileSync(process.execPath, [tsc, '-p', dir], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (err) {
    return String(err.stdout || err.message);
  }
}

test('a browser program type-checks under --moduleResolution bundler with the browser condition', (t) => {
  const out = typecheck(t, browserApp, { moduleResolution: 'bundler', customConditions: ['browser'], lib: ['ES2022', 'DOM'], types: [] });
  assert.equal(out, '');
});

test('without the browser condition, "." keeps the Node entry and its types', (t) => {
  assert.equal(typecheck(t, nodeApp, { moduleResolution: 'bundler', lib: ['ES2022', 'DOM'], types: ['node'], typeRoots: [join(pkgDir, 'node_modules', '@types')] }), '');
  // The browser program is not a Node program: workspaceRoot is required there, and baseUrl unknown.
  assert.match(typecheck(t, browserApp, { moduleResolution: 'bundler', lib: ['ES2022', 'DOM'], types: ['node'], typeRoots: [join(pkgDir, 'node_modules', '@types')] }), /'baseUrl' does not exist/);
});

// Every tool called with its generated parameter type and its structured
// result read with its generated result type, without a cast: a program
// that misspells a parameter or gives it the wrong type does not compile.
const typedApp = `import { createTools, type AnyLoupeTool, type GrepResult, type ToolTypes } from '@loupe-dev/loupe';
const { tools } = await createTools({ workspaceRoot: process.cwd(), approve: async () => true });
const seen: string[] = [];
for (const t of tools) {
  switch (t.name) {
    case 'ast_grep': { const r = await t.execute({ pattern: 'f($A)', language: 'go', maxResults: 5 }); const n: number | undefined = r.structured?.totalMatches; seen.push(String(n)); break; }
    case 'structural_analysis': { const r = await t.execute({ mode: 'callers', language: 'go', symbol: 'f', depth: 2 }); seen.push(...(r.structured?.items ?? []).map((i) => i.kind)); break; }
    case 'grep': { const r = await t.execute({ pattern: 'TODO', context_lines: 0 }); const g: GrepResult | undefined = r.structured; seen.push(String(g?.total_matches)); break; }
    case 'glob': { const r = await t.execute({ pattern: '**/*.go' }); seen.push(...(r.structured?.files ?? [])); break; }
    case 'search': { const r = await t.execute({ query: 'main' }); seen.push(String(r.structured?.total_matches)); break; }
    case 'list_directory': { const r = await t.execute({ path: '.', recursive: true }); seen.push(String(r.structured?.total_entries)); break; }
    case 'read_file': { const r = await t.execute({ path: 'a.go', start_line: 1 }); seen.push(r.structured?.content ?? ''); break; }
    case 'create_file': { const r = await t.execute({ path: 'b.go', content: 'package b\\n' }); seen.push(String(r.structured?.created)); break; }
    case 'update_file': { await t.execute({ path: 'b.go', content: 'package c\\n' }); break; }
    case 'append_file': { await t.execute({ path: 'b.go', content: '// end\\n' }); break; }
    case 'replace_in_file': { await t.execute({ path: 'b.go', find: 'c', replace: 'd', preview_only: true }); break; }
    case 'edit_lines': { await t.execute({ path: 'b.go', operation: 'delete', start_line: 1 }); break; }
    case 'delete_file': { await t.execute({ path: 'b.go' }); break; }
  }
}
const first: AnyLoupeTool | undefined = tools.find((t) => t.name === 'ast_grep');
type Names = keyof ToolTypes;
const names: Names[] = tools.map((t) => t.name);
console.log(seen.length, first?.name, names.length);
`;

test('a program calls every tool with its generated types, without a cast', (t) => {
  const options = { moduleResolution: 'bundler', lib: ['ES2022', 'DOM'], types: ['node'], typeRoots: [join(pkgDir, 'node_modules', '@types')] };
  assert.equal(typecheck(t, typedApp, options), '');
  // The types are not decoration: a wrong type or a misspelt parameter fails.
  const wrong = typedApp.replace("{ pattern: 'TODO', context_lines: 0 }", "{ pattern: 1, context_line: 0 }");
  assert.match(typecheck(t, wrong, options), /error TS2322|error TS2353|error TS2561/);
});
