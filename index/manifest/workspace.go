package manifest

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// manifestOf names the manifest a member directory of a workspace of
// each kind must hold ("" for Gradle, whose projects need only a
// directory).
var manifestOf = map[Kind][]string{
	NPM: {"package.json"}, Go: {"go.mod"}, Cargo: {"Cargo.toml"}, Python: {"pyproject.toml"}, Maven: {"pom.xml"},
}

// resolveWorkspaces expands each workspace's members against the
// directories of the walk (dirs: directory → manifest names in it; all:
// every directory), records membership in the packages' metadata and
// reports members that are missing and workspaces that contain each
// other in a cycle.
func resolveWorkspaces(pkgs []Package, wss []workspace, dirs map[string]map[string]bool, all map[string]bool) []Problem {
	var problems []Problem
	byDir := map[string][]int{} // dir → indexes of its packages
	for i, p := range pkgs {
		byDir[p.Path] = append(byDir[p.Path], i)
	}
	holds := func(dir string, k Kind) bool {
		want := manifestOf[k]
		if len(want) == 0 {
			return all[dir]
		}
		for _, m := range want {
			if dirs[dir][m] {
				return true
			}
		}
		return false
	}
	edges := map[string][]string{} // "kind dir" → member dirs, for cycles
	sortedDirs := make([]string, 0, len(all))
	for d := range all {
		sortedDirs = append(sortedDirs, d)
	}
	slices.SortFunc(sortedDirs, compareFiles)
	for _, ws := range wss {
		var members []string
		seen := map[string]bool{}
		add := func(d string) {
			if !seen[d] && d != ws.dir {
				seen[d] = true
				members = append(members, d)
			}
		}
		var excl []string
		for _, e := range ws.exclude {
			if p, ok := join(ws.dir, e); ok {
				excl = append(excl, p)
			}
		}
		for _, m := range ws.members {
			if strings.HasPrefix(m, "!") {
				if p, ok := join(ws.dir, m[1:]); ok {
					excl = append(excl, p)
				}
				continue
			}
			base := ws.dir
			if ws.rooted {
				base = "."
			}
			target, ok := join(base, strings.TrimSuffix(m, "/"))
			if !ok {
				problems = append(problems, Problem{ws.file, fmt.Errorf("workspace member %q leaves the repository", m)})
				continue
			}
			if ws.glob && strings.ContainsAny(m, "*?[{") {
				n := 0
				for _, d := range sortedDirs {
					if match, _ := doublestar.Match(target, d); match && holds(d, ws.kind) {
						add(d)
						n++
					}
				}
				if n == 0 {
					problems = append(problems, Problem{ws.file, fmt.Errorf("workspace member pattern %q matches no %s package", m, ws.kind)})
				}
				continue
			}
			if !holds(target, ws.kind) {
				what := "directory"
				if w := manifestOf[ws.kind]; len(w) > 0 {
					what = w[0]
				}
				problems = append(problems, Problem{ws.file, fmt.Errorf("workspace member %q is missing: no %s in %s", m, what, target)})
				continue
			}
			add(target)
		}
		members = slices.DeleteFunc(members, func(d string) bool {
			for _, e := range excl {
				if match, _ := doublestar.Match(e, d); match {
					return true
				}
			}
			return false
		})
		key := string(ws.kind) + " " + ws.dir
		edges[key] = append(edges[key], members...)
		for _, i := range byDir[ws.dir] {
			if pkgs[i].Kind == ws.kind {
				pkgs[i].Metadata["workspace_members"] = members
			}
		}
		for _, d := range members {
			for _, i := range byDir[d] {
				if pkgs[i].Kind == ws.kind {
					pkgs[i].Metadata["workspace"] = ws.file
					if ws.inherit != nil {
						ws.inherit.apply(&pkgs[i])
					}
				}
			}
		}
	}
	return append(problems, cycles(wss, edges)...)
}

// cycles reports each workspace whose members, followed through the
// members' own workspaces, lead back to it.
func cycles(wss []workspace, edges map[string][]string) []Problem {
	var problems []Problem
	reported := map[string]bool{}
	for _, ws := range wss {
		start := string(ws.kind) + " " + ws.dir
		if reported[start] {
			continue
		}
		// Depth-first from start, looking for start again.
		var stack []string
		onPath := map[string]bool{}
		var visit func(key string) []string
		visit = func(key string) []string {
			stack = append(stack, key)
			onPath[key] = true
			for _, d := range edges[key] {
				next := string(ws.kind) + " " + d
				if next == start {
					return append(slices.Clone(stack), next)
				}
				if !onPath[next] {
					if c := visit(next); c != nil {
						return c
					}
				}
			}
			stack = stack[:len(stack)-1]
			return nil
		}
		if c := visit(start); c != nil {
			for i, k := range c {
				reported[k] = true
				c[i] = strings.TrimPrefix(k, string(ws.kind)+" ")
			}
			problems = append(problems, Problem{ws.file, fmt.Errorf("workspace cycle: %s", strings.Join(c, " → "))})
		}
	}
	return problems
}

// family groups the kinds whose packages depend on each other by name:
// Maven and Gradle share the JVM's group:artifact coordinates.
func family(k Kind) Kind {
	if k == Gradle {
		return Maven
	}
	return k
}

// normalName is the name packages are compared by: Python's names are
// case-insensitive with runs of -, _ and . equal (PEP 503).
func normalName(k Kind, name string) string {
	if k != Python {
		return name
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r == '-' || r == '_' || r == '.' {
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteRune(r)
	}
	return b.String()
}

// markInternal marks the dependencies naming another package of the
// repository in the same ecosystem.
func markInternal(pkgs []Package) {
	names := map[Kind]map[string]bool{}
	for _, p := range pkgs {
		f := family(p.Kind)
		if names[f] == nil {
			names[f] = map[string]bool{}
		}
		names[f][normalName(p.Kind, p.Name)] = true
		if g, _ := p.Metadata["group"].(string); g != "" && p.Kind == Gradle {
			names[f][g+":"+p.Name] = true
		}
	}
	for i := range pkgs {
		p := &pkgs[i]
		self := normalName(p.Kind, p.Name)
		for j := range p.Dependencies {
			d := &p.Dependencies[j]
			n := normalName(p.Kind, d.Name)
			if n != self && names[family(p.Kind)][n] {
				d.Internal = true
			}
		}
	}
}

// dirName is the last element of a directory relative to the root, or
// root's name for the root itself.
func dirName(dir, root string) string {
	if dir == "." {
		return root
	}
	return path.Base(dir)
}
