package analysis

import (
	"fmt"
	pathpkg "path"
	"strings"
)

// targetFiles lists the files of the target, noting when there are none.
func (s *session) targetFiles() []*file {
	fs, err := s.list(s.req.target)
	if err != nil {
		s.notes = append(s.notes, fmt.Sprintf("listing %s: %v", displayPath(s.req.targetRel), err))
		return nil
	}
	switch {
	case len(fs) == 0 && len(s.unreadable) > 0:
		s.notes = append(s.notes, fmt.Sprintf("%s holds no %s files that could be read", displayPath(s.req.targetRel), s.req.lang.Name()))
	case len(fs) == 0:
		s.notes = append(s.notes, fmt.Sprintf("%s holds no %s files", displayPath(s.req.targetRel), s.req.lang.Name()))
	}
	return fs
}

// dependencies lists the imports of the target's files and, with reverse,
// the files of the scope importing the target.
func (s *session) dependencies(reverse bool) ([]FileDeps, []Importer) {
	targets := s.targetFiles()
	s.ensure(targets)
	r := newResolver(s)
	deps := []FileDeps{}
	for _, f := range targets {
		if f.facts == nil {
			continue
		}
		fd := FileDeps{File: f.rel, Imports: []Import{}}
		for _, imp := range f.facts.imports {
			x := Import{Line: imp.Line, Kind: imp.kind(), Source: imp.Source}
			for _, b := range imp.Names {
				if b.Alias != "" {
					x.Names = append(x.Names, b.Name+" as "+b.Alias)
				} else {
					x.Names = append(x.Names, b.Name)
				}
			}
			if res := r.resolve(f.facts, imp); len(res) > 0 {
				x.Resolved = res[0]
				if imp.Resolve == resolveGo {
					x.Resolved = pathpkg.Dir(res[0]) // a package is a directory
				}
			}
			fd.Imports = append(fd.Imports, x)
		}
		deps = append(deps, fd)
	}
	if !reverse {
		return deps, nil
	}
	return deps, s.importers(targets, r)
}

// kind names an import's form: the forms of the names it binds (named,
// default+named), else the statement's (side-effect, dynamic, require).
func (imp importFact) kind() string {
	var forms []string
	for _, b := range imp.Names {
		if b.Form != "" && !contains(forms, b.Form) {
			forms = append(forms, b.Form)
		}
	}
	if len(forms) == 0 {
		return imp.Form
	}
	return strings.Join(forms, "+")
}

// importers finds the files of the scope whose imports resolve to one of
// targets.
func (s *session) importers(targets []*file, r *resolver) []Importer {
	out := []Importer{}
	set := map[string]bool{}
	var tokens []string
	index := false
	seenTok := map[string]bool{}
	addTok := func(t string) {
		if t != "" && !seenTok[t] {
			seenTok[t] = true
			tokens = append(tokens, t)
		}
	}
	for _, f := range targets {
		set[f.rel] = true
		base := pathpkg.Base(f.rel)
		stem := base[:len(base)-len(pathpkg.Ext(base))]
		stem = strings.TrimSuffix(stem, ".d")
		addTok(stem)
		addTok(pathpkg.Base(pathpkg.Dir(f.rel)))
		if contains(indexStems, stem) {
			index = true
		}
		if f.facts != nil {
			for _, p := range f.facts.packages {
				addTok(lastSegment(p, s.main.spec.Sep))
			}
		}
	}
	var cands []*file
	if index {
		cands = s.files
	} else {
		cands = s.containing(s.files, tokens)
	}
	s.ensure(cands)
	pkgs := packageIndex(targets)
	for _, f := range cands {
		if f.facts == nil || set[f.rel] {
			continue
		}
		for _, imp := range f.facts.imports {
			if imp.Resolve == resolvePackage {
				if res := matchPackage(imp, pkgs, f.c.spec.Sep); res != "" {
					out = append(out, Importer{File: f.rel, Line: imp.Line, Kind: imp.kind(), Source: imp.Source,
						Imports: res, Text: f.facts.importText(imp)})
				}
				continue
			}
			for _, res := range r.resolve(f.facts, imp) {
				if set[res] {
					out = append(out, Importer{File: f.rel, Line: imp.Line, Kind: imp.kind(), Source: imp.Source,
						Imports: res, Text: f.facts.importText(imp)})
					break
				}
			}
		}
	}
	return out
}

// indexStems are file names that stand for their directory; an import of
// the directory mentions neither, so every file is a candidate importer.
var indexStems = []string{"index", "__init__", "mod", "lib", "main"}

// exports lists what the target's files export.
func (s *session) exports() []Export {
	targets := s.targetFiles()
	s.ensure(targets)
	out := []Export{}
	for _, f := range targets {
		if f.facts == nil {
			continue
		}
		for _, e := range f.facts.exports {
			x := Export{File: f.rel, Line: e.Line, Name: e.Name, Kind: e.Label, Container: e.Container,
				Source: e.Source, Detail: e.Detail}
			if e.Detail == "default" {
				x.Default, x.Detail = true, ""
			}
			out = append(out, x)
		}
	}
	return out
}

// oneLine collapses whitespace runs to single spaces and cuts to max bytes.
func oneLine(s string, max int) string {
	return clip(strings.Join(strings.Fields(s), " "), max)
}

// lastSegment returns the part of a module path after its last separator
// (sep, or '/' and '.' when sep is empty).
func lastSegment(s, sep string) string {
	s = strings.TrimSuffix(s, "/")
	if sep != "" {
		if i := strings.LastIndex(s, sep); i >= 0 {
			return s[i+len(sep):]
		}
	}
	if i := strings.LastIndexAny(s, "/"); i >= 0 {
		return s[i+1:]
	}
	return s
}
