package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tools/toolspec"
)

// A parameter object whose keys differ from the schema's only in case, or
// that names one key twice, is refused before anything is read or
// written: an approval shows one file (the key as the schema spells it,
// or the first of two), so the write must not hit another.
func TestKeysCheckedExactly(t *testing.T) {
	cases := []struct {
		name, tool, params, want string
	}{
		{"case variant beside the key", "update_file", `{"path":"shown.txt","PATH":"hidden.txt","content":"x"}`, `unknown field "PATH" (parameter names are case-sensitive: did you mean "path"?)`},
		{"case variant alone", "update_file", `{"Path":"hidden.txt","content":"x"}`, `unknown field "Path"`},
		{"duplicate key", "update_file", `{"path":"shown.txt","content":"x","path":"hidden.txt"}`, `duplicate field "path"`},
		{"delete, case variant", "delete_file", `{"path":"shown.txt","pAtH":"hidden.txt"}`, `unknown field "pAtH"`},
		{"delete, duplicate", "delete_file", `{"path":"shown.txt","path":"hidden.txt"}`, `duplicate field "path"`},
		{"create, case variant", "create_file", `{"path":"new.txt","PATH":"hidden.txt","content":"x"}`, `unknown field "PATH"`},
		{"create, duplicate", "create_file", `{"path":"new.txt","content":"x","path":"hidden.txt"}`, `duplicate field "path"`},
		{"create, case variant of a flag", "create_file", `{"path":"shown.txt","content":"x","Overwrite":true}`, `unknown field "Overwrite"`},
		{"nested duplicate in a rule object", "ast_grep", `{"rule":{"kind":"identifier","kind":"number"},"language":"typescript"}`, `duplicate field "kind" in rule`},
		{"deeper duplicate in a rule object", "ast_grep", `{"rule":{"any":[{"kind":"a"},{"regex":"x","regex":"y"}]},"language":"typescript"}`, `duplicate field "regex" in rule.any[1]`},
		{"duplicate top-level key beside an array", "ast_grep", `{"pattern":"x","globs":["a","a"],"language":"typescript","language":"go"}`, `duplicate field "language"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			for name, body := range map[string]string{"shown.txt": "shown\n", "hidden.txt": "hidden\n"} {
				if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			asked := 0
			tool := toolsByName(t, Config{Workspace: root, Approver: func(context.Context, toolspec.Request) (bool, error) {
				asked++
				return true, nil
			}})[c.tool]
			_, err := tool.Call(context.Background(), json.RawMessage(c.params))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
			if _, err := tool.NeedsApproval(json.RawMessage(c.params)); err == nil {
				t.Error("NeedsApproval took the parameters")
			}
			if asked > 0 {
				t.Errorf("the approver was asked %d times", asked)
			}
			for name, body := range map[string]string{"shown.txt": "shown\n", "hidden.txt": "hidden\n"} {
				if got, err := os.ReadFile(filepath.Join(root, name)); err != nil || string(got) != body {
					t.Errorf("%s: %q, %v; want it untouched", name, got, err)
				}
			}
			if _, err := os.Stat(filepath.Join(root, "new.txt")); err == nil {
				t.Error("new.txt was created")
			}
		})
	}
}

// Every parameter of every registered tool is refused under another
// spelling of its case, and the exact spelling is still taken.
func TestEveryParameterCaseSensitive(t *testing.T) {
	tools := toolsByName(t, Config{Workspace: t.TempDir()})
	checked := 0
	for _, info := range Infos() {
		props, _ := info.InputSchema["properties"].(map[string]any)
		for name := range props {
			for _, variant := range caseVariants(name) {
				raw, err := json.Marshal(map[string]any{variant: nil})
				if err != nil {
					t.Fatal(err)
				}
				_, err = tools[info.Name].NeedsApproval(raw)
				if err == nil || !strings.Contains(err.Error(), `unknown field "`+variant+`"`) {
					t.Errorf("%s: %s accepted for %s (%v)", info.Name, raw, name, err)
				}
				checked++
			}
			if _, err := tools[info.Name].NeedsApproval(json.RawMessage(`{"` + name + `":null}`)); err != nil {
				t.Errorf("%s: the exact key %q refused: %v", info.Name, name, err)
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d variants checked", checked)
	}
}

// caseVariants are spellings of name that differ from it only in case:
// all upper, first letter flipped.
func caseVariants(name string) []string {
	var vs []string
	if up := strings.ToUpper(name); up != name {
		vs = append(vs, up)
	}
	if first := flipFirst(name); first != name && first != strings.ToUpper(name) {
		vs = append(vs, first)
	}
	return vs
}

func flipFirst(s string) string {
	if s == "" {
		return s
	}
	c := s[0]
	switch {
	case c >= 'a' && c <= 'z':
		c -= 'a' - 'A'
	case c >= 'A' && c <= 'Z':
		c += 'a' - 'A'
	}
	return string(c) + s[1:]
}

// Malformed and hostile parameters get one clear line each.
func TestDecodeErrors(t *testing.T) {
	tool := toolsByName(t, Config{Workspace: t.TempDir()})["ast_grep"]
	deep := `{"rule":` + strings.Repeat(`{"not":`, maxParamDepth+1) + `{}` + strings.Repeat(`}`, maxParamDepth+1) + `,"language":"typescript"}`
	cases := []struct{ name, params, want string }{
		{"not an object", `[1]`, "invalid parameters: expected a JSON object"},
		{"a string", `"x"`, "invalid parameters: expected a JSON object"},
		{"truncated", `{"pattern":`, "invalid parameters:"},
		{"two values", `{"pattern":"c()"} {}`, "more than one JSON value"},
		{"too deep", deep, "nested more than"},
		{"misspelt", `{"patern":"c()"}`, `unknown field "patern"`},
		{"a string for an integer", `{"pattern":"c()","maxResults":"5"}`, `maxResults: expected an integer, got a string`},
		{"a fraction for an integer", `{"pattern":"c()","maxResults":1.5}`, `maxResults: expected an integer, got 1.5`},
		{"a string for an array", `{"pattern":"c()","globs":"*.ts"}`, `globs: expected an array, got a string`},
		{"a number for a rule", `{"rule":5}`, `rule: expected an object or string, got an integer`},
		{"a number in an array", `{"pattern":"c()","globs":["a",1]}`, `globs[1]: expected a string, got an integer`},
	}
	for _, c := range cases {
		_, err := tool.Call(context.Background(), json.RawMessage(c.params))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
