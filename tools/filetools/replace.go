package filetools

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// ReplaceInFileParams are replace_in_file's parameters.
type ReplaceInFileParams struct {
	Path        string `json:"path" desc:"File to change, relative to the workspace root."`
	Find        string `json:"find" desc:"Text to find; every occurrence is replaced. With is_regex, a Go RE2 regular expression in multi-line mode (^ and $ match at line starts and ends; line breaks are \\n)."`
	Replace     string `json:"replace" desc:"Replacement text (may be empty to delete). With is_regex, $1 or ${1} inserts a capture group, ${name} a named group (?P<name>...), $$ a literal $."`
	IsRegex     bool   `json:"is_regex,omitempty" desc:"Treat find as a regular expression and replace as a template with capture groups."`
	PreviewOnly bool   `json:"preview_only,omitempty" desc:"Return the diff of the change without writing anything (needs no approval)."`
}

// ReplaceInFileResult is replace_in_file's answer.
type ReplaceInFileResult struct {
	// Path is the file, relative to the workspace root.
	Path string `json:"path"`
	// Replacements counts the occurrences replaced (or, in a preview,
	// that would be).
	Replacements int `json:"replacements"`
	// Applied is set when the file was written.
	Applied bool `json:"applied"`
	// Preview is set for a preview_only call.
	Preview bool `json:"preview"`
	// Diff is the change as a unified diff.
	Diff string `json:"diff,omitempty"`
	// TotalLines is the file's line count after the change.
	TotalLines int `json:"total_lines"`
	// Message says what was done.
	Message string `json:"message"`
}

// Text renders the message, and for a preview the diff.
func (r *ReplaceInFileResult) Text() string {
	if r.Preview {
		return previewText(r.Message, r.Diff)
	}
	return r.Message + "\n"
}

// ReplaceInFile replaces every occurrence of a text or regular expression
// in one file.
func (t *Tools) ReplaceInFile(ctx context.Context, p ReplaceInFileParams) (*ReplaceInFileResult, error) {
	const tool = ReplaceInFileName
	if p.Find == "" {
		return nil, &Error{Tool: tool, Path: p.Path, Msg: "find is empty", Hint: "Give the text (or with is_regex the pattern) to replace"}
	}
	var re *regexp.Regexp
	if p.IsRegex {
		var err error
		if re, err = compileRegex(tool, p.Find, "(?m)"); err != nil {
			return nil, err
		}
		if re.MatchString("") {
			return nil, &Error{Tool: tool, Path: p.Path, Msg: fmt.Sprintf("the pattern %q matches empty text, so it would insert the replacement everywhere", p.Find),
				Hint: "Make the pattern match at least one character (e.g. + instead of *)"}
		}
		if err := checkTemplate(p.Replace); err != nil {
			return nil, err
		}
	}
	g, err := t.resolve(tool, p.Path, false)
	if err != nil {
		return nil, err
	}
	root, err := t.openRoot(tool)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	old, tf, err := t.loadText(root, tool, g)
	if err != nil {
		return nil, err
	}
	var n int
	var body string
	if re != nil {
		n = len(re.FindAllStringIndex(tf.body, -1))
		body = re.ReplaceAllString(tf.body, tf.input(p.Replace))
	} else {
		find := tf.input(p.Find)
		n = strings.Count(tf.body, find)
		body = strings.ReplaceAll(tf.body, find, tf.input(p.Replace))
	}
	body = tf.keepEnd(body)
	res := &ReplaceInFileResult{Path: g.display(), Replacements: n, Preview: p.PreviewOnly, TotalLines: countLines(body)}
	what := fmt.Sprintf("%q", p.Find)
	if re != nil {
		what = "/" + p.Find + "/"
	}
	if n == 0 {
		res.TotalLines = countLines(tf.body)
		res.Message = fmt.Sprintf("0 replacements: %s does not occur in %s; the file was not changed.", what, g.display())
		return res, nil
	}
	data := tf.encode(body)
	res.Diff = unifiedDiff(g.display(), tf.body, body, false, false)
	occ := plural(n, "occurrence", "occurrences")
	switch {
	case string(data) == string(old):
		res.Message = fmt.Sprintf("%d %s of %s in %s, but replacing them changes nothing; the file was not changed.", n, occ, what, g.display())
		return res, nil
	case p.PreviewOnly:
		res.Message = fmt.Sprintf("Preview: %d %s of %s in %s would be replaced. Nothing was written; call again without preview_only to apply.", n, occ, what, g.display())
		return res, nil
	}
	summary := fmt.Sprintf("replace %d %s of %s in %s", n, occ, what, g.display())
	note, err := t.commit(ctx, root, tool, g, old, data, summary, res.Diff)
	if err != nil {
		return nil, err
	}
	res.Applied = true
	res.Message = fmt.Sprintf("Replaced %d %s of %s in %s (now %d lines).", n, occ, what, g.display(), res.TotalLines) + note
	return res, nil
}

// checkTemplate refuses a regex replacement written in another tool's
// syntax, which Go would expand to something else than meant.
func checkTemplate(repl string) error {
	const tool = ReplaceInFileName
	if m := sedGroup.FindString(repl); m != "" {
		return &Error{Tool: tool, Msg: fmt.Sprintf("the replacement uses %s, which Go's regexp does not expand", m),
			Hint: fmt.Sprintf("Write capture groups as $1 or ${1} (here ${%s}), named groups as ${name}", m[1:])}
	}
	if group, rest, ok := gluedGroup(repl); ok {
		return &Error{Tool: tool, Msg: fmt.Sprintf("the replacement has $%s%s, which Go reads as the group named %q, not group %s followed by %q", group, rest, group+rest, group, rest),
			Hint: fmt.Sprintf("Write ${%s}%s", group, rest)}
	}
	return nil
}

// sedGroup is \1 as sed, Perl and Python write a group.
var sedGroup = regexp.MustCompile(`\\[1-9]`)

// gluedGroup finds $1 followed by a name character in a template: Go
// takes $1x as ${1x}. $$ is a literal $.
func gluedGroup(repl string) (group, rest string, ok bool) {
	for i := 0; i < len(repl); i++ {
		if repl[i] != '$' || i+1 == len(repl) {
			continue
		}
		if repl[i+1] == '$' {
			i++
			continue
		}
		j := i + 1
		for j < len(repl) && repl[j] >= '0' && repl[j] <= '9' {
			j++
		}
		k := j
		for k < len(repl) && (repl[k] == '_' || repl[k] >= 'a' && repl[k] <= 'z' || repl[k] >= 'A' && repl[k] <= 'Z' || repl[k] >= '0' && repl[k] <= '9') {
			k++
		}
		if j > i+1 && k > j {
			return repl[i+1 : j], repl[j:k], true
		}
	}
	return "", "", false
}

// MayWrite reports whether a call may change the file, and so ask for
// approval: not a preview (nor, once run, a call that finds nothing).
func (p ReplaceInFileParams) MayWrite() bool { return !p.PreviewOnly }
