// The truth of the structural_analysis measurement: the TypeScript
// compiler's own answers (LanguageService call hierarchy, references and
// definitions) for a seeded sample of the symbols whose names are shared by
// several declarations of a project.
//
//   node truth.mjs <typescript module dir> < request.json > answers.json
//
// request: {root, dir, seed, sample, customConditions, paths}: the project's
// root, the folder of its sources (relative), the seed and the number of
// symbols (0: all); optionally the custom export conditions module
// resolution honours (zod's "@zod/source", which its package.json maps to
// its sources, so its imports of itself by name, "zod/v4/core", reach them
// as in zod's build) and tsconfig paths relative to root (a workspace's
// packages by name, {"@tldraw/editor": ["packages/editor/src/index.ts"]}).
// answers: {files, declarations, shared, queries: [{name, qual, kind, file,
// line, callable, callers, overridden, related, refsAll, refsStructural, defs, hierarchy}]}, paths relative
// to root, each answer a list of "file:line" ("file:module" for a caller
// that is a file's top level). overridden, for a method, are the callers
// of the members it overrides or implements: the members of the same name
// in its class's supertypes (extends and implements), transitively;
// related are the declarations of those members and of their other
// implementations.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { sampleShared, sourceFiles } from './sample.mjs';

const ts = createRequire(import.meta.url)(process.argv[2]);
const req = JSON.parse(fs.readFileSync(0, 'utf8'));
const root = path.resolve(req.root);

const files = sourceFiles(path.join(root, req.dir), /\.(ts|tsx|mts|cts)$/);

const options = {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.Preserve, experimentalDecorators: true, noEmit: true, skipLibCheck: true, strict: false,
};
if (req.customConditions && req.customConditions.length) options.customConditions = req.customConditions;
if (req.paths) {
  options.baseUrl = root;
  options.paths = req.paths;
}
const texts = new Map(files.map((f) => [f, fs.readFileSync(f, 'utf8')]));
const host = {
  getCompilationSettings: () => options,
  getScriptFileNames: () => files,
  getScriptVersion: () => '1',
  getScriptSnapshot: (f) => {
    const t = texts.has(f) ? texts.get(f) : fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined;
    return t === undefined ? undefined : ts.ScriptSnapshot.fromString(t);
  },
  getCurrentDirectory: () => root,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: (f) => texts.has(f) || fs.existsSync(f),
  readFile: (f) => (texts.has(f) ? texts.get(f) : fs.readFileSync(f, 'utf8')),
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const ls = ts.createLanguageService(host, ts.createDocumentRegistry());
const program = ls.getProgram();

const rel = (f) => path.relative(root, f).split(path.sep).join('/');
const lineOf = (f, pos) => program.getSourceFile(f).getLineAndCharacterOfPosition(pos).line + 1;
const key = (f, pos) => `${rel(f)}:${lineOf(f, pos)}`;
const inRoot = (f) => !rel(f).startsWith('..');

// The qualifier a declaration is asked about with: its class for a member,
// else its module (the file's stem, or its folder's name for an index file).
function moduleName(f) {
  const stem = path.basename(f).replace(/\.d\.ts$|\.[cm]?tsx?$/, '');
  return stem === 'index' ? path.basename(path.dirname(f)) : stem;
}

// The namespace a declaration is written in (export namespace objectUtil
// { type optionalKeys … }), asked about as objectUtil.optionalKeys.
function namespaceOf(n) {
  const p = n.parent;
  if (p && ts.isModuleBlock(p) && ts.isModuleDeclaration(p.parent) && ts.isIdentifier(p.parent.name)) {
    return p.parent.name.text;
  }
  return '';
}

const decls = [];
for (const f of files) {
  const sf = program.getSourceFile(f);
  const visit = (n, cls) => {
    let kind = null;
    let owner = cls;
    if (ts.isFunctionDeclaration(n) && n.name && n.body) kind = 'function';
    else if (ts.isMethodDeclaration(n) && cls && ts.isClassDeclaration(n.parent) && ts.isIdentifier(n.name) && n.body) {
      kind = 'method';
    }
    else if (ts.isClassDeclaration(n) && n.name) kind = 'class';
    else if (ts.isInterfaceDeclaration(n) && n.name) kind = 'interface';
    else if (ts.isTypeAliasDeclaration(n)) kind = 'type';
    if (kind) {
      decls.push({
        name: n.name.text, kind, file: f, pos: n.name.getStart(sf), callable: kind === 'function' || kind === 'method',
        qual: kind === 'method' ? owner : namespaceOf(n) || moduleName(f),
      });
    }
    const inner = ts.isClassDeclaration(n) && n.name ? n.name.text : ts.isClassLike(n) ? null : cls;
    ts.forEachChild(n, (c) => visit(c, inner));
  };
  visit(sf, null);
}

const { sample, shared, rand } = sampleShared(decls, rel, req.seed, req.sample);

// nodeAt finds the innermost node starting at pos.
function nodeAt(sf, pos) {
  let found = null;
  const go = (n) => {
    if (pos < n.getStart(sf) || pos >= n.getEnd()) return;
    if (n.getStart(sf) === pos) found = n;
    ts.forEachChild(n, go);
  };
  go(sf);
  return found;
}

// structural reports whether a reference is one of the uses
// structural_analysis finds: a call (or JSX element), an instantiation, a
// type reference, a heritage clause, an import or export specifier.
function structural(sf, pos) {
  const id = nodeAt(sf, pos);
  if (!id) return false;
  let n = id;
  let p = n.parent;
  while (p && (ts.isPropertyAccessExpression(p) && p.name === n || ts.isQualifiedName(p) && p.right === n)) {
    n = p;
    p = p.parent;
  }
  if (!p) return false;
  if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === n) return true;
  if (ts.isTypeReferenceNode(p) || ts.isExpressionWithTypeArguments(p) || ts.isHeritageClause(p)) return true;
  if (ts.isImportSpecifier(p) || ts.isExportSpecifier(p) || ts.isImportClause(p)) return true;
  if ((ts.isJsxOpeningElement(p) || ts.isJsxSelfClosingElement(p)) && p.tagName === n) return true;
  return false;
}

// heritage lists the declarations a class or interface names in its
// extends and implements clauses, each as "file:line" of its name, or
// "name:X" for one outside the project.
const checker0 = program.getTypeChecker();
function resolveAlias(s) {
  while (s && s.flags & ts.SymbolFlags.Alias) {
    const next = checker0.getImmediateAliasedSymbol(s);
    if (!next || next === s) break;
    s = next;
  }
  return s;
}
function heritage(node) {
  const out = [];
  for (const h of node.heritageClauses || []) {
    for (const t of h.types) {
      const s = resolveAlias(checker0.getSymbolAtLocation(t.expression));
      const decl = s && s.declarations && s.declarations.find((x) => ts.isClassLike(x) || ts.isInterfaceDeclaration(x) || ts.isTypeAliasDeclaration(x));
      const name = t.expression.getText();
      if (decl && decl.name && inRoot(decl.getSourceFile().fileName)) {
        out.push({ sym: s, key: key(decl.getSourceFile().fileName, decl.name.getStart(decl.getSourceFile())) });
      } else {
        out.push({ sym: s, key: `name:${name.split('.').pop()}` });
      }
    }
  }
  return out;
}

// callersOf lists the callers of the function or method at pos of file.
function callersOf(file, pos) {
  const out = [];
  for (const c of ls.provideCallHierarchyIncomingCalls(file, pos) || []) {
    const from = c.from;
    const top = from.kind === ts.ScriptElementKind.moduleElement || from.kind === ts.ScriptElementKind.scriptElement;
    let at = from.selectionSpan.start;
    if (from.kind === ts.ScriptElementKind.classElement) {
      // A call made by a constructor: the constructor is the caller.
      const cls = nodeAt(program.getSourceFile(from.file), at);
      const ctor = cls && cls.parent && cls.parent.members && cls.parent.members.find(ts.isConstructorDeclaration);
      if (ctor) at = ctor.getStart(program.getSourceFile(from.file));
    }
    out.push(top ? `${rel(from.file)}:module` : key(from.file, at));
  }
  return out;
}

// overridden lists the callers of the members named name of the
// supertypes of the class or interface node, transitively (each type
// once): those a call through the supertype reaches.
function overridden(node, name) {
  const out = [];
  for (const decl of supertypeDecls(node)) {
    const file = decl.getSourceFile().fileName;
    if (!inRoot(file)) continue;
    for (const m of decl.members || []) {
      if (m.name && ts.isIdentifier(m.name) && m.name.text === name) out.push(...callersOf(file, m.name.getStart(decl.getSourceFile())));
    }
  }
  return out;
}

// supertypeDecls lists the class and interface declarations node extends
// or implements, transitively.
function supertypeDecls(node) {
  const out = [];
  const seen = new Set([node]);
  const todo = [node];
  while (todo.length > 0) {
    for (const h of todo.shift().heritageClauses || []) {
      for (const t of h.types) {
        const s = resolveAlias(checker0.getSymbolAtLocation(t.expression));
        for (const decl of (s && s.declarations) || []) {
          if (!(ts.isClassLike(decl) || ts.isInterfaceDeclaration(decl)) || seen.has(decl)) continue;
          seen.add(decl);
          todo.push(decl);
          out.push(decl);
        }
      }
    }
  }
  return out;
}

// related lists the declarations (file:line) of the members named name
// that share a supertype's member of that name with the method of class
// node: the members it overrides or implements and their other
// implementations (rxjs's Subscriber.next beside ConsumerObserver.next,
// both implementing Observer.next).
function related(node, name) {
  const has = (decl) => (decl.members || []).some((m) => m.name && ts.isIdentifier(m.name) && m.name.text === name);
  const bases = new Set(supertypeDecls(node).filter(has));
  if (bases.size === 0) return [];
  const out = [];
  for (const t of typeDecls) {
    if (t === node || !(bases.has(t) || supertypeDecls(t).some((s) => bases.has(s)))) continue;
    const file = t.getSourceFile().fileName;
    if (!inRoot(file)) continue;
    for (const m of t.members || []) {
      if (m.name && ts.isIdentifier(m.name) && m.name.text === name) out.push(key(file, m.name.getStart(t.getSourceFile())));
    }
  }
  return out;
}
const typeDecls = [];
for (const f of files) {
  const sf = program.getSourceFile(f);
  const visit = (n) => {
    if ((ts.isClassDeclaration(n) || ts.isInterfaceDeclaration(n)) && n.name) typeDecls.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
}

// Hierarchy is measured on every class and interface (few names of types
// are shared), seeded and sampled the same way.
const typeOrder = decls.filter((d) => d.kind === 'class' || d.kind === 'interface').map((d) => [rand(), d])
  .sort((a, b) => a[0] - b[0]).map((x) => x[1]);
const typeSample = new Set(req.sample > 0 ? typeOrder.slice(0, req.sample) : typeOrder);
const queries = [];
for (const d of [...sample, ...[...typeSample].filter((d) => !sample.includes(d))]) {
  const q = { name: d.name, qual: d.qual, kind: d.kind, file: rel(d.file), line: lineOf(d.file, d.pos), callable: d.callable,
    callers: [], overridden: [], refsAll: [], refsStructural: [], defs: [] };
  // Definitions: every declaration of the symbol (overloads, merged
  // declarations), at its name.
  const sf = program.getSourceFile(d.file);
  const sym = program.getTypeChecker().getSymbolAtLocation(nodeAt(sf, d.pos));
  for (const decl of (sym && sym.declarations) || []) {
    const at = decl.name || decl;
    if (inRoot(decl.getSourceFile().fileName)) q.defs.push(key(decl.getSourceFile().fileName, at.getStart(decl.getSourceFile())));
  }
  // The symbol's own references, and those of the imports and re-exports
  // aliasing it; not those of related symbols (an interface's member). A
  // member read through a union (x.get() with x: A | B) is a reference of
  // each member it joins: the service lists it in a group of its own,
  // whose definition is the union's first member, so each reference of a
  // group not the symbol's is kept when the union's members hold it.
  const checker = program.getTypeChecker();
  const joins = (fileName, pos) => {
    const n = nodeAt(program.getSourceFile(fileName), pos);
    const s = n && checker.getSymbolAtLocation(n);
    return !!s && !!(s.flags & ts.SymbolFlags.Transient) && checker.getRootSymbols(s).includes(sym);
  };
  const mine = (fileName, pos) => {
    const n = nodeAt(program.getSourceFile(fileName), pos);
    let s = n && checker.getSymbolAtLocation(n);
    while (s && s !== sym && s.flags & ts.SymbolFlags.Alias) {
      const next = checker.getImmediateAliasedSymbol(s);
      if (!next || next === s) break;
      s = next;
    }
    return s === sym;
  };
  for (const group of ls.findReferences(d.file, d.pos) || []) {
    const gd = group.definition;
    const own = mine(gd.fileName, gd.textSpan.start);
    for (const r of group.references) {
      if (r.isDefinition || !inRoot(r.fileName) || !own && !joins(r.fileName, r.textSpan.start)) continue;
      const k = key(r.fileName, r.textSpan.start);
      q.refsAll.push(k);
      if (structural(program.getSourceFile(r.fileName), r.textSpan.start)) q.refsStructural.push(k);
    }
  }
  if (d.callable) q.callers = callersOf(d.file, d.pos);
  if (d.kind === 'method') {
    q.overridden = overridden(nodeAt(sf, d.pos).parent.parent, d.name);
    q.related = related(nodeAt(sf, d.pos).parent.parent, d.name);
  }
  q.sharedName = sample.includes(d);
  if (typeSample.has(d)) {
    // Hierarchy: what the type extends or implements, and what extends or
    // implements it.
    q.hierarchy = [];
    const node = nodeAt(sf, d.pos).parent;
    for (const h of heritage(node)) q.hierarchy.push(h.key);
    for (const t of typeDecls) {
      if (heritage(t).some((h) => h.sym === sym)) q.hierarchy.push(key(t.getSourceFile().fileName, t.name.getStart(t.getSourceFile())));
    }
  }
  for (const k of ['defs', 'refsAll', 'refsStructural', 'callers', 'overridden', 'related', 'hierarchy']) if (q[k]) q[k] = [...new Set(q[k])].sort();
  queries.push(q);
}

process.stdout.write(JSON.stringify({ files: files.length, declarations: decls.length, shared, queries }));
