// Command pylibgen writes the table of Python's standard library types
// that structural_analysis's type layer reads (analysis/libtypes_py.txt):
// from the typeshed stubs a pinned pyright package bundles
// (dist/typeshed-fallback/stdlib), every class of a few modules with its
// type parameters, bases and members (a method's return type, an
// attribute's type), and each module-level function's return type. Names
// and result types only, in the compact form the TypeScript table uses
// (list<_T>, Union<A,B>, this for Self).
//
//	go run ./analysis/internal/pylibgen -stdlib DIR -o analysis/libtypes_py.txt
//
// `make analysis-libtypes` runs it on pyright@1.1.414. A class is keyed by
// its bare name; the first module listing it wins (builtins first), and
// the first declaration of a member wins (overloads share a name).
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/analysis/internal/pytype"
	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

type libType struct {
	params  []string
	parents []string
	members map[string]string
}

type table struct {
	tvars map[string]bool // the type variables declared (_T = TypeVar("_T")), AnyStr
	types map[string]*libType
	order []string
	funcs map[string]string
}

func main() {
	stdlib := flag.String("stdlib", "", "typeshed's stdlib directory (pyright's dist/typeshed-fallback/stdlib)")
	out := flag.String("o", "", "the table to write")
	version := flag.String("version", "", "the pyright version, named in the table's header")
	flag.Parse()
	if *stdlib == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: pylibgen -stdlib DIR -o FILE [-version V]")
		os.Exit(2)
	}
	if err := run(*stdlib, *out, *version); err != nil {
		fmt.Fprintln(os.Stderr, "pylibgen:", err)
		os.Exit(1)
	}
}

func run(dir, out, version string) error {
	lang, err := language.Lookup("python")
	if err != nil {
		return fmt.Errorf("the python grammar: %w", err)
	}
	t := &table{tvars: map[string]bool{"AnyStr": true}, types: map[string]*libType{}, funcs: map[string]string{}}
	for _, m := range pytype.Stubs {
		p := filepath.Join(dir, filepath.FromSlash(m))
		src, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("reading the stub %s: %w", m, err)
		}
		tr, err := search.Parse(context.Background(), lang, src)
		if err != nil {
			return fmt.Errorf("parsing %s: %w", m, err)
		}
		t.read(tr.Root(), pytype.FuncPrefix(m))
	}
	return t.write(out, version)
}

// read collects one stub's classes and functions, each function's name
// after prefix (its module's, "" for builtins); a version guard (if
// sys.version_info >= ...) is read as if it held.
func (t *table) read(root tree.Node, prefix string) {
	seen := map[string]bool{}
	var walk func(n tree.Node)
	walk = func(n tree.Node) {
		for _, c := range n.NamedChildren() {
			switch c = unwrap(c); c.Kind() {
			case "class_definition":
				name := c.ChildByField("name").Text()
				if _, dup := t.types[name]; dup && !seen[name] {
					continue // an earlier module's class of this name wins
				}
				seen[name] = true
				t.class(name, c)
			case "function_definition":
				name := prefix + c.ChildByField("name").Text()
				if _, ok := t.funcs[name]; !ok {
					t.funcs[name] = pytype.Expr(c.ChildByField("return_type"))
				}
			case "if_statement", "else_clause", "elif_clause", "block":
				walk(c)
			case "expression_statement":
				for _, a := range c.NamedChildren() {
					if r := a.ChildByField("right"); a.Kind() == "assignment" && r.Kind() == "call" &&
						strings.HasSuffix(r.ChildByField("function").Text(), "TypeVar") {
						t.tvars[a.ChildByField("left").Text()] = true
					}
				}
			}
		}
	}
	walk(root)
}

// unwrap leads from a decorated definition to the definition.
func unwrap(n tree.Node) tree.Node {
	if n.Kind() == "decorated_definition" {
		return n.ChildByField("definition")
	}
	return n
}

// class records a class: its bases (compact), the type variables they
// name (class list(MutableSequence[_T]) has _T), and its members.
func (t *table) class(name string, c tree.Node) {
	lt := t.types[name]
	if lt == nil {
		lt = &libType{members: map[string]string{}}
		t.types[name] = lt
		t.order = append(t.order, name)
	}
	var generic []string // Generic[_KT, _VT] orders the parameters, when written
	for _, b := range c.ChildByField("superclasses").NamedChildren() {
		if b.Kind() == "keyword_argument" {
			continue
		}
		if p := pytype.Expr(b); p != "" && !contains(lt.parents, p) {
			lt.parents = append(lt.parents, p)
		}
		t.typeVars(b, &lt.params)
		if v := b.ChildByField("value"); b.Kind() == "subscript" && (v.Text() == "Generic" || v.Text() == "Protocol") {
			t.typeVars(b, &generic)
		}
	}
	if len(generic) > 0 {
		lt.params = generic
	}
	var members func(body tree.Node)
	members = func(body tree.Node) {
		for _, s := range body.NamedChildren() {
			switch s = unwrap(s); s.Kind() {
			case "function_definition":
				m := s.ChildByField("name").Text()
				if _, ok := lt.members[m]; !ok {
					lt.members[m] = pytype.Expr(s.ChildByField("return_type"))
				}
			case "expression_statement":
				for _, a := range s.NamedChildren() {
					if a.Kind() != "assignment" || a.ChildByField("left").Kind() != "identifier" {
						continue
					}
					m := a.ChildByField("left").Text()
					if _, ok := lt.members[m]; !ok {
						lt.members[m] = pytype.Expr(a.ChildByField("type"))
					}
				}
			case "if_statement", "else_clause", "elif_clause":
				members(s)
			case "block":
				members(s)
			}
		}
	}
	members(c.ChildByField("body"))
}

// typeVars appends the type variables a base's subscript names.
func (t *table) typeVars(n tree.Node, out *[]string) {
	if n.Kind() == "identifier" {
		if s := n.Text(); t.tvars[s] && !contains(*out, s) {
			*out = append(*out, s)
		}
		return
	}
	if n.Kind() == "subscript" {
		for _, c := range n.NamedChildren()[1:] {
			t.typeVars(c, out)
		}
		return
	}
	for _, c := range n.NamedChildren() {
		t.typeVars(c, out)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (t *table) write(out, version string) error {
	fh, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("writing the table: %w", err)
	}
	w := bufio.NewWriter(fh)
	fmt.Fprintf(w, "# Python standard library types from typeshed (pyright %s): %s.\n", version, strings.Join(pytype.Stubs, " "))
	fmt.Fprintln(w, "# Generated by `make analysis-libtypes` (analysis/internal/pylibgen); do not edit.")
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	names := append([]string(nil), t.order...)
	sort.Strings(names)
	for _, n := range names {
		lt := t.types[n]
		fmt.Fprintf(w, "t\t%s\t%s\t%s\n", n, dash(strings.Join(lt.params, ",")), dash(strings.Join(lt.parents, ";")))
		var ms []string
		for m := range lt.members {
			ms = append(ms, m)
		}
		sort.Strings(ms)
		for _, m := range ms {
			if typ := lt.members[m]; typ != "" && typ != "None" {
				fmt.Fprintf(w, "m\t%s\t%s\n", m, typ)
			}
		}
	}
	var fs []string
	for f := range t.funcs {
		fs = append(fs, f)
	}
	sort.Strings(fs)
	for _, f := range fs {
		if typ := t.funcs[f]; typ != "" && typ != "None" {
			fmt.Fprintf(w, "f\t%s\t%s\n", f, typ)
		}
	}
	if err := w.Flush(); err != nil {
		fh.Close()
		return fmt.Errorf("writing the table: %w", err)
	}
	if err := fh.Close(); err != nil {
		return fmt.Errorf("writing the table: %w", err)
	}
	return nil
}
