// Package ignore matches paths against gitignore-style rules: the lines
// of a .gitignore, .ignore or .git/info/exclude file, and the include/
// exclude globs of a search (ripgrep's and ast-grep's --globs), which use
// the same syntax with the meaning of `!` turned around.
//
// Rules follow git and ripgrep: `#` starts a comment, trailing spaces are
// trimmed unless escaped, `!` negates (re-includes), a leading `/` or any
// inner `/` anchors the pattern to the rules' directory, otherwise it
// matches at any depth, a trailing `/` matches directories only, and the
// last matching line wins.
package ignore

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/core/search/glob"
)

// Result is the outcome of matching a path.
type Result int8

const (
	// None means no rule matched.
	None Result = iota
	// Ignore means the path is excluded.
	Ignore
	// Whitelist means a rule explicitly includes the path.
	Whitelist
)

// Rules is an ordered list of gitignore-style rules. The zero value has no
// rules.
type Rules struct {
	rules []rule
}

type rule struct {
	g       *glob.Glob
	negate  bool // "!pattern": re-include
	dirOnly bool // "pattern/": directories only
}

// Parse reads the lines of an ignore file. A line that is not a valid glob
// is skipped and reported in the returned error; the other lines still
// apply, as with git.
func Parse(data []byte) (*Rules, error) {
	r := &Rules{}
	var errs []error
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		if err := r.Add(sc.Text()); err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", n, err))
		}
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, err)
	}
	return r, errors.Join(errs...)
}

// Add appends one line. Blank lines and comments add nothing.
func (r *Rules) Add(line string) error {
	line = strings.TrimSuffix(line, "\r")
	if strings.HasPrefix(line, "#") {
		return nil
	}
	if !strings.HasSuffix(line, `\ `) {
		line = strings.TrimRight(line, " \t")
	}
	if line == "" {
		return nil
	}
	var ru rule
	anchored := false
	if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	} else {
		if strings.HasPrefix(line, "!") {
			ru.negate = true
			line = line[1:]
		}
		if strings.HasPrefix(line, "/") {
			line = line[1:]
			anchored = true
		}
	}
	if strings.HasSuffix(line, "/") {
		ru.dirOnly = true
		line = strings.TrimSuffix(line, "/")
		line = strings.TrimSuffix(line, `\`)
	}
	if !anchored && !strings.Contains(line, "/") && !strings.HasPrefix(line, "**/") {
		line = "**/" + line
	}
	if strings.HasSuffix(line, "/**") {
		line += "/*"
	}
	g, err := glob.Compile(line)
	if err != nil {
		return err
	}
	ru.g = g
	r.rules = append(r.rules, ru)
	return nil
}

// Len returns the number of rules.
func (r *Rules) Len() int {
	if r == nil {
		return 0
	}
	return len(r.rules)
}

// Match matches rel, a slash-separated path relative to the rules'
// directory. The last rule that matches decides; a directory-only rule
// matches only when isDir.
func (r *Rules) Match(rel string, isDir bool) Result {
	if r == nil {
		return None
	}
	for i := len(r.rules) - 1; i >= 0; i-- {
		ru := &r.rules[i]
		if ru.dirOnly && !isDir {
			continue
		}
		if ru.g.Match(rel) {
			if ru.negate {
				return Whitelist
			}
			return Ignore
		}
	}
	return None
}

// Override is a search's include and exclude globs: a glob selects the
// paths it matches and `!glob` excludes them, the later glob winning.
// When at least one include glob is given, files that match no glob are
// excluded (directories are not, so the walk still descends into them).
type Override struct {
	rules      Rules
	whitelists int
}

// NewOverride compiles globs. An invalid glob is an error.
func NewOverride(globs []string) (*Override, error) {
	o := &Override{}
	for _, g := range globs {
		n := len(o.rules.rules)
		if err := o.rules.Add(g); err != nil {
			return nil, fmt.Errorf("invalid glob %q: %w", g, err)
		}
		if len(o.rules.rules) > n && !o.rules.rules[n].negate {
			o.whitelists++
		}
	}
	return o, nil
}

// Empty reports whether o has no globs.
func (o *Override) Empty() bool { return o == nil || len(o.rules.rules) == 0 }

// Match matches rel, a slash-separated path relative to the globs' root.
func (o *Override) Match(rel string, isDir bool) Result {
	if o.Empty() {
		return None
	}
	switch o.rules.Match(rel, isDir) {
	case Ignore:
		return Whitelist
	case Whitelist:
		return Ignore
	}
	if o.whitelists > 0 && !isDir {
		return Ignore
	}
	return None
}
