package analysis

import (
	"context"
	"path/filepath"
	"testing"
)

// fixtureCases are known answers over the fixture projects in
// testdata/analysis/<language>: one small project per language with the
// same story (a registry class hierarchy, a service creating registries,
// a main with a ping/pong cycle and a chained call), checked as the text
// an LLM reads. Every mode, depth 1 and deeper, cycles, maxNodes
// truncation, callees' chained-call folding, import forms, reverse
// dependencies and an empty result are covered for each language.
var fixtureCases = []struct {
	dir, name string
	p         Params
	want      string
}{
	{"typescript", "callers depth 2", Params{Mode: "callers", Symbol: "createRegistry", Depth: 2}, `createRegistry()
  ← init()  src/service.ts:9
    via: this.toolRegistry = createRegistry();
    ← main()  src/main.ts:4
      via: s.init({ name: 'a' });
  ← reset()  src/service.ts:14
    via: createRegistry();
  ← View()  src/view.tsx:2
    via: const r = createRegistry();
  (exhaustive: no site left unresolved)
`},
	{"typescript", "callers cycle", Params{Mode: "callers", Symbol: "ping", Depth: 3}, `ping()
  ← main()  src/main.ts:4
    via: ping(3);
    ← <module>  src/main.ts:16
      via: main();
  ← pong()  src/main.ts:13
    via: ping(n);
    ← ping()  src/main.ts:10  (cycle)
      via: if (n > 0) pong(n - 1);
  (exhaustive: no site left unresolved)
`},
	{"typescript", "callers maxNodes", Params{Mode: "callers", Symbol: "ping", Depth: 3, MaxNodes: 1}, `ping()
  ← main()  src/main.ts:4
    via: ping(3);
[truncated: maxNodes reached; raise maxNodes or narrow path for more]
`},
	{"typescript", "callees depth 1", Params{Mode: "callees", Symbol: "main"}, `main()  src/main.ts:4
  → new Service()  src/main.ts:5
  → s.init({ name: 'a' })  src/main.ts:6
  → ping(3)  src/main.ts:7
  → s.builder().with('x').build()  src/main.ts:8
  (3 of 4 calls resolved to their definitions through imports or scope)
`},
	{"typescript", "callees depth 2", Params{Mode: "callees", Symbol: "main", Depth: 2}, `main()  src/main.ts:4
  → new Service()  src/main.ts:5
  → s.init({ name: 'a' })  src/main.ts:6
    → createRegistry()  src/service.ts:10
    → this.toolRegistry.register(tool)  src/service.ts:11
    → util.log('ready')  src/service.ts:12
  → ping(3)  src/main.ts:7
    → pong(n - 1)  src/main.ts:11
  → s.builder().with('x').build()  src/main.ts:8
  (7 of 8 calls resolved to their definitions through imports or scope)
`},
	{"typescript", "definitions", Params{Mode: "definitions", Symbol: "register"}, `register — 2 definitions
  signature Registry.register  src/registry.ts:2
    register(tool: Tool): void;
  method ToolRegistry.register  src/registry.ts:9
    register(tool: Tool): void {
`},
	{"typescript", "hierarchy", Params{Mode: "hierarchy", Symbol: "ToolRegistry"}, `ToolRegistry  (class, src/registry.ts:8)
  → BaseRegistry  src/registry.ts:5  (extends)
  → Registry  src/registry.ts:1  (implements)
  ← SpecialRegistry  src/registry.ts:16  (extends)
  2 supertypes, 1 subtype
`},
	{"typescript", "hierarchy depth 3", Params{Mode: "hierarchy", Symbol: "BaseRegistry", Depth: 3}, `BaseRegistry  (class, src/registry.ts:5)
  ← ToolRegistry  src/registry.ts:8  (extends)
    ← SpecialRegistry  src/registry.ts:16  (extends)
  0 supertypes, 2 subtypes
`},
	{"typescript", "references", Params{Mode: "references", Symbol: "ToolRegistry"}, `ToolRegistry — 7 references: 5 resolved, 0 name-only, 2 heuristic
  Method calls on instances (2) [heuristic: receiver name contains the words of "ToolRegistry"; not counted as resolved]:
    src/service.ts:11  this.toolRegistry.register(tool)
    src/service.ts:15  this.toolRegistry?.getTool?.('x')
  Instantiations (1):
    src/service.ts:5  new ToolRegistry()
  Type annotations (2):
    src/service.ts:4  : ToolRegistry
    src/service.ts:8  : ToolRegistry
  Extends/implements (1):
    src/registry.ts:16  export class SpecialRegistry extends ToolRegistry {}
  Imports (1):
    src/service.ts:1  import { ToolRegistry, type Tool } from './registry.js';
  (exhaustive: no site left unresolved)
`},
	{"typescript", "dependencies", Params{Mode: "dependencies", Target: "src/service.ts"}, `src/service.ts — 3 imports
  → ./registry.js  named { ToolRegistry, Tool }  :1  = src/registry.ts
  → ./util  namespace { util }  :2  = src/util/index.ts
  → ./polyfill  side-effect  :3  = src/polyfill.ts
`},
	{"typescript", "dependencies reverse", Params{Mode: "dependencies", Target: "src/registry.ts", Reverse: true}, `src/registry.ts — 0 imports
Imported by (6):
  ← src/forms.ts:1  import DefaultRegistry from './registry';
  ← src/forms.ts:2  import Base, { Tool as T } from './registry.js';
  ← src/forms.ts:3  import type { Registry } from './registry';
  ← src/main.ts:3  const legacy = require('./registry');
  ← src/service.ts:1  import { ToolRegistry, type Tool } from './registry.js';
  ← src/util/index.ts:6  export * from '../registry';
`},
	{"typescript", "exports", Params{Mode: "exports", Target: "src/registry.ts"}, `src/registry.ts — 6 exports
  interface Registry  :1
  interface Tool  :4
  class BaseRegistry  :5
  class ToolRegistry  :8
  class SpecialRegistry  :16
  default = ToolRegistry  :17
`},
	{"typescript", "empty callers", Params{Mode: "callers", Symbol: "nothingCallsThis"}, `nothingCallsThis()
  (no callers found in .)
note: no typescript file in . mentions nothingCallsThis
`},
	{"typescript", "import forms", Params{Mode: "dependencies", Target: "src/forms.ts"}, `src/forms.ts — 7 imports
  → ./registry  default { DefaultRegistry }  :1  = src/registry.ts
  → ./registry.js  default+named { Base, Tool as T }  :2  = src/registry.ts
  → ./registry  named { Registry }  :3  = src/registry.ts
  → ./util/index  require { legacy }  :4  = src/util/index.ts
  → node:path  namespace { ns }  :5
  → ./service  re-export { all }  :6  = src/service.ts
  → ./service.js  re-export { createRegistry as makeRegistry }  :7  = src/service.ts
`},
	{"typescript", "export forms", Params{Mode: "exports", Target: "src/forms.ts"}, `src/forms.ts — 3 exports
  function build (default)  :8
  re-export all from "./service"  :6
  re-export makeRegistry from "./service.js"  :7
`},
	{"typescript", "exports of a directory", Params{Mode: "exports", Target: "src/util"}, `src/util/index.ts — 4 exports
  function log  :1
  variable VERSION  :4
  named info  :5
  re-export * from "../registry"  :6
`},
	{"typescript", "reverse of a re-exported module", Params{Mode: "dependencies", Target: "src/service.ts", Reverse: true}, `src/service.ts — 3 imports
  → ./registry.js  named { ToolRegistry, Tool }  :1  = src/registry.ts
  → ./util  namespace { util }  :2  = src/util/index.ts
  → ./polyfill  side-effect  :3  = src/polyfill.ts
Imported by (4):
  ← src/forms.ts:6  export * as all from './service';
  ← src/forms.ts:7  export { createRegistry as makeRegistry } from './service.js';
  ← src/main.ts:1  import { Service } from './service.js';
  ← src/view.tsx:1  import { createRegistry } from './service';
`},
	{"typescript", "references with re-exports", Params{Mode: "references", Symbol: "createRegistry"}, `createRegistry — 5 references: 5 resolved, 0 name-only
  Direct calls (3):
    src/service.ts:10  createRegistry()
    src/service.ts:16  createRegistry()
    src/view.tsx:3     createRegistry()
  Imports (1):
    src/view.tsx:1  import { createRegistry } from './service';
  Re-exports (1):
    src/forms.ts:7  export { createRegistry as makeRegistry } from './service.js';
  (exhaustive: no site left unresolved)
`},
	{"typescript", "definitions by kind", Params{Mode: "definitions", Symbol: "Registry"}, `Registry — 1 definition
  interface Registry  src/registry.ts:1
    export interface Registry {
`},
	{"typescript", "scoped to a path", Params{Mode: "callers", Symbol: "createRegistry", Path: "src/service.ts"}, `createRegistry()
  ← init()  src/service.ts:9
    via: this.toolRegistry = createRegistry();
  ← reset()  src/service.ts:14
    via: createRegistry();
  (exhaustive: no site left unresolved)
`},
	{"javascript", "callers depth 2", Params{Mode: "callers", Symbol: "createRegistry", Depth: 2}, `createRegistry()
  ← init()  src/service.js:10
    via: this.toolRegistry = createRegistry();
    ← main()  src/main.cjs:4
      via: s.init('a');
  ← reset()  src/service.js:15
    via: createRegistry();
  (exhaustive: no site left unresolved)
`},
	{"javascript", "callers cycle", Params{Mode: "callers", Symbol: "ping", Depth: 3}, `ping()
  ← main()  src/main.cjs:4
    via: ping(3);
    ← <module>  src/main.cjs:20
      via: main();
  ← pong()  src/main.cjs:14
    via: ping(n);
    ← ping()  src/main.cjs:10  (cycle)
      via: if (n > 0) pong(n - 1);
  (exhaustive: no site left unresolved)
`},
	{"javascript", "callers maxNodes", Params{Mode: "callers", Symbol: "ping", Depth: 3, MaxNodes: 1}, `ping()
  ← main()  src/main.cjs:4
    via: ping(3);
[truncated: maxNodes reached; raise maxNodes or narrow path for more]
`},
	{"javascript", "callees depth 1", Params{Mode: "callees", Symbol: "main"}, `main()  src/main.cjs:4
  → new Service()  src/main.cjs:5
  → s.init('a')  src/main.cjs:6
  → ping(3)  src/main.cjs:7
  → s.builder().with('x').build()  src/main.cjs:8
  (3 of 4 calls resolved to their definitions through imports or scope)
`},
	{"javascript", "callees depth 2", Params{Mode: "callees", Symbol: "main", Depth: 2}, `main()  src/main.cjs:4
  → new Service()  src/main.cjs:5
  → s.init('a')  src/main.cjs:6
    → createRegistry()  src/service.js:11
    → this.toolRegistry.register(tool)  src/service.js:12
    → util.log('ready')  src/service.js:13
  → ping(3)  src/main.cjs:7
    → pong(n - 1)  src/main.cjs:11
  → s.builder().with('x').build()  src/main.cjs:8
  (6 of 8 calls resolved to their definitions through imports or scope)
`},
	{"javascript", "definitions", Params{Mode: "definitions", Symbol: "register"}, `register — 1 definition
  method ToolRegistry.register  src/registry.js:5
    register(tool) {
`},
	{"javascript", "hierarchy", Params{Mode: "hierarchy", Symbol: "ToolRegistry"}, `ToolRegistry  (class, src/registry.js:4)
  → BaseRegistry  src/registry.js:1  (extends)
  ← SpecialRegistry  src/registry.js:12  (extends)
  1 supertype, 1 subtype
`},
	{"javascript", "hierarchy depth 3", Params{Mode: "hierarchy", Symbol: "BaseRegistry", Depth: 3}, `BaseRegistry  (class, src/registry.js:1)
  ← ToolRegistry  src/registry.js:4  (extends)
    ← SpecialRegistry  src/registry.js:12  (extends)
  0 supertypes, 2 subtypes
`},
	{"javascript", "references", Params{Mode: "references", Symbol: "ToolRegistry"}, `ToolRegistry — 5 references: 3 resolved, 0 name-only, 2 heuristic
  Method calls on instances (2) [heuristic: receiver name contains the words of "ToolRegistry"; not counted as resolved]:
    src/service.js:12  this.toolRegistry.register(tool)
    src/service.js:16  this.toolRegistry?.register?.('x')
  Instantiations (1):
    src/service.js:6  new ToolRegistry()
  Extends/implements (1):
    src/registry.js:12  export class SpecialRegistry extends ToolRegistry {}
  Imports (1):
    src/service.js:1  import { ToolRegistry } from './registry.js';
  (exhaustive: no site left unresolved)
`},
	{"javascript", "dependencies", Params{Mode: "dependencies", Target: "src/main.cjs"}, `src/main.cjs — 3 imports
  → ./service.js  named { Service }  :1  = src/service.js
  → ./registry  require { legacy }  :2  = src/registry.js
  → ./util/index.mjs  dynamic  :19  = src/util/index.mjs
`},
	{"javascript", "dependencies reverse", Params{Mode: "dependencies", Target: "src/registry.js", Reverse: true}, `src/registry.js — 0 imports
Imported by (3):
  ← src/main.cjs:2  const legacy = require('./registry');
  ← src/service.js:1  import { ToolRegistry } from './registry.js';
  ← src/util/index.mjs:6  export * from '../registry.js';
`},
	{"javascript", "exports", Params{Mode: "exports", Target: "src/registry.js"}, `src/registry.js — 4 exports
  class BaseRegistry  :1
  class ToolRegistry  :4
  class SpecialRegistry  :12
  default = ToolRegistry  :13
`},
	{"javascript", "empty callers", Params{Mode: "callers", Symbol: "nothingCallsThis"}, `nothingCallsThis()
  (no callers found in .)
note: no javascript file in . mentions nothingCallsThis
`},
	{"javascript", "commonjs exports", Params{Mode: "exports", Target: "src/main.cjs"}, `src/main.cjs — 4 exports
  commonjs main  :17
  commonjs ping  :17
  commonjs extra  :18
  commonjs other  :19
`},
	{"javascript", "export forms", Params{Mode: "exports", Target: "src/util/index.mjs"}, `src/util/index.mjs — 4 exports
  function log  :1
  variable VERSION  :4
  named info  :5
  re-export * from "../registry.js"  :6
`},
	{"python", "callers depth 2", Params{Mode: "callers", Symbol: "create_registry", Depth: 2}, `create_registry()
  ← init()  app/service.py:14
    via: self.tool_registry = create_registry()
    ← main()  app/main.py:7
      via: s.init("a")
  ← reset()  app/service.py:19
    via: reset = lambda self: create_registry()
  (exhaustive: no site left unresolved)
`},
	{"python", "callers cycle", Params{Mode: "callers", Symbol: "ping", Depth: 3}, `ping()
  ← main()  app/main.py:7
    via: ping(3)
    ← <module>  app/main.py:24
      via: main()
  ← pong()  app/main.py:19
    via: ping(n)
    ← ping()  app/main.py:14  (cycle)
      via: pong(n - 1)
  (exhaustive: no site left unresolved)
`},
	{"python", "callers maxNodes", Params{Mode: "callers", Symbol: "ping", Depth: 3, MaxNodes: 1}, `ping()
  ← main()  app/main.py:7
    via: ping(3)
[truncated: maxNodes reached; raise maxNodes or narrow path for more]
`},
	{"python", "callees depth 1", Params{Mode: "callees", Symbol: "main"}, `main()  app/main.py:7
  → Service()  app/main.py:8
  → s.init("a")  app/main.py:9
  → ping(3)  app/main.py:10
  → s.builder().with_("x").build()  app/main.py:11
  (3 of 4 calls resolved to their definitions through imports or scope)
`},
	{"python", "callees depth 2", Params{Mode: "callees", Symbol: "main", Depth: 2}, `main()  app/main.py:7
  → Service()  app/main.py:8
  → s.init("a")  app/main.py:9
    → create_registry()  app/service.py:15
    → self.tool_registry.register(tool)  app/service.py:16
    → util.log.log("ready")  app/service.py:17
  → ping(3)  app/main.py:10
    → pong(n - 1)  app/main.py:16
  → s.builder().with_("x").build()  app/main.py:11
  (6 of 8 calls resolved to their definitions through imports or scope)
`},
	{"python", "definitions", Params{Mode: "definitions", Symbol: "register"}, `register — 2 definitions
  method Registry.register  app/registry.py:8
    def register(self, tool):
  method ToolRegistry.register  app/registry.py:17
    def register(self, tool):
`},
	{"python", "hierarchy", Params{Mode: "hierarchy", Symbol: "ToolRegistry"}, `ToolRegistry  (class, app/registry.py:16)
  → BaseRegistry  app/registry.py:12  (extends)
  ← SpecialRegistry  app/registry.py:24  (extends)
  1 supertype, 1 subtype
`},
	{"python", "hierarchy depth 3", Params{Mode: "hierarchy", Symbol: "Registry", Depth: 3}, `Registry  (class, app/registry.py:7)
  → ABC  not defined in scope  (extends)  [name-only]
  ← BaseRegistry  app/registry.py:12  (extends)
    ← ToolRegistry  app/registry.py:16  (extends)
      ← SpecialRegistry  app/registry.py:24  (extends)
  1 supertype, 3 subtypes
`},
	{"python", "references", Params{Mode: "references", Symbol: "ToolRegistry"}, `ToolRegistry — 6 references: 5 resolved, 0 name-only, 1 heuristic
  Method calls on instances (1) [heuristic: receiver name contains the words of "ToolRegistry"; not counted as resolved]:
    app/service.py:16  self.tool_registry.register(tool)
  Instantiations (1):
    app/service.py:8  ToolRegistry()
  Type annotations (2):
    app/service.py:7   def create_registry() -> ToolRegistry:
    app/service.py:12  tool_registry: ToolRegistry = None
  Extends/implements (1):
    app/registry.py:24  class SpecialRegistry(ToolRegistry):
  Imports (1):
    app/service.py:2  from .registry import ToolRegistry
  (exhaustive: no site left unresolved)
`},
	{"python", "dependencies", Params{Mode: "dependencies", Target: "app/service.py"}, `app/service.py — 5 imports
  → os  module  :1
  → os.path  alias { os.path as osp }  :1
  → .registry  named { ToolRegistry }  :2  = app/registry.py
  → .  named { util }  :3  = app/util/__init__.py
  → .util.log  named { log as info }  :4  = app/util/log.py
`},
	{"python", "dependencies reverse", Params{Mode: "dependencies", Target: "app/registry.py", Reverse: true}, `app/registry.py — 2 imports
  → abc  named { ABC }  :1
  → typing  named { Generic, TypeVar }  :2
Imported by (1):
  ← app/service.py:2  from .registry import ToolRegistry
`},
	{"python", "exports", Params{Mode: "exports", Target: "app/registry.py"}, `app/registry.py — 5 exports
  variable T  :4
  class Registry  :7
  class BaseRegistry  :12
  class ToolRegistry  :16
  class SpecialRegistry  :24
`},
	{"python", "empty callers", Params{Mode: "callers", Symbol: "nothingCallsThis"}, `nothingCallsThis()
  (no callers found in .)
note: no python file in . mentions nothingCallsThis
`},
	{"python", "__all__", Params{Mode: "exports", Target: "app/util"}, `app/util/__init__.py — 2 exports
  __all__ log  :3
  variable VERSION  :4
app/util/log.py — 2 exports
  function log  :1
  variable LEVEL  :9
`},
	{"python", "reverse of a package", Params{Mode: "dependencies", Target: "app/util/log.py", Reverse: true}, `app/util/log.py — 0 imports
Imported by (2):
  ← app/service.py:4  from .util.log import log as info
  ← app/util/__init__.py:1  from .log import *
`},
	{"python", "absolute imports", Params{Mode: "dependencies", Target: "app/main.py"}, `app/main.py — 3 imports
  → importlib  module  :1
  → app.service  named { Service }  :2  = app/service.py
  → app.util  dynamic  :4  = app/util/__init__.py
`},
	{"go", "callers depth 2", Params{Mode: "callers", Symbol: "CreateRegistry", Depth: 2}, `CreateRegistry()
  ← Init()  service/service.go:21
    via: s.toolRegistry = CreateRegistry()
    ← main()  main.go:5
      via: s.Init("a")
  ← Reset()  service/service.go:28
    via: reset := func() { CreateRegistry() }
  (exhaustive: no site left unresolved)
`},
	{"go", "callers cycle", Params{Mode: "callers", Symbol: "ping", Depth: 3}, `ping()
  ← main()  main.go:5
    via: ping(3)
  ← pong()  main.go:19
    via: func pong(n int) { ping(n) }
    ← ping()  main.go:12  (cycle)
      via: pong(n - 1)
  (exhaustive: no site left unresolved)
`},
	{"go", "callers maxNodes", Params{Mode: "callers", Symbol: "ping", Depth: 3, MaxNodes: 1}, `ping()
  ← main()  main.go:5
    via: ping(3)
[truncated: maxNodes reached; raise maxNodes or narrow path for more]
`},
	{"go", "callees depth 1", Params{Mode: "callees", Symbol: "main"}, `main()  main.go:5
  → s.Init("a")  main.go:7
  → ping(3)  main.go:8
  → s.Builder().With("x").Build()  main.go:9
  (2 of 3 calls resolved to their definitions through imports or scope)
`},
	{"go", "callees depth 2", Params{Mode: "callees", Symbol: "main", Depth: 2}, `main()  main.go:5
  → s.Init("a")  main.go:7
    → CreateRegistry()  service/service.go:22
    → s.toolRegistry.Register(tool)  service/service.go:23
    → fmt.Println("ready")  service/service.go:24
  → ping(3)  main.go:8
    → pong(n - 1)  main.go:14
  → s.Builder().With("x").Build()  main.go:9
  (5 of 7 calls resolved to their definitions through imports or scope)
`},
	{"go", "definitions", Params{Mode: "definitions", Symbol: "Register"}, `Register — 2 definitions
  signature Registry.Register  registry/registry.go:6
    Register(tool string)
  method ToolRegistry.Register  registry/registry.go:24
    func (r *ToolRegistry) Register(tool string) { r.items = append(r.items, tool) }
`},
	{"go", "hierarchy", Params{Mode: "hierarchy", Symbol: "ToolRegistry"}, `ToolRegistry  (struct, registry/registry.go:18)
  → BaseRegistry  registry/registry.go:13  (embeds)
  ← SpecialRegistry  registry/registry.go:27  (embeds)
  1 supertype, 1 subtype
`},
	{"go", "hierarchy depth 3", Params{Mode: "hierarchy", Symbol: "Registry", Depth: 3}, `Registry  (interface, registry/registry.go:5)
  ← NamedRegistry  registry/registry.go:30  (embeds)
  0 supertypes, 1 subtype
`},
	{"go", "references", Params{Mode: "references", Symbol: "ToolRegistry"}, `ToolRegistry — 9 references: 8 resolved, 0 name-only, 1 heuristic
  Method calls on instances (1) [heuristic: receiver name contains the words of "ToolRegistry"; not counted as resolved]:
    service/service.go:23  s.toolRegistry.Register(tool)
  Instantiations (2):
    registry/registry.go:36  ToolRegistry{}
    service/service.go:12    reg.ToolRegistry{}
  Type annotations (5):
    registry/registry.go:24  r *ToolRegistry
    registry/registry.go:36  func New() *ToolRegistry { return &ToolRegistry{} }
    registry/registry.go:42  type alias = ToolRegistry
    service/service.go:11    func CreateRegistry() *reg.ToolRegistry {
    service/service.go:17    toolRegistry *reg.ToolRegistry
  Extends/implements (1):
    registry/registry.go:27  type SpecialRegistry struct{ *ToolRegistry }
  (exhaustive: no site left unresolved)
`},
	{"go", "dependencies", Params{Mode: "dependencies", Target: "service/service.go"}, `service/service.go — 3 imports
  → fmt  package  :4
  → example.com/fixture/internal/side  side-effect { _ }  :6  = internal/side
  → example.com/fixture/registry  alias { reg }  :7  = registry
`},
	{"go", "dependencies reverse", Params{Mode: "dependencies", Target: "registry", Reverse: true}, `registry/registry.go — 0 imports
Imported by (1):
  ← service/service.go:7  reg "example.com/fixture/registry"  = registry/registry.go
`},
	{"go", "exports", Params{Mode: "exports", Target: "registry"}, `registry/registry.go — 10 exports
  interface Registry  :5
  interface Named  :10
  struct BaseRegistry  :13
  struct ToolRegistry  :18
  method ToolRegistry.Register  :24
  struct SpecialRegistry  :27
  interface NamedRegistry  :30
  function New  :36
  variable Default  :38
  constant Version  :40
`},
	{"go", "empty callers", Params{Mode: "callers", Symbol: "nothingCallsThis"}, `nothingCallsThis()
  (no callers found in .)
note: no go file in . mentions nothingCallsThis
`},
	{"go", "imports of main", Params{Mode: "dependencies", Target: "main.go"}, `main.go — 1 import
  → example.com/fixture/service  package  :3  = service
`},
	{"rust", "callers depth 2", Params{Mode: "callers", Symbol: "create_registry", Depth: 2}, `create_registry()
  ← init()  src/service.rs:14
    via: self.tool_registry = Some(create_registry());
    ← main()  src/main.rs:7
      via: s.init("a".to_string());
  ← again()  src/service.rs:21
    via: let again = || create_registry();
    ← reset()  src/service.rs:20
      via: again();
  (exhaustive: no site left unresolved)
`},
	{"rust", "callers cycle", Params{Mode: "callers", Symbol: "ping", Depth: 3}, `ping()
  ← main()  src/main.rs:7
    via: ping(3);
  ← pong()  src/main.rs:21
    via: ping(n)
    ← ping()  src/main.rs:14  (cycle)
      via: pong(n - 1);
  (exhaustive: no site left unresolved)
`},
	{"rust", "callers maxNodes", Params{Mode: "callers", Symbol: "ping", Depth: 3, MaxNodes: 1}, `ping()
  ← main()  src/main.rs:7
    via: ping(3);
[truncated: maxNodes reached; raise maxNodes or narrow path for more]
`},
	{"rust", "callees depth 1", Params{Mode: "callees", Symbol: "main"}, `main()  src/main.rs:7
  → s.init("a".to_string())  src/main.rs:9
  → ping(3)  src/main.rs:10
  → s.builder().with("x").build()  src/main.rs:11
  (2 of 3 calls resolved to their definitions through imports or scope)
`},
	{"rust", "callees depth 2", Params{Mode: "callees", Symbol: "main", Depth: 2}, `main()  src/main.rs:7
  → s.init("a".to_string())  src/main.rs:9
    → Some(create_registry())  src/service.rs:15
    → self.tool_registry.as_mut().unwrap().register(tool)  src/service.rs:16
    → info::log("ready")  src/service.rs:17
  → ping(3)  src/main.rs:10
    → pong(n - 1)  src/main.rs:16
  → s.builder().with("x").build()  src/main.rs:11
  (3 of 7 calls resolved to their definitions through imports or scope)
`},
	{"rust", "definitions", Params{Mode: "definitions", Symbol: "register"}, `register — 2 definitions
  signature Registry.register  src/registry.rs:4
    fn register(&mut self, tool: String);
  method ToolRegistry.register  src/registry.rs:32
    fn register(&mut self, tool: String) {
`},
	{"rust", "hierarchy", Params{Mode: "hierarchy", Symbol: "ToolRegistry"}, `ToolRegistry  (struct, src/registry.rs:17)
  → Registry  src/registry.rs:3  (implements)
  → Named  src/registry.rs:7  (implements)
  2 supertypes, 0 subtypes
`},
	{"rust", "hierarchy depth 3", Params{Mode: "hierarchy", Symbol: "Registry", Depth: 3}, `Registry  (trait, src/registry.rs:3)
  → Debug  not defined in scope  (extends)  [name-only]
  ← ToolRegistry  src/registry.rs:31  (implements)
  ← SpecialRegistry  src/registry.rs:43  (extends)
  1 supertype, 2 subtypes
`},
	{"rust", "references", Params{Mode: "references", Symbol: "ToolRegistry"}, `ToolRegistry — 6 references: 5 resolved, 0 name-only, 1 heuristic
  Method calls on instances (1) [heuristic: receiver name contains the words of "ToolRegistry"; not counted as resolved]:
    src/service.rs:16  self.tool_registry.as_mut()
  Instantiations (2):
    src/registry.rs:23  ToolRegistry { base: BaseRegistry::default() }
    src/service.rs:6    ToolRegistry::new()
  Type annotations (2):
    src/service.rs:5   pub fn create_registry() -> ToolRegistry {
    src/service.rs:10  tool_registry: Option<ToolRegistry>
  Imports (1):
    src/service.rs:1  use crate::registry::{Registry, ToolRegistry};
  (exhaustive: no site left unresolved)
`},
	{"rust", "dependencies", Params{Mode: "dependencies", Target: "src/service.rs"}, `src/service.rs — 3 imports
  → crate::registry  named { Registry, ToolRegistry }  :1  = src/registry.rs
  → crate::util  named { log as info }  :2  = src/util/log.rs
  → super::util  wildcard { * }  :3  = src/util/mod.rs
`},
	{"rust", "dependencies reverse", Params{Mode: "dependencies", Target: "src/registry.rs", Reverse: true}, `src/registry.rs — 1 import
  → std::fmt  named { Debug }  :1
Imported by (2):
  ← src/main.rs:1  mod registry;
  ← src/service.rs:1  use crate::registry::{Registry, ToolRegistry};
`},
	{"rust", "exports", Params{Mode: "exports", Target: "src/registry.rs"}, `src/registry.rs — 7 exports
  trait Registry  :3
  trait Named  :7
  struct BaseRegistry  :12
  struct ToolRegistry  :17
  method ToolRegistry.new  :22
  trait SpecialRegistry  :43
  constant VERSION  :45
`},
	{"rust", "empty callers", Params{Mode: "callers", Symbol: "nothingCallsThis"}, `nothingCallsThis()
  (no callers found in .)
note: no rust file in . mentions nothingCallsThis
`},
	{"rust", "mod declarations", Params{Mode: "dependencies", Target: "src/main.rs"}, `src/main.rs — 4 imports
  → registry  mod  :1  = src/registry.rs
  → service  mod  :2  = src/service.rs
  → util  mod  :3  = src/util/mod.rs
  → service  named { Service }  :5  = src/service.rs
`},
	{"rust", "pub use", Params{Mode: "exports", Target: "src/util"}, `src/util/log.rs — 1 export
  function log  :1
src/util/mod.rs — 2 exports
  module log  :1
  re-export log::log as info  :2
`},
	{"rust", "impl blocks", Params{Mode: "definitions", Symbol: "ToolRegistry"}, `ToolRegistry — 4 definitions
  struct ToolRegistry  src/registry.rs:17
    pub struct ToolRegistry {
  impl ToolRegistry  src/registry.rs:21
    impl ToolRegistry {
  impl ToolRegistry  src/registry.rs:31
    impl Registry for ToolRegistry {
  impl ToolRegistry  src/registry.rs:37
    impl Named for ToolRegistry {
`},
	{"rust", "reverse of a module", Params{Mode: "dependencies", Target: "src/util/log.rs", Reverse: true}, `src/util/log.rs — 0 imports
Imported by (3):
  ← src/service.rs:2  use crate::util::log as info;
  ← src/util/mod.rs:1  pub mod log;
  ← src/util/mod.rs:2  pub use log::log as info;
`},
	{"java", "callers depth 2", Params{Mode: "callers", Symbol: "createRegistry", Depth: 2}, `createRegistry()
  ← init()  src/com/example/service/Service.java:14
    via: this.toolRegistry = createRegistry();
    ← main()  src/com/example/Main.java:6
      via: s.init("a");
  ← reset()  src/com/example/service/Service.java:20
    via: Runnable again = () -> createRegistry();
  (exhaustive: no site left unresolved)
`},
	{"java", "callers cycle", Params{Mode: "callers", Symbol: "ping", Depth: 3}, `ping()
  ← main()  src/com/example/Main.java:6
    via: ping(3);
  ← pong()  src/com/example/Main.java:20
    via: ping(n);
    ← ping()  src/com/example/Main.java:13  (cycle)
      via: pong(n - 1);
  (exhaustive: no site left unresolved)
`},
	{"java", "callers maxNodes", Params{Mode: "callers", Symbol: "ping", Depth: 3, MaxNodes: 1}, `ping()
  ← main()  src/com/example/Main.java:6
    via: ping(3);
[truncated: maxNodes reached; raise maxNodes or narrow path for more]
`},
	{"java", "callees depth 1", Params{Mode: "callees", Symbol: "main"}, `Main.main()  src/com/example/Main.java:6
  → new Service()  src/com/example/Main.java:7
  → s.init("a")  src/com/example/Main.java:8
  → ping(3)  src/com/example/Main.java:9
  → s.builder().with("x").build()  src/com/example/Main.java:10
  (3 of 4 calls resolved to their definitions through imports or scope)
`},
	{"java", "callees depth 2", Params{Mode: "callees", Symbol: "main", Depth: 2}, `Main.main()  src/com/example/Main.java:6
  → new Service()  src/com/example/Main.java:7
  → s.init("a")  src/com/example/Main.java:8
    → createRegistry()  src/com/example/service/Service.java:15
    → this.toolRegistry.register(tool)  src/com/example/service/Service.java:16
    → Log.log("ready")  src/com/example/service/Service.java:17
  → ping(3)  src/com/example/Main.java:9
    → pong(n - 1)  src/com/example/Main.java:15
  → s.builder().with("x").build()  src/com/example/Main.java:10
  (7 of 8 calls resolved to their definitions through imports or scope)
`},
	{"java", "definitions", Params{Mode: "definitions", Symbol: "register"}, `register — 2 definitions
  method Registry.register  src/com/example/registry/Registry.java:4
    void register(String tool);
  method ToolRegistry.register  src/com/example/registry/ToolRegistry.java:9
    public void register(String tool) {
`},
	{"java", "hierarchy", Params{Mode: "hierarchy", Symbol: "ToolRegistry"}, `ToolRegistry  (class, src/com/example/registry/ToolRegistry.java:3)
  → BaseRegistry  src/com/example/registry/BaseRegistry.java:6  (extends)
  → Registry  src/com/example/registry/Registry.java:3  (implements)
  → Serializable  not defined in scope  (implements)  [name-only]
  ← SpecialRegistry  src/com/example/registry/ToolRegistry.java:22  (extends)
  3 supertypes, 1 subtype
`},
	{"java", "hierarchy depth 3", Params{Mode: "hierarchy", Symbol: "Named", Depth: 3}, `Named  (interface, src/com/example/registry/Named.java:3)
  ← Registry  src/com/example/registry/Registry.java:3  (extends)
    ← ToolRegistry  src/com/example/registry/ToolRegistry.java:3  (implements)
      ← SpecialRegistry  src/com/example/registry/ToolRegistry.java:22  (extends)
  0 supertypes, 3 subtypes
`},
	{"java", "references", Params{Mode: "references", Symbol: "ToolRegistry"}, `ToolRegistry — 6 references: 5 resolved, 0 name-only, 1 heuristic
  Method calls on instances (1) [heuristic: receiver name contains the words of "ToolRegistry"; not counted as resolved]:
    src/com/example/service/Service.java:16  this.toolRegistry.register(tool)
  Instantiations (1):
    src/com/example/service/Service.java:11  new ToolRegistry()
  Type annotations (2):
    src/com/example/service/Service.java:8   private ToolRegistry toolRegistry;
    src/com/example/service/Service.java:10  public static ToolRegistry createRegistry() {
  Extends/implements (1):
    src/com/example/registry/ToolRegistry.java:22  class SpecialRegistry extends ToolRegistry {
  Imports (1):
    src/com/example/service/Service.java:3  import com.example.registry.ToolRegistry;
  (exhaustive: no site left unresolved)
`},
	{"java", "dependencies", Params{Mode: "dependencies", Target: "src/com/example/service/Service.java"}, `src/com/example/service/Service.java — 3 imports
  → com.example.registry  named { ToolRegistry }  :3  = src/com/example/registry/ToolRegistry.java
  → com.example.util  wildcard { * }  :4  = src/com/example/util
  → com.example.util.Log  named { log }  :5  = src/com/example/util/Log.java
`},
	{"java", "dependencies reverse", Params{Mode: "dependencies", Target: "src/com/example/util/Log.java", Reverse: true}, `src/com/example/util/Log.java — 0 imports
Imported by (2):
  ← src/com/example/service/Service.java:4  import com.example.util.*;
  ← src/com/example/service/Service.java:5  import static com.example.util.Log.log;
`},
	{"java", "exports", Params{Mode: "exports", Target: "src/com/example/util/Log.java"}, `src/com/example/util/Log.java — 2 exports
  class Log  :3
  method Log.log  :4
`},
	{"java", "empty callers", Params{Mode: "callers", Symbol: "nothingCallsThis"}, `nothingCallsThis()
  (no callers found in .)
note: no java file in . mentions nothingCallsThis
`},
	{"java", "reverse of a class", Params{Mode: "dependencies", Target: "src/com/example/registry/ToolRegistry.java", Reverse: true}, `src/com/example/registry/ToolRegistry.java — 0 imports
Imported by (1):
  ← src/com/example/service/Service.java:3  import com.example.registry.ToolRegistry;
`},
	{"java", "public members", Params{Mode: "exports", Target: "src/com/example/registry/ToolRegistry.java"}, `src/com/example/registry/ToolRegistry.java — 4 exports
  class ToolRegistry  :3
  constructor ToolRegistry.ToolRegistry  :4
  method ToolRegistry.register  :9
  method ToolRegistry.name  :13
`},
	{"csharp", "callers depth 2", Params{Mode: "callers", Symbol: "CreateRegistry", Depth: 2}, `CreateRegistry()
  ← Init()  Service/Service.cs:15
    via: this.toolRegistry = CreateRegistry();
    ← Main()  Program.cs:5  [name-only]
      via: s.Init("a");
  ← Again()  Service/Service.cs:24
    via: void Again() => CreateRegistry();
    ← Reset()  Service/Service.cs:22
      via: Again();
  (not exhaustive: 1 of 4 callers matched by name only, marked [name-only]: 1 untyped receiver)
`},
	{"csharp", "callers cycle", Params{Mode: "callers", Symbol: "Ping", Depth: 3}, `Ping()
  ← Main()  Program.cs:5
    via: Ping(3);
  ← Pong()  Program.cs:19
    via: static void Pong(int n) => Ping(n);
    ← Ping()  Program.cs:13  (cycle)
      via: if (n > 0) Pong(n - 1);
  (exhaustive: no site left unresolved)
`},
	{"csharp", "callers maxNodes", Params{Mode: "callers", Symbol: "Ping", Depth: 3, MaxNodes: 1}, `Ping()
  ← Main()  Program.cs:5
    via: Ping(3);
[truncated: maxNodes reached; raise maxNodes or narrow path for more]
`},
	{"csharp", "callees depth 1", Params{Mode: "callees", Symbol: "Main"}, `Program.Main()  Program.cs:5
  → new Service()  Program.cs:7
  → s.Init("a")  Program.cs:8
  → Ping(3)  Program.cs:9
  → s.Builder().With("x").Build()  Program.cs:10
  (1 of 4 calls resolved to their definitions through imports or scope)
`},
	{"csharp", "callees depth 2", Params{Mode: "callees", Symbol: "Main", Depth: 2}, `Program.Main()  Program.cs:5
  → new Service()  Program.cs:7
  → s.Init("a")  Program.cs:8
    → CreateRegistry()  Service/Service.cs:17
    → toolRegistry?.Register(tool)  Service/Service.cs:18
    → Log.Write("ready")  Service/Service.cs:19
  → Ping(3)  Program.cs:9
    → Pong(n - 1)  Program.cs:15
  → s.Builder().With("x").Build()  Program.cs:10
  (3 of 8 calls resolved to their definitions through imports or scope)
`},
	{"csharp", "definitions", Params{Mode: "definitions", Symbol: "Register"}, `Register — 2 definitions
  method IRegistry.Register  Registry/Registry.cs:13
    void Register(string tool);
  method ToolRegistry.Register  Registry/Registry.cs:23
    public void Register(string tool)
`},
	{"csharp", "hierarchy", Params{Mode: "hierarchy", Symbol: "ToolRegistry"}, `ToolRegistry  (class, Registry/Registry.cs:21)
  → BaseRegistry  Registry/Registry.cs:16  (base)
  → IRegistry  Registry/Registry.cs:11  (base)
  ← SpecialRegistry  Registry/Registry.cs:33  (base)
  2 supertypes, 1 subtype
`},
	{"csharp", "hierarchy depth 3", Params{Mode: "hierarchy", Symbol: "INamed", Depth: 3}, `INamed  (interface, Registry/Registry.cs:6)
  ← IRegistry  Registry/Registry.cs:11  (base)
    ← ToolRegistry  Registry/Registry.cs:21  (base)
      ← SpecialRegistry  Registry/Registry.cs:33  (base)
  0 supertypes, 3 subtypes
`},
	{"csharp", "references", Params{Mode: "references", Symbol: "ToolRegistry"}, `ToolRegistry — 5 references: 1 resolved, 3 name-only, 1 heuristic
  Method calls on instances (1) [heuristic: receiver name contains the words of "ToolRegistry"; not counted as resolved]:
    Service/Service.cs:18  toolRegistry?.Register(tool)
  Instantiations (1, 1 name-only):
    Service/Service.cs:12  new ToolRegistry()  [name-only]
  Type annotations (2, 2 name-only):
    Service/Service.cs:8   private ToolRegistry? toolRegistry;  [name-only]
    Service/Service.cs:10  public static ToolRegistry CreateRegistry()  [name-only]
  Extends/implements (1):
    Registry/Registry.cs:33  internal class SpecialRegistry : ToolRegistry
  (not exhaustive: 3 of 4 references matched by name only, marked [name-only]: 3 unbound names)
`},
	{"csharp", "dependencies", Params{Mode: "dependencies", Target: "Service/Service.cs"}, `Service/Service.cs — 2 imports
  → Example.Registry  using  :1
  → Example.Util.Log  alias { Log }  :2
`},
	{"csharp", "dependencies reverse", Params{Mode: "dependencies", Target: "Registry/Registry.cs", Reverse: true}, `Registry/Registry.cs — 2 imports
  → System  using  :1
  → System.Collections.Generic  using  :2
Imported by (1):
  ← Service/Service.cs:1  using Example.Registry;
`},
	{"csharp", "exports", Params{Mode: "exports", Target: "Registry/Registry.cs"}, `Registry/Registry.cs — 7 exports
  interface INamed  :6
  interface IRegistry  :11
  class BaseRegistry  :16
  field BaseRegistry.items  :18
  class ToolRegistry  :21
  method ToolRegistry.Register  :23
  method ToolRegistry.Name  :28
`},
	{"csharp", "empty callers", Params{Mode: "callers", Symbol: "nothingCallsThis"}, `nothingCallsThis()
  (no callers found in .)
note: no csharp file in . mentions nothingCallsThis
`},
	{"csharp", "reverse by namespace", Params{Mode: "dependencies", Target: "Util/Log.cs", Reverse: true}, `Util/Log.cs — 0 imports
Imported by (1):
  ← Service/Service.cs:2  using Log = Example.Util.Log;
`},
	{"kotlin", "callers depth 2", Params{Mode: "callers", Symbol: "createRegistry", Depth: 2}, `createRegistry()
  ← init()  src/main/kotlin/com/example/service/Service.kt:12
    via: this.toolRegistry = createRegistry()
    ← main()  src/main/kotlin/com/example/Main.kt:5  [name-only]
      via: s.init("a")
  ← reset()  src/main/kotlin/com/example/service/Service.kt:18
    via: val reset = { createRegistry() }
  (not exhaustive: 1 of 3 callers matched by name only, marked [name-only]: 1 untyped receiver)
`},
	{"kotlin", "callers cycle", Params{Mode: "callers", Symbol: "ping", Depth: 3}, `ping()
  ← main()  src/main/kotlin/com/example/Main.kt:5
    via: ping(3)
  ← pong()  src/main/kotlin/com/example/Main.kt:19
    via: ping(n)
    ← ping()  src/main/kotlin/com/example/Main.kt:12  (cycle)
      via: pong(n - 1)
  (exhaustive: no site left unresolved)
`},
	{"kotlin", "callers maxNodes", Params{Mode: "callers", Symbol: "ping", Depth: 3, MaxNodes: 1}, `ping()
  ← main()  src/main/kotlin/com/example/Main.kt:5
    via: ping(3)
[truncated: maxNodes reached; raise maxNodes or narrow path for more]
`},
	{"kotlin", "callees depth 1", Params{Mode: "callees", Symbol: "main"}, `main()  src/main/kotlin/com/example/Main.kt:5
  → Service()  src/main/kotlin/com/example/Main.kt:6
  → s.init("a")  src/main/kotlin/com/example/Main.kt:7
  → ping(3)  src/main/kotlin/com/example/Main.kt:8
  → s.builder().with("x").build()  src/main/kotlin/com/example/Main.kt:9
  (2 of 4 calls resolved to their definitions through imports or scope)
`},
	{"kotlin", "callees depth 2", Params{Mode: "callees", Symbol: "main", Depth: 2}, `main()  src/main/kotlin/com/example/Main.kt:5
  → Service()  src/main/kotlin/com/example/Main.kt:6
  → s.init("a")  src/main/kotlin/com/example/Main.kt:7
    → createRegistry()  src/main/kotlin/com/example/service/Service.kt:13
    → toolRegistry?.register(tool)  src/main/kotlin/com/example/service/Service.kt:14
    → Logger.log("ready")  src/main/kotlin/com/example/service/Service.kt:15
  → ping(3)  src/main/kotlin/com/example/Main.kt:8
    → pong(n - 1)  src/main/kotlin/com/example/Main.kt:14
  → s.builder().with("x").build()  src/main/kotlin/com/example/Main.kt:9
  (5 of 8 calls resolved to their definitions through imports or scope)
`},
	{"kotlin", "definitions", Params{Mode: "definitions", Symbol: "register"}, `register — 2 definitions
  method Registry.register  src/main/kotlin/com/example/registry/Registry.kt:8
    fun register(tool: String)
  method ToolRegistry.register  src/main/kotlin/com/example/registry/Registry.kt:16
    override fun register(tool: String) {
`},
	{"kotlin", "hierarchy", Params{Mode: "hierarchy", Symbol: "ToolRegistry"}, `ToolRegistry  (class, src/main/kotlin/com/example/registry/Registry.kt:15)
  → BaseRegistry  src/main/kotlin/com/example/registry/Registry.kt:11  (extends)
  → Registry  src/main/kotlin/com/example/registry/Registry.kt:7  (implements)
  ← SpecialRegistry  src/main/kotlin/com/example/registry/Registry.kt:25  (extends)
  2 supertypes, 1 subtype
`},
	{"kotlin", "hierarchy depth 3", Params{Mode: "hierarchy", Symbol: "Named", Depth: 3}, `Named  (interface, src/main/kotlin/com/example/registry/Registry.kt:3)
  ← Registry  src/main/kotlin/com/example/registry/Registry.kt:7  (implements)
    ← ToolRegistry  src/main/kotlin/com/example/registry/Registry.kt:15  (implements)
      ← SpecialRegistry  src/main/kotlin/com/example/registry/Registry.kt:25  (extends)
  0 supertypes, 3 subtypes
`},
	{"kotlin", "references", Params{Mode: "references", Symbol: "ToolRegistry"}, `ToolRegistry — 6 references: 5 resolved, 0 name-only, 1 heuristic
  Method calls on instances (1) [heuristic: receiver name contains the words of "ToolRegistry"; not counted as resolved]:
    src/main/kotlin/com/example/service/Service.kt:14  toolRegistry?.register(tool)
  Instantiations (1):
    src/main/kotlin/com/example/service/Service.kt:7  ToolRegistry()
  Type annotations (2):
    src/main/kotlin/com/example/service/Service.kt:7   fun createRegistry(): ToolRegistry = ToolRegistry()
    src/main/kotlin/com/example/service/Service.kt:10  private var toolRegistry: ToolRegistry? = null
  Extends/implements (1):
    src/main/kotlin/com/example/registry/Registry.kt:25  class SpecialRegistry : ToolRegistry()
  Imports (1):
    src/main/kotlin/com/example/service/Service.kt:3  import com.example.registry.ToolRegistry
  (exhaustive: no site left unresolved)
`},
	{"kotlin", "dependencies", Params{Mode: "dependencies", Target: "src/main/kotlin/com/example/service/Service.kt"}, `src/main/kotlin/com/example/service/Service.kt — 3 imports
  → com.example.registry  named { ToolRegistry }  :3  = src/main/kotlin/com/example/registry
  → com.example.util  wildcard { * }  :4  = src/main/kotlin/com/example/util
  → com.example.util  named { Log as Logger }  :5  = src/main/kotlin/com/example/util/Log.kt
`},
	{"kotlin", "dependencies reverse", Params{Mode: "dependencies", Target: "src/main/kotlin/com/example/util", Reverse: true}, `src/main/kotlin/com/example/util/Log.kt — 0 imports
Imported by (2):
  ← src/main/kotlin/com/example/service/Service.kt:4  import com.example.util.*  = src/main/kotlin/com/example/util/Log.kt
  ← src/main/kotlin/com/example/service/Service.kt:5  import com.example.util.Log as Logger  = src/main/kotlin/com/example/util/Log.kt
`},
	{"kotlin", "exports", Params{Mode: "exports", Target: "src/main/kotlin/com/example/util"}, `src/main/kotlin/com/example/util/Log.kt — 2 exports
  object Log  :3
  method Log.log  :4
`},
	{"kotlin", "empty callers", Params{Mode: "callers", Symbol: "nothingCallsThis"}, `nothingCallsThis()
  (no callers found in .)
note: no kotlin file in . mentions nothingCallsThis
`},
	{"kotlin", "reverse of a package", Params{Mode: "dependencies", Target: "src/main/kotlin/com/example/registry", Reverse: true}, `src/main/kotlin/com/example/registry/Registry.kt — 0 imports
Imported by (1):
  ← src/main/kotlin/com/example/service/Service.kt:3  import com.example.registry.ToolRegistry  = src/main/kotlin/com/example/registry/Registry.kt
`},
	{"kotlin", "exports", Params{Mode: "exports", Target: "src/main/kotlin/com/example/registry/Registry.kt"}, `src/main/kotlin/com/example/registry/Registry.kt — 10 exports
  interface Named  :3
  method Named.name  :4
  interface Registry  :7
  method Registry.register  :8
  class BaseRegistry  :11
  property BaseRegistry.items  :12
  class ToolRegistry  :15
  method ToolRegistry.register  :16
  method ToolRegistry.name  :20
  class SpecialRegistry  :25
`},
	{"ruby", "callers depth 2", Params{Mode: "callers", Symbol: "create_registry", Depth: 2}, `create_registry()
  ← init()  lib/app/service.rb:11
    via: @tool_registry = create_registry()
    ← main()  lib/main.rb:3  [name-only]
      via: s.init("a")
  ← reset()  lib/app/service.rb:17
    via: again = -> { create_registry() }
  (not exhaustive: 1 of 3 callers matched by name only, marked [name-only]: 1 untyped receiver)
`},
	{"ruby", "callers cycle", Params{Mode: "callers", Symbol: "ping", Depth: 3}, `ping()
  ← main()  lib/main.rb:3
    via: ping(3)
    ← <module>  lib/main.rb:19
      via: main()
  ← pong()  lib/main.rb:15
    via: ping(n)
    ← ping()  lib/main.rb:10  (cycle)
      via: pong(n - 1) if n > 0
  (exhaustive: no site left unresolved)
`},
	{"ruby", "callers maxNodes", Params{Mode: "callers", Symbol: "ping", Depth: 3, MaxNodes: 1}, `ping()
  ← main()  lib/main.rb:3
    via: ping(3)
[truncated: maxNodes reached; raise maxNodes or narrow path for more]
`},
	{"ruby", "callees depth 1", Params{Mode: "callees", Symbol: "main"}, `main()  lib/main.rb:3
  → App::Service.new  lib/main.rb:4
  → s.init("a")  lib/main.rb:5
  → ping(3)  lib/main.rb:6
  → s.builder().with("x").build()  lib/main.rb:7
  (1 of 4 calls resolved to their definitions through imports or scope)
`},
	{"ruby", "callees depth 2", Params{Mode: "callees", Symbol: "main", Depth: 2}, `main()  lib/main.rb:3
  → App::Service.new  lib/main.rb:4
  → s.init("a")  lib/main.rb:5
    → create_registry()  lib/app/service.rb:12
    → @tool_registry.register(tool)  lib/app/service.rb:13
    → Util::Log.log("ready")  lib/app/service.rb:14
  → ping(3)  lib/main.rb:6
    → pong(n - 1)  lib/main.rb:11
  → s.builder().with("x").build()  lib/main.rb:7
  (3 of 8 calls resolved to their definitions through imports or scope)
`},
	{"ruby", "definitions", Params{Mode: "definitions", Symbol: "register"}, `register — 1 definition
  method ToolRegistry.register  lib/app/registry.rb:17
    def register(tool)
`},
	{"ruby", "hierarchy", Params{Mode: "hierarchy", Symbol: "ToolRegistry"}, `ToolRegistry  (class, lib/app/registry.rb:14)
  → BaseRegistry  lib/app/registry.rb:8  (extends)
  ← SpecialRegistry  lib/app/registry.rb:26  (extends)
  1 supertype, 1 subtype
`},
	{"ruby", "hierarchy depth 3", Params{Mode: "hierarchy", Symbol: "BaseRegistry", Depth: 3}, `BaseRegistry  (class, lib/app/registry.rb:8)
  ← ToolRegistry  lib/app/registry.rb:14  (extends)
    ← SpecialRegistry  lib/app/registry.rb:26  (extends)
  0 supertypes, 2 subtypes
`},
	{"ruby", "references", Params{Mode: "references", Symbol: "ToolRegistry"}, `ToolRegistry — 3 references: 1 resolved, 1 name-only, 1 heuristic
  Method calls on instances (1) [heuristic: receiver name contains the words of "ToolRegistry"; not counted as resolved]:
    lib/app/service.rb:13  @tool_registry.register(tool)
  Instantiations (1, 1 name-only):
    lib/app/service.rb:8  ToolRegistry.new  [name-only]
  Extends/implements (1):
    lib/app/registry.rb:26  class SpecialRegistry < App::ToolRegistry
  (not exhaustive: 1 of 2 references matched by name only, marked [name-only]: 1 unbound name)
`},
	{"ruby", "dependencies", Params{Mode: "dependencies", Target: "lib/app/service.rb"}, `lib/app/service.rb — 3 imports
  → registry  require_relative  :1  = lib/app/registry.rb
  → util/log  require_relative  :2  = lib/app/util/log.rb
  → json  require  :3
`},
	{"ruby", "dependencies reverse", Params{Mode: "dependencies", Target: "lib/app/registry.rb", Reverse: true}, `lib/app/registry.rb — 0 imports
Imported by (1):
  ← lib/app/service.rb:1  require_relative 'registry'
`},
	{"ruby", "exports", Params{Mode: "exports", Target: "lib/app/registry.rb"}, `lib/app/registry.rb — 9 exports
  module App  :1
  module App.Named  :2
  method Named.name  :3
  class App.BaseRegistry  :8
  method BaseRegistry.items  :9
  class App.ToolRegistry  :14
  method ToolRegistry.register  :17
  method ToolRegistry.build  :21
  class App.SpecialRegistry  :26
`},
	{"ruby", "empty callers", Params{Mode: "callers", Symbol: "nothingCallsThis"}, `nothingCallsThis()
  (no callers found in .)
note: no ruby file in . mentions nothingCallsThis
`},
	{"ruby", "reverse by require", Params{Mode: "dependencies", Target: "lib/app/service.rb", Reverse: true}, `lib/app/service.rb — 3 imports
  → registry  require_relative  :1  = lib/app/registry.rb
  → util/log  require_relative  :2  = lib/app/util/log.rb
  → json  require  :3
Imported by (1):
  ← lib/main.rb:1  require 'app/service'
`},
	{"php", "callers depth 2", Params{Mode: "callers", Symbol: "createRegistry", Depth: 2}, `createRegistry()
  ← init()  src/Service/Service.php:18
    via: $this->toolRegistry = createRegistry();
    ← main()  src/main.php:6  [name-only]
      via: $s->init('a');
  ← again()  src/Service/Service.php:27
    via: $again = fn() => createRegistry();
    ← reset()  src/Service/Service.php:25
      via: $again();
  (not exhaustive: 1 of 4 callers matched by name only, marked [name-only]: 1 untyped receiver)
`},
	{"php", "callers cycle", Params{Mode: "callers", Symbol: "ping", Depth: 3}, `ping()
  ← main()  src/main.php:6
    via: ping(3);
    ← <module>  src/main.php:27
      via: main();
  ← pong()  src/main.php:22
    via: ping($n);
    ← ping()  src/main.php:14  (cycle)
      via: pong($n - 1);
  (exhaustive: no site left unresolved)
`},
	{"php", "callers maxNodes", Params{Mode: "callers", Symbol: "ping", Depth: 3, MaxNodes: 1}, `ping()
  ← main()  src/main.php:6
    via: ping(3);
[truncated: maxNodes reached; raise maxNodes or narrow path for more]
`},
	{"php", "callees depth 1", Params{Mode: "callees", Symbol: "main"}, `main()  src/main.php:6
  → new Service()  src/main.php:8
  → $s->init('a')  src/main.php:9
  → ping(3)  src/main.php:10
  → $s->builder()->with('x')->build()  src/main.php:11
  (2 of 4 calls resolved to their definitions through imports or scope)
`},
	{"php", "callees depth 2", Params{Mode: "callees", Symbol: "main", Depth: 2}, `main()  src/main.php:6
  → new Service()  src/main.php:8
  → $s->init('a')  src/main.php:9
    → createRegistry()  src/Service/Service.php:20
    → $this->toolRegistry->register($tool)  src/Service/Service.php:21
    → Log::log('ready')  src/Service/Service.php:22
  → ping(3)  src/main.php:10
    → pong($n - 1)  src/main.php:17
  → $s->builder()->with('x')->build()  src/main.php:11
  (5 of 8 calls resolved to their definitions through imports or scope)
`},
	{"php", "definitions", Params{Mode: "definitions", Symbol: "register"}, `register — 2 definitions
  method Registry.register  src/Registry/Registry.php:11
    public function register(string $tool): void;
  method ToolRegistry.register  src/Registry/Registry.php:21
    public function register(string $tool): void
`},
	{"php", "hierarchy", Params{Mode: "hierarchy", Symbol: "ToolRegistry"}, `ToolRegistry  (class, src/Registry/Registry.php:19)
  → BaseRegistry  src/Registry/Registry.php:14  (extends)
  → Registry  src/Registry/Registry.php:9  (implements)
  ← SpecialRegistry  src/Registry/Registry.php:37  (extends)
  2 supertypes, 1 subtype
`},
	{"php", "hierarchy depth 3", Params{Mode: "hierarchy", Symbol: "Named", Depth: 3}, `Named  (interface, src/Registry/Registry.php:4)
  ← Registry  src/Registry/Registry.php:9  (extends)
    ← ToolRegistry  src/Registry/Registry.php:19  (implements)
      ← SpecialRegistry  src/Registry/Registry.php:37  (extends)
  0 supertypes, 3 subtypes
`},
	{"php", "references", Params{Mode: "references", Symbol: "ToolRegistry"}, `ToolRegistry — 6 references: 1 resolved, 4 name-only, 1 heuristic
  Method calls on instances (1) [heuristic: receiver name contains the words of "ToolRegistry"; not counted as resolved]:
    src/Service/Service.php:21  $this->toolRegistry->register($tool)
  Instantiations (1, 1 name-only):
    src/Service/Service.php:11  new ToolRegistry()  [name-only]
  Type annotations (2, 2 name-only):
    src/Service/Service.php:9   function createRegistry(): ToolRegistry  [name-only]
    src/Service/Service.php:16  private ?ToolRegistry $toolRegistry = null;  [name-only]
  Extends/implements (1):
    src/Registry/Registry.php:37  final class SpecialRegistry extends ToolRegistry
  Imports (1, 1 name-only):
    src/Service/Service.php:4  use App\Registry\ToolRegistry;  [name-only]
  (not exhaustive: 4 of 5 references matched by name only, marked [name-only]: 4 unbound names)
`},
	{"php", "dependencies", Params{Mode: "dependencies", Target: "src/Service/Service.php"}, `src/Service/Service.php — 3 imports
  → App\Registry  named { ToolRegistry }  :4
  → App\Util  named { Log, Other as Extra }  :5  = src/Util/Log.php
  → /../Util/helpers.php  require  :7  = src/Util/helpers.php
`},
	{"php", "dependencies reverse", Params{Mode: "dependencies", Target: "src/Util", Reverse: true}, `src/Util/Log.php — 0 imports
src/Util/helpers.php — 0 imports
Imported by (2):
  ← src/Service/Service.php:5  use App\Util\{Log, Other as Extra};  = src/Util/Log.php
  ← src/Service/Service.php:7  require_once __DIR__ . '/../Util/helpers.php'  = src/Util/helpers.php
`},
	{"php", "exports", Params{Mode: "exports", Target: "src/Util"}, `src/Util/Log.php — 2 exports
  class Log  :4
  method Log.log  :6
src/Util/helpers.php — 1 export
  function helper  :2
`},
	{"php", "empty callers", Params{Mode: "callers", Symbol: "nothingCallsThis"}, `nothingCallsThis()
  (no callers found in .)
note: no php file in . mentions nothingCallsThis
`},
	{"php", "reverse by use and require", Params{Mode: "dependencies", Target: "src/Service/Service.php", Reverse: true}, `src/Service/Service.php — 3 imports
  → App\Registry  named { ToolRegistry }  :4
  → App\Util  named { Log, Other as Extra }  :5  = src/Util/Log.php
  → /../Util/helpers.php  require  :7  = src/Util/helpers.php
Imported by (2):
  ← src/main.php:2  use App\Service\Service;
  ← src/main.php:4  require 'Service/Service.php'
`},
	{"php", "exports", Params{Mode: "exports", Target: "src/Registry/Registry.php"}, `src/Registry/Registry.php — 9 exports
  interface Named  :4
  method Named.name  :6
  interface Registry  :9
  method Registry.register  :11
  class BaseRegistry  :14
  class ToolRegistry  :19
  method ToolRegistry.register  :21
  method ToolRegistry.name  :26
  class SpecialRegistry  :37
`},
	{"c", "callers depth 2", Params{Mode: "callers", Symbol: "create_registry", Depth: 2}, `create_registry()
  ← service_init()  src/service.c:7  [name-only]
    via: tool_registry = create_registry();
    ← main()  src/main.c:17  [name-only]
      via: service_init("a");
  ← service_reset()  src/service.c:13  [name-only]
    via: create_registry();
  (not exhaustive: 3 of 3 callers matched by name only, marked [name-only]: 3 unbound names)
`},
	{"c", "callers cycle", Params{Mode: "callers", Symbol: "ping", Depth: 3}, `ping()
  ← pong()  src/main.c:13
    via: ping(n);
    ← ping()  src/main.c:6  (cycle)
      via: pong(n - 1);
  ← main()  src/main.c:17
    via: ping(3);
  (exhaustive: no site left unresolved)
`},
	{"c", "callers maxNodes", Params{Mode: "callers", Symbol: "ping", Depth: 3, MaxNodes: 1}, `ping()
  ← pong()  src/main.c:13
    via: ping(n);
[truncated: maxNodes reached; raise maxNodes or narrow path for more]
`},
	{"c", "callees depth 1", Params{Mode: "callees", Symbol: "main"}, `main()  src/main.c:17
  → service_init("a")  src/main.c:18
  → ping(3)  src/main.c:19
  → builder()->with("x")->build()  src/main.c:20
  (1 of 3 calls resolved to their definitions through imports or scope)
`},
	{"c", "callees depth 2", Params{Mode: "callees", Symbol: "main", Depth: 2}, `main()  src/main.c:17
  → service_init("a")  src/main.c:18
    → create_registry()  src/service.c:8
    → registry_register(tool_registry, tool)  src/service.c:9
    → log_msg("ready")  src/service.c:10
  → ping(3)  src/main.c:19
    → pong(n - 1)  src/main.c:8
  → builder()->with("x")->build()  src/main.c:20
  (2 of 7 calls resolved to their definitions through imports or scope)
`},
	{"c", "definitions", Params{Mode: "definitions", Symbol: "create_registry"}, `create_registry — 2 definitions
  signature create_registry  include/registry.h:15
    ToolRegistry *create_registry(void);
  function create_registry  src/registry.c:8
    ToolRegistry *create_registry(void) {
`},
	{"c", "references", Params{Mode: "references", Symbol: "ToolRegistry"}, `ToolRegistry — 7 references: 7 resolved, 0 name-only
  Type annotations (7):
    include/registry.h:12  ToolRegistry base;
    include/registry.h:15  ToolRegistry *create_registry(void);
    include/registry.h:16  ToolRegistry *r
    src/registry.c:4       const ToolRegistry *r
    src/registry.c:8       ToolRegistry *create_registry(void) {
    src/registry.c:12      ToolRegistry *r
    src/service.c:5        static ToolRegistry *tool_registry;
  (exhaustive: no site left unresolved)
`},
	{"c", "dependencies", Params{Mode: "dependencies", Target: "src/service.c"}, `src/service.c — 3 imports
  → stdio.h  include  :1
  → ../include/registry.h  include  :2  = include/registry.h
  → util/log.h  include  :3  = src/util/log.h
`},
	{"c", "dependencies reverse", Params{Mode: "dependencies", Target: "include/registry.h", Reverse: true}, `include/registry.h — 0 imports
Imported by (2):
  ← src/registry.c:2  #include "registry.h"
  ← src/service.c:2  #include "../include/registry.h"
`},
	{"c", "exports", Params{Mode: "exports", Target: "include/registry.h"}, `include/registry.h — 6 exports
  macro REGISTRY_H  :2
  macro MAX_TOOLS  :4
  type ToolRegistry  :9
  struct SpecialRegistry  :11
  signature create_registry  :15
  signature registry_register  :16
`},
	{"c", "empty callers", Params{Mode: "callers", Symbol: "nothingCallsThis"}, `nothingCallsThis()
  (no callers found in .)
note: no c file in . mentions nothingCallsThis
`},
	{"c", "static is not exported", Params{Mode: "exports", Target: "src/registry.c"}, `src/registry.c — 3 exports
  function create_registry  :8
  function registry_register  :12
  variable registry_version  :18
`},
	{"c", "header exports", Params{Mode: "exports", Target: "include/registry.h"}, `include/registry.h — 6 exports
  macro REGISTRY_H  :2
  macro MAX_TOOLS  :4
  type ToolRegistry  :9
  struct SpecialRegistry  :11
  signature create_registry  :15
  signature registry_register  :16
`},
	{"cpp", "callers depth 2", Params{Mode: "callers", Symbol: "create_registry", Depth: 2}, `create_registry()
  ← init()  src/service.cpp:8  [name-only]
    via: toolRegistry = create_registry();
    ← main()  src/main.cpp:14  [name-only]
      via: s.init("a");
  ← again()  src/service.cpp:14  [name-only]
    via: auto again = [] { return create_registry(); };
    ← reset()  src/service.cpp:13
      via: again();
  (not exhaustive: 3 of 4 callers matched by name only, marked [name-only]: 1 untyped receiver, 2 unbound names)
`},
	{"cpp", "callers cycle", Params{Mode: "callers", Symbol: "ping", Depth: 3}, `ping()
  ← pong()  src/main.cpp:12
    via: static void pong(int n) { ping(n); }
    ← ping()  src/main.cpp:5  (cycle)
      via: pong(n - 1);
  ← main()  src/main.cpp:14
    via: ping(3);
  (exhaustive: no site left unresolved)
`},
	{"cpp", "callers maxNodes", Params{Mode: "callers", Symbol: "ping", Depth: 3, MaxNodes: 1}, `ping()
  ← pong()  src/main.cpp:12
    via: static void pong(int n) { ping(n); }
[truncated: maxNodes reached; raise maxNodes or narrow path for more]
`},
	{"cpp", "callees depth 1", Params{Mode: "callees", Symbol: "main"}, `main()  src/main.cpp:14
  → s.init("a")  src/main.cpp:16
  → ping(3)  src/main.cpp:17
  → s.builder().with("x").build()  src/main.cpp:18
  (1 of 3 calls resolved to their definitions through imports or scope)
`},
	{"cpp", "callees depth 2", Params{Mode: "callees", Symbol: "main", Depth: 2}, `main()  src/main.cpp:14
  → s.init("a")  src/main.cpp:16
    → create_registry()  src/service.cpp:9
    → toolRegistry->add(tool)  src/service.cpp:10
    → util::log("ready")  src/service.cpp:11
  → ping(3)  src/main.cpp:17
    → pong(n - 1)  src/main.cpp:7
  → s.builder().with("x").build()  src/main.cpp:18
  (2 of 7 calls resolved to their definitions through imports or scope)
`},
	{"cpp", "definitions", Params{Mode: "definitions", Symbol: "add"}, `add — 3 definitions
  method ToolRegistry.add  src/registry.cpp:5
    void ToolRegistry::add(const std::string& tool) { items.push_back(tool); }
  signature Registry.add  src/registry.h:15
    virtual void add(const std::string& tool) = 0;
  signature ToolRegistry.add  src/registry.h:24
    void add(const std::string& tool) override;
`},
	{"cpp", "hierarchy", Params{Mode: "hierarchy", Symbol: "ToolRegistry"}, `ToolRegistry  (class, src/registry.h:22)
  → BaseRegistry  src/registry.h:18  (extends)
  → Registry  src/registry.h:13  (extends)
  ← SpecialRegistry  src/registry.h:31  (extends)
  2 supertypes, 1 subtype
`},
	{"cpp", "hierarchy depth 3", Params{Mode: "hierarchy", Symbol: "Named", Depth: 3}, `Named  (class, src/registry.h:7)
  ← Registry  src/registry.h:13  (extends)
    ← ToolRegistry  src/registry.h:22  (extends)
      ← SpecialRegistry  src/registry.h:31  (extends)
  0 supertypes, 3 subtypes
`},
	{"cpp", "references", Params{Mode: "references", Symbol: "ToolRegistry"}, `ToolRegistry — 6 references: 5 resolved, 0 name-only, 1 heuristic
  Method calls on instances (1) [heuristic: receiver name contains the words of "ToolRegistry"; not counted as resolved]:
    src/service.cpp:10  toolRegistry->add(tool)
  Instantiations (1):
    src/registry.cpp:9  new ToolRegistry()
  Type annotations (3):
    src/registry.cpp:9  ToolRegistry* create_registry() { return new ToolRegistry(); }
    src/registry.h:33   ToolRegistry* create_registry();
    src/service.cpp:19  ToolRegistry* toolRegistry = nullptr;
  Extends/implements (1):
    src/registry.h:31  class SpecialRegistry final : public ToolRegistry {};
  (exhaustive: no site left unresolved)
`},
	{"cpp", "dependencies", Params{Mode: "dependencies", Target: "src/service.cpp"}, `src/service.cpp — 2 imports
  → registry.h  include  :1  = src/registry.h
  → util/log.h  include  :2  = src/util/log.h
`},
	{"cpp", "dependencies reverse", Params{Mode: "dependencies", Target: "src/registry.h", Reverse: true}, `src/registry.h — 2 imports
  → string  include  :2
  → vector  include  :3
Imported by (3):
  ← src/main.cpp:1  #include "registry.h"
  ← src/registry.cpp:1  #include "registry.h"
  ← src/service.cpp:1  #include "registry.h"
`},
	{"cpp", "exports", Params{Mode: "exports", Target: "src/registry.h"}, `src/registry.h — 6 exports
  class Named  :7
  class Registry  :13
  struct BaseRegistry  :18
  class ToolRegistry  :22
  class SpecialRegistry  :31
  signature create_registry  :33
`},
	{"cpp", "empty callers", Params{Mode: "callers", Symbol: "nothingCallsThis"}, `nothingCallsThis()
  (no callers found in .)
note: no cpp file in . mentions nothingCallsThis
`},
	{"cpp", "out-of-line methods", Params{Mode: "exports", Target: "src/registry.cpp"}, `src/registry.cpp — 3 exports
  method ToolRegistry.add  :5
  method ToolRegistry.count  :7
  function create_registry  :9
`},
	{"cpp", "definitions", Params{Mode: "definitions", Symbol: "add"}, `add — 3 definitions
  method ToolRegistry.add  src/registry.cpp:5
    void ToolRegistry::add(const std::string& tool) { items.push_back(tool); }
  signature Registry.add  src/registry.h:15
    virtual void add(const std::string& tool) = 0;
  signature ToolRegistry.add  src/registry.h:24
    void add(const std::string& tool) override;
`},
}

func TestFixtures(t *testing.T) {
	for _, c := range fixtureCases {
		t.Run(c.dir+"/"+c.name, func(t *testing.T) {
			p := c.p
			p.Language = c.dir
			r, err := analyze(context.Background(), Config{Workspace: filepath.Join(fixtureRoot, c.dir)}, p)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Text(); got != c.want {
				t.Errorf("%s %+v\n--- got\n%s--- want\n%s", c.dir, p, got, c.want)
			}
		})
	}
}
