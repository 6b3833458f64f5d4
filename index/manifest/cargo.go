package manifest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// table reads a TOML table (a map) at a dotted key path, nil when absent
// or not a table.
func table(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil
		}
		m = next
	}
	return m
}

// str reads a string value, "" when absent or not a string.
func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// strs reads an array of strings, dropping values of other types.
func strs(v any) []string {
	arr, _ := v.([]any)
	var out []string
	for _, x := range arr {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func decodeTOML(src []byte) (map[string]any, error) {
	var m map[string]any
	if _, err := toml.Decode(string(src), &m); err != nil {
		return nil, fmt.Errorf("invalid TOML: %w", err)
	}
	return m, nil
}

func parseCargo(file, dir string, src []byte) (parsed, error) {
	m, err := decodeTOML(src)
	if err != nil {
		return parsed{}, err
	}
	var out parsed
	wsTable := table(m, "workspace")
	if wsTable != nil {
		out.workspaces = append(out.workspaces, workspace{file: file, dir: dir, kind: Cargo,
			members: strs(wsTable["members"]), exclude: strs(wsTable["exclude"]), glob: true,
			inherit: &cargoInherit{fields: table(wsTable, "package"), deps: table(wsTable, "dependencies")}})
	}
	pkg := table(m, "package")
	if pkg == nil {
		// A virtual manifest: a workspace, not a package.
		if wsTable == nil {
			return parsed{}, fmt.Errorf("Cargo.toml has neither [package] nor [workspace]")
		}
		return out, nil
	}
	field := func(key string) (string, bool) {
		switch v := pkg[key].(type) {
		case string:
			return v, false
		case map[string]any:
			if v["workspace"] == true {
				return "", true
			}
		}
		return "", false
	}
	p := Package{Name: str(pkg, "name"), Path: dir, Kind: Cargo, Manifest: file, Metadata: map[string]any{}}
	var fromWS []string
	var inh bool
	if p.Version, inh = field("version"); inh {
		fromWS = append(fromWS, "version")
	}
	if p.Description, inh = field("description"); inh {
		fromWS = append(fromWS, "description")
	}
	for _, k := range []string{"edition", "license", "rust-version", "repository"} {
		v, inh := field(k)
		if inh {
			fromWS = append(fromWS, k)
		}
		if v != "" {
			p.Metadata[k] = v
		}
	}
	if len(fromWS) > 0 {
		p.Metadata["inherited_from_workspace"] = fromWS
	}
	if p.Name == "" {
		return parsed{}, fmt.Errorf("[package] has no name")
	}
	add := func(deps map[string]any, kind DepKind) {
		for _, name := range sortedKeys(deps) {
			p.Dependencies = append(p.Dependencies, cargoDep(name, deps[name], kind))
		}
	}
	add(table(m, "dependencies"), Runtime)
	add(table(m, "dev-dependencies"), Dev)
	add(table(m, "build-dependencies"), Build)
	// Platform-specific dependencies: [target.'cfg(…)'.dependencies].
	targets := table(m, "target")
	for _, t := range sortedKeys(targets) {
		tt, _ := targets[t].(map[string]any)
		add(table(tt, "dependencies"), Runtime)
		add(table(tt, "dev-dependencies"), Dev)
		add(table(tt, "build-dependencies"), Build)
	}
	out.pkgs = append(out.pkgs, p)
	return out, nil
}

// fromWorkspace is the version of a Cargo dependency declared with
// workspace = true until its workspace's [workspace.dependencies] gives
// it one (it stays when the workspace does not declare it).
const fromWorkspace = "workspace = true"

// cargoInherit is what a Cargo workspace's members may inherit.
type cargoInherit struct {
	fields map[string]any // [workspace.package]
	deps   map[string]any // [workspace.dependencies]
}

// apply fills in a member's inherited fields and dependency versions.
func (in *cargoInherit) apply(p *Package) {
	fields, _ := p.Metadata["inherited_from_workspace"].([]string)
	for _, k := range fields {
		v := str(in.fields, k)
		switch k {
		case "version":
			p.Version = v
		case "description":
			p.Description = v
		default:
			if v != "" {
				p.Metadata[k] = v
			}
		}
	}
	for i := range p.Dependencies {
		d := &p.Dependencies[i]
		if d.Version != fromWorkspace {
			continue
		}
		if w, ok := in.deps[d.Name]; ok {
			resolved := cargoDep(d.Name, w, d.Kind)
			d.Name, d.Version = resolved.Name, resolved.Version
		}
	}
}

// cargoDep reads one dependency: a version string or a table with a
// version, a path or git source, optional = true, package = "renamed", or
// workspace = true (its version then comes from the workspace's
// [workspace.dependencies], see cargoInherit).
func cargoDep(key string, v any, kind DepKind) Dependency {
	d := Dependency{Name: key, Kind: kind}
	switch v := v.(type) {
	case string:
		d.Version = v
	case map[string]any:
		if n := str(v, "package"); n != "" {
			d.Name = n
		}
		d.Version = str(v, "version")
		if d.Version == "" {
			switch {
			case v["workspace"] == true:
				d.Version = fromWorkspace
			case str(v, "path") != "":
				d.Version = "path:" + str(v, "path")
			case str(v, "git") != "":
				d.Version = "git:" + str(v, "git")
			}
		}
		if v["optional"] == true {
			d.Kind = Optional
		}
	}
	return d
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func parsePyproject(file, dir string, src []byte) (parsed, error) {
	m, err := decodeTOML(src)
	if err != nil {
		return parsed{}, err
	}
	p := Package{Path: dir, Kind: Python, Manifest: file, Metadata: map[string]any{}}
	proj := table(m, "project")
	poetry := table(m, "tool", "poetry")
	if proj == nil && poetry == nil {
		return parsed{}, fmt.Errorf("pyproject.toml has neither [project] nor [tool.poetry]")
	}
	if proj != nil {
		p.Name, p.Version, p.Description = str(proj, "name"), str(proj, "version"), str(proj, "description")
		if dyn := strs(proj["dynamic"]); len(dyn) > 0 {
			p.Metadata["dynamic"] = dyn
		}
		if rp := str(proj, "requires-python"); rp != "" {
			p.Metadata["requires-python"] = rp
		}
		for _, req := range strs(proj["dependencies"]) {
			p.Dependencies = append(p.Dependencies, pep508(req, Runtime))
		}
		extras := table(proj, "optional-dependencies")
		for _, extra := range sortedKeys(extras) {
			for _, req := range strs(extras[extra]) {
				p.Dependencies = append(p.Dependencies, pep508(req, Optional))
			}
		}
		groups := table(m, "dependency-groups") // PEP 735
		for _, g := range sortedKeys(groups) {
			for _, req := range strs(groups[g]) {
				p.Dependencies = append(p.Dependencies, pep508(req, Dev))
			}
		}
	}
	if poetry != nil {
		p.Metadata["poetry"] = true
		if p.Name == "" {
			p.Name = str(poetry, "name")
		}
		if p.Version == "" {
			p.Version = str(poetry, "version")
		}
		if p.Description == "" {
			p.Description = str(poetry, "description")
		}
		// Poetry 2 reads a project's runtime dependencies from
		// [project].dependencies when it has them: its own
		// [tool.poetry.dependencies] then only enrich those (here: a
		// version for one declared without any) and add none.
		_, enrich := proj["dependencies"]
		declared := map[string]int{} // normal name → index in p.Dependencies
		for i, d := range p.Dependencies {
			if d.Kind == Runtime {
				declared[normalName(Python, d.Name)] = i
			}
		}
		addPoetry := func(deps map[string]any, kind DepKind, main bool) {
			for _, name := range sortedKeys(deps) {
				if strings.EqualFold(name, "python") {
					if v, ok := deps[name].(string); ok {
						p.Metadata["python"] = v
					}
					continue
				}
				d := poetryDep(name, deps[name], kind)
				if main && enrich {
					if i, ok := declared[normalName(Python, name)]; ok && p.Dependencies[i].Version == "" {
						p.Dependencies[i].Version = d.Version
					}
					continue
				}
				p.Dependencies = append(p.Dependencies, d)
			}
		}
		addPoetry(table(poetry, "dependencies"), Runtime, true)
		addPoetry(table(poetry, "dev-dependencies"), Dev, false)
		groups := table(poetry, "group")
		for _, g := range sortedKeys(groups) {
			gt, _ := groups[g].(map[string]any)
			addPoetry(table(gt, "dependencies"), Dev, false)
		}
	}
	for _, req := range strs(table(m, "build-system")["requires"]) {
		p.Dependencies = append(p.Dependencies, pep508(req, Build))
	}
	if p.Name == "" && proj != nil && poetry == nil {
		return parsed{}, fmt.Errorf("[project] has no name")
	}
	out := parsed{pkgs: []Package{p}}
	if uv := table(m, "tool", "uv", "workspace"); uv != nil {
		out.workspaces = append(out.workspaces, workspace{file: file, dir: dir, kind: Python,
			members: strs(uv["members"]), exclude: strs(uv["exclude"]), glob: true})
	}
	return out, nil
}

// poetryDep reads one Poetry dependency: a version constraint, a table
// with a version, a path, git or url source and optional = true, or an
// array of such tables (multiple constraints, one per Python version or
// platform), whose distinct versions are joined with " || ".
func poetryDep(name string, v any, kind DepKind) Dependency {
	d := Dependency{Name: name, Kind: kind}
	switch v := v.(type) {
	case string:
		d.Version = v
	case map[string]any:
		switch {
		case str(v, "version") != "":
			d.Version = str(v, "version")
		case str(v, "path") != "":
			d.Version = "path:" + str(v, "path")
		case str(v, "git") != "":
			d.Version = "git:" + str(v, "git")
		case str(v, "url") != "":
			d.Version = "url:" + str(v, "url")
		}
		if v["optional"] == true {
			d.Kind = Optional
		}
	case []any:
		var versions []string
		for _, c := range v {
			if cv := poetryDep(name, c, kind).Version; cv != "" && !slices.Contains(versions, cv) {
				versions = append(versions, cv)
			}
		}
		d.Version = strings.Join(versions, " || ")
	}
	return d
}

// pep508 splits a requirement ("requests[socks]>=2.8; python_version<'3.9'")
// into its name and the rest, its version specifier and markers. A
// specifier in parentheses ("numpy (>=2.2,<3)") loses them.
func pep508(req string, kind DepKind) Dependency {
	req = strings.TrimSpace(req)
	end := strings.IndexAny(req, " <>=!~;[(@")
	if end < 0 {
		return Dependency{Name: req, Kind: kind}
	}
	name, rest := req[:end], strings.TrimSpace(req[end:])
	if strings.HasPrefix(rest, "[") {
		if i := strings.IndexByte(rest, ']'); i >= 0 {
			rest = strings.TrimSpace(rest[i+1:])
		}
	}
	if strings.HasPrefix(rest, "(") {
		if i := strings.IndexByte(rest, ')'); i >= 0 {
			rest = strings.TrimSpace(rest[1:i]) + rest[i+1:]
		}
	}
	return Dependency{Name: name, Version: rest, Kind: kind}
}
