package tools

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/search"
)

// registerCustomLanguages registers the custom languages of the
// workspace's own sgconfig.yml (or .yaml), as `loupe run` does in a
// project, so that ast_grep finds them by name and extension, and returns
// its languageGlobs, which select a file's language ahead of its
// extension there as in the CLI (a CMakeLists.txt is cmake). Only
// modules inside the workspace are loaded: a tool reads nothing outside
// it. A workspace without a configuration, or with one that does not
// parse, has none; a custom language that cannot be loaded makes the
// searches of its files fail with an error naming its module; the globs
// of a language that is not known (a custom language not registered) or
// that do not compile are left out.
func registerCustomLanguages(workspace string) map[string][]string {
	if workspace == "" {
		return nil
	}
	for _, name := range []string{"sgconfig.yml", "sgconfig.yaml"} {
		path := filepath.Join(workspace, name)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		p, err := project.Parse(data)
		if err != nil {
			return nil
		}
		p.Dir = workspace
		for lang, cl := range p.CustomLanguages {
			if rel, err := filepath.Rel(workspace, p.Path(cl.LibraryPath)); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				delete(p.CustomLanguages, lang)
			}
		}
		p.RegisterLanguages()
		globs := map[string][]string{}
		for lang, gs := range p.LanguageGlobs {
			if _, err := search.NewLanguageTable(map[string][]string{lang: gs}); err == nil {
				globs[lang] = gs
			}
		}
		return globs
	}
	return nil
}
