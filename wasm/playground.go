//go:build js

package main

// The playground's entry (js/playground): one source, one query, the
// answers loupe's CLI gives for them, computed by the same Go code.
//
//	loupe.playground(loader, paramsJSON) → Promise<JSON>, by params.op:
//	  "languages" → {languages: [{name, display, extensions}], strictness: [names]}
//	  "run"  {language, source, pattern, strictness, selector, rewrite} or {language, source, rule (YAML)}
//	         → {matches: [match], rewritten?, diff?: [hunk], warning?} | {error: {message, line?, column?, in}}
//	         each match as `loupe run --json` prints it (a rule's finding as `loupe scan --json`
//	         prints it, replacement from the first fix), hunks as `loupe run -r` shows the diff
//	  "dump" {language, source, pattern, strictness, selector, format: ast|cst|sexp}
//	         → {source: the tree as `loupe parse --format` prints it, pattern?: the pattern as
//	         --debug-query=pattern prints it, patternError?}
//
// loader is init's grammar loader: the first call installs it, unless a
// session did.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/printer"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/scan"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/core/wire"
	"github.com/loupe-dev/loupe/host/jshost"
)

// playgroundTimeout bounds one run: a rule that explodes gives up
// instead of holding the page.
const playgroundTimeout = 10 * time.Second

// engineSet is set once a grammar engine is installed (by init or here).
var engineSet atomic.Bool

// playgroundFile is the name matches carry, as for standard input.
const playgroundFile = "STDIN"

type playgroundParams struct {
	Op         string `json:"op"`
	Language   string `json:"language"`
	Source     string `json:"source"`
	Pattern    string `json:"pattern"`
	Strictness string `json:"strictness"`
	Selector   string `json:"selector"`
	Rewrite    string `json:"rewrite"`
	Rule       string `json:"rule"`
	Format     string `json:"format"`
}

// playgroundError is an error in one of the inputs, located where it can be.
type playgroundError struct {
	Message string `json:"message"`
	Line    int    `json:"line,omitempty"`   // 1-based line of the rule (YAML) or the pattern
	Column  int    `json:"column,omitempty"` // 1-based
	In      string `json:"in"`               // pattern, rule, source or language
}

// diffLine is one line of a rewrite's diff: its 1-based numbers in the old
// and new text (0 where it has none) and its sign, " ", "-" or "+".
type diffLine struct {
	Old  int    `json:"old,omitempty"`
	New  int    `json:"new,omitempty"`
	Sign string `json:"sign"`
	Text string `json:"text"`
}

type diffHunk struct {
	Header string     `json:"header"`
	Lines  []diffLine `json:"lines"`
}

func playground(this js.Value, args []js.Value) any {
	if len(args) != 2 || args[0].Type() != js.TypeObject || args[1].Type() != js.TypeString {
		return resolved(reply(nil, errors.New("playground(loader, paramsJSON) expects a loader object and a JSON string")))
	}
	loader, raw := args[0], args[1].String()
	return promise(func() string {
		if !engineSet.Swap(true) {
			language.SetEngine(jshost.New(loader, 0))
		}
		var p playgroundParams
		if err := json.Unmarshal([]byte(raw), &p); err != nil {
			return reply(nil, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), playgroundTimeout)
		defer cancel()
		switch p.Op {
		case "languages":
			return reply(playgroundLanguages(), nil)
		case "run":
			return reply(playgroundRun(ctx, p), nil)
		case "dump":
			return reply(playgroundDump(ctx, p), nil)
		}
		return reply(nil, fmt.Errorf("playground: unknown op %q (languages, run, dump)", p.Op))
	})
}

func playgroundLanguages() map[string]any {
	type lang struct {
		Name       string   `json:"name"`
		Display    string   `json:"display"`
		Extensions []string `json:"extensions"`
	}
	var langs []lang
	for _, l := range language.All() {
		langs = append(langs, lang{l.Name(), l.Display(), l.Extensions()})
	}
	// Every level, the default (Smart, the zero value) first.
	var levels []string
	for s := pattern.Smart; ; s++ {
		if _, err := pattern.ParseStrictness(s.String()); err != nil {
			break
		}
		levels = append(levels, s.String())
	}
	return map[string]any{"languages": langs, "strictness": levels}
}

func playgroundRun(ctx context.Context, p playgroundParams) map[string]any {
	lang, err := language.Lookup(p.Language)
	if err != nil {
		return map[string]any{"error": playgroundError{Message: err.Error(), In: "language"}}
	}
	src := []byte(p.Source)
	t, err := lang.Parse(ctx, src)
	if err != nil {
		return map[string]any{"error": playgroundError{Message: err.Error(), In: "source"}}
	}
	if strings.TrimSpace(p.Rule) != "" {
		return runRule(ctx, lang, t, p.Rule)
	}
	return runPattern(ctx, lang, t, p)
}

// runPattern is `loupe run --json` (and, with a rewrite, its diff) over
// the source, the code injected in it included (a <script> in HTML, a
// fenced block in Markdown), each region searched with the pattern
// compiled for its language.
func runPattern(ctx context.Context, lang *language.Language, t *tree.Tree, p playgroundParams) map[string]any {
	pt, perr := compilePattern(ctx, lang, p)
	if perr != nil {
		return map[string]any{"error": perr}
	}
	matcherFor := func(l *language.Language) (match.Matcher, error) {
		if l == lang {
			return pt, nil
		}
		if injected, err := compilePattern(ctx, l, p); err == nil {
			return injected, nil
		}
		return nil, nil
	}
	ms, err := search.FindFile(ctx, lang, nil, t, matcherFor)
	if err != nil {
		return map[string]any{"error": playgroundError{Message: err.Error(), In: "pattern"}}
	}
	out := map[string]any{}
	var tmpl *rewrite.Template
	if p.Rewrite != "" {
		tmpl = rewrite.Compile(p.Rewrite, nil)
	}
	matches := []json.RawMessage{}
	var edits []rewrite.Edit
	for _, m := range ms {
		var repl *wire.Replacement
		if tmpl != nil {
			text := tmpl.Render(m.Env, m.Node)
			if err := m.Env.Budget().Err(); err != nil {
				return map[string]any{"error": playgroundError{Message: fmt.Sprintf("rewrite at line %d: %v", m.Node.StartPoint().Row+1, err), In: "rewrite"}}
			}
			repl = &wire.Replacement{Text: text, Start: m.Node.StartByte(), End: m.Node.EndByte()}
			edits = append(edits, rewrite.Edit{Start: repl.Start, End: repl.End, Text: []byte(text)})
		}
		w := wire.NewMatch(playgroundFile, m.Node, m.Env, m.Lang.Display(), 0, 0, repl)
		matches = append(matches, json.RawMessage(w.Encode(wire.Compact)))
	}
	out["matches"] = matches
	if tmpl != nil {
		updated, err := rewrite.Apply(t.Source(), edits)
		if err != nil {
			return map[string]any{"error": playgroundError{Message: err.Error(), In: "rewrite"}}
		}
		out["rewritten"] = string(updated)
		out["diff"] = diffHunks(string(t.Source()), string(updated))
	}
	if len(ms) == 0 && pt.Root().IsError() {
		out["warning"] = "Pattern contains an ERROR node and may cause unexpected results."
	}
	return out
}

// compilePattern compiles the pattern as `loupe run` does: with a
// selector, the pattern is the context and the selected kind the pattern.
func compilePattern(ctx context.Context, lang *language.Language, p playgroundParams) (*pattern.Pattern, *playgroundError) {
	opts := pattern.Options{}
	if p.Strictness != "" {
		s, err := pattern.ParseStrictness(p.Strictness)
		if err != nil {
			return nil, &playgroundError{Message: err.Error(), In: "strictness"}
		}
		opts.Strictness = s
	}
	src := p.Pattern
	if p.Selector != "" {
		opts.Context, opts.Selector, src = p.Pattern, p.Selector, ""
	}
	pt, err := pattern.Compile(ctx, lang, src, opts)
	if err != nil {
		return nil, &playgroundError{Message: fmt.Sprintf("cannot parse the pattern as %s: %v", lang.Display(), err), In: "pattern"}
	}
	return pt, nil
}

// runRule is `loupe scan --inline-rules RULE --json` (and its fixes) over
// the source as a file of the playground's language.
func runRule(ctx context.Context, lang *language.Language, t *tree.Tree, yaml string) map[string]any {
	configs, err := rule.ParseConfigs(ctx, []byte(yaml), rule.Options{})
	if err != nil {
		return map[string]any{"error": ruleError(err)}
	}
	rules := scan.NewRules(configs, "", "")
	findings, err := rules.ScanFile(ctx, search.File{Path: playgroundFile, Lang: lang}, t)
	if err != nil {
		return map[string]any{"error": playgroundError{Message: err.Error(), In: "rule"}}
	}
	f := scan.File{Tree: t, Findings: findings}
	out := map[string]any{}
	var others []string
	for _, c := range configs {
		if c.Language != lang && !lang.Injects(c.Language) {
			others = append(others, fmt.Sprintf("rule %s is for %s", c.ID, c.Language.Display()))
		}
	}
	if len(others) > 0 {
		out["warning"] = strings.Join(others, "; ") + ", not " + lang.Display() + ": it does not run on this source."
	}
	matches := []json.RawMessage{}
	fixable := false
	for _, fd := range f.Findings {
		w := wire.NewFinding(playgroundFile, fd, true, false)
		matches = append(matches, json.RawMessage(w.Encode(wire.Compact)))
		fixable = fixable || len(fd.Config.Fixes) > 0
	}
	out["matches"] = matches
	if fixable {
		updated, _, err := scan.Fix(t.Source(), f.Findings)
		if err != nil {
			return map[string]any{"error": playgroundError{Message: err.Error(), In: "rule"}}
		}
		out["rewritten"] = string(updated)
		out["diff"] = diffHunks(string(t.Source()), string(updated))
	}
	return out
}

// yamlLine finds the line yaml's own syntax errors name in their text.
var yamlLine = regexp.MustCompile(`yaml: line (\d+):`)

// ruleError locates a rule's error at its line: a rule.Error knows it,
// and a YAML syntax error says it.
func ruleError(err error) playgroundError {
	e := playgroundError{Message: err.Error(), In: "rule"}
	var re *rule.Error
	if errors.As(err, &re) && re.Line > 0 {
		e.Line, e.Column = re.Line, re.Column
	} else if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
	}
	return e
}

// diffHunks is the diff `loupe run -r` prints (printer.Diff), as data:
// the same lines (rewrite.DiffLines) cut by rewrite.Hunks with three lines
// of context.
func diffHunks(old, new string) []diffHunk {
	a, b := rewrite.SplitLines(old), rewrite.SplitLines(new)
	hunks := []diffHunk{}
	for _, group := range rewrite.Hunks(rewrite.DiffLines(a, b), 3) {
		oldLen, newLen := 0, 0
		for _, op := range group {
			oldLen += op.OldLen
			newLen += op.NewLen
		}
		h := diffHunk{Header: fmt.Sprintf("@@ -%d,%d +%d,%d @@", group[0].OldStart, oldLen, group[0].NewStart, newLen)}
		for _, op := range group {
			if op.Equal {
				for i := range op.OldLen {
					h.Lines = append(h.Lines, diffLine{op.OldStart + i + 1, op.NewStart + i + 1, " ", a[op.OldStart+i]})
				}
				continue
			}
			for i := range op.OldLen {
				h.Lines = append(h.Lines, diffLine{Old: op.OldStart + i + 1, Sign: "-", Text: a[op.OldStart+i]})
			}
			for i := range op.NewLen {
				h.Lines = append(h.Lines, diffLine{New: op.NewStart + i + 1, Sign: "+", Text: b[op.NewStart+i]})
			}
		}
		hunks = append(hunks, h)
	}
	return hunks
}

// playgroundDump is `loupe parse --format FORMAT` of the source and, for a
// pattern, --debug-query=pattern of it.
func playgroundDump(ctx context.Context, p playgroundParams) map[string]any {
	lang, err := language.Lookup(p.Language)
	if err != nil {
		return map[string]any{"error": playgroundError{Message: err.Error(), In: "language"}}
	}
	t, err := lang.Parse(ctx, []byte(p.Source))
	if err != nil {
		return map[string]any{"error": playgroundError{Message: err.Error(), In: "source"}}
	}
	out := map[string]any{}
	switch p.Format {
	case "sexp":
		out["source"] = t.Root().SExp()
	case "cst":
		out["source"] = printer.Tree(t.Root(), false, printer.Palette{})
	default:
		out["source"] = printer.Tree(t.Root(), true, printer.Palette{})
	}
	if strings.TrimSpace(p.Pattern) != "" {
		if pt, perr := compilePattern(ctx, lang, p); perr != nil {
			out["patternError"] = perr.Message
		} else {
			out["pattern"] = printer.Pattern(pt, printer.Palette{})
		}
	}
	return out
}
