package manifest

import (
	"fmt"

	"golang.org/x/mod/modfile"
)

func parseGoMod(file, dir string, src []byte) (parsed, error) {
	f, err := modfile.Parse(file, src, nil)
	if err != nil {
		return parsed{}, fmt.Errorf("invalid go.mod: %w", err)
	}
	if f.Module == nil {
		return parsed{}, fmt.Errorf("invalid go.mod: no module directive")
	}
	p := Package{Name: f.Module.Mod.Path, Path: dir, Kind: Go, Manifest: file, Metadata: map[string]any{}}
	if f.Go != nil {
		p.Metadata["go"] = f.Go.Version
	}
	if f.Toolchain != nil {
		p.Metadata["toolchain"] = f.Toolchain.Name
	}
	if f.Module.Deprecated != "" {
		p.Metadata["deprecated"] = f.Module.Deprecated
	}
	var indirect []string
	for _, r := range f.Require {
		p.Dependencies = append(p.Dependencies, Dependency{Name: r.Mod.Path, Version: r.Mod.Version, Kind: Runtime})
		if r.Indirect {
			indirect = append(indirect, r.Mod.Path)
		}
	}
	if len(indirect) > 0 {
		p.Metadata["indirect"] = indirect
	}
	if len(f.Replace) > 0 {
		rep := map[string]string{}
		for _, r := range f.Replace {
			to := r.New.Path
			if r.New.Version != "" {
				to += "@" + r.New.Version
			}
			rep[r.Old.Path] = to
		}
		p.Metadata["replace"] = rep
	}
	if len(f.Tool) > 0 {
		var tools []string
		for _, t := range f.Tool {
			tools = append(tools, t.Path)
		}
		p.Metadata["tools"] = tools
	}
	return parsed{pkgs: []Package{p}}, nil
}

func parseGoWork(file, dir string, src []byte) (parsed, error) {
	f, err := modfile.ParseWork(file, src, nil)
	if err != nil {
		return parsed{}, fmt.Errorf("invalid go.work: %w", err)
	}
	ws := workspace{file: file, dir: dir, kind: Go}
	for _, u := range f.Use {
		ws.members = append(ws.members, u.Path)
	}
	return parsed{workspaces: []workspace{ws}}, nil
}
