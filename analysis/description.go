package analysis

// Name is the tool's registered name.
const Name = "structural_analysis"

// Description is the tool description an LLM sees (REQ-SA-004): multi-hop
// analysis, how its results are labelled, how it differs from
// ast_grep, and its main limitations, in as few tokens as that takes; the
// rest is in Details. A test keeps its language list equal to
// SupportedLanguages.
const Description = `Multi-hop, AST-based code analysis in one call: call graphs, type hierarchies, symbol references, module dependencies. Use it for relationship questions (who calls this and who calls those, what extends this class, where is this symbol used, what imports this file); use ast_grep for a single structural pattern search, grep for plain text.

Modes: callers, callees (symbol, depth 1-5), definitions (symbol), hierarchy (symbol, depth), references (symbol; one category is heuristic), dependencies (target; reverse adds importers), exports (target). Qualify symbol (Class.method, pkg.Func, file.ts#outer.inner) to pick one definition.

Results are labelled resolved (followed through imports, scope or the types the code writes down or implies), dispatch (a call of a member the symbol overrides or implements) or name-only (the name matches; nothing tells which definition); callers and references say whether they are exhaustive. maxNodes (default 50) bounds the answer (truncated: true when hit); a call stops after 60 s with partial: true. Languages: ` + descriptionLanguages + `.`

// Details is what the description leaves out: each mode's parameters and
// findings, how results are labelled, and every limitation. Faces show it
// as the tool's guide.
const Details = `Modes (mode, plus language, required; path narrows the scope, default the workspace root). symbol may be qualified — Class.method, outer.inner (a function defined inside outer), or module.func / pkg.Func (the file stem, directory of an index file, or package) — to pick one of several same-named definitions in every mode.
Naming: path/to/file.ts#outer.inner names what a qualified name cannot — a file with a dotted stem (resizing.test.ts#fn), files of one stem in several folders (src/a/util.ts#Store.get), nested functions: the file is a workspace-relative path or a suffix only one file has, then # and the chain of enclosing definitions down to the symbol (file.ts#name alone takes every name of the file). A qualifier that matches no definition is an error listing up to 5 near candidates (the same name under other owners or files, owners a small edit away: Hedaer.Get finds Header.Get); one that matches definitions of several classes or files answers for all of them and says so in a note listing them.
Bare names: when several classes or files define the name, callers are grouped by the definition each call binds to (Owner.name file:line; def on each top caller in the structured answer), resolved groups first, then the name-only callers, which could not be attributed to one definition; a resolved call among references says the same (→ Owner.name file:line). (cycle) marks a definition already on the path, not another of the same name.
- callers (symbol, depth 1-5, maxNodes): functions/methods containing a call to symbol — member calls obj.symbol(), direct calls symbol(), optional chaining obj?.symbol?.() — each with the call-site line (via:), recursively to depth, with cycle detection.
- callees (symbol, depth, maxNodes): the calls inside symbol's definition; a call inside another call's range is folded into the outer one (a.b().c() is one entry, and so is f(g(x))); recursive with depth.
- definitions (symbol): where symbol is defined: functions, methods, classes, interfaces, type aliases, variables/constants.
- hierarchy (symbol, depth): what a class/interface extends or implements, and what extends or implements it.
- references (symbol, maxNodes): every structural use, grouped with counts: method calls on instances (heuristic), direct calls, instantiations, type annotations, extends/implements, imports, re-exports. Comments and strings are never matched.

Confidence: every caller, callee, supertype, subtype and reference is labelled resolved — its name or receiver was followed through the file's imports and re-exports, same-file or same-package scope, this/self, Owner.member or pkg.Func, or the types the code writes down (parameters, fields, variables, returns, type arguments, Go's and Python's annotations, the standard libraries' types) and what they imply at a glance (new C(), literals, a ?? b, narrowing by instanceof/typeof/in) to a definition of the symbol — dispatch — bound that way to a member the symbol overrides or implements (an interface's, a base class's, a library type's its class implements), which reaches the symbol when the object is of its class, as a type checker's call hierarchy counts it — or name-only: the name matches but nothing tells which definition it means (a receiver of unknown type, an unresolvable import). Calls on values typed any are left out and counted. Resolved callers, supertypes, subtypes and references come first, then dispatch (callees keep their source order); a callers or references answer ends saying whether it is exhaustive or how many sites are name-only and why; uses that resolve to a different same-named definition are left out.
- dependencies (target, reverse): a file's or directory's imports (named, default, namespace, side-effect, dynamic, re-exports, require()), resolved to workspace files where possible; reverse: true also lists the files importing the target.
- exports (target): what a file or directory exports: classes, functions, constants, interfaces, types, default exports, re-exports.

Limitations — types are read as written, not checked:
- A receiver whose type is neither written nor plain from its value (an unannotated parameter, a package without declarations) leaves its calls name-only: callers of get() then lists every such get call; qualify the symbol or narrow with path.
- No overload resolution beyond the number of arguments, no inference of a generic call's type arguments from callbacks or context, no structural assignability between unrelated types.
- Method shapes are grammar-specific: common forms (methods, functions, arrow functions assigned to variables or fields, object-literal methods) are handled; unusual declaration patterns may be missed.
- "Method calls on instances" is a heuristic, labelled so and kept out of the resolved count: receivers whose variable name contains the symbol's words (toolRegistry.register() for ToolRegistry, not registry.x(); subscriber.x() is not a use of _subscribe); it can miss differently named variables and include unrelated ones.
- hierarchy sees only extends/implements-style clauses (and the language's equivalents), not mixins, decorators or runtime composition.
- Import resolution follows relative paths, tsconfig paths, workspace packages (package.json names and exports, go.mod/go.work modules, Python package roots) and modules inside the workspace; other packages are external.
- Per language: typescript also covers .tsx files; c has no hierarchy mode; Go's hierarchy is struct and interface embedding (implicit interface satisfaction is not syntax); a C# base list does not tell a base class from an interface (relation "base"); Ruby calls written without parentheses or arguments look like variables and are not seen.

Results: file paths relative to the workspace root, 1-based lines; a long answer comes in pages of items (trees in pre-order), the text ending with "N more of M: call again with offset=K". A call stops after 60 s or when cancelled and returns what it found, with partial: true and the reason. Languages: ` + descriptionLanguages + `.`

// descriptionLanguages lists the supported languages in the description.
const descriptionLanguages = "c, cpp, csharp, go, java, javascript, kotlin, php, python, ruby, rust, tsx, typescript"
