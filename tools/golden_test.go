package tools

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tests/golden"
	"golang.org/x/tools/txtar"
)

// The golden tests are txtar archives in testdata/, in the style of
// gopls's: the comment holds a line "call TOOL PARAMS" (PARAMS the JSON
// parameters), the files are the workspace, and these sections hold what
// the call returns:
//
//	text        Output.Text, what the model reads
//	structured  Output.Structured as indented JSON (structuredContent)
//	warnings    Output.Warnings, one a line (absent: none)
//	error       the error of a call that fails (then no other section)
//
// Run `go test ./tools -run Golden -update` to rewrite those sections from
// the current output.
var update = flag.Bool("update", false, "rewrite the golden files' expected output")

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) { runGolden(t, file) })
	}
}

// outputSections are the sections a golden file's call fills.
var outputSections = []string{"text", "structured", "warnings", "error"}

func runGolden(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ar := txtar.Parse(data)
	var name, params string
	for _, l := range strings.Split(string(ar.Comment), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(l, "#")), "call "); ok {
			name, params, _ = strings.Cut(rest, " ")
		}
	}
	if name == "" {
		t.Fatalf("%s: no call line (\"call TOOL PARAMS\")", file)
	}
	ws := map[string]string{}
	for _, f := range ar.Files {
		if !isOutput(f.Name) {
			ws[f.Name] = string(f.Data)
		}
	}
	ts, err := New(Config{Workspace: writeFiles(t, ws)})
	if err != nil {
		t.Fatal(err)
	}
	var tool *Tool
	for _, x := range ts {
		if x.Name == name {
			tool = x
		}
	}
	if tool == nil {
		t.Fatalf("no tool %s", name)
	}
	got := map[string]string{}
	out, err := tool.Call(context.Background(), json.RawMessage(params))
	if err != nil {
		got["error"] = err.Error() + "\n"
	} else {
		got["text"] = out.Text
		raw, err := json.MarshalIndent(out.Structured, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got["structured"] = string(raw) + "\n"
		if len(out.Warnings) > 0 {
			got["warnings"] = strings.Join(out.Warnings, "\n") + "\n"
		}
	}
	if *update {
		for _, s := range outputSections {
			if got[s] == "" {
				golden.Remove(ar, s)
			} else {
				golden.Set(ar, s, []byte(got[s]))
			}
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, s := range outputSections {
		if want, _ := golden.Get(ar, s); got[s] != string(want) {
			t.Errorf("%s:\n%s\nwant:\n%s", s, got[s], want)
		}
	}
}

func isOutput(name string) bool {
	for _, s := range outputSections {
		if name == s {
			return true
		}
	}
	return false
}
