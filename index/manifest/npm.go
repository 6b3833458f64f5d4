package manifest

import (
	"encoding/json"
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"
)

// packageJSON is what package.json says of a package.
type packageJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	Private              bool              `json:"private"`
	License              any               `json:"license"`
	Type                 string            `json:"type"`
	Main                 string            `json:"main"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	// Workspaces is an array of globs or {"packages": [globs]}.
	Workspaces json.RawMessage `json:"workspaces"`
}

func parseNPM(file, dir string, src []byte) (parsed, error) {
	var pj packageJSON
	if err := json.Unmarshal(src, &pj); err != nil {
		return parsed{}, fmt.Errorf("invalid JSON: %w", err)
	}
	p := Package{Name: pj.Name, Path: dir, Kind: NPM, Version: pj.Version, Description: pj.Description,
		Manifest: file, Metadata: map[string]any{}}
	if pj.Private {
		p.Metadata["private"] = true
	}
	for k, v := range map[string]any{"license": pj.License, "type": pj.Type, "main": pj.Main} {
		if v != nil && v != "" {
			p.Metadata[k] = v
		}
	}
	for _, set := range []struct {
		deps map[string]string
		kind DepKind
	}{{pj.Dependencies, Runtime}, {pj.DevDependencies, Dev}, {pj.PeerDependencies, Peer}, {pj.OptionalDependencies, Optional}} {
		p.Dependencies = append(p.Dependencies, depsOf(set.deps, set.kind)...)
	}
	out := parsed{pkgs: []Package{p}}
	if len(pj.Workspaces) > 0 && string(pj.Workspaces) != "null" {
		var globs []string
		if err := json.Unmarshal(pj.Workspaces, &globs); err != nil {
			var obj struct {
				Packages []string `json:"packages"`
			}
			if err := json.Unmarshal(pj.Workspaces, &obj); err != nil {
				return parsed{}, fmt.Errorf("workspaces: expected an array of globs or an object with packages: %w", err)
			}
			globs = obj.Packages
		}
		out.workspaces = append(out.workspaces, workspace{file: file, dir: dir, kind: NPM, members: globs, glob: true})
	}
	return out, nil
}

// depsOf turns a name → version map into dependencies sorted by name.
func depsOf(m map[string]string, kind DepKind) []Dependency {
	out := make([]Dependency, 0, len(m))
	for name, v := range m {
		out = append(out, Dependency{Name: name, Version: v, Kind: kind})
	}
	slices.SortFunc(out, func(a, b Dependency) int { return compareStrings(a.Name, b.Name) })
	return out
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func parsePNPM(file, dir string, src []byte) (parsed, error) {
	var ws struct {
		Packages []string `yaml:"packages"`
	}
	if err := yaml.Unmarshal(src, &ws); err != nil {
		return parsed{}, fmt.Errorf("invalid YAML: %w", err)
	}
	return parsed{workspaces: []workspace{{file: file, dir: dir, kind: NPM, members: ws.Packages, glob: true}}}, nil
}
