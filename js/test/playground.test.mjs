// The browser playground (js/playground) end to end in Debian's Chromium,
// driven by playwright-core: built into a temporary folder, served over
// HTTP, used as a person would (typing into the editors, clicking). Each
// step leaves a screenshot in test/screenshots/ (not in git) to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPlayground } from '../playground/build.mjs';
import { servePlayground } from '../playground/serve.mjs';
import { launchChromium, noChromium as skip } from '../scripts/chromium.mjs';

const shots = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

let out;
let server;
let base;
let chromium;
before(async () => {
  if (skip) return;
  out = await buildPlayground(mkdtempSync(join(tmpdir(), 'loupe-playground-')));
  server = await servePlayground(out);
  base = `http://127.0.0.1:${server.address().port}/`;
  mkdirSync(shots, { recursive: true });
  chromium = await launchChromium();
});
after(async () => {
  await chromium?.close();
  server?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

/** A new page of the playground at url; page errors are collected in errors. */
async function open(url = base) {
  const page = await chromium.context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(url);
  return page;
}

/** Replaces the text of the CodeMirror editor in #id by typing. */
async function type(page, id, text) {
  await page.click(`#${id} .cm-content`);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** The texts of the source's highlighted matches. */
const highlighted = (page) => page.$$eval('#source .cm-match', (els) => {
  // A match split by metavariable marks is several spans: join adjacent ones.
  const texts = [];
  let last = null;
  for (const e of els) {
    const joined = last && last.nextSibling === e;
    if (joined) texts[texts.length - 1] += e.textContent;
    else texts.push(e.textContent);
    last = e;
  }
  return texts;
});

/** The metavariables listed under each match: [[name, text], ...] per match. */
const listed = (page) => page.$$eval('#matches li', (items) => items.map((li) => ({
  text: li.querySelector('.text').textContent,
  mvs: [...li.querySelectorAll('.mvs tr')].map((tr) => [tr.querySelector('th').textContent, tr.querySelector('td').textContent]),
})));

test('type a pattern: the match is highlighted and its metavariables listed', { timeout: 120000, skip }, async () => {
  const page = await open();
  // From navigation to the default query's first highlighted match (reported, not asserted).
  await page.waitForSelector('#source .cm-match', { timeout: 60000 });
  const firstMatch = await page.evaluate(() => performance.now());
  console.log(`playground: first match visible ${firstMatch.toFixed(0)} ms after navigation`);
  await type(page, 'pattern', 'console.log($MSG)');
  await page.waitForFunction(() => document.querySelector('#matches li .mvs th')?.textContent === '$MSG');
  assert.deepEqual(await listed(page), [{ text: 'console.log(item)', mvs: [['$MSG', 'item']] }]);
  assert.deepEqual(await highlighted(page), ['console.log(item)']);
  assert.equal(await page.textContent('#source .cm-mv'), 'item');
  await page.screenshot({ path: join(shots, 'pattern.png') });

  // Strictness and selector reach Go: the pattern as a context, the selector picking its call.
  await type(page, 'pattern', 'console.log($$$ARGS)');
  await page.waitForFunction(() => document.querySelectorAll('#matches li').length === 2);
  assert.deepEqual((await listed(page)).map((m) => m.mvs), [[['$$$ARGS', "'running', items.length"]], [['$$$ARGS', 'item']]]);

  // A rewrite shows as a diff.
  await type(page, 'rewrite', 'logger.debug($$$ARGS)');
  await page.click('[data-tab=diff]');
  await page.waitForSelector('#diff .add');
  assert.deepEqual(await page.$$eval('#diff .add .line', (els) => els.map((e) => e.textContent)),
    ["+     logger.debug('running', items.length);", '+     logger.debug(item);']);
  await page.screenshot({ path: join(shots, 'diff.png') });

  // The trees, as loupe parse and --debug-query=pattern print them.
  await page.click('[data-tab=tree]');
  await page.waitForFunction(() => document.querySelector('#pattern-tree').textContent.includes('MetaVar $$$ARGS'));
  assert.match(await page.textContent('#source-tree'), /^program \(0,0\)-\(15,0\)\n {2}import_statement \(0,0\)-\(0,34\)\n/);
  assert.match(await page.textContent('#pattern-tree'), /^call_expression\n {2}member_expression\n/);
  await page.selectOption('#tree-format', 'sexp');
  await page.waitForFunction(() => document.querySelector('#source-tree').textContent.startsWith('(program'));
  await page.screenshot({ path: join(shots, 'tree.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('switch language', { timeout: 120000, skip }, async () => {
  const page = await open();
  await page.waitForSelector('#source .cm-match', { timeout: 60000 });
  await page.selectOption('#language', 'python');
  await type(page, 'source', 'def greet(name):\n    print("hello", name)\n    return len(name)\n');
  await type(page, 'pattern', 'print($$$A)');
  await page.waitForFunction(() => document.querySelector('#matches li .text')?.textContent === 'print("hello", name)');
  assert.deepEqual(await listed(page), [{ text: 'print("hello", name)', mvs: [['$$$A', '"hello", name']] }]);
  assert.equal(await page.textContent('#source-name'), 'main.py');
  // The source is highlighted as Python (CodeMirror's Python mode styles the keyword def).
  assert.ok(await page.$eval('#source .cm-line', (line) => line.querySelector('span')?.textContent === 'def'));
  await page.screenshot({ path: join(shots, 'python.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a shared URL reproduces the whole state', { timeout: 120000, skip }, async () => {
  const page = await open();
  await page.waitForSelector('#source .cm-match', { timeout: 60000 });
  await page.selectOption('#language', 'go');
  await type(page, 'source', 'package main\n\nfunc main() {\n\terr := run()\n\tif err != nil {\n\t\tpanic(err)\n\t}\n}\n');
  await type(page, 'pattern', 'if $E != nil { $$$B }');
  await page.selectOption('#strictness', 'relaxed');
  await page.click('[data-tab=tree]');
  await page.waitForFunction(() => document.querySelector('#matches li .text')?.textContent === 'if err != nil {');
  await page.waitForFunction(() => document.querySelector('#source-tree').textContent.startsWith('source_file'));
  await page.waitForTimeout(300); // the hash is written 100 ms after the last change
  const url = page.url();
  assert.match(url, /#./);
  await page.close();

  const shared = await open(url);
  await shared.waitForFunction(() => document.querySelector('#matches li .text')?.textContent === 'if err != nil {', null, { timeout: 60000 });
  assert.equal(await shared.inputValue('#language'), 'go');
  assert.equal(await shared.inputValue('#strictness'), 'relaxed');
  assert.equal(await shared.textContent('#pattern .cm-content'), 'if $E != nil { $$$B }');
  assert.deepEqual((await listed(shared)).map((m) => m.mvs[0]), [['$E', 'err']]);
  assert.equal(await shared.getAttribute('[data-tab=tree]', 'aria-selected'), 'true');
  await shared.waitForFunction(() => document.querySelector('#source-tree').textContent.startsWith('source_file'));
  await shared.screenshot({ path: join(shots, 'shared.png') });
  assert.deepEqual(shared.errors, []);
  await shared.close();
});

test('a broken rule shows its error at its line; a good one its findings and fix', { timeout: 120000, skip }, async () => {
  const page = await open();
  await page.waitForSelector('#source .cm-match', { timeout: 60000 });
  await page.click('[data-mode=rule]');
  await type(page, 'rule', 'id: broken\nlanguage: typescript\nrule:\n  patern: console.log($A)\n');
  await page.waitForSelector('#rule-error:not([hidden])');
  assert.match(await page.textContent('#rule-error'), /^Line 4: rule\.patern: unknown key "patern"/);
  assert.equal(await page.textContent('#rule .cm-error-line'), '  patern: console.log($A)');
  await page.waitForSelector('#rule .cm-lint-marker-error');
  // The pattern's matches are not shown for a rule that does not compile.
  assert.equal(await page.$$eval('#matches li', (items) => items.length), 0);
  assert.equal(await page.$$eval('#source .cm-match', (els) => els.length), 0);
  await page.screenshot({ path: join(shots, 'rule-error.png') });

  // A YAML syntax error, at the line the YAML parser names.
  await type(page, 'rule', 'id: broken\nlanguage: typescript\nrule:\n  pattern: console.log($A)\n  kind: [\n');
  await page.waitForFunction(() => document.querySelector('#rule-error').textContent.startsWith('Line 5: invalid YAML'));
  assert.equal(await page.textContent('#rule .cm-error-line'), '  kind: [');

  await type(page, 'rule', 'id: no-log\nlanguage: typescript\nmessage: logs $A\nrule:\n  pattern: console.log($A)\nfix: logger.debug($A)\n');
  await page.waitForFunction(() => document.querySelector('#matches li .message')?.textContent === 'logs item');
  assert.equal(await page.isHidden('#rule-error'), true);
  assert.deepEqual(await highlighted(page), ['console.log(item)']);
  await page.click('[data-tab=diff]');
  await page.waitForSelector('#diff .add');
  assert.deepEqual(await page.$$eval('#diff .add .line', (els) => els.map((e) => e.textContent)), ['+     logger.debug(item);']);
  await page.screenshot({ path: join(shots, 'rule.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('structural_analysis over the source and in-memory files', { timeout: 120000, skip }, async () => {
  const page = await open();
  await page.waitForSelector('#source .cm-match', { timeout: 60000 });
  await page.click('[data-tab=analysis]');
  await page.waitForFunction(() => document.querySelector('#analysis-result').textContent.includes('Base'), null, { timeout: 60000 });
  assert.match(await page.textContent('#analysis-result'), /src\/base\.ts/);
  assert.equal(await page.inputValue('#analysis-form [name=mode]'), 'hierarchy');
  await page.selectOption('#analysis-form [name=mode]', 'callers');
  await page.fill('#analysis-form [name=symbol]', 'process');
  await page.waitForFunction(() => document.querySelector('#analysis-result').textContent.includes('run'), null, { timeout: 60000 });
  await page.screenshot({ path: join(shots, 'analysis.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('works offline once loaded', { timeout: 180000, skip }, async () => {
  const page = await open();
  await page.waitForSelector('#source .cm-match', { timeout: 60000 });
  // Every file is kept once the service worker is active.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await chromium.context.setOffline(true);
  try {
    await page.reload();
    await page.waitForSelector('#source .cm-match', { timeout: 60000 });
    await page.selectOption('#language', 'rust');
    await type(page, 'source', 'fn main() {\n    let v = vec![1, 2];\n    let n = v.len();\n}\n');
    await type(page, 'pattern', '$X.len()');
    await page.waitForFunction(() => document.querySelector('#matches li .text')?.textContent === 'v.len()', null, { timeout: 60000 });
    await page.screenshot({ path: join(shots, 'offline.png') });
  } finally {
    await chromium.context.setOffline(false);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});
