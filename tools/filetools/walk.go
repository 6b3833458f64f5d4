package filetools

import (
	"context"
	"errors"
	"fmt"
	"github.com/loupe-dev/loupe/internal/safefs"
	"path"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/search/ignore"
)

// walkSpec is what one walk of a tool selects.
type walkSpec struct {
	tool string
	// base is the checked search path (a directory or a file).
	base target
	// excludes are the call's exclusions, gitignore-style.
	excludes []string
	// dirsOnly makes each exclusion match directories only (search's
	// exclude_dirs).
	dirsOnly bool
	// maxSize, when set, skips larger files (reported in large); without
	// it every file is listed whatever its size.
	maxSize int64
}

// walked is the files a walk selected and what it passed over.
type walked struct {
	files      []search.File // in path order
	large      []string      // over maxSize
	deep       []string      // directories below the depth limit, not entered
	unreadable []string
	special    []string // fifos, sockets and devices, never opened
}

// walk lists the files under spec.base with the walking tools' rules:
// ignore files (with or without a repository), hidden files included,
// DefaultExcludes and the call's exclusions skipped, the depth limit, and
// the temporary files of atomic writes left out.
func (t *Tools) walk(ctx context.Context, spec walkSpec) (*walked, error) {
	globs := make([]string, 0, len(DefaultExcludes)+len(spec.excludes))
	for _, name := range DefaultExcludes {
		globs = append(globs, "!"+name+"/")
	}
	for _, e := range spec.excludes {
		g := normalizeExclude(e)
		if g == "" {
			continue
		}
		if spec.dirsOnly {
			g += "/"
		}
		globs = append(globs, "!"+g)
	}
	if _, err := ignore.NewOverride(globs); err != nil {
		return nil, &Error{Tool: spec.tool, Msg: "invalid exclude pattern", Err: err,
			Hint: "Give directory or file names such as 'node_modules' or 'dist', or gitignore-style patterns such as '*.min.js' or 'src/generated'"}
	}
	opts := search.Options{
		Root:         t.ws.Root(),
		Paths:        []string{spec.base.rel},
		Globs:        globs,
		AllFiles:     true,
		Hidden:       true,
		NoRequireGit: true,
		MaxDepth:     t.cfg.MaxDepth,
		MaxFileSize:  spec.maxSize,
		Threads:      t.cfg.Threads,
	}
	files, skipped, err := search.Files(ctx, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s: %w", spec.tool, ctx.Err())
		}
		if errors.Is(err, search.ErrOutsideWorkspace) {
			return nil, outsideError(spec.tool, spec.base.given)
		}
		return nil, fmt.Errorf("%s: %w", spec.tool, err)
	}
	w := &walked{}
	for _, f := range files {
		if !rewrite.IsTempName(path.Base(f.Path)) {
			w.files = append(w.files, f)
		}
	}
	for _, s := range skipped {
		switch s.Reason {
		case search.SkipTooLarge:
			if spec.maxSize > 0 {
				w.large = append(w.large, s.Path)
			} else {
				w.files = append(w.files, search.File{Path: s.Path})
			}
		case search.SkipDepth:
			w.deep = append(w.deep, s.Path)
		case search.SkipMissing:
			return nil, pathError(spec.tool, spec.base.given, fmt.Errorf("%s: %w", s.Path, s.Err))
		default:
			if errors.Is(s.Err, safefs.ErrNotRegular) {
				w.special = append(w.special, s.Path)
				continue
			}
			w.unreadable = append(w.unreadable, s.Path)
		}
	}
	slices.SortFunc(w.files, func(a, b search.File) int { return search.ComparePaths(a.Path, b.Path) })
	return w, nil
}

// isFile reports whether the walk's path named a file rather than a
// directory.
func (w *walked) isFile() bool {
	return len(w.files) == 1 && w.files[0].Named
}

// normalizeExclude turns an exclusion as an agent writes it ("./dist/",
// "!node_modules") into a gitignore-style pattern.
func normalizeExclude(e string) string {
	e = strings.TrimSpace(e)
	e = strings.TrimPrefix(e, "!")
	e = strings.TrimPrefix(e, "./")
	return strings.TrimSuffix(e, "/")
}

// warnings describes what the walk passed over.
func (w *walked) warnings(maxDepth int, maxSize int64) []string {
	var out []string
	if len(w.deep) > 0 {
		out = append(out, fmt.Sprintf("directory depth limit (%d levels) reached: %d %s not searched (%s); search from a deeper path to include them",
			maxDepth, len(w.deep), plural(len(w.deep), "directory was", "directories were"), examples(w.deep)))
	}
	if len(w.large) > 0 {
		out = append(out, fmt.Sprintf("%d %s over %s skipped (%s)", len(w.large), plural(len(w.large), "file was", "files were"), byteSize(maxSize), examples(w.large)))
	}
	if len(w.special) > 0 {
		out = append(out, fmt.Sprintf("%d %s skipped: not regular files (fifos, sockets or devices), never opened (%s)", len(w.special), plural(len(w.special), "path was", "paths were"), examples(w.special)))
	}
	if len(w.unreadable) > 0 {
		out = append(out, fmt.Sprintf("%d %s could not be read (%s)", len(w.unreadable), plural(len(w.unreadable), "path", "paths"), examples(w.unreadable)))
	}
	return out
}

// examples lists up to three paths, and how many more.
func examples(paths []string) string {
	const shown = 3
	if len(paths) <= shown {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:shown], ", ") + fmt.Sprintf(" and %d more", len(paths)-shown)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// fileTypes is a file_type filter: extensions (without the dot, lower
// case) and whole file names.
type fileTypes map[string]bool

// parseFileTypes reads a file_type parameter: extensions or language
// names separated by commas or spaces ("rs", ".ts", "ts,tsx", "*.py",
// "python", "Makefile"). A language name adds its extensions.
func parseFileTypes(s string) fileTypes {
	ft := fileTypes{}
	for _, item := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		item = strings.TrimPrefix(strings.TrimPrefix(item, "*"), ".")
		if item == "" {
			continue
		}
		ft[strings.ToLower(item)] = true
		if l, err := language.Lookup(item); err == nil {
			for _, e := range l.Extensions() {
				ft[strings.ToLower(e)] = true
			}
		}
	}
	if len(ft) == 0 {
		return nil
	}
	return ft
}

// match reports whether the file named p is of one of the types; a nil
// filter matches every file.
func (ft fileTypes) match(p string) bool {
	if ft == nil {
		return true
	}
	base := strings.ToLower(path.Base(p))
	if ft[base] {
		return true
	}
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		return ft[base[i+1:]]
	}
	return false
}

// String lists the types for a message.
func (ft fileTypes) String() string {
	names := make([]string, 0, len(ft))
	for n := range ft {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
