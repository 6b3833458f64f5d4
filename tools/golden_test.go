package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	ar := parseArchive(data)
	var name, params string
	for _, l := range strings.Split(ar.comment, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(l, "#")), "call "); ok {
			name, params, _ = strings.Cut(rest, " ")
		}
	}
	if name == "" {
		t.Fatalf("%s: no call line (\"call TOOL PARAMS\")", file)
	}
	ws := map[string]string{}
	for _, f := range ar.files {
		if !isOutput(f.name) {
			ws[f.name] = string(f.data)
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
			ar.set(s, got[s])
		}
		if err := os.WriteFile(file, ar.format(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, s := range outputSections {
		if want := ar.get(s); got[s] != want {
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

// archive is a txtar archive: a comment, then "-- name --" sections.
type archive struct {
	comment string
	files   []archiveFile
}

type archiveFile struct {
	name string
	data []byte
}

func parseArchive(data []byte) *archive {
	a := &archive{}
	var cur *archiveFile
	var buf bytes.Buffer
	flush := func() {
		if cur == nil {
			a.comment = buf.String()
		} else {
			cur.data = append([]byte(nil), buf.Bytes()...)
			a.files = append(a.files, *cur)
		}
		buf.Reset()
	}
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		s := strings.TrimRight(string(line), "\r\n")
		if strings.HasPrefix(s, "-- ") && strings.HasSuffix(s, " --") && len(s) > 6 {
			flush()
			cur = &archiveFile{name: strings.TrimSpace(s[3 : len(s)-3])}
			continue
		}
		buf.Write(line)
	}
	flush()
	return a
}

// get is a section's content, "" when absent.
func (a *archive) get(name string) string {
	for _, f := range a.files {
		if f.name == name {
			return string(f.data)
		}
	}
	return ""
}

// set replaces a section's content, adding it at the end or removing it
// when content is empty.
func (a *archive) set(name, content string) {
	for i, f := range a.files {
		if f.name == name {
			if content == "" {
				a.files = append(a.files[:i], a.files[i+1:]...)
			} else {
				a.files[i].data = []byte(content)
			}
			return
		}
	}
	if content != "" {
		a.files = append(a.files, archiveFile{name, []byte(content)})
	}
}

func (a *archive) format() []byte {
	var b bytes.Buffer
	b.WriteString(a.comment)
	for _, f := range a.files {
		b.WriteString("-- " + f.name + " --\n")
		b.Write(f.data)
	}
	return b.Bytes()
}
