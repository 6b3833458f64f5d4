package search

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/search/glob"
)

// LanguageTable decides a file's language from its name: a project's
// languageGlobs first (in language-name order), then the extension table
// of core/language. The walk uses one; a face that meets files one by one
// (the language server) asks one too.
type LanguageTable struct {
	globs []langGlobs
}

type langGlobs struct {
	lang  *language.Language
	globs []*glob.Glob
}

// NewLanguageTable returns the table of languageGlobs m (language name →
// globs of file names).
func NewLanguageTable(m map[string][]string) (*LanguageTable, error) {
	t := &LanguageTable{}
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		l, err := language.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("languageGlobs: %w", err)
		}
		lg := langGlobs{lang: l}
		for _, g := range m[name] {
			c, err := glob.Compile(g)
			if err != nil {
				return nil, fmt.Errorf("languageGlobs %s: %w", name, err)
			}
			lg.globs = append(lg.globs, c)
		}
		t.globs = append(t.globs, lg)
	}
	return t, nil
}

// ForPath returns the language of the file at path (its base name is
// what counts), nil for none. A nil table has no languageGlobs.
func (t *LanguageTable) ForPath(p string) *language.Language {
	return t.forName(path.Base(filepath.ToSlash(p)))
}

// forName returns the language of a file name (a base name).
func (t *LanguageTable) forName(name string) *language.Language {
	var globs []langGlobs
	if t != nil {
		globs = t.globs
	}
	for _, lg := range globs {
		for _, g := range lg.globs {
			if g.Match(name) {
				return lg.lang
			}
		}
	}
	l, ok := language.ForPath(name)
	if !ok {
		return nil
	}
	return l
}

// selects reports whether the name is one of lang's file types: one of
// its extensions or languageGlobs. This is the walk's type filter, which
// (as in ripgrep) also lets a hidden file of the type through.
func (t *LanguageTable) selects(lang *language.Language, name string) bool {
	ext := strings.TrimPrefix(path.Ext(name), ".")
	if ext != "" {
		for _, e := range lang.Extensions() {
			if e == ext {
				return true
			}
		}
	}
	for _, lg := range t.globs {
		if lg.lang != lang {
			continue
		}
		for _, g := range lg.globs {
			if g.Match(name) {
				return true
			}
		}
	}
	return false
}
