package filetools

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/schema"
)

// methodName is the Tools method of a tool: grep → Grep, list_directory →
// ListDirectory.
func methodName(tool string) string {
	var b strings.Builder
	for _, part := range strings.Split(tool, "_") {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// TestSpecs checks each spec against its handler: the method of the same
// name takes the spec's Params and returns its Result, the schemas derive,
// and every example decodes strictly into the parameters.
func TestSpecs(t *testing.T) {
	names := map[string]bool{}
	tools := reflect.TypeOf(&Tools{})
	ctxType := reflect.TypeOf((*context.Context)(nil)).Elem()
	for _, s := range Specs {
		t.Run(s.Name, func(t *testing.T) {
			if names[s.Name] {
				t.Fatal("duplicate name")
			}
			names[s.Name] = true
			if s.Title == "" || s.Summary == "" || s.Description == "" || s.Guide == "" || s.Termination == "" || len(s.Permissions) == 0 {
				t.Errorf("incomplete spec %+v", s)
			}
			m, ok := tools.MethodByName(methodName(s.Name))
			if !ok {
				t.Fatalf("no method Tools.%s", methodName(s.Name))
			}
			params, result := reflect.TypeOf(s.Params), reflect.TypeOf(s.Result)
			ft := m.Type
			if ft.NumIn() != 3 || ft.In(1) != ctxType || ft.In(2) != params || ft.NumOut() != 2 || ft.Out(0) != reflect.PointerTo(result) {
				t.Errorf("Tools.%s is %v, want func(context.Context, %v) (*%v, error)", m.Name, ft, params, result)
			}
			if _, ok := reflect.PointerTo(result).MethodByName("Text"); !ok {
				t.Errorf("*%v has no Text method", result)
			}
			_, mayWrite := params.MethodByName("MayWrite")
			if mayWrite != s.RequiresApproval {
				t.Errorf("MayWrite defined %v, requires approval %v", mayWrite, s.RequiresApproval)
			}
			in := schema.For(s.Params)
			out := schema.For(s.Result)
			if in["type"] != "object" || out["type"] != "object" {
				t.Errorf("schemas %v %v", in, out)
			}
			if !strings.Contains(s.Prompt(), "Examples:") {
				t.Error("no examples in the prompt")
			}
			for _, e := range s.Examples {
				if reflect.TypeOf(e.Params) != reflect.PointerTo(params) {
					t.Errorf("example %q is a %T", e.Use, e.Params)
					continue
				}
				js, err := json.Marshal(e.Params)
				if err != nil {
					t.Fatal(err)
				}
				back := reflect.New(params)
				dec := json.NewDecoder(bytes.NewReader(js))
				dec.DisallowUnknownFields()
				if err := dec.Decode(back.Interface()); err != nil {
					t.Errorf("example %q does not decode: %v", e.Use, err)
				}
				if !reflect.DeepEqual(back.Interface(), e.Params) {
					t.Errorf("example %q changes in JSON: %s", e.Use, js)
				}
				if !strings.Contains(s.Prompt(), e.Use+": "+string(js)) {
					t.Errorf("the prompt lacks example %q", e.Use)
				}
			}
		})
	}
	grep := schema.For(GrepParams{})["properties"].(map[string]any)
	if d := grep["case_sensitive"].(map[string]any)["default"]; d != true {
		t.Errorf("case_sensitive default %v", d)
	}
	if req := schema.For(EditLinesParams{})["required"]; !reflect.DeepEqual(req, []string{"path", "operation"}) {
		t.Errorf("edit_lines required %v", req)
	}
}

// TestExamplesRun runs every spec's examples on a workspace laid out for
// them: none is refused for its parameters.
func TestExamplesRun(t *testing.T) {
	src := strings.Repeat("x\n", 200)
	dir := workspace(t, map[string]string{
		"src/main.rs":                src,
		"src/tools/registry.ts":      src,
		"src/registry.ts":            "oldText\n",
		"src/api.go":                 "assertEqual(a, b)\n",
		"src/app.py":                 src,
		".prettierrc":                "{}\n",
		".gitignore":                 "dist/\n",
		"src/legacy/old_registry.ts": "x\n",
	})
	tl, _ := newTools(t, dir)
	ctx := context.Background()
	for _, s := range Specs {
		m := reflect.ValueOf(tl).MethodByName(methodName(s.Name))
		for _, e := range s.Examples {
			out := m.Call([]reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(e.Params).Elem()})
			if err, _ := out[1].Interface().(error); err != nil {
				t.Errorf("%s example %q: %v", s.Name, e.Use, err)
			}
		}
	}
}
