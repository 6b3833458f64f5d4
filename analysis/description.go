package analysis

// Name is the tool's registered name.
const Name = "structural_analysis"

// Description is the tool description an LLM sees (REQ-SA-004): multi-hop
// analysis, name-based rather than type-resolved, how it differs from
// ast_grep, and the limitations. A test keeps its language list equal to
// SupportedLanguages.
const Description = `Multi-hop, AST-based code analysis: call graphs, type hierarchies, symbol references and module dependencies, assembled from many syntax-tree queries in one call. Use it for relationship questions ("who calls this method, and who calls those?", "what does this function call?", "what extends this class?", "where is this symbol used?", "what imports this file?"). Use ast_grep instead for a single structural pattern search (one shape, one query, metavariable captures), and text search (ripgrep) for plain strings.

Modes (mode, plus language, required; path narrows the scope, default the workspace root):
- callers (symbol, depth 1-5, maxNodes): functions/methods containing a call to symbol — member calls obj.symbol(), direct calls symbol(), optional chaining obj?.symbol?.() — each with the call-site line (via:), recursively to depth, with cycle detection.
- callees (symbol, depth, maxNodes): the calls inside symbol's definition; a call inside another call's range is folded into the outer one (a.b().c() is one entry, and so is f(g(x))); recursive with depth.
- definitions (symbol): where symbol is defined: functions, methods, classes, interfaces, type aliases, variables/constants.
- hierarchy (symbol, depth): what a class/interface extends or implements, and what extends or implements it.
- references (symbol, maxNodes): every structural use, grouped with counts: method calls on instances (heuristic), direct calls, instantiations, type annotations, extends/implements, imports, re-exports. Comments and strings are never matched.
- dependencies (target, reverse): a file's or directory's imports (named, default, namespace, side-effect, dynamic, re-exports, require()), resolved to workspace files where possible; reverse: true also lists the files importing the target.
- exports (target): what a file or directory exports: classes, functions, constants, interfaces, types, default exports, re-exports.

Limitations — this is syntax, not semantics; matching is by NAME, not type-resolved:
- callers of get() finds every call to any method named get; narrow with path. maxNodes (default 50) caps the traversal, and truncated: true says when it was hit.
- No cross-interface dispatch: a call x.bar() through an interface is found, but not which implementation runs.
- No type alias resolution and no generic inference.
- Method shapes are grammar-specific: common forms (methods, functions, arrow functions assigned to variables or fields, object-literal methods) are handled; unusual declaration patterns may be missed.
- "Method calls on instances" matches receivers whose variable name contains the symbol (toolRegistry.register() for ToolRegistry); it can miss differently named variables and include unrelated ones.
- hierarchy sees only extends/implements-style clauses (and the language's equivalents), not mixins, decorators or runtime composition.
- Import resolution follows relative paths, packages and modules inside the workspace; path aliases and external packages stay unresolved.
- Per language: typescript also covers .tsx files; c has no hierarchy mode; Go's hierarchy is struct and interface embedding (implicit interface satisfaction is not syntax); a C# base list does not tell a base class from an interface (relation "base"); Ruby calls written without parentheses or arguments look like variables and are not seen.

Results: file paths relative to the workspace root, 1-based lines. A call stops after 60 s or when cancelled and returns what it found, with partial: true and the reason. Languages: ` + descriptionLanguages + `.`

// descriptionLanguages lists the supported languages in the description.
const descriptionLanguages = "c, cpp, csharp, go, java, javascript, kotlin, php, python, ruby, rust, tsx, typescript"
