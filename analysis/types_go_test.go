package analysis

import (
	"sort"
	"testing"
)

// goDispatchProject is a Go package whose types implement interfaces of
// its own and of the standard library, with pointer and value receivers,
// embedded interfaces and a promoted method; use.go calls through them.
var goDispatchProject = map[string]string{
	"go.mod": "module example.com/m\n",
	"p/types.go": `package p

import "io"

type Handler interface {
	ServeHTTP(w io.Writer, r int)
}

type Reader interface {
	Read(p []byte) (n int, err error)
}

// ReadCloser embeds Reader: rc.Read() calls Reader's Read.
type ReadCloser interface {
	Reader
	Close() error
}

// Pair lists Read and Close itself.
type Pair interface {
	Read(p []byte) (int, error)
	Close() error
}

// Buf's methods have pointer receivers but String, which has a value
// receiver: gopls compares the pointer's method set, which has both.
type Buf struct{ data []byte }

func (b *Buf) Write(p []byte) (int, error) { return len(p), nil }
func (b *Buf) Read(p []byte) (int, error)  { return 0, nil }
func (b *Buf) Close() error                { return nil }
func (b Buf) String() string               { return "" }

type Mux struct{}

func (m *Mux) ServeHTTP(w io.Writer, r int) {}

// Half has ServeHTTP with another arity: it implements no Handler.
type Half struct{}

func (h *Half) ServeHTTP(w io.Writer) {}

// OnlyClose has Close but no Read: it implements no ReadCloser.
type OnlyClose struct{}

func (o OnlyClose) Close() error { return nil }

// File has Read itself and Close promoted from OnlyClose: a Pair.
type File struct{ OnlyClose }

func (f *File) Read(p []byte) (int, error) { return 0, nil }

// Other's Write takes a string and returns nothing: no io.Writer.
type Other struct{}

func (o Other) Write(s string) {}

// Err's Unwrap returns an error, Unwrapper's a Handler: no Unwrapper.
type Unwrapper interface{ Unwrap() Handler }

type Err struct{}

func (e Err) Unwrap() error { return nil }

// Wrap's Unwrap returns the Handler, written with its package (as
// another package writes it).
type Wrap struct{}

func (w Wrap) Unwrap() p.Handler { return nil }

// Fault is an error; a Temporary is an error that has Temporary.
type Fault struct{}

func (f *Fault) Error() string   { return "" }
func (f *Fault) Temporary() bool { return true }

type Temporary interface {
	error
	Temporary() bool
}

// Box implements Getter[int]: a generic interface's written types (T)
// are not compared.
type Getter[T any] interface{ Get() T }

type Box struct{}

func (b Box) Get() int { return 0 }
`,
	"p/use.go": `package p

import (
	"fmt"
	"io"
)

func serve(h Handler, w io.Writer) { h.ServeHTTP(w, 1) }

func direct(m *Mux, w io.Writer) { m.ServeHTTP(w, 2) }

func write(w io.Writer) { w.Write(nil) }

func show(s fmt.Stringer) { _ = s.String() }

func read(rc ReadCloser) { rc.Read(nil) }

func closeIt(rc ReadCloser) { rc.Close() }

func pair(x Pair) { x.Read(nil) }

func other(o Other) { o.Write("x") }

func unwrap(u Unwrapper) { u.Unwrap() }

func fail(err error, t Temporary) { _ = err.Error(); t.Temporary() }

func generic(g Getter[int]) { g.Get() }
`,
}

// TestGoDispatch checks that a Go call through an interface is a
// dispatch caller of the methods of the types implementing it, and a call
// of a concrete method one of the interface methods it implements (as
// gopls's call hierarchy counts them): through a project interface, a
// standard library interface (io.Writer, fmt.Stringer), an embedded
// interface, a pointer receiver's and a value receiver's method, a
// promoted method; a type whose method set lacks the interface's methods,
// or has them with another arity or written types, is no implementation, and a same-named
// method of an unrelated type stays a miss.
func TestGoDispatch(t *testing.T) {
	dir := project(t, goDispatchProject)
	for _, tc := range []struct {
		symbol string
		want   []string
	}{
		// A project interface; the concrete call is the method's own.
		{"Mux.ServeHTTP", []string{"direct resolved", "serve dispatch"}},
		// The interface's method: a call on a type implementing it.
		{"Handler.ServeHTTP", []string{"direct dispatch", "serve resolved"}},
		// ServeHTTP(w) does not fit ServeHTTP(w, r).
		{"Half.ServeHTTP", nil},
		// A standard library interface, pointer receivers.
		{"Buf.Write", []string{"write dispatch"}},
		// A value receiver's method, through fmt.Stringer.
		{"Buf.String", []string{"show dispatch"}},
		// Read of the embedded Reader, Close of ReadCloser, and Pair's
		// Read.
		{"Buf.Read", []string{"pair dispatch", "read dispatch"}},
		{"Buf.Close", []string{"closeIt dispatch"}},
		// OnlyClose has no Read: not a ReadCloser; File is a Pair with
		// its promoted Close.
		{"OnlyClose.Close", nil},
		{"File.Read", []string{"pair dispatch", "read dispatch"}},
		// Other's Write is no io.Writer's; o.Write is its own.
		{"Other.Write", []string{"other resolved"}},
		// A result of another written type; the same type qualified.
		{"Err.Unwrap", nil},
		{"Wrap.Unwrap", []string{"unwrap dispatch"}},
		// The predeclared error, written and embedded.
		{"Fault.Error", []string{"fail dispatch"}},
		{"Fault.Temporary", []string{"fail dispatch"}},
		{"Box.Get", []string{"generic dispatch"}},
	} {
		r := run(t, dir, Params{Mode: ModeCallers, Language: "go", Symbol: tc.symbol})
		var got []string
		for _, n := range r.Callers {
			l := n.Name + " " + n.Confidence
			if n.Reason != "" {
				l += " " + n.Reason
			}
			got = append(got, l)
		}
		sort.Strings(got)
		sameList(t, "callers of "+tc.symbol, got, tc.want)
	}
}

// TestGoArity checks how a Go method's signature is read from its
// declaration: its numbers of parameters and results, and their written
// types, normalised (qualifiers dropped, byte as uint8, interface{} as
// any; a function, struct or interface type matching any).
func TestGoArity(t *testing.T) {
	for _, tc := range []struct {
		src, name, label string
		want             goArity
	}{
		{"func (b *Buf) Write(p []byte) (int, error) {}", "Write", lMethod, goArity{1, 2, "[]uint8,int,error"}},
		{"func (b Buf) String() string { return \"\" }", "String", lMethod, goArity{0, 1, "string"}},
		{"func (m *Mux) ServeHTTP(w, r int) {}", "ServeHTTP", lMethod, goArity{2, 0, "int,int"}},
		{"func (m *Mux) Do(f func(a, b int) error, xs ...map[string]int,\n) {}", "Do", lMethod, goArity{2, 0, "?,...map[string]int"}},
		{"func (l *List[T]) Each(f func(T) bool) (n int, err error) {}", "Each", lMethod, goArity{1, 2, "?,int,error"}},
		{"func (s S) Shape() struct{ a, b int } { return }", "Shape", lMethod, goArity{0, 1, "struct"}},
		{"func (s S) Walk(v ast.Visitor, n *ast.Node, x interface{}) chan<- rune {}", "Walk", lMethod,
			goArity{3, 1, "Visitor,*Node,any,chan<-int32"}},
		{"Read(p []byte) (n int, err error)", "Read", lSignature, goArity{1, 2, "[]uint8,int,error"}},
		{"Close() error", "Close", lSignature, goArity{0, 1, "error"}},
		{"Reset()", "Reset", lSignature, goArity{0, 0, ""}},
	} {
		f := &fileFacts{src: []byte(tc.src)}
		got := goArityOf(f, def{Name: tc.name, Label: tc.label, Start: 0, End: len(tc.src)})
		if got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.src, got, tc.want)
		}
	}
}

// TestGoStdTable checks the generated table of the standard library's
// method sets: interfaces with their embedded interfaces' methods, and
// a defined type's pointer's exported methods.
func TestGoStdTable(t *testing.T) {
	std := goStdTypes()
	for _, tc := range []struct {
		typ, method string
		iface       bool
		want        goArity
	}{
		{"io.Writer", "Write", true, goArity{params: 1, results: 2}},
		{"io.ReadCloser", "Read", true, goArity{params: 1, results: 2}},
		{"io.ReadCloser", "Close", true, goArity{params: 0, results: 1}},
		{"fmt.Stringer", "String", true, goArity{params: 0, results: 1}},
		{"net/http.Handler", "ServeHTTP", true, goArity{params: 2, results: 0}},
		{"bytes.Buffer", "Write", false, goArity{params: 1, results: 2}},
		{"sync.Mutex", "Lock", false, goArity{params: 0, results: 0}},
		{"error", "Error", true, goArity{params: 0, results: 1}},
	} {
		st, ok := std[tc.typ]
		if !ok {
			t.Errorf("%s: not in the table", tc.typ)
			continue
		}
		if got, ok := st.methods[tc.method]; !ok || got != tc.want || st.iface != tc.iface {
			t.Errorf("%s.%s: got %+v (found %v, interface %v), want %+v (interface %v)", tc.typ, tc.method, got, ok,
				st.iface, tc.want, tc.iface)
		}
	}
	// reflect.Type has unexported methods: no other package implements it.
	if _, ok := std["reflect.Type"]; ok {
		t.Error("reflect.Type: in the table, though its methods are not all exported")
	}
}
