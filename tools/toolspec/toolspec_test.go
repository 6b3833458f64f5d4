package toolspec

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestPermissions(t *testing.T) {
	cases := []struct {
		p     Permission
		names string
		hints Hints
	}{
		{ReadFiles, `["ReadFiles"]`, Hints{ReadOnly: true, Idempotent: true}},
		{ReadFiles | WriteFiles, `["ReadFiles","WriteFiles"]`, Hints{Destructive: true}},
		{CreateFiles, `["CreateFiles"]`, Hints{}},
		{DeleteFiles, `["DeleteFiles"]`, Hints{Destructive: true}},
		{DeleteFiles | CreateFiles | WriteFiles | ReadFiles, `["ReadFiles","WriteFiles","CreateFiles","DeleteFiles"]`, Hints{Destructive: true}},
	}
	for _, c := range cases {
		raw, err := json.Marshal(c.p)
		if err != nil || string(raw) != c.names {
			t.Errorf("%s: JSON %s, %v", c.p, raw, err)
		}
		info := Info{Permissions: c.p}
		if h := info.Hints(); h != c.hints {
			t.Errorf("%s: hints %+v, want %+v", c.p, h, c.hints)
		}
	}
	if s := (ReadFiles | WriteFiles).String(); s != "ReadFiles, WriteFiles" {
		t.Errorf("String: %q", s)
	}
}

func TestApprove(t *testing.T) {
	r := Request{Tool: "edit_lines", Permission: WriteFiles, Path: "a.go", Summary: "replace lines 3-4 of a.go"}
	cases := []struct {
		name string
		ctx  context.Context
		want error
	}{
		{"no approver", context.Background(), ErrNoApprover},
		{"allowed", WithApprover(context.Background(), AllowAll), nil},
		{"denied", WithApprover(context.Background(), func(context.Context, Request) (bool, error) { return false, nil }), ErrDenied},
		{"nil approver", WithApprover(context.Background(), nil), ErrNoApprover},
	}
	for _, c := range cases {
		err := Approve(c.ctx, r)
		if !errors.Is(err, c.want) || c.want == nil && err != nil {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "edit_lines: replace lines 3-4 of a.go: ") {
			t.Errorf("%s: %q does not name the tool and the change", c.name, err)
		}
		if got := HasApprover(c.ctx); got != (c.name == "allowed" || c.name == "denied") {
			t.Errorf("%s: HasApprover %v", c.name, got)
		}
	}
	failing := WithApprover(context.Background(), func(context.Context, Request) (bool, error) { return true, errors.New("no terminal") })
	if err := Approve(failing, r); err == nil || !strings.Contains(err.Error(), "no terminal") {
		t.Errorf("a failing approver: %v", err)
	}
}

func TestPrompt(t *testing.T) {
	other := Category{"Other", "Everything else."}
	tools := []Info{
		{Name: "delete_file", Title: "Delete a file", Summary: "Deletes one file.", Category: FileManagement,
			Permissions: DeleteFiles, RequiresApproval: true, Termination: "Stop after it.",
			Examples: []Example{{Use: "Delete a scratch file", Params: json.RawMessage(`{"path":"tmp.txt"}`)}}},
		{Name: "x", Title: "X", Summary: "Does x.", Category: other, Permissions: ReadFiles, Termination: "Go on."},
		{Name: "grep", Title: "Search contents", Summary: "Searches file contents.", Guide: "Use it for text.", Category: SearchDiscovery,
			Permissions: ReadFiles, Termination: "Go on.",
			Examples: []Example{{Use: "Find TODOs", Params: json.RawMessage(`{"pattern":"TODO"}`)}}},
	}
	want := `## Search & Discovery
` + SearchDiscovery.Description + `

### grep: Search contents
Searches file contents.
Use it for text.
Examples:
- Find TODOs: ` + "`" + `{"pattern":"TODO"}` + "`" + `
Permissions: ReadFiles. Approval: not needed.
When to stop: Go on.

## File Management
` + FileManagement.Description + `

### delete_file: Delete a file
Deletes one file.
Examples:
- Delete a scratch file: ` + "`" + `{"path":"tmp.txt"}` + "`" + `
Permissions: DeleteFiles. Approval: asked before a call writes.
When to stop: Stop after it.

## Other
Everything else.

### x: X
Does x.
Permissions: ReadFiles. Approval: not needed.
When to stop: Go on.
`
	if got := Prompt(tools); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if Prompt(nil) != "" {
		t.Error("a prompt without tools")
	}
}
