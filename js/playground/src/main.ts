// The playground page: CodeMirror editors for the query and the source,
// and what Go answers for them (wasm/playground.go through loadPlayground,
// structural_analysis through the browser entry's tools) rendered. No
// matching, parsing or diffing happens here: this file moves text to Go
// and draws what comes back.
import { basicSetup, minimalSetup } from 'codemirror';
import { EditorView, Decoration, type DecorationSet } from '@codemirror/view';
import { EditorState, StateEffect, StateField, Compartment, type Extension, type Text } from '@codemirror/state';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { createTools, type LoupeTool } from '../../src/browser.js';
import { loadPlayground, type PlaygroundEngine } from '../../src/browser-playground.js';
import { highlightFor, yamlLanguage } from './languages.js';
import { decodeState, encodeState, type State } from './state.js';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const baseUrl = new URL('loupe/', location.href);

// What Go answers (wire.Match, as `loupe run --json` prints it).
interface Position { line: number; column: number }
interface Range { start: Position; end: Position }
interface Captured { text: string; range: Range }
interface Match {
  text: string;
  range: Range;
  replacement?: string;
  message?: string;
  ruleId?: string;
  metaVariables?: { single: Record<string, Captured>; multi: Record<string, Captured[]>; transformed: Record<string, string> };
}
interface PlaygroundError { message: string; line?: number; column?: number; in: string }
interface DiffHunk { header: string; lines: { old?: number; new?: number; sign: string; text: string }[] }
interface RunReply { matches?: Match[]; diff?: DiffHunk[]; rewritten?: string; warning?: string; error?: PlaygroundError }
interface Language { name: string; display: string; extensions: string[] }

let state: State;
let engine: PlaygroundEngine;
let languages: Language[] = [];

// ---- editors ---------------------------------------------------------

/** Marks in an editor: matches, metavariables, an error's line. */
const setMarks = StateEffect.define<DecorationSet>();
const marks = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update: (deco, tr) => {
    for (const e of tr.effects) if (e.is(setMarks)) return e.value;
    return deco.map(tr.changes);
  },
  provide: (f) => EditorView.decorations.from(f),
});

function editor(parent: HTMLElement, doc: string, extensions: Extension[], onChange: (text: string) => void): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [...extensions, marks, EditorView.updateListener.of((u) => {
        if (u.docChanged) onChange(u.state.doc.toString());
      })],
    }),
  });
}

const sourceLanguage = new Compartment();
const patternLanguage = new Compartment();
let sourceView: EditorView;
let patternView: EditorView;
let rewriteView: EditorView;
let ruleView: EditorView;

/**
 * The editor offset of a position Go gives (0-based line, column in
 * characters), clamped to the document as it is now.
 */
function offset(doc: Text, p: Position): number {
  if (p.line + 1 > doc.lines) return doc.length;
  const line = doc.line(p.line + 1);
  let i = 0;
  for (let chars = 0; chars < p.column && i < line.text.length; chars++) {
    i += line.text.codePointAt(i)! > 0xffff ? 2 : 1;
  }
  return line.from + i;
}

// ---- state and URL -----------------------------------------------------

let written = '';
let saveTimer: ReturnType<typeof setTimeout> | undefined;

/** Writes the state into the URL's hash (replacing the entry: typing is not history). */
function save(): void {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(async () => {
    written = await encodeState(state);
    history.replaceState(null, '', `#${written}`);
  }, 100);
}

let runTimer: ReturnType<typeof setTimeout> | undefined;

/** Records a change and runs the query again shortly. */
function changed(patch: Partial<State>): void {
  state = { ...state, ...patch };
  save();
  clearTimeout(runTimer);
  runTimer = setTimeout(() => void refresh(), 120);
}

// ---- running -----------------------------------------------------------

let runs = 0;

async function refresh(): Promise<void> {
  const seq = ++runs;
  await run(seq);
  if (seq !== runs) return;
  if (state.tab === 'tree') await dumpTrees(seq);
  if (state.tab === 'analysis') await analyse(seq);
}

async function run(seq: number): Promise<void> {
  const base = { op: 'run', language: state.language, source: state.source };
  const query = state.mode === 'rule'
    ? { rule: state.rule }
    : { pattern: state.pattern, strictness: state.strictness, selector: state.selector, rewrite: state.rewrite };
  if (state.mode === 'pattern' && state.pattern.trim() === '') {
    show({ matches: [] }, 0);
    return;
  }
  const t0 = performance.now();
  const reply = await engine({ ...base, ...query }) as RunReply;
  if (seq !== runs) return;
  show(reply, performance.now() - t0);
}

const mvClass = new Map<string, number>();

function mvIndex(name: string): number {
  if (!mvClass.has(name)) mvClass.set(name, mvClass.size % 6);
  return mvClass.get(name)!;
}

/** Draws a run's reply: the marks in the source, the list, the diff, the errors. */
function show(reply: RunReply, ms: number): void {
  const err = reply.error;
  const patternError = $('pattern-error');
  const ruleError = $('rule-error');
  patternError.hidden = ruleError.hidden = true;
  ruleView.dispatch(setDiagnostics(ruleView.state, []), { effects: setMarks.of(Decoration.none) });
  if (err) {
    const box = err.in === 'rule' ? ruleError : patternError;
    box.hidden = false;
    box.textContent = err.line ? `Line ${err.line}: ${err.message}` : err.message;
    if (err.in === 'rule' && err.line) markRuleError(err);
    $('status').textContent = 'Error';
    // Nothing ran: no matches are shown, not the last run's.
    sourceView.dispatch({ effects: setMarks.of(Decoration.none) });
    $('match-count').textContent = '';
    showMatches([]);
    showDiff(undefined);
    return;
  }
  const warning = $('warning');
  warning.hidden = !reply.warning;
  warning.textContent = reply.warning ?? '';

  const matches = reply.matches ?? [];
  const doc = sourceView.state.doc;
  const ranges = [];
  mvClass.clear();
  for (const m of matches) {
    const from = offset(doc, m.range.start);
    const to = offset(doc, m.range.end);
    if (to > from) ranges.push(Decoration.mark({ class: 'cm-match' }).range(from, to));
    for (const [name, nodes] of metaVariables(m)) {
      for (const n of nodes) {
        const a = offset(doc, n.range.start);
        const b = offset(doc, n.range.end);
        if (b > a) ranges.push(Decoration.mark({ class: `cm-mv cm-mv${mvIndex(name)}` }).range(a, b));
      }
    }
  }
  sourceView.dispatch({ effects: setMarks.of(Decoration.set(ranges, true)) });
  $('match-count').textContent = String(matches.length);
  $('status').textContent = `${matches.length} match${matches.length === 1 ? '' : 'es'} · ${ms.toFixed(0)} ms`;
  showMatches(matches);
  showDiff(reply.diff);
}

/** A match's metavariables, each with its sigil: $A, $$$ARGS, and transformed ones. */
function metaVariables(m: Match): [string, Captured[]][] {
  const mv = m.metaVariables;
  if (!mv) return [];
  return [
    ...Object.entries(mv.single).map(([k, n]): [string, Captured[]] => [`$${k}`, [n]]),
    ...Object.entries(mv.multi).map(([k, ns]): [string, Captured[]] => [`$$$${k}`, ns]),
  ];
}

/** The source a capture covers: a multiple capture's nodes (separators among them) from first to last. */
function capturedText(nodes: Captured[]): string {
  if (nodes.length === 0) return '';
  const doc = sourceView.state.doc;
  return doc.sliceString(offset(doc, nodes[0].range.start), offset(doc, nodes[nodes.length - 1].range.end));
}

function markRuleError(err: PlaygroundError): void {
  const doc = ruleView.state.doc;
  const line = doc.line(Math.min(err.line!, doc.lines));
  const from = err.column ? Math.min(line.from + err.column - 1, line.to) : line.from;
  ruleView.dispatch(
    setDiagnostics(ruleView.state, [{ from, to: Math.max(line.to, from), severity: 'error', message: err.message }]),
    { effects: setMarks.of(Decoration.set([Decoration.line({ class: 'cm-error-line' }).range(line.from)])) },
  );
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (globalThis.Node | string)[]): HTMLElementTagNameMap[K] {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

function showMatches(matches: Match[]): void {
  const list = $('matches');
  list.replaceChildren(...matches.map((m) => {
    const loc = `${m.range.start.line + 1}:${m.range.start.column + 1}`;
    const item = el('li', { className: 'match' },
      el('button', { type: 'button', className: 'loc', title: 'Select in the source' }, loc),
      el('code', { className: 'text' }, m.text.split('\n')[0]));
    if (m.message) item.append(el('div', { className: 'message' }, m.message));
    const mvs = metaVariables(m);
    const transformed = Object.entries(m.metaVariables?.transformed ?? {});
    if (mvs.length + transformed.length > 0) {
      const table = el('table', { className: 'mvs' });
      for (const [name, nodes] of mvs) {
        table.append(el('tr', {},
          el('th', { className: `mv cm-mv${mvIndex(name)}` }, name),
          el('td', {}, el('code', {}, capturedText(nodes)))));
      }
      for (const [name, text] of transformed) {
        table.append(el('tr', {}, el('th', { className: 'mv' }, `$${name}`), el('td', {}, el('code', {}, text))));
      }
      item.append(table);
    }
    if (m.replacement !== undefined) item.append(el('div', { className: 'replacement' }, '→ ', el('code', {}, m.replacement)));
    item.querySelector('button')!.addEventListener('click', () => {
      const doc = sourceView.state.doc;
      sourceView.dispatch({ selection: { anchor: offset(doc, m.range.start), head: offset(doc, m.range.end) }, scrollIntoView: true });
      sourceView.focus();
    });
    return item;
  }));
}

function showDiff(hunks?: DiffHunk[]): void {
  const box = $('diff');
  if (!hunks) {
    box.replaceChildren(el('p', { className: 'hint' }, state.mode === 'rule'
      ? 'The rule has no fix.'
      : 'Write a rewrite (e.g. logger.debug($$$ARGS)) to preview it here.'));
    return;
  }
  if (hunks.length === 0) {
    box.replaceChildren(el('p', { className: 'hint' }, 'The rewrite changes nothing.'));
    return;
  }
  box.replaceChildren(...hunks.map((h) => el('table', { className: 'hunk' },
    el('tr', {}, el('td', { className: 'header', colSpan: 3 }, h.header)),
    ...h.lines.map((l) => el('tr', { className: l.sign === '+' ? 'add' : l.sign === '-' ? 'del' : 'same' },
      el('td', { className: 'num' }, l.old ? String(l.old) : ''),
      el('td', { className: 'num' }, l.new ? String(l.new) : ''),
      el('td', { className: 'line' }, `${l.sign} ${l.text.replace(/\n$/, '')}`))))));
}

async function dumpTrees(seq: number): Promise<void> {
  const reply = await engine({
    op: 'dump', language: state.language, source: state.source, format: state.treeFormat,
    ...(state.mode === 'pattern' ? { pattern: state.pattern, strictness: state.strictness, selector: state.selector } : {}),
  }) as { source?: string; pattern?: string; patternError?: string; error?: PlaygroundError };
  if (seq !== runs) return;
  $('source-tree').textContent = reply.error ? reply.error.message : reply.source ?? '';
  $('source-tree').classList.toggle('wrap', state.treeFormat === 'sexp');
  $('pattern-tree-box').hidden = state.mode !== 'pattern';
  $('pattern-tree').textContent = reply.pattern ?? reply.patternError ?? '';
}

// ---- structural_analysis ----------------------------------------------

let analysisTool: { key: string; tool?: LoupeTool; reason?: string } | undefined;

/** The source's path in the analysis workspace: main.EXT, EXT the language's first extension. */
function sourcePath(): string {
  const ext = languages.find((l) => l.name === state.language)?.extensions[0] ?? 'txt';
  return `main.${ext}`;
}

async function structuralAnalysis(): Promise<{ tool?: LoupeTool; reason?: string }> {
  const files = { ...state.files, [sourcePath()]: state.source };
  const key = JSON.stringify(files);
  if (analysisTool?.key !== key) {
    const { tools, reason } = await createTools({ files, baseUrl });
    analysisTool = { key, tool: tools.find((t) => t.name === 'structural_analysis'), reason };
  }
  return analysisTool;
}

async function analyse(seq: number): Promise<void> {
  const { tool, reason } = await structuralAnalysis();
  if (seq !== runs) return;
  if (!tool) {
    $('analysis-result').textContent = reason ?? 'structural_analysis is not available';
    return;
  }
  if ($('analysis-form').childElementCount === 0) analysisForm(tool);
  const params: Record<string, unknown> = { language: state.language };
  const props = (tool.parameters.properties ?? {}) as Record<string, { type?: string }>;
  for (const [k, v] of Object.entries(state.analysis)) {
    if (v === '' || !(k in props)) continue;
    params[k] = props[k].type === 'integer' ? Number(v) : props[k].type === 'boolean' ? v === 'true' : v;
  }
  const out = await tool.execute(params);
  if (seq !== runs) return;
  $('analysis-result').textContent = out.returnDisplay;
}

/** The form of structural_analysis's parameters, drawn from its JSON Schema (language comes from the picker). */
function analysisForm(tool: LoupeTool): void {
  const form = $('analysis-form');
  const props = (tool.parameters.properties ?? {}) as Record<string, { type?: string; enum?: string[]; description?: string }>;
  for (const [name, schema] of Object.entries(props)) {
    if (name === 'language') continue;
    const value = state.analysis[name] ?? '';
    let input: HTMLInputElement | HTMLSelectElement;
    if (schema.enum) {
      input = el('select', {}, ...schema.enum.map((v) => el('option', { value: v, selected: v === value }, v)));
      if (!value) state.analysis = { ...state.analysis, [name]: schema.enum[0] };
    } else if (schema.type === 'boolean') {
      input = el('select', {}, el('option', { value: '' }, ''), el('option', { value: 'true', selected: value === 'true' }, 'true'),
        el('option', { value: 'false', selected: value === 'false' }, 'false'));
    } else {
      input = el('input', { value, type: schema.type === 'integer' ? 'number' : 'text', spellcheck: false });
    }
    input.name = name;
    input.title = schema.description ?? '';
    input.addEventListener('input', () => changed({ analysis: { ...state.analysis, [name]: input.value } }));
    form.append(el('label', {}, name, input));
  }
}

function showFiles(): void {
  const box = $('files');
  box.replaceChildren(el('div', { className: 'file' }, el('code', {}, sourcePath()), el('span', { className: 'hint' }, ' the source')));
  for (const [path, content] of Object.entries(state.files)) {
    const name = el('input', { value: path, spellcheck: false, className: 'path' });
    const remove = el('button', { type: 'button' }, 'Remove');
    const holder = el('div', { className: 'editor file-editor' });
    box.append(el('div', { className: 'file' }, name, remove), holder);
    editor(holder, content, [minimalSetup, highlightFor(languageOfPath(path))], (text) => {
      changed({ files: { ...state.files, [name.value]: text } });
    });
    name.addEventListener('change', () => {
      const files: Record<string, string> = {};
      for (const [p, c] of Object.entries(state.files)) files[p === path ? name.value : p] = c;
      changed({ files });
      showFiles();
    });
    remove.addEventListener('click', () => {
      const { [path]: _, ...rest } = state.files;
      changed({ files: rest });
      showFiles();
    });
  }
}

function languageOfPath(path: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return languages.find((l) => l.extensions.includes(ext))?.name ?? '';
}

// ---- the page ----------------------------------------------------------

function setMode(mode: State['mode']): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-mode]')) b.setAttribute('aria-selected', String(b.dataset.mode === mode));
  $('pattern-panel').hidden = mode !== 'pattern';
  $('rule-panel').hidden = mode !== 'rule';
}

function setTab(tab: State['tab']): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-tab]')) b.setAttribute('aria-selected', String(b.dataset.tab === tab));
  for (const t of ['matches', 'diff', 'tree', 'analysis']) $(`tab-${t}`).hidden = t !== tab;
}

function setLanguage(language: string): void {
  ($('language') as HTMLSelectElement).value = language;
  sourceView.dispatch({ effects: sourceLanguage.reconfigure(highlightFor(language)) });
  patternView.dispatch({ effects: patternLanguage.reconfigure(highlightFor(language)) });
  $('source-name').textContent = sourcePath();
}

function replaceDoc(view: EditorView, text: string): void {
  if (view.state.doc.toString() !== text) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/** Puts a state (from a link) into every control. */
function load(s: State): void {
  state = s;
  replaceDoc(sourceView, s.source);
  replaceDoc(patternView, s.pattern);
  replaceDoc(rewriteView, s.rewrite);
  replaceDoc(ruleView, s.rule);
  ($('strictness') as HTMLSelectElement).value = s.strictness;
  ($('selector') as HTMLInputElement).value = s.selector;
  ($('tree-format') as HTMLSelectElement).value = s.treeFormat;
  $('analysis-form').replaceChildren();
  setLanguage(s.language);
  setMode(s.mode);
  setTab(s.tab);
  showFiles();
  state = s; // the editors' change events above recorded the same texts
  void refresh();
}

async function main(): Promise<void> {
  state = await decodeState(location.hash);
  written = location.hash.slice(1);
  sourceView = editor($('source'), state.source, [basicSetup, sourceLanguage.of([])], (source) => changed({ source }));
  patternView = editor($('pattern'), state.pattern, [minimalSetup, patternLanguage.of([])], (pattern) => changed({ pattern }));
  rewriteView = editor($('rewrite'), state.rewrite, [minimalSetup], (rewrite) => changed({ rewrite }));
  ruleView = editor($('rule'), state.rule, [basicSetup, yamlLanguage(), lintGutter()], (rule) => changed({ rule }));

  engine = await loadPlayground(baseUrl);
  const info = await engine({ op: 'languages' }) as { languages: Language[]; strictness: string[] };
  languages = info.languages;
  const picker = $('language') as HTMLSelectElement;
  picker.replaceChildren(...languages.map((l) => el('option', { value: l.name }, l.display)));
  const strictness = $('strictness') as HTMLSelectElement;
  strictness.replaceChildren(...info.strictness.map((s) => el('option', { value: s }, s)));

  picker.addEventListener('change', () => {
    changed({ language: picker.value });
    setLanguage(picker.value);
    showFiles();
  });
  strictness.addEventListener('change', () => changed({ strictness: strictness.value }));
  const selector = $('selector') as HTMLInputElement;
  selector.addEventListener('input', () => changed({ selector: selector.value }));
  const treeFormat = $('tree-format') as HTMLSelectElement;
  treeFormat.addEventListener('change', () => changed({ treeFormat: treeFormat.value as State['treeFormat'] }));
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-mode]')) {
    b.addEventListener('click', () => {
      setMode(b.dataset.mode as State['mode']);
      changed({ mode: b.dataset.mode as State['mode'] });
    });
  }
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-tab]')) {
    b.addEventListener('click', () => {
      setTab(b.dataset.tab as State['tab']);
      changed({ tab: b.dataset.tab as State['tab'] });
    });
  }
  $('add-file').addEventListener('click', () => {
    let n = Object.keys(state.files).length + 1;
    const ext = sourcePath().slice('main.'.length);
    while (`src/file${n}.${ext}` in state.files) n++;
    changed({ files: { ...state.files, [`src/file${n}.${ext}`]: '' } });
    showFiles();
  });
  $('share').addEventListener('click', async () => {
    written = await encodeState(state);
    history.replaceState(null, '', `#${written}`);
    await navigator.clipboard?.writeText(location.href).catch(() => undefined);
    $('status').textContent = 'Link copied';
  });
  // A link opened over this page (a pasted URL, back/forward) loads its state.
  window.addEventListener('hashchange', async () => {
    if (location.hash.slice(1) === written) return;
    written = location.hash.slice(1);
    load(await decodeState(location.hash));
  });
  load(state);
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('sw.js').catch(() => undefined);
}

main().catch((err: unknown) => {
  $('status').textContent = `loupe could not load: ${err instanceof Error ? err.message : String(err)}`;
});
