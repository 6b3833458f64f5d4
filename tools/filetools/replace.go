package filetools

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
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
	g, err := t.resolve(ctx, tool, p.Path, false)
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
		if body, n, err = t.expand(ctx, re, tf.body, tf.input(p.Replace), g.given); err != nil {
			return nil, err
		}
	} else {
		find, repl := tf.input(p.Find), tf.input(p.Replace)
		n = strings.Count(tf.body, find)
		if size := int64(len(tf.body)) + int64(n)*(int64(len(repl))-int64(len(find))); size > t.cfg.MaxFileSize {
			return nil, t.tooBig(g.given, size)
		}
		body = strings.ReplaceAll(tf.body, find, repl)
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
	diff := unifiedDiff(g.display(), tf.body, body, false, false)
	res.Diff = boundDiff(diff)
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
	note, err := t.commit(ctx, root, tool, g, old, data, summary, diff)
	if err != nil {
		return nil, err
	}
	res.Applied = true
	res.Message = fmt.Sprintf("Replaced %d %s of %s in %s (now %d lines).", n, occ, what, g.display(), res.TotalLines) + note
	return res, nil
}

// expand replaces every match of re in body with the template repl,
// counting the output's bytes before each expansion is built: past the
// largest file the tools write (Config.MaxFileSize) it stops with an
// error, so a short template repeating a long group ($1 a thousand
// times over a megabyte) costs no more than the limit. ctx is checked
// every 1,024 matches.
func (t *Tools) expand(ctx context.Context, re *regexp.Regexp, body, repl, given string) (string, int, error) {
	parts := parseTemplate(re, repl)
	var (
		out  []byte
		last int
		n    int
		size = int64(len(body))
	)
	for _, m := range re.FindAllStringSubmatchIndex(body, -1) {
		if n%1024 == 0 && ctx.Err() != nil {
			return "", 0, fmt.Errorf("%s: %w", ReplaceInFileName, ctx.Err())
		}
		size += parts.size(m) - int64(m[1]-m[0])
		if size > t.cfg.MaxFileSize {
			return "", 0, t.tooBig(given, size)
		}
		out = append(out, body[last:m[0]]...)
		out = re.ExpandString(out, repl, body, m)
		last = m[1]
		n++
	}
	out = append(out, body[last:]...)
	return string(out), n, nil
}

// tooBig refuses a replacement whose result would pass the write limit.
func (t *Tools) tooBig(given string, size int64) *Error {
	return &Error{Tool: ReplaceInFileName, Path: given,
		Msg:  fmt.Sprintf("the replacement would make the file over %s (the limit is %s); nothing was written", byteSize(size), byteSize(t.cfg.MaxFileSize)),
		Hint: "Replace fewer occurrences, or with a shorter replacement"}
}

// template is a replacement template split as regexp.Expand reads it:
// literal bytes, and references to groups (-1: a name no group has).
type template struct {
	literal int64
	groups  []int
}

// parseTemplate splits repl by regexp.Expand's rules: $$ is a dollar,
// $name and ${name} a group by number or name, the name the longest run
// of letters, digits and underscores; a malformed $ is literal.
func parseTemplate(re *regexp.Regexp, repl string) template {
	var tp template
	for len(repl) > 0 {
		i := strings.IndexByte(repl, '$')
		if i < 0 {
			tp.literal += int64(len(repl))
			break
		}
		tp.literal += int64(i)
		repl = repl[i:]
		if len(repl) > 1 && repl[1] == '$' {
			tp.literal++
			repl = repl[2:]
			continue
		}
		name, rest, ok := templateName(repl)
		if !ok {
			tp.literal++
			repl = repl[1:]
			continue
		}
		repl = rest
		g := -1
		if num, err := strconv.Atoi(name); err == nil {
			if num < re.NumSubexp()+1 {
				g = num
			}
		} else {
			g = re.SubexpIndex(name)
		}
		tp.groups = append(tp.groups, g)
	}
	return tp
}

// templateName reads the name after a $ at the start of s.
func templateName(s string) (name, rest string, ok bool) {
	s = s[1:]
	brace := strings.HasPrefix(s, "{")
	if brace {
		s = s[1:]
	}
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	if i == 0 {
		return "", "", false
	}
	name, s = s[:i], s[i:]
	if brace {
		if !strings.HasPrefix(s, "}") {
			return "", "", false
		}
		s = s[1:]
	}
	return name, s, true
}

// size is how many bytes the template expands to for the match m.
func (tp template) size(m []int) int64 {
	n := tp.literal
	for _, g := range tp.groups {
		if g >= 0 && 2*g+1 < len(m) && m[2*g] >= 0 {
			n += int64(m[2*g+1] - m[2*g])
		}
	}
	return n
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
