package tools

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/loupe-dev/loupe/core/project"
)

// registerCustomLanguages registers the custom languages of the
// workspace's own sgconfig.yml (or .yaml), as `loupe run` does in a
// project, so that ast_grep finds them by name and extension. Only
// modules inside the workspace are loaded: a tool reads nothing outside
// it. A workspace without a configuration, or with one that does not
// parse, has none; a custom language that cannot be loaded makes the
// searches of its files fail with an error naming its module.
func registerCustomLanguages(workspace string) {
	if workspace == "" {
		return
	}
	for _, name := range []string{"sgconfig.yml", "sgconfig.yaml"} {
		path := filepath.Join(workspace, name)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return
		}
		p, err := project.Parse(data)
		if err != nil {
			return
		}
		p.Dir = workspace
		for lang, cl := range p.CustomLanguages {
			if rel, err := filepath.Rel(workspace, p.Path(cl.LibraryPath)); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				delete(p.CustomLanguages, lang)
			}
		}
		p.RegisterLanguages()
		return
	}
}
