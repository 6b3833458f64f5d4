package difftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/printer"
	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/scan"
	"github.com/loupe-dev/loupe/core/search"
)

// reportRules are rules over Go code whose text reports exercise the
// layout: tabs before and inside labels, primary and secondary labels
// with messages on one line (trailing and hanging), multi-line labels
// starting after indentation or mid-line and ending anywhere, notes with
// and without a final line break, every severity. No rule has two
// configured multi-line labels: ast-grep orders configured labels by a
// per-process hash, which decides their gutter columns.
const reportRules = `id: err-check
language: go
severity: error
message: error checked
note: |
  Wrap it with **context**:
  ` + "`fmt.Errorf(\"...: %w\", err)`" + `
rule: {pattern: "if err != nil { return $$$R }"}
---
id: range-loop
language: go
severity: warning
message: range over $X
labels:
  X: {style: primary, message: the ranged value}
  V: {style: secondary, message: the value}
  K: {style: secondary}
rule: {pattern: "for $K, $V := range $X { $$$ }"}
---
id: func-body
language: go
severity: info
message: function $NAME
note: "one line note"
labels:
  NAME: {style: primary, message: declared here}
  BODY: {style: secondary, message: its body}
rule:
  kind: function_declaration
  all:
    - has: {field: name, pattern: $NAME}
    - has: {field: body, pattern: $BODY}
---
id: composite
language: go
severity: hint
message: composite literal
rule: {kind: composite_literal, regex: "\n"}
---
id: two-results
language: go
severity: warning
message: two results
labels:
  A: {style: secondary, message: first}
  B: {style: primary, message: second}
rule: {pattern: "return $A, $B"}
---
id: string-arg
language: go
severity: error
message: formatted
labels:
  F: {style: secondary, message: format}
  A: {style: primary}
rule: {pattern: "fmt.Sprintf($F, $A)"}
`

// TestReportText scans Go's net/http (tabs throughout) with reportRules
// and compares ast-grep's text report with loupe's byte for byte, in each
// report style: the default (rich) finding by finding, the others line
// by line (ast-grep prints files and rules in no fixed order).
// A few files by default; LOUPE_DIFFTEST_FULL=1 takes all of net/http.
func TestReportText(t *testing.T) {
	bin := needAstGrep(t)
	ctx := context.Background()
	root, err := GoRoot(ctx)
	if err != nil {
		t.Skip(err)
	}
	lang, err := language.Lookup("go")
	if err != nil {
		t.Fatal(err)
	}
	parts := []string{"net/http/client.go", "net/http/cookie.go", "net/http/header.go", "net/http/fs.go"}
	if os.Getenv("LOUPE_DIFFTEST_FULL") == "1" {
		parts = []string{"net/http"}
	}
	files, err := Files(root, lang, parts...)
	if err != nil {
		t.Skip(fmt.Errorf("net/http sources: %w", err))
	}
	rules := filepath.Join(t.TempDir(), "rules.yml")
	if err := os.WriteFile(rules, []byte(reportRules), 0o644); err != nil {
		t.Fatal(err)
	}

	cfgs, err := project.ReadRuleFile(ctx, rules, "rules.yml", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, style := range []printer.ReportStyle{printer.Rich, printer.Medium, printer.Short} {
		t.Run(string(style), func(t *testing.T) {
			cmd := exec.CommandContext(ctx, bin, append([]string{"scan", "--color", "never", "--report-style", string(style), "-r", rules, "--"}, files...)...)
			cmd.Dir = root
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			var exit *exec.ExitError
			if err := cmd.Run(); err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
				t.Fatalf("ast-grep scan: %v\n%s", err, stderr.Bytes())
			}
			var out bytes.Buffer
			rep := printer.Report{Style: style, Context: 3}
			_, err = scan.Scan(ctx, scan.NewRules(cfgs, root, ""), search.Options{Root: root, Paths: files},
				func(f scan.File) ([]byte, int64) {
					var b bytes.Buffer
					rep.Print(&b, f.Path, f.Tree.Source(), f.Findings)
					return b.Bytes(), int64(b.Len())
				},
				func(b []byte) error { out.Write(b); return nil })
			if err != nil {
				t.Fatal(err)
			}
			split, unit := reportBlocks, "findings"
			if style != printer.Rich {
				split, unit = reportLines, "lines"
			}
			want, got := split(stdout.String()), split(out.String())
			onlyRef, onlyGot := diffKeys(want, got)
			same := len(want) - len(onlyRef)
			t.Logf("%d files, %d %s: %d byte-identical", len(files), len(want), unit, same)
			if len(want) == 0 {
				t.Fatal("ast-grep reported nothing: the rules no longer fit the corpus")
			}
			if len(onlyRef)+len(onlyGot) > 0 {
				t.Errorf("ast-grep %d, loupe %d, %d identical:\n%s", len(want), len(got), same, firstDiffs(onlyRef, onlyGot, 3))
			}
		})
	}
}

// reportLines splits a Short or Medium report into its lines, sorted.
func reportLines(s string) []string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	sort.Strings(lines)
	return lines
}

// reportHeader starts a finding in a text report.
var reportHeader = regexp.MustCompile(`(?m)^(error|warning|note|help)\[`)

// reportBlocks splits a text report into its findings, sorted.
func reportBlocks(s string) []string {
	idx := reportHeader.FindAllStringIndex(s, -1)
	blocks := make([]string, 0, len(idx))
	for i, at := range idx {
		end := len(s)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		blocks = append(blocks, s[at[0]:end])
	}
	sort.Strings(blocks)
	return blocks
}

// TestReportBlocks checks how a report splits into findings.
func TestReportBlocks(t *testing.T) {
	report := "error[a]: x\n  ┌─ f:1:1\n  │\n1 │ a\n  │ ^\n\nwarning[b]: y\n  ┌─ f:2:1\n"
	got := reportBlocks(report)
	if len(got) != 2 || !strings.HasPrefix(got[0], "error[a]") || !strings.HasSuffix(got[0], "^\n\n") || !strings.HasPrefix(got[1], "warning[b]") {
		t.Errorf("blocks %q", got)
	}
}
