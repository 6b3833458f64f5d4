package difftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
)

// The kind-selector suite runs `run --kind` (ast-grep 0.51's ESQuery-style
// selectors) through `ast-grep` and `loupe` as command-line programs, over
// the bounded parts of the corpora the pattern suite searches, and
// compares the exit status and every --json=stream match, byte for byte
// (ast-grep prints files in no fixed order, so the lines are compared
// sorted). A refused selector must have the same status, print nothing on
// stdout and start its error with the same line.

// kindCase is one selector over one corpus in one language; lang "" runs
// without --lang, each file's language inferred from its name.
type kindCase struct {
	corpus, lang string
	selectors    []string
}

var kindCases = []kindCase{
	{"go-std", "go", []string{
		"call_expression",                      // a kind
		"call_expression > identifier",         // child
		"if_statement return_statement",        // descendant
		"short_var_declaration + if_statement", // next sibling
		"defer_statement ~ return_statement",   // later sibling
		"raw_string_literal, rune_literal",     // alternatives
		"function_declaration:has(defer_statement)",
		"function_declaration:has(> block:has(go_statement))",
		"return_statement:not(:has(nil))",
		"for_statement:is(:has(range_clause), :has(for_clause))",
		"parameter_declaration:nth-child(2)",
		"argument_list > identifier:nth-last-child(1)",
		"argument_list > call_expression:nth-child(2n+1 of call_expression)",
		"statement_list > expression_statement:nth-child(-n+2)",
		"expression", // a supertype: valid, matches nothing
		"ERR",        // a prefix of ERROR
		"",           // an empty selector matches nothing
		"  call_expression  >  selector_expression  ", // spaces around combinators
	}},
	{"py-std", "python", []string{
		"call > identifier",
		"decorated_definition class_definition",
		"import_statement ~ import_from_statement",
		"comment + function_definition",
		"function_definition:has(yield)",
		"string:not(expression_statement > string)",
		"argument_list > keyword_argument:nth-child(1)",
		":is(lambda, conditional_expression)",
	}},
	{"local", "typescript", []string{
		"class_declaration method_definition",
		"arguments > await_expression, arguments > template_string",
		"interface_declaration:has(property_signature)",
		"lexical_declaration + for_in_statement",
	}},
	{"local", "", []string{
		"call_expression > identifier", // no kind of Java: its file is passed over
		"function_item",                // a kind of Rust only
		"nosuch",                       // of no language: nothing, status 1
	}},
}

// badSelectors are refused with --lang typescript.
var badSelectors = []string{
	"nosuch", "readonly", "number >", ",", ".foo", "number .", "number:foo(x)", "number:has",
	"number:has(number", "number )", "number$", "number ú", ":nth-child(x)", "number:nth-child(n+n)",
}

func TestKindSelectors(t *testing.T) {
	bin := needAstGrep(t)
	loupe := buildLoupe(t)
	ctx := context.Background()
	agree, total := 0, 0
	for _, c := range kindCases {
		var root string
		var files, langArgs []string
		if c.lang == "" {
			root = "testdata"
			files = []string{"javascript", "rust", "typescript", "tsx", "java", "css"}
		} else {
			lang, err := language.Lookup(c.lang)
			if err != nil {
				t.Fatal(err)
			}
			root, files = corpusFiles(ctx, t, c.corpus, lang, false)
			langArgs = []string{"-l", c.lang}
		}
		for _, sel := range c.selectors {
			total++
			name := c.lang
			if name == "" {
				name = "inferred"
			}
			t.Run(name+"/"+sel, func(t *testing.T) {
				args := append([]string{"run", "-k", sel, "--json=stream"}, langArgs...)
				args = append(append(args, "--"), files...)
				ref, err := runCLI(ctx, bin, root, args)
				if err != nil {
					t.Fatal(err)
				}
				got, err := runCLI(ctx, loupe, root, args)
				if err != nil {
					t.Fatal(err)
				}
				if d := ref.diff(got); d != "" {
					t.Fatalf("ast-grep and loupe differ on run -k %q:\n%s", sel, d)
				}
				if ref.code == 0 && len(ref.lines) == 0 {
					t.Fatalf("status 0 without a match")
				}
				t.Logf("%d matches, status %d", len(ref.lines), ref.code)
				agree++
			})
		}
	}
	for _, sel := range badSelectors {
		total++
		t.Run("refused/"+sel, func(t *testing.T) {
			args := []string{"run", "-k", sel, "-l", "typescript", "--json=stream", "typescript"}
			ref, err := runCLI(ctx, bin, "testdata", args)
			if err != nil {
				t.Fatal(err)
			}
			got, err := runCLI(ctx, loupe, "testdata", args)
			if err != nil {
				t.Fatal(err)
			}
			if ref.code != 8 {
				t.Fatalf("ast-grep does not refuse %q (status %d): the case is wrong", sel, ref.code)
			}
			if d := ref.diff(got); d != "" {
				t.Fatalf("ast-grep and loupe differ on run -k %q:\n%s", sel, d)
			}
			agree++
		})
	}
	t.Logf("kind selectors: %d of %d cases agree with ast-grep", agree, total)
}

// cliAnswer is what a run printed: its status, its stdout lines sorted,
// and the first line of its stderr.
type cliAnswer struct {
	code      int
	lines     []string
	firstErr  string
	stderrAll string
}

// runCLI runs bin with args in dir, without colour.
func runCLI(ctx context.Context, bin, dir string, args []string) (cliAnswer, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	a := cliAnswer{stderrAll: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		a.code = exit.ExitCode()
	case err != nil:
		return a, fmt.Errorf("%s %v: %w", filepath.Base(bin), args, err)
	}
	if s := strings.TrimRight(stdout.String(), "\n"); s != "" {
		a.lines = strings.Split(s, "\n")
		slices.Sort(a.lines)
	}
	a.firstErr, _, _ = strings.Cut(a.stderrAll, "\n")
	return a, nil
}

// diff describes how got differs from the reference a; "" when it does
// not.
func (a cliAnswer) diff(got cliAnswer) string {
	var b strings.Builder
	if a.code != got.code {
		fmt.Fprintf(&b, "status: ast-grep %d, loupe %d\n", a.code, got.code)
	}
	if a.firstErr != got.firstErr {
		fmt.Fprintf(&b, "stderr: ast-grep %q, loupe %q\n", a.stderrAll, got.stderrAll)
	}
	if !slices.Equal(a.lines, got.lines) {
		fmt.Fprintf(&b, "matches: ast-grep %d, loupe %d\n", len(a.lines), len(got.lines))
		writeOnly(&b, "only ast-grep: ", a.lines, got.lines, 4, 400)
		writeOnly(&b, "only loupe:    ", got.lines, a.lines, 4, 400)
	}
	return b.String()
}

// writeOnly writes, each after label, the first most lines of these (both
// sorted) that others lacks, clipped to width bytes.
func writeOnly(b *strings.Builder, label string, these, others []string, most, width int) {
	shown := 0
	for _, l := range these {
		if _, found := slices.BinarySearch(others, l); !found && shown < most {
			fmt.Fprintf(b, "%s%.*s\n", label, width, l)
			shown++
		}
	}
}
