package analysis

import (
	"bytes"
	"strings"
)

// Python calls whose arguments no definition of the symbol accepts: a
// call x.encode('ascii', 'strict') never runs a JSONEncoder.encode(self,
// o), whatever x is (Python would raise TypeError), so a call on an
// untyped receiver whose arguments fit none of the symbol's definitions is
// not its caller. The check reads the call's and the definitions' text; it
// keeps a call whenever it cannot tell (unpacked *args or **kw, a
// decorator that may change the signature, text it cannot split).

// pyParams is what a Python def accepts: its positional parameters (with
// how many have no default), keyword-only ones, and whether *args or
// **kwargs take the rest.
type pyParams struct {
	positional       []string
	required         int
	kwOnly           []string
	kwRequired       []string
	varArgs, varKw   bool
	positionalOnly   int // parameters before a / (never passed by name)
	ok               bool
	decoratedUnknown bool
}

// pyArgs is a call's arguments: how many positional, the keyword names,
// and whether it unpacks *xs or **kw.
type pyArgs struct {
	positional int
	keywords   []string
	unpacks    bool
	ok         bool
}

// pyRejudge revises what judge made of Python call k of f when it stayed
// name-only: a call through a class (Base.m(self)) runs that class's
// member, so it never dispatches to an override; a call whose arguments
// the target's definitions cannot take is not its call.
func (b *binder) pyRejudge(f *fileFacts, k call, t target, st status, why string) (status, string) {
	if f.c.spec.Lang != "python" || st != nameOnly {
		return st, why
	}
	if why == "" && k.Member && k.RecvPlain && (k.Recv == "self" || k.Recv == "cls") {
		if st, why, ok := b.pyMissingMember(f, k, t); ok {
			return st, why
		}
	}
	viaClass := k.RecvPlain && b.isTypeBinding(b.lookup(f, k.Recv, k.Start, 0))
	if k.RecvBase != "" {
		// message.Message.attach(self, m): a class named through its module.
		if base := b.lookup(f, k.RecvBase, k.Start, 0); len(base.files) > 0 {
			viaClass = b.isTypeBinding(b.member(base, k.Recv))
		}
	}
	if why == ReasonDispatch && viaClass {
		return miss, ""
	}
	// A receiver named like a class (mod.Base.m(self, x)) may pass self
	// itself: the call is kept when its arguments fit either way.
	if b.pyArgsMiss(f, k, t, viaClass) && (viaClass || !pyClassLike(k.Recv) || b.pyArgsMiss(f, k, t, true)) {
		return miss, ""
	}
	return st, why
}

// pyMissingMember judges self.m() or cls.m() in a method of a class
// that has no member m, itself or through its bases, all of them the
// workspace's or the standard library's (str, dict): pyright reports the
// attribute missing and ties the call to nothing, so it is not a caller,
// except of a subclass's m, where it may dispatch at run time (a template
// method: cls.parse(value) in BaseHeader.__new__). ok is false when that
// cannot be told: a base out of reach, or a class (or base) that sets
// attributes itself (self.m = ..., setattr, __getattr__).
func (b *binder) pyMissingMember(f *fileFacts, k call, t target) (st status, why string, ok bool) {
	cls := b.enclosingClass(f, k.Start)
	if len(cls.defs) != 1 {
		return nameOnly, "", false
	}
	c := cls.defs[0]
	if !b.pyLacks(c, k.Name, 0) {
		return nameOnly, "", false
	}
	for _, td := range b.targetDefs(t) {
		if d := td.f.defs[td.i]; d.Parent >= 0 && b.inherits(defRef{td.f, d.Parent}, c, 0) {
			return nameOnly, ReasonDispatch, true
		}
	}
	return miss, "", true
}

// pyLacks reports whether the Python class c surely has no member name:
// none of its own, none set on its instances or through setattr or
// __getattr__, and none in its bases, each the workspace's or a type of
// the standard library's table.
func (b *binder) pyLacks(c defRef, name string, depth int) bool {
	if depth > 4 || len(b.membersOf(c, name, 0)) > 0 {
		return false
	}
	d := c.f.defs[c.i]
	body := string(c.f.src[d.Start:d.End])
	for _, dyn := range []string{"." + name + " =", "." + name + "=", "." + name + ":", "setattr(", "__getattr", "__dict__", "__slots__"} {
		if strings.Contains(body, dyn) {
			return false
		}
	}
	for _, sf := range c.f.supers {
		if sf.Def != c.i {
			continue
		}
		sup := b.superType(c.f, sf, d.Start) // class H(str): the table's str
		switch {
		case sup.external:
			if sup.lib == nil || sup.typeName == "" {
				return false // a package's base
			}
			if _, has := libMember(sup, name); has {
				return false
			}
		case len(sup.defs) == 0:
			return false // a base out of reach
		}
		for _, p := range sup.defs {
			if !p.f.defs[p.i].container || !b.pyLacks(p, name, depth+1) {
				return false
			}
		}
	}
	return true
}

// pyClassLike reports whether a receiver's name is written as Python
// writes a class's (CapWords: Message, not message or MAX).
func pyClassLike(name string) bool {
	return name != "" && name[0] >= 'A' && name[0] <= 'Z' && strings.ToUpper(name) != name
}

// pyArgsMiss reports whether Python call k of f passes arguments none of
// the target's callable definitions accepts; viaClass: the call names
// the method through its class (Owner.m(self, x)), passing self itself.
func (b *binder) pyArgsMiss(f *fileFacts, k call, t target, viaClass bool) bool {
	args := pyCallArgs(string(f.src[k.Start:k.End]))
	if !args.ok || args.unpacks {
		return false
	}
	defs := b.targetDefs(t)
	if len(defs) == 0 {
		return false
	}
	for _, dr := range defs {
		d := dr.f.defs[dr.i]
		if !d.Callable || dr.f.c.spec.Lang != "python" {
			return false
		}
		method := d.Parent >= 0 && dr.f.defs[d.Parent].container
		ps := pyDefParams(dr.f.src, d.Start, d.End, method, viaClass)
		if !ps.ok || ps.decoratedUnknown || ps.accepts(args) {
			return false
		}
	}
	return true
}

// accepts reports whether a call passing args can bind to p.
func (p pyParams) accepts(args pyArgs) bool {
	if args.positional > len(p.positional) && !p.varArgs {
		return false
	}
	bound := map[string]bool{}
	for i := 0; i < args.positional && i < len(p.positional); i++ {
		bound[p.positional[i]] = true
	}
	for _, kw := range args.keywords {
		i := indexOf(p.positional, kw)
		switch {
		case i >= p.positionalOnly && !bound[kw]:
			bound[kw] = true
		case indexOf(p.kwOnly, kw) >= 0:
			bound[kw] = true
		case p.varKw:
		default:
			return false
		}
	}
	for _, name := range p.positional[:p.required] {
		if !bound[name] {
			return false
		}
	}
	for _, name := range p.kwRequired {
		if !bound[name] {
			return false
		}
	}
	return true
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

// pyDefParams reads the parameters of the def src[start:end]; a method's
// first (self or cls) is left out when the call binds it: always for a
// @classmethod, never for a @staticmethod, else unless the call passes it
// (viaClass: Owner.m(self, x)). ok is false when the text cannot be read.
// A decorator other than staticmethod, classmethod and abstractmethod may
// change what the function accepts.
func pyDefParams(src []byte, start, end int, method, viaClass bool) pyParams {
	var p pyParams
	bound := method && !viaClass
	for _, dec := range pyDecorators(src, start) {
		switch dec {
		case "staticmethod":
			bound = false
		case "classmethod":
			bound = method
		case "abstractmethod", "abc.abstractmethod", "override", "typing.override":
		default:
			p.decoratedUnknown = true
		}
	}
	text := string(src[start:end])
	open := strings.IndexByte(text, '(')
	if open < 0 || !strings.HasPrefix(text, "def ") && !strings.HasPrefix(text, "async ") {
		return p // a lambda bound to a name, or text it cannot read
	}
	items, _, ok := pySplitArgs(text[open:])
	if !ok {
		return p
	}
	if bound {
		if len(items) == 0 {
			return p
		}
		items = items[1:]
	}
	kwOnly := false
	for _, it := range items {
		name, _, hasDefault := strings.Cut(it, "=")
		name, _, _ = strings.Cut(name, ":")
		name = strings.TrimSpace(name)
		switch {
		case name == "/":
			p.positionalOnly = len(p.positional)
		case name == "*":
			kwOnly = true
		case strings.HasPrefix(name, "**"):
			p.varKw = true
		case strings.HasPrefix(name, "*"):
			p.varArgs, kwOnly = true, true
		case !isIdent(name):
			return p
		case kwOnly:
			p.kwOnly = append(p.kwOnly, name)
			if !hasDefault {
				p.kwRequired = append(p.kwRequired, name)
			}
		default:
			if !hasDefault && p.required == len(p.positional) {
				p.required++
			}
			p.positional = append(p.positional, name)
		}
	}
	p.ok = true
	return p
}

// pyDecorators lists the decorators on the lines above the def at start
// (@staticmethod gives staticmethod), without their arguments.
func pyDecorators(src []byte, start int) []string {
	var out []string
	lineStart := bytes.LastIndexByte(src[:start], '\n') + 1
	for lineStart > 0 {
		prev := bytes.LastIndexByte(src[:lineStart-1], '\n') + 1
		line := strings.TrimSpace(string(src[prev : lineStart-1]))
		if !strings.HasPrefix(line, "@") {
			break
		}
		name, _, _ := strings.Cut(line[1:], "(")
		out = append(out, strings.TrimSpace(name))
		lineStart = prev
	}
	return out
}

// pyCallArgs reads the arguments of the call whose text is v (f(a, b=1),
// x.f(*xs)): the last parenthesized group at its end.
func pyCallArgs(v string) pyArgs {
	open := pyLastGroup(v)
	if open < 0 {
		return pyArgs{}
	}
	items, _, ok := pySplitArgs(v[open:])
	if !ok {
		return pyArgs{}
	}
	var a pyArgs
	for _, it := range items {
		switch {
		case strings.HasPrefix(it, "*"):
			a.unpacks = true
		case pyKeyword(it) != "":
			a.keywords = append(a.keywords, pyKeyword(it))
		case len(a.keywords) > 0:
			return pyArgs{} // a positional after a keyword: not Python
		default:
			a.positional++
		}
	}
	a.ok = true
	return a
}

// pyKeyword returns the name of a keyword argument (name=value), or "".
func pyKeyword(arg string) string {
	i := strings.IndexByte(arg, '=')
	if i <= 0 || i+1 < len(arg) && arg[i+1] == '=' {
		return ""
	}
	if name := strings.TrimSpace(arg[:i]); isIdent(name) {
		return name
	}
	return ""
}

// pyLastGroup finds the start of the parenthesized group v ends with, or
// -1: v is scanned once, skipping strings and comments.
func pyLastGroup(v string) int {
	if !strings.HasSuffix(strings.TrimSpace(v), ")") {
		return -1
	}
	depth, last := 0, -1
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\'', '"':
			j := pySkipString(v, i)
			if j < 0 {
				return -1
			}
			i = j
		case '#':
			for i < len(v) && v[i] != '\n' {
				i++
			}
		case '(', '[', '{':
			if depth == 0 && c == '(' {
				last = i
			}
			depth++
		case ')', ']', '}':
			depth--
		}
	}
	if depth != 0 {
		return -1
	}
	return last
}

// pySplitArgs splits the parenthesized list v starts with at its
// top-level commas; end is the index of its closing parenthesis, ok false
// when it does not close.
func pySplitArgs(v string) (items []string, end int, ok bool) {
	depth, from := 0, 1
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\'', '"':
			j := pySkipString(v, i)
			if j < 0 {
				return nil, 0, false
			}
			i = j
		case '#':
			for i < len(v) && v[i] != '\n' {
				i++
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				if it := pyArgText(v[from:i]); it != "" {
					items = append(items, it)
				}
				return items, i, true
			}
		case ',':
			if depth == 1 {
				items = append(items, pyArgText(v[from:i]))
				from = i + 1
			}
		}
	}
	return nil, 0, false
}

// pyArgText is one argument's text without comments and surrounding space.
func pyArgText(s string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 && !strings.ContainsAny(line[:i], "'\"") {
			line = line[:i]
		}
		out = append(out, line)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// pySkipString returns the index of the quote closing the string literal
// whose quote is at v[i] (triple-quoted or not), or -1.
func pySkipString(v string, i int) int {
	q := v[i : i+1]
	if strings.HasPrefix(v[i:], q+q+q) {
		if j := strings.Index(v[i+3:], q+q+q); j >= 0 {
			return i + 3 + j + 2
		}
		return -1
	}
	for j := i + 1; j < len(v); j++ {
		switch v[j] {
		case '\\':
			j++
		case v[i]:
			return j
		case '\n':
			return -1
		}
	}
	return -1
}
