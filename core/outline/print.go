package outline

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// File is the outline of one file.
type File struct {
	Path     string
	Language string // the language's display name ("Go", "TypeScript")
	Items    []Item
}

// View is a text presentation of an outline.
type View int

// The views, from the least to the most text.
const (
	Names      View = iota // one line per symbol type: the item names
	Signatures             // one line per item: its signature
	Digest                 // Signatures, and each item's member names by symbol type
	Expanded               // Signatures, and one line per member: its signature
)

// ParseView returns the view named s.
func ParseView(s string) (View, error) {
	switch s {
	case "names":
		return Names, nil
	case "signatures":
		return Signatures, nil
	case "digest":
		return Digest, nil
	case "expanded":
		return Expanded, nil
	}
	return 0, fmt.Errorf("unknown outline view %q (names, signatures, digest, expanded)", s)
}

// Printer writes outlines as `ast-grep outline` prints them: text in a
// view, or JSON in a style (pretty, stream, compact).
type Printer struct {
	w     io.Writer
	json  string
	view  View
	first bool
	style Style
}

// Style is how text is coloured (an empty part of a painted
// signature is still wrapped in its escapes, as ast-grep prints it): not at all by default. With Colour,
// paths are underlined, line numbers dimmed, names coloured by symbol
// type, non-public members dimmed, and items that are imports italic
// and exported ones bold unless the output lists only those.
type Style struct {
	Colour bool
	// EmphasizeImports and EmphasizeExports mark imports and exported
	// items (off when --items selects only them).
	EmphasizeImports, EmphasizeExports bool
}

// SetStyle sets how text is coloured.
func (p *Printer) SetStyle(s Style) { p.style = s }

// NewPrinter returns a printer to w; json is "" for text, else the JSON
// style.
func NewPrinter(w io.Writer, json string, view View) *Printer {
	return &Printer{w: w, json: json, view: view, first: true}
}

// File prints one file's outline.
func (p *Printer) File(f *File) error {
	var b strings.Builder
	switch p.json {
	case "pretty":
		if p.first {
			b.WriteString("[\n")
		} else {
			b.WriteString(",\n")
		}
		var o strings.Builder
		encodeFile(&o, f, 1)
		for line := range strings.Lines(o.String()) {
			b.WriteString("  ")
			b.WriteString(strings.TrimSuffix(line, "\n"))
			b.WriteByte('\n')
		}
	case "compact":
		if p.first {
			b.WriteByte('[')
		} else {
			b.WriteByte(',')
		}
		encodeFile(&b, f, 0)
	case "stream":
		encodeFile(&b, f, 0)
		b.WriteByte('\n')
	default:
		p.text(&b, f)
	}
	p.first = false
	_, err := io.WriteString(p.w, b.String())
	return err
}

// Finish ends the output: closes a JSON array, or says "nothing found"
// when no file was printed as text.
func (p *Printer) Finish() error {
	var s string
	switch p.json {
	case "pretty", "compact":
		if p.first {
			s = "[]\n"
		} else {
			s = "]\n"
		}
	case "stream":
	default:
		if p.first {
			s = "nothing found\n"
		}
	}
	_, err := io.WriteString(p.w, s)
	return err
}

func (p *Printer) text(b *strings.Builder, f *File) {
	if !p.first {
		b.WriteByte('\n')
	}
	b.WriteString(p.paint(sgr{underline: true}, f.Path))
	b.WriteByte('\n')
	if len(f.Items) == 0 {
		b.WriteString("nothing found\n")
		return
	}
	width := lineWidth(f)
	switch p.view {
	case Names:
		var g groups
		for i := range f.Items {
			it := &f.Items[i]
			g.add(it.SymbolType, it.Name, it.IsImport, it.IsExported, true)
		}
		g.write(b, "", p, false)
	case Signatures:
		for i := range f.Items {
			p.itemLine(b, &f.Items[i], width)
		}
	case Digest:
		pad := strings.Repeat(" ", width+4)
		for i := range f.Items {
			it := &f.Items[i]
			p.itemLine(b, it, width)
			var g groups
			for _, public := range []bool{true, false} {
				for _, m := range it.Members {
					if m.IsPublic == public {
						g.add(m.SymbolType, m.Name, false, false, m.IsPublic)
					}
				}
			}
			g.write(b, pad, p, true)
		}
	case Expanded:
		for i := range f.Items {
			it := &f.Items[i]
			p.itemLine(b, it, width)
			for j := range it.Members {
				m := &it.Members[j]
				name := symbolStyle(m.SymbolType)
				var around *sgr
				if !m.IsPublic {
					name.dim = true
					around = &sgr{dim: true}
				}
				fmt.Fprintf(b, "%s:   %s\n", p.paint(sgr{dim: true}, fmt.Sprintf("%*d", width, m.Range.Start.Line+1)), p.signature(&m.Entry, name, around))
			}
		}
	}
}

func (p *Printer) itemLine(b *strings.Builder, it *Item, width int) {
	name := symbolStyle(it.SymbolType)
	name.italic = p.style.EmphasizeImports && it.IsImport
	name.bold = p.style.EmphasizeExports && it.IsExported
	fmt.Fprintf(b, "%s: %s\n", p.paint(sgr{dim: true}, fmt.Sprintf("%*d", width, it.Range.Start.Line+1)), p.signature(&it.Entry, name, nil))
}

// signature is an entry's signature (its name when it has none), the
// first occurrence of the name painted name, the rest around (nil: plain).
func (p *Printer) signature(e *Entry, name sgr, around *sgr) string {
	s := sigOrName(e)
	if !p.style.Colour {
		return s
	}
	paintAround := func(t string) string {
		if around == nil {
			return t
		}
		return p.paint(*around, t)
	}
	i := strings.Index(s, e.Name)
	if i < 0 {
		return paintAround(s)
	}
	end := i + len(e.Name)
	return paintAround(s[:i]) + name.paint(s[i:end]) + paintAround(s[end:])
}

// sgr is a text style as ANSI escape sequences write it.
type sgr struct {
	bold, dim, italic, underline bool
	fg                           string // the foreground colour's parameters, "" for none
}

func (g sgr) paint(s string) string {
	var codes []string
	for _, c := range []struct {
		on   bool
		code string
	}{{g.bold, "1"}, {g.dim, "2"}, {g.italic, "3"}, {g.underline, "4"}} {
		if c.on {
			codes = append(codes, c.code)
		}
	}
	if g.fg != "" {
		codes = append(codes, g.fg)
	}
	if len(codes) == 0 {
		return s
	}
	return "\x1b[" + strings.Join(codes, ";") + "m" + s + "\x1b[0m"
}

// paint paints s in g when the printer colours.
func (p *Printer) paint(g sgr, s string) string {
	if !p.style.Colour {
		return s
	}
	return g.paint(s)
}

// symbolStyle is the colour of a symbol type's names.
func symbolStyle(symbol string) sgr {
	switch symbol {
	case "file", "module", "namespace", "package":
		return sgr{fg: "36"}
	case "class", "struct", "object":
		return sgr{fg: "34"}
	case "enum", "enumMember":
		return sgr{fg: "35"}
	case "interface", "typeParameter":
		return sgr{fg: "31"}
	case "function", "method", "constructor":
		return sgr{fg: "32"}
	case "property", "field", "key":
		return sgr{fg: "33"}
	case "variable", "constant":
		return sgr{fg: "38;5;214"}
	case "event", "operator":
		return sgr{fg: "38;5;39"}
	}
	return sgr{fg: "38;5;208"}
}

func sigOrName(e *Entry) string {
	if e.Signature == "" {
		return e.Name
	}
	return e.Signature
}

// lineWidth is the width of the largest line number of an entry of f.
func lineWidth(f *File) int {
	top := 1
	for i := range f.Items {
		top = max(top, f.Items[i].Range.Start.Line+1)
		for _, m := range f.Items[i].Members {
			top = max(top, m.Range.Start.Line+1)
		}
	}
	return len(strconv.Itoa(top))
}

// groups gathers names by symbol type, in SymbolTypes order, each name
// once with a count of its repeats.
type groups struct {
	by map[string]*group
}

type group struct {
	names []string
	flags map[string]*nameFlags
}

// nameFlags are a grouped name's count and flags, or-ed over its repeats.
type nameFlags struct {
	count                      int
	imported, exported, public bool
}

func (g *groups) add(symbol, name string, imported, exported, public bool) {
	if g.by == nil {
		g.by = map[string]*group{}
	}
	gr := g.by[symbol]
	if gr == nil {
		gr = &group{flags: map[string]*nameFlags{}}
		g.by[symbol] = gr
	}
	f := gr.flags[name]
	if f == nil {
		f = &nameFlags{}
		gr.flags[name] = f
		gr.names = append(gr.names, name)
	}
	f.count++
	f.imported = f.imported || imported
	f.exported = f.exported || exported
	f.public = f.public || public
}

// write prints the groups, each on a line after pad; members says the
// names are members (dimmed when not public) rather than items.
func (g *groups) write(b *strings.Builder, pad string, p *Printer, members bool) {
	for _, s := range SymbolTypes {
		gr := g.by[s]
		if gr == nil {
			continue
		}
		b.WriteString(pad)
		b.WriteString(p.paint(symbolStyle(s), s))
		b.WriteString(": ")
		for i, n := range gr.names {
			if i > 0 {
				b.WriteString(", ")
			}
			f := gr.flags[n]
			var st sgr
			if members {
				st.dim = !f.public
			} else {
				st.italic = p.style.EmphasizeImports && f.imported
				st.bold = p.style.EmphasizeExports && f.exported
			}
			b.WriteString(p.paint(st, n))
			if f.count > 1 {
				fmt.Fprintf(b, " ×%d", f.count)
			}
		}
		b.WriteByte('\n')
	}
}

// jsonWriter writes JSON as serde_json does: compact, or pretty with two
// spaces per level.
type jsonWriter struct {
	b      *strings.Builder
	pretty bool
	depth  int
	fresh  []bool // per open container: nothing written in it yet
}

func (j *jsonWriter) open(c byte) {
	j.b.WriteByte(c)
	j.depth++
	j.fresh = append(j.fresh, true)
}

func (j *jsonWriter) close(c byte) {
	j.depth--
	fresh := j.fresh[len(j.fresh)-1]
	j.fresh = j.fresh[:len(j.fresh)-1]
	if j.pretty && !fresh {
		j.newline()
	}
	j.b.WriteByte(c)
}

func (j *jsonWriter) newline() {
	j.b.WriteByte('\n')
	for range j.depth {
		j.b.WriteString("  ")
	}
}

// elem starts a value in the open container.
func (j *jsonWriter) elem() {
	top := len(j.fresh) - 1
	if !j.fresh[top] {
		j.b.WriteByte(',')
	}
	j.fresh[top] = false
	if j.pretty {
		j.newline()
	}
}

func (j *jsonWriter) key(k string) {
	j.elem()
	writeString(j.b, k)
	if j.pretty {
		j.b.WriteString(": ")
	} else {
		j.b.WriteByte(':')
	}
}

func (j *jsonWriter) str(k, v string) {
	j.key(k)
	writeString(j.b, v)
}

func (j *jsonWriter) num(k string, v int) {
	j.key(k)
	j.b.WriteString(strconv.Itoa(v))
}

func (j *jsonWriter) boolean(k string, v bool) {
	j.key(k)
	j.b.WriteString(strconv.FormatBool(v))
}

// writeString writes s quoted as serde_json quotes it: only '"', '\\'
// and control characters are escaped.
func writeString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x80 {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b.WriteString("\ufffd")
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
			continue
		}
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if c < 0x20 {
				fmt.Fprintf(b, `\u%04x`, c)
			} else {
				b.WriteByte(c)
			}
		}
		i++
	}
	b.WriteByte('"')
}

func encodeFile(b *strings.Builder, f *File, pretty int) {
	j := &jsonWriter{b: b, pretty: pretty > 0}
	j.open('{')
	j.str("path", f.Path)
	j.str("language", f.Language)
	j.key("items")
	j.open('[')
	for i := range f.Items {
		it := &f.Items[i]
		j.elem()
		j.open('{')
		encodeEntry(j, &it.Entry)
		j.boolean("isImport", it.IsImport)
		j.boolean("isExported", it.IsExported)
		if len(it.Members) > 0 {
			j.key("members")
			j.open('[')
			for k := range it.Members {
				j.elem()
				j.open('{')
				encodeEntry(j, &it.Members[k].Entry)
				j.boolean("isPublic", it.Members[k].IsPublic)
				j.close('}')
			}
			j.close(']')
		}
		j.close('}')
	}
	j.close(']')
	j.close('}')
}

func encodeEntry(j *jsonWriter, e *Entry) {
	j.str("role", e.Role)
	j.str("symbolType", e.SymbolType)
	j.str("name", e.Name)
	j.key("range")
	j.open('{')
	j.key("byteOffset")
	j.open('{')
	j.num("start", e.Range.ByteOffset.Start)
	j.num("end", e.Range.ByteOffset.End)
	j.close('}')
	for _, p := range []struct {
		k       string
		line, c int
	}{{"start", e.Range.Start.Line, e.Range.Start.Column}, {"end", e.Range.End.Line, e.Range.End.Column}} {
		j.key(p.k)
		j.open('{')
		j.num("line", p.line)
		j.num("column", p.c)
		j.close('}')
	}
	j.close('}')
	j.str("signature", e.Signature)
	j.str("astKind", e.ASTKind)
}
