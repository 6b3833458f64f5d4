package analysis

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// treeSet lists a callers tree, every level, as "depth name file
// confidence", breadth first.
func treeSet(ns []CallNode) []string {
	var out []string
	level := ns
	for d := 1; len(level) > 0; d++ {
		var next []CallNode
		for _, n := range level {
			out = append(out, strconv.Itoa(d)+" "+n.Name+" "+n.File+" "+n.Confidence)
			next = append(next, n.Children...)
		}
		level = next
	}
	return out
}

// npmWorkspace is a monorepo of three packages, each importing the next
// by name: @x/app -> @x/ui (its package.json's source field) -> @x/core
// (exports naming build output that is not in the tree, mapped back to
// src/). mid and top are also defined elsewhere, so only the imports
// tell the calls apart.
var npmWorkspace = map[string]string{
	"package.json":                  `{"name": "root", "private": true, "workspaces": ["packages/*"]}`,
	"packages/core/package.json":    `{"name": "@x/core", "exports": {".": {"types": "./dist/index.d.ts", "import": "./dist/index.mjs"}}}`,
	"packages/core/src/index.ts":    "export { base } from './base';\nexport { mid } from './mid';\n",
	"packages/core/src/base.ts":     "export function base() { return 1; }\n",
	"packages/core/src/mid.ts":      "import { base } from './base';\nexport function mid() { return base(); }\n",
	"packages/ui/package.json":      `{"name": "@x/ui", "source": "src/index.ts", "main": "dist/index.js"}`,
	"packages/ui/src/index.ts":      "export { top } from './top';\n",
	"packages/ui/src/top.ts":        "import { mid } from '@x/core';\nexport function top() { return mid(); }\n",
	"packages/app/package.json":     `{"name": "@x/app"}`,
	"packages/app/src/app.ts":       "import { top } from '@x/ui';\nexport function main() { return top(); }\n",
	"packages/app/src/dup.ts":       "export function mid() { return 0; }\nexport function top() { return 0; }\nexport function base() { return 0; }\n",
	"packages/app/src/unrelated.ts": "import { base } from 'other-lib';\nexport function elsewhere() { return base(); }\n",
}

// with returns files with more files added (or replaced).
func with(files map[string]string, more map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range files {
		out[k] = v
	}
	for k, v := range more {
		if v == "" {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

// TestWorkspaceResolution: imports naming a package of the workspace
// (by its package.json name and exports, npm or pnpm workspaces, tsconfig
// paths, go.work, a Python package root) resolve to its sources, at every
// depth of a callers tree; a broken manifest is skipped with a note.
func TestWorkspaceResolution(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		p     Params
		want  []string
		note  string // a note the answer carries
	}{
		{
			name: "self-import by package name with an export condition",
			files: map[string]string{
				"package.json": `{"name": "zlib", "exports": {
  ".": {"@zlib/source": "./src/index.ts", "types": "./index.d.ts", "import": "./index.js"},
  "./core": {"@zlib/source": "./src/core/index.ts", "types": "./core/index.d.ts", "import": "./core/index.js"}}}`,
				"index.d.ts":             "export declare function parse(s: string): string;\n",
				"core/index.d.ts":        "export declare function parse(s: string): string;\n",
				"src/index.ts":           "export * from './core/index.js';\n",
				"src/core/index.ts":      "export { parse } from './parsing.js';\n",
				"src/core/parsing.ts":    "export function parse(s: string) { return s; }\n",
				"src/other/alt.ts":       "export function parse(s: string) { return s + 1; }\n",
				"src/api.ts":             "import { parse } from 'zlib/core';\nexport function run() { return parse('x'); }\n",
				"src/classic/schemas.ts": "import * as z from 'zlib';\nexport function check() { return z.parse('y'); }\n",
			},
			p:    Params{Mode: "callers", Language: "typescript", Symbol: "parsing.parse"},
			want: []string{"1 run src/api.ts resolved", "1 check src/classic/schemas.ts resolved"},
		},
		{
			name:  "workspace package by name, npm workspaces, build output mapped to src",
			files: npmWorkspace,
			p:     Params{Mode: "callers", Language: "typescript", Symbol: "mid.mid"},
			want:  []string{"1 top packages/ui/src/top.ts resolved"},
		},
		{
			name: "workspace package by name, pnpm-workspace.yaml",
			files: with(npmWorkspace, map[string]string{
				"package.json":        `{"name": "root", "private": true}`,
				"pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n  - '!packages/ignored'\n",
			}),
			p:    Params{Mode: "callers", Language: "typescript", Symbol: "top.top"},
			want: []string{"1 main packages/app/src/app.ts resolved"},
		},
		{
			name: "subpath export pattern",
			files: map[string]string{
				"package.json":                  `{"workspaces": {"packages": ["libs/**"]}}`,
				"libs/shapes/package.json":      `{"name": "shapes", "exports": {".": "./src/index.ts", "./features/*": {"types": "./dist/features/*.d.ts", "default": "./src/features/*.ts"}}}`,
				"libs/shapes/src/index.ts":      "export {};\n",
				"libs/shapes/src/features/a.ts": "export function draw() { return 1; }\n",
				"apps/web/b.ts":                 "export function draw() { return 2; }\n",
				"apps/web/page.ts":              "import { draw } from 'shapes/features/a';\nexport function render() { return draw(); }\n",
			},
			p:    Params{Mode: "callers", Language: "typescript", Symbol: "a.draw"},
			want: []string{"1 render apps/web/page.ts resolved"},
		},
		{
			name: "tsconfig paths through extends, JSON with comments",
			files: map[string]string{
				"tsconfig.base.json": `{
  // shared settings
  "compilerOptions": {
    "baseUrl": ".",
    "paths": { "@lib/*": ["libs/*/src/index.ts"], }, /* trailing commas */
  },
}`,
				"apps/web/tsconfig.json":    `{ "extends": "../../tsconfig.base.json", "compilerOptions": { "strict": true } }`,
				"libs/shapes/src/index.ts":  "export { draw } from './draw';\n",
				"libs/shapes/src/draw.ts":   "export function draw() { return 1; }\n",
				"apps/web/src/more.ts":      "export function draw() { return 2; }\n",
				"apps/web/src/page.ts":      "import { draw } from '@lib/shapes';\nexport function render() { return draw(); }\n",
				"apps/web/src/elsewhere.ts": "import { draw } from 'lib-shapes';\nexport function other() { return draw(); }\n",
			},
			p:    Params{Mode: "callers", Language: "typescript", Symbol: "draw.draw"},
			want: []string{"1 render apps/web/src/page.ts resolved"},
		},
		{
			name: "go.work use",
			files: map[string]string{
				"go.work":             "go 1.22\n\nuse (\n\t./svc\n\t./lib\n)\n",
				"lib/go.mod":          "module example.com/lib\n\ngo 1.22\n",
				"lib/store/store.go":  "package store\n\nfunc Load() int { return 1 }\n",
				"svc/go.mod":          "module example.com/svc\n\ngo 1.22\n",
				"svc/main.go":         "package main\n\nimport \"example.com/lib/store\"\n\nfunc main() { store.Load() }\n",
				"svc/other/store.go":  "package store\n\nfunc Load() int { return 2 }\n",
				"svc/other/caller.go": "package store\n\nfunc use() int { return Load() }\n",
			},
			p:    Params{Mode: "callers", Language: "go", Symbol: "lib/store.Load"},
			want: []string{"1 main svc/main.go resolved"},
		},
		{
			name: "go.mod replace with a local folder",
			files: map[string]string{
				"lib/go.mod":         "module example.com/lib\n\ngo 1.22\n",
				"lib/store/store.go": "package store\n\nfunc Load() int { return 1 }\n",
				"svc/go.mod":         "module example.com/svc\n\ngo 1.22\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n",
				"svc/main.go":        "package main\n\nimport \"example.com/lib/store\"\n\nfunc main() { store.Load() }\n",
				"svc/other/store.go": "package store\n\nfunc Load() int { return 2 }\n",
			},
			p:    Params{Mode: "callers", Language: "go", Symbol: "lib/store.Load"},
			want: []string{"1 main svc/main.go resolved"},
		},
		{
			name: "Python src layout",
			files: map[string]string{
				"pyproject.toml":        "[project]\nname = \"acme\"\n",
				"src/acme/__init__.py":  "",
				"src/acme/core.py":      "def load():\n    return 1\n",
				"tests/test_core.py":    "from acme.core import load\n\ndef test_load():\n    load()\n",
				"tools/extra.py":        "def load():\n    return 2\n",
				"tools/use_external.py": "from requests import load\n\ndef fetch():\n    load()\n",
			},
			p:    Params{Mode: "callers", Language: "python", Symbol: "core.load"},
			want: []string{"1 test_load tests/test_core.py resolved"},
		},
		{
			name: "Python package beside its pyproject.toml",
			files: map[string]string{
				"libs/acme-b/pyproject.toml":    "[project]\nname = \"acme-b\"\n",
				"libs/acme-b/acmeb/__init__.py": "",
				"libs/acme-b/acmeb/api.py":      "def serve():\n    return 1\n",
				"apps/site/main.py":             "from acmeb import api\n\ndef run():\n    api.serve()\n",
				"apps/site/local.py":            "def serve():\n    return 2\n",
			},
			p:    Params{Mode: "callers", Language: "python", Symbol: "api.serve"},
			want: []string{"1 run apps/site/main.py resolved"},
		},
		{
			name:  "depth-3 callers across workspace packages",
			files: npmWorkspace,
			p:     Params{Mode: "callers", Language: "typescript", Symbol: "base.base", Depth: 3},
			want: []string{"1 mid packages/core/src/mid.ts resolved", "2 top packages/ui/src/top.ts resolved",
				"3 main packages/app/src/app.ts resolved"},
		},
		{
			name: "a broken package.json is skipped with a note",
			files: with(npmWorkspace, map[string]string{
				"packages/broken/package.json": `{"name": "@x/broken", `,
				"packages/broken/src/index.ts": "export function mid() { return 3; }\n",
			}),
			p:    Params{Mode: "callers", Language: "typescript", Symbol: "mid.mid"},
			want: []string{"1 top packages/ui/src/top.ts resolved"},
			note: "skipped packages/broken/package.json: invalid JSON",
		},
		{
			name: "a broken pnpm-workspace.yaml is skipped with a note",
			files: with(npmWorkspace, map[string]string{
				"pnpm-workspace.yaml": "packages: [unclosed\n",
			}),
			p:    Params{Mode: "callers", Language: "typescript", Symbol: "mid.mid"},
			want: []string{"1 top packages/ui/src/top.ts resolved"},
			note: "skipped pnpm-workspace.yaml: invalid YAML",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := project(t, tc.files)
			r := run(t, dir, tc.p)
			sameList(t, tc.p.Symbol, treeSet(r.Callers), tc.want)
			if tc.note != "" && !strings.Contains(strings.Join(r.Notes, "\n"), tc.note) {
				t.Errorf("notes %q lack %q", r.Notes, tc.note)
			}
		})
	}
}

// TestWorkspaceGlobLoop: a "**" workspace glob over a symlink loop ends,
// bounded by the folders it may visit, and the packages it reached still
// resolve.
func TestWorkspaceGlobLoop(t *testing.T) {
	dir := project(t, with(npmWorkspace, map[string]string{
		"package.json": `{"name": "root", "private": true, "workspaces": ["packages/**"]}`,
	}))
	if err := os.Symlink("..", filepath.Join(dir, "packages", "core", "loop")); err != nil {
		t.Skipf("symlinks: %v", err)
	}
	r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "top.top"})
	sameList(t, "callers of top.top", treeSet(r.Callers), []string{"1 main packages/app/src/app.ts resolved"})
}

// TestWorkspacePackageWithoutEntry: an import naming a package of the
// workspace whose entry file is missing is not another package's: a name
// it binds stays name-only to the workspace's definition, as an
// unresolved relative import does, where an unknown package's is
// external (no file).
func TestWorkspacePackageWithoutEntry(t *testing.T) {
	dir := project(t, map[string]string{
		"package.json":               `{"name": "root", "workspaces": ["packages/*"]}`,
		"packages/base/package.json": `{"name": "@x/base", "main": "dist/index.js"}`,
		"packages/base/lib/base.ts":  "export class Base {}\n",
		"packages/app/one.ts":        "import { Base } from '@x/base';\nexport class One extends Base {}\n",
		"packages/app/two.ts":        "import { Base } from 'some-package';\nexport class Two extends Base {}\n",
	})
	for _, tc := range []struct{ class, want string }{
		{"One", "Base packages/base/lib/base.ts name-only"},
		{"Two", "Base  name-only"},
	} {
		r := run(t, dir, Params{Mode: "hierarchy", Language: "typescript", Symbol: tc.class})
		var got []string
		for _, s := range r.Hierarchy.Supertypes {
			got = append(got, s.Name+" "+s.File+" "+s.Confidence)
		}
		sameList(t, "supertypes of "+tc.class, got, []string{tc.want})
	}
}

// TestWorkspaceGlobBound: workspace globs naming more folders than
// wsMaxDirs stop there with a note; the packages reached before resolve.
func TestWorkspaceGlobBound(t *testing.T) {
	dir := project(t, with(npmWorkspace, map[string]string{
		"package.json": `{"name": "root", "private": true, "workspaces": ["packages/*", "many/*"]}`,
	}))
	for i := 0; i <= wsMaxDirs; i++ {
		if err := os.MkdirAll(filepath.Join(dir, "many", "d"+strconv.Itoa(i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "top.top"})
	sameList(t, "callers of top.top", treeSet(r.Callers), []string{"1 main packages/app/src/app.ts resolved"})
	want := "the workspace globs name more than " + strconv.Itoa(wsMaxDirs) + " folders"
	if !strings.Contains(strings.Join(r.Notes, "\n"), want) {
		t.Errorf("notes %q lack %q", r.Notes, want)
	}
}

// TestWorkspaceNestedGoModule: an import path under a go.work module
// nested in the main module's path resolves to that module's folder, not
// to the folder the main module's path would name.
func TestWorkspaceNestedGoModule(t *testing.T) {
	dir := project(t, map[string]string{
		"go.work":             "go 1.22\n\nuse (\n\t.\n\t./toolsmod\n)\n",
		"go.mod":              "module example.com/m\n\ngo 1.22\n",
		"main.go":             "package main\n\nimport \"example.com/m/tools/gen\"\n\nfunc main() { gen.Run() }\n",
		"toolsmod/go.mod":     "module example.com/m/tools\n\ngo 1.22\n",
		"toolsmod/gen/gen.go": "package gen\n\nfunc Run() int { return 1 }\n",
		"tools/gen/decoy.go":  "package gen\n\nfunc Run() int { return 2 }\n",
	})
	r := run(t, dir, Params{Mode: "dependencies", Language: "go", Target: "main.go"})
	var got []string
	for _, d := range r.Dependencies {
		for _, imp := range d.Imports {
			got = append(got, imp.Source+" "+imp.Resolved)
		}
	}
	sameList(t, "imports of main.go", got, []string{"example.com/m/tools/gen toolsmod/gen"})
}
