package analysis

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
)

// tableRefs lists every node kind and field name a table mentions.
func tableRefs(s *langSpec) (kinds, fields map[string]string) {
	kinds, fields = map[string]string{}, map[string]string{}
	addPath := func(where string, p path) {
		fs, ks := p.names()
		for _, f := range fs {
			fields[f] = where
		}
		for _, k := range ks {
			kinds[k] = where
		}
	}
	addKinds := func(where string, ks ...string) {
		for _, k := range ks {
			kinds[k] = where
		}
	}
	for _, d := range s.Defs {
		w := "def " + d.Kind
		addKinds(w, d.Kind)
		addKinds(w, d.NameKinds...)
		addKinds(w, d.FuncKinds...)
		addPath(w, d.Name)
		addPath(w, d.Value)
		addPath(w, d.Owner)
		for k := range d.Relabel {
			addKinds(w+" relabel", k)
		}
		for k := range d.ValueLabels {
			addKinds(w+" value labels", k)
		}
		for k := range d.Tokens {
			addKinds(w+" tokens", k)
		}
		for _, h := range d.Heritage {
			addPath(w+" heritage", h.Path)
			addKinds(w+" heritage skip", h.Skip...)
		}
	}
	for _, c := range s.Calls {
		w := "call " + c.Kind
		addKinds(w, c.Kind)
		addPath(w, c.Callee)
		addPath(w, c.Name)
		addPath(w, c.Receiver)
	}
	for _, ts := range s.Typed {
		w := "typed " + ts.Kind
		addKinds(w, ts.Kind)
		addPath(w, ts.Name)
		addPath(w, ts.Type)
		addPath(w, ts.Value)
	}
	for _, n := range s.Names {
		w := "name " + n.Kind
		addKinds(w, n.Kind)
		addPath(w, n.Name)
		addPath(w, n.Receiver)
	}
	addKinds("type leaves", s.TypeLeaves...)
	addKinds("type context", s.TypeContext...)
	addKinds("type show", s.TypeShow...)
	for _, f := range s.TypeFields {
		fields[f] = "type fields"
	}
	for _, i := range s.Imports {
		w := "import " + i.Kind
		addKinds(w, i.Kind)
		for _, p := range []path{i.Source, i.SourceText, i.Callee, i.Require, i.Forbid} {
			addPath(w, p)
		}
		for _, b := range i.Names {
			addPath(w, b.Path)
			addPath(w, b.Name)
			addPath(w, b.Alias)
		}
	}
	e := s.Exports
	addKinds("export wrappers", e.Wrappers...)
	addKinds("export pass-through", e.PassThrough...)
	addKinds("export scopes", e.Scopes...)
	addPath("export visibility", e.Visibility.Modifiers)
	for _, f := range e.Forms {
		w := "export form " + f.Kind
		addKinds(w, f.Kind)
		for _, p := range []path{f.Require, f.Forbid, f.Names, f.Name, f.Alias, f.Source, f.Left, f.Right} {
			addPath(w, p)
		}
	}
	for _, p := range s.Package {
		addKinds("package", p.Kind)
		addPath("package", p.Name)
	}
	return kinds, fields
}

// TestTablesMatchGrammars checks every kind and field the language tables
// name against the grammar, so a typo in a table fails here rather than
// silently matching nothing.
func TestTablesMatchGrammars(t *testing.T) {
	ctx := context.Background()
	for _, name := range SupportedLanguages() {
		s := specs[name]
		t.Run(name, func(t *testing.T) {
			l, err := language.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			kinds, fields := tableRefs(s)
			var bad []string
			for k, where := range kinds {
				if ok, err := l.HasKind(ctx, k); err != nil {
					t.Fatal(err)
				} else if !ok {
					bad = append(bad, "kind "+k+" ("+where+")")
				}
			}
			for f, where := range fields {
				if ok, err := l.HasField(ctx, f); err != nil {
					t.Fatal(err)
				} else if !ok {
					bad = append(bad, "field "+f+" ("+where+")")
				}
			}
			sort.Strings(bad)
			for _, b := range bad {
				t.Errorf("%s: %s is not in the grammar", name, b)
			}
			for _, sc := range s.Scope {
				if _, ok := specs[sc]; !ok {
					t.Errorf("%s: scope language %s has no table", name, sc)
				}
			}
			if _, err := compileSpec(ctx, name); err != nil {
				t.Errorf("compile: %v", err)
			}
		})
	}
}

// TestTableCheckCatchesTypos proves the check above can fail.
func TestTableCheckCatchesTypos(t *testing.T) {
	l, err := language.Lookup("typescript")
	if err != nil {
		t.Fatal(err)
	}
	bogus := &langSpec{Defs: []defShape{{Kind: "function_declaratoin", Name: path{"nmae"}}}}
	kinds, fields := tableRefs(bogus)
	if ok, _ := l.HasKind(context.Background(), "function_declaratoin"); ok || kinds["function_declaratoin"] == "" {
		t.Error("a misspelled kind is not caught")
	}
	if ok, _ := l.HasField(context.Background(), "nmae"); ok || fields["nmae"] == "" {
		t.Error("a misspelled field is not caught")
	}
}

// TestPathSteps checks each step of the path language on a real tree.
func TestPathSteps(t *testing.T) {
	l, err := language.Lookup("typescript")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := l.Parse(context.Background(), []byte("class A extends B implements C, D { m() {} }"))
	if err != nil {
		t.Fatal(err)
	}
	class := tr.Root().NamedChildren()[0]
	texts := func(p path) string {
		var out []string
		for _, n := range p.eval(class) {
			out = append(out, n.Text())
		}
		return strings.Join(out, "|")
	}
	cases := []struct {
		p    path
		want string
	}{
		{path{"name"}, "A"},
		{path{"#class_heritage", "#implements_clause", "*"}, "C|D"},
		{path{"#class_heritage", "#implements_clause", "^"}, "C"},
		{path{"#class_heritage", "#implements_clause", "$"}, "D"},
		{path{"#class_heritage", "#extends_clause", "value"}, "B"},
		{path{"?body", "name"}, "A"},
		{path{"!body", "name"}, ""},
		{path{"=class_declaration", "name"}, "A"},
		{path{"=interface_declaration", "name"}, ""},
		{path{"body", "#method_definition", "name"}, "m"},
		{path{"nosuchfield"}, ""},
		{path{"name", "..", "name"}, "A"},
	}
	for _, c := range cases {
		if got := texts(c.p); got != c.want {
			t.Errorf("%v: got %q, want %q", c.p, got, c.want)
		}
	}
	// field+ follows a field to its deepest node: int *f(void) names f.
	cl, err := language.Lookup("c")
	if err != nil {
		t.Fatal(err)
	}
	ct, err := cl.Parse(context.Background(), []byte("int *f(void) { return 0; }"))
	if err != nil {
		t.Fatal(err)
	}
	fn := ct.Root().NamedChildren()[0]
	if got := (path{"declarator+"}).first(fn).Text(); got != "f" {
		t.Errorf("declarator+: got %q", got)
	}
}

func TestFold(t *testing.T) {
	cases := []struct {
		hay, sym string
		want     bool
	}{
		{"this.toolRegistry.register()", "ToolRegistry", true},
		{"self.tool_registry.register()", "ToolRegistry", true},
		{"TOOL-REGISTRY", "ToolRegistry", true},
		{"toolRegistr", "ToolRegistry", false},
		{"registry.tool", "ToolRegistry", false},
		{"", "x", false},
	}
	for _, c := range cases {
		if got := containsFold([]byte(c.hay), fold(c.sym)); got != c.want {
			t.Errorf("containsFold(%q, %q) = %v", c.hay, c.sym, got)
		}
	}
}
