// Command libgen writes the table of TypeScript's standard library types
// that structural_analysis's type layer reads (analysis/libtypes_ts.txt):
// from the lib.*.d.ts files of a pinned typescript package, every
// interface, type alias and namespace with its type parameters, supertypes
// and members (each with the compact form of its type, or of its return
// type for a method), and every global variable and function with its
// type.
//
//	go run ./analysis/internal/libgen -lib DIR -o analysis/libtypes_ts.txt
//
// `make analysis-libtypes` runs it on typescript@5.9.3. A type's members
// are listed once, merged over the files declaring it, sorted; the first
// declaration of a member wins (overloads share a name).
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

	"github.com/loupe-dev/loupe/analysis/internal/tstype"
	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

// libType is one interface, type alias or namespace of the library.
type libType struct {
	params  []string
	parents []string
	members map[string]string // name -> compact type ("" unknown)
	// union, for an alias of a union of named types (type DecoratorContext
	// = ClassDecoratorContext | ...), are their compact forms: the alias
	// has the members all of them have (unionMembers).
	union     []string
	unionDone bool
}

type table struct {
	types   map[string]*libType
	globals map[string]string // a global variable's type ("f:" + return type for a function)
}

func main() {
	lib := flag.String("lib", "", "the lib directory of a typescript package")
	out := flag.String("o", "", "the table to write")
	version := flag.String("version", "", "the typescript version, named in the table's header")
	flag.Parse()
	if *lib == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: libgen -lib DIR -o FILE [-version V]")
		os.Exit(2)
	}
	if err := run(*lib, *out, *version); err != nil {
		fmt.Fprintln(os.Stderr, "libgen:", err)
		os.Exit(1)
	}
}

// libFiles are the declaration files read: the ECMAScript libraries
// (es5 to esnext, decorators), the DOM and the web worker's scope.
func libFiles(dir string) ([]string, error) {
	all, err := filepath.Glob(filepath.Join(dir, "lib.*.d.ts"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range all {
		base := filepath.Base(f)
		switch {
		case strings.HasPrefix(base, "lib.es"), strings.HasPrefix(base, "lib.decorators"),
			base == "lib.dom.d.ts", base == "lib.dom.iterable.d.ts", base == "lib.dom.asynciterable.d.ts":
			out = append(out, f)
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil, fmt.Errorf("no lib.*.d.ts file in %s", dir)
	}
	return out, nil
}

func run(dir, out, version string) error {
	files, err := libFiles(dir)
	if err != nil {
		return err
	}
	lang, err := language.Lookup("typescript")
	if err != nil {
		return err
	}
	t := &table{types: map[string]*libType{}, globals: map[string]string{}}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		tr, err := search.Parse(context.Background(), lang, src)
		if err != nil {
			return fmt.Errorf("parsing %s: %w", f, err)
		}
		t.read(tr.Root())
	}
	t.unionMembers()
	return t.write(out, version)
}

// unionOf appends the compact forms of the members of union type n to
// out; nil when one of them is not a named type.
func unionOf(n tree.Node, out []string) []string {
	for _, c := range n.NamedChildren() {
		switch {
		case c.IsExtra():
		case c.Kind() == "union_type":
			if out = unionOf(c, out); out == nil {
				return nil
			}
		case c.Kind() == "type_identifier" || c.Kind() == "generic_type":
			out = append(out, tstype.Expr(c))
		default:
			return nil
		}
	}
	return out
}

// unionMembers gives each alias of a union of named types the members
// every one of them has, typed as the union of their types.
func (t *table) unionMembers() {
	for _, lt := range t.types {
		t.unionType(lt)
	}
}

// unionType gives alias lt, when it is of a union, its members; once,
// after those of the aliases of unions it names.
func (t *table) unionType(lt *libType) {
	if len(lt.union) == 0 || lt.unionDone {
		return
	}
	lt.unionDone = true
	var each []map[string]string
	for _, u := range lt.union {
		name, _, _ := strings.Cut(u, "<")
		m := t.allMembers(name, 0)
		if m == nil {
			return
		}
		each = append(each, m)
	}
	for name, typ := range each[0] {
		alts := []string{}
		for _, m := range each {
			mt, ok := m[name]
			if !ok || mt == "" {
				alts = nil
				break
			}
			for _, a := range alternatives(mt) {
				alts = appendNew(alts, a)
			}
		}
		switch {
		case alts == nil:
		case len(alts) == 1:
			addMember(lt, name, typ)
		default:
			addMember(lt, name, "|<"+strings.Join(alts, ",")+">")
		}
	}
}

// allMembers returns the members of type name and of its supertypes; nil
// when the table has no such type.
func (t *table) allMembers(name string, depth int) map[string]string {
	lt := t.types[name]
	if lt == nil || depth > 6 {
		return nil
	}
	t.unionType(lt)
	out := map[string]string{}
	for _, p := range lt.parents {
		pn, _, _ := strings.Cut(p, "<")
		for k, v := range t.allMembers(pn, depth+1) {
			out[k] = v
		}
	}
	for k, v := range lt.members {
		out[k] = v
	}
	return out
}

// alternatives splits a compact union |<A,B> into its members (a type
// with type arguments kept whole); any other type is its own.
func alternatives(typ string) []string {
	inner, ok := strings.CutPrefix(typ, "|<")
	if !ok || !strings.HasSuffix(inner, ">") {
		return []string{typ}
	}
	inner = strings.TrimSuffix(inner, ">")
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(inner); i++ {
		switch inner[i] {
		case '<':
			depth++
		case '>':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, inner[start:i])
				start = i + 1
			}
		}
	}
	return append(out, inner[start:])
}

// typeOf returns the type entry name, made when first seen.
func (t *table) typeOf(name string) *libType {
	lt := t.types[name]
	if lt == nil {
		lt = &libType{members: map[string]string{}}
		t.types[name] = lt
	}
	return lt
}

// read collects the top-level declarations of one file.
func (t *table) read(root tree.Node) {
	for _, n := range root.NamedChildren() {
		if n.Kind() == "ambient_declaration" {
			for _, c := range n.NamedChildren() {
				t.decl(c)
			}
			continue
		}
		t.decl(n)
	}
}

func (t *table) decl(n tree.Node) {
	switch n.Kind() {
	case "interface_declaration":
		name := n.ChildByField("name").Text()
		lt := t.typeOf(name)
		if len(lt.params) == 0 {
			lt.params = params(n.ChildByField("type_parameters"))
		}
		for _, c := range n.NamedChildren() {
			if c.Kind() == "extends_type_clause" {
				for _, p := range c.ChildrenByField("type") {
					if e := tstype.Expr(p); e != "" {
						lt.parents = appendNew(lt.parents, e)
					}
				}
			}
		}
		t.members(lt, n.ChildByField("body"))
	case "type_alias_declaration":
		lt := t.typeOf(n.ChildByField("name").Text())
		if len(lt.params) == 0 {
			lt.params = params(n.ChildByField("type_parameters"))
		}
		if v := n.ChildByField("value"); !v.IsZero() && v.Kind() == "object_type" {
			t.members(lt, v)
		} else if !v.IsZero() && v.Kind() == "union_type" {
			lt.union = unionOf(v, lt.union)
		}
	case "internal_module", "module":
		name := n.ChildByField("name").Text()
		body := n.ChildByField("body")
		if body.IsZero() {
			return
		}
		lt := t.typeOf(name)
		for _, c := range body.NamedChildren() {
			switch c.Kind() {
			case "function_signature", "function_declaration":
				addMember(lt, c.ChildByField("name").Text(), tstype.Expr(c.ChildByField("return_type")))
			case "lexical_declaration", "variable_declaration":
				for _, v := range c.NamedChildren() {
					if v.Kind() == "variable_declarator" {
						addMember(lt, v.ChildByField("name").Text(), tstype.Expr(v.ChildByField("type")))
					}
				}
			}
		}
		if _, ok := t.globals[name]; !ok {
			t.globals[name] = name
		}
	case "variable_declaration", "lexical_declaration":
		for _, v := range n.NamedChildren() {
			if v.Kind() == "variable_declarator" {
				if name := v.ChildByField("name"); name.Kind() == "identifier" {
					if _, ok := t.globals[name.Text()]; !ok {
						t.globals[name.Text()] = typeOrIntersection(v.ChildByField("type"))
					}
				}
			}
		}
	case "function_signature", "function_declaration":
		name := n.ChildByField("name").Text()
		if _, ok := t.globals[name]; !ok {
			t.globals[name] = "f:" + tstype.Expr(n.ChildByField("return_type"))
		}
	}
}

// typeOrIntersection reads a global's type: the first member of an
// intersection (window: Window & typeof globalThis).
func typeOrIntersection(n tree.Node) string {
	if !n.IsZero() && n.Kind() == "type_annotation" {
		if cs := n.NamedChildren(); len(cs) > 0 && cs[0].Kind() == "intersection_type" {
			if parts := cs[0].NamedChildren(); len(parts) > 0 {
				return tstype.Expr(parts[0])
			}
		}
	}
	return tstype.Expr(n)
}

// members reads the members of an interface or object type body.
func (t *table) members(lt *libType, body tree.Node) {
	if body.IsZero() {
		return
	}
	for _, m := range body.NamedChildren() {
		name := m.ChildByField("name")
		if name.IsZero() || name.Kind() != "property_identifier" {
			continue
		}
		switch m.Kind() {
		case "method_signature":
			addMember(lt, name.Text(), ownParams(m, tstype.Expr(m.ChildByField("return_type"))))
		case "property_signature":
			addMember(lt, name.Text(), tstype.Expr(m.ChildByField("type")))
		}
	}
}

// addMember records a member's type; of overloads, the first whose type
// is known wins.
func addMember(lt *libType, name, typ string) {
	if old, ok := lt.members[name]; !ok || old == "" {
		lt.members[name] = typ
	}
}

// ownParams replaces a method's own type parameters in its return type by
// their constraints (filter<S extends T>(): S[] returns T[]), or by
// nothing when they have none.
func ownParams(m tree.Node, typ string) string {
	tp := m.ChildByField("type_parameters")
	if tp.IsZero() || typ == "" {
		return typ
	}
	sub := map[string]string{}
	for _, p := range tp.NamedChildren() {
		if p.Kind() != "type_parameter" {
			continue
		}
		c := ""
		if cn := p.ChildByField("constraint"); !cn.IsZero() {
			c = tstype.Expr(cn)
		}
		sub[p.ChildByField("name").Text()] = c
	}
	var b strings.Builder
	tok := func(s string) {
		if c, ok := sub[s]; ok {
			s = c
		}
		b.WriteString(s)
	}
	start := 0
	for i := 0; i < len(typ); i++ {
		if strings.IndexByte("<>,", typ[i]) >= 0 {
			tok(typ[start:i])
			b.WriteByte(typ[i])
			start = i + 1
		}
	}
	tok(typ[start:])
	return b.String()
}

func params(tp tree.Node) []string {
	var out []string
	if tp.IsZero() {
		return nil
	}
	for _, p := range tp.NamedChildren() {
		if p.Kind() == "type_parameter" {
			out = append(out, p.ChildByField("name").Text())
		}
	}
	return out
}

func appendNew(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// write writes the table: a header, then per type a line "t Name Params
// Parents" and its members of known type as "m name type", then "v name type" per
// global variable and "f name returnType" per global function; fields
// are separated by tabs, lists by commas, "-" for an empty field.
func (t *table) write(out, version string) error {
	fh, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(fh)
	fmt.Fprintf(w, "# TypeScript %s standard library types (lib.es*, lib.decorators*, lib.dom*.d.ts).\n", version)
	fmt.Fprintln(w, "# Generated by `make analysis-libtypes` (analysis/internal/libgen); do not edit.")
	var names []string
	for n := range t.types {
		names = append(names, n)
	}
	sort.Strings(names)
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, n := range names {
		lt := t.types[n]
		fmt.Fprintf(w, "t\t%s\t%s\t%s\n", n, dash(strings.Join(lt.params, ",")), dash(strings.Join(lt.parents, ";")))
		var ms []string
		for m := range lt.members {
			ms = append(ms, m)
		}
		sort.Strings(ms)
		for _, m := range ms {
			// A member of unknown type adds nothing: every member of a
			// library type is the library's.
			if typ := lt.members[m]; typ != "" {
				fmt.Fprintf(w, "m\t%s\t%s\n", m, typ)
			}
		}
	}
	var gs []string
	for g := range t.globals {
		gs = append(gs, g)
	}
	sort.Strings(gs)
	for _, g := range gs {
		typ := t.globals[g]
		if r, ok := strings.CutPrefix(typ, "f:"); ok {
			fmt.Fprintf(w, "f\t%s\t%s\n", g, dash(r))
			continue
		}
		fmt.Fprintf(w, "v\t%s\t%s\n", g, dash(typ))
	}
	if err := w.Flush(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}
