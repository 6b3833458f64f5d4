package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// charColumn is ast-grep's column: the code points between the line start
// and byte offset off.
func charColumn(src []byte, off int) int {
	off = min(off, len(src))
	col := 0
	for i := off - 1; i >= 0 && src[i] != '\n'; i-- {
		if src[i]&0xC0 != 0x80 {
			col++
		}
	}
	return col
}

// rangeJSON is ast-grep's range object: byte offsets, then 0-based lines
// and character columns.
func rangeJSON(n tree.Node) jsonObject {
	src := n.Tree().Source()
	s, e := n.StartByte(), n.EndByte()
	return obj(
		"byteOffset", obj("start", jsonInt(s), "end", jsonInt(e)),
		"start", obj("line", jsonInt(n.StartPoint().Row), "column", jsonInt(charColumn(src, s))),
		"end", obj("line", jsonInt(n.EndPoint().Row), "column", jsonInt(charColumn(src, e))),
	)
}

// context is a match's surrounding text as ast-grep computes it: whole
// lines from `before` lines above the match to `after` lines below it.
type display struct {
	leading, matched, trailing string
	startLine                  int // 0-based line of the first leading line
}

func displayContext(n tree.Node, before, after int) display {
	src := n.Tree().Source()
	start, end := n.StartByte(), min(n.EndByte(), len(src))
	lead := start
	linesBefore := before + 1
	for lead > 0 {
		if src[lead-1] == '\n' {
			linesBefore--
			if linesBefore == 0 {
				break
			}
		}
		lead--
	}
	trail := end
	linesAfter := after + 1
	for trail < len(src) {
		if src[trail] == '\n' {
			linesAfter--
			if linesAfter == 0 {
				break
			}
		}
		trail++
	}
	offset := before
	if linesBefore != 0 {
		offset = before + 1 - linesBefore
	}
	return display{
		leading:   string(src[lead:start]),
		matched:   string(src[start:end]),
		trailing:  string(src[end:trail]),
		startLine: n.StartPoint().Row - offset,
	}
}

// replacement is a match's rewrite for the JSON output.
type replacement struct {
	text       string
	start, end int
}

// matchJSON is one element of ast-grep's --json output.
func matchJSON(n tree.Node, env *match.Env, file, langName string, before, after int, repl *replacement) jsonObject {
	d := displayContext(n, before, after)
	o := obj(
		"text", jsonString(n.Text()),
		"range", rangeJSON(n),
		"file", jsonString(file),
		"lines", jsonString(d.leading+d.matched+d.trailing),
		"charCount", obj(
			"leading", jsonInt(utf8.RuneCountInString(d.leading)),
			"trailing", jsonInt(utf8.RuneCountInString(d.trailing)),
		),
	)
	if repl != nil {
		o = append(o,
			jsonField{"replacement", jsonString(repl.text)},
			jsonField{"replacementOffsets", obj("start", jsonInt(repl.start), "end", jsonInt(repl.end))},
		)
	}
	o = append(o, jsonField{"language", jsonString(langName)})
	if mv, ok := metaVariablesJSON(env); ok {
		o = append(o, jsonField{"metaVariables", mv})
	}
	return o
}

// metaVariablesJSON renders the bindings, names sorted (ast-grep's order
// is a hash map's); ok is false when nothing is bound, and ast-grep then
// leaves the field out.
func metaVariablesJSON(env *match.Env) (jsonObject, bool) {
	if env == nil {
		return nil, false
	}
	bound := false
	type single struct {
		name string
		node tree.Node
	}
	var singles []single
	env.Singles(func(name string, n tree.Node) { singles = append(singles, single{name, n}); bound = true })
	type multi struct {
		name  string
		nodes []tree.Node
	}
	var multis []multi
	env.Multis(func(name string, nodes []tree.Node) { multis = append(multis, multi{name, nodes}); bound = true })
	transformed := env.TransformedAll()
	if len(transformed) > 0 {
		bound = true
	}
	if !bound {
		return nil, false
	}
	sort.Slice(singles, func(i, j int) bool { return singles[i].name < singles[j].name })
	sort.Slice(multis, func(i, j int) bool { return multis[i].name < multis[j].name })
	so := jsonObject{}
	for _, s := range singles {
		so = append(so, jsonField{s.name, nodeJSON(s.node)})
	}
	mo := jsonObject{}
	for _, m := range multis {
		arr := jsonArray{}
		for _, n := range m.nodes {
			arr = append(arr, nodeJSON(n))
		}
		mo = append(mo, jsonField{m.name, arr})
	}
	to := jsonObject{}
	names := make([]string, 0, len(transformed))
	for k := range transformed {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		to = append(to, jsonField{k, jsonString(transformed[k])})
	}
	return obj("single", so, "multi", mo, "transformed", to), true
}

func nodeJSON(n tree.Node) jsonObject {
	return obj("text", jsonString(n.Text()), "range", rangeJSON(n))
}

// jsonPrinter writes ast-grep's --json styles: pretty (an array, one
// pretty object per match), stream (one compact object per line) and
// compact (a one-line array).
type jsonPrinter struct {
	w       io.Writer
	style   string
	matched bool
}

func (p *jsonPrinter) begin() {
	if p.style != "stream" {
		io.WriteString(p.w, "[")
	}
}

func (p *jsonPrinter) item(v jsonValue) { p.encoded(p.encode(v)) }

// encode renders v as one item in p's style; it only reads p, so workers
// may encode items in parallel and the printer writes them in order.
func (p *jsonPrinter) encode(v jsonValue) string { return encodeJSON(v, p.style == "pretty") }

// encoded writes an item that encode rendered.
func (p *jsonPrinter) encoded(s string) {
	switch p.style {
	case "stream":
		io.WriteString(p.w, s+"\n")
		return
	case "pretty":
		if p.matched {
			io.WriteString(p.w, ",\n")
		} else {
			io.WriteString(p.w, "\n")
		}
	default:
		if p.matched {
			io.WriteString(p.w, ",")
		}
	}
	io.WriteString(p.w, s)
	p.matched = true
}

func (p *jsonPrinter) end() {
	if p.style == "stream" {
		return
	}
	if p.matched && p.style == "pretty" {
		io.WriteString(p.w, "\n")
	}
	io.WriteString(p.w, "]\n")
}

// matchPrinter writes matches as ast-grep's text output: with a heading
// (the path, then "LINE│text" lines) or with a "path:LINE:text" prefix on
// every line. Matches on the same or adjacent lines share a block; a match
// inside a previous one is not repeated.
type matchPrinter struct {
	w             io.Writer
	heading       bool
	before, after int
	pal           palette
}

func (p *matchPrinter) file(path string, nodes []tree.Node) {
	if len(nodes) == 0 {
		return
	}
	if p.heading {
		fmt.Fprintln(p.w, p.pal.path.paint(path))
	}
	src := nodes[0].Tree().Source()
	first := nodes[0]
	d := displayContext(first, p.before, p.after)
	lastStart := d.startLine + 1
	lastEnd := first.EndPoint().Row + 1
	lastTrailing := d.trailing
	lastEndOff := first.EndByte()
	var ret strings.Builder
	ret.WriteString(d.leading)
	p.paintMatched(&ret, d.matched)
	for _, n := range nodes[1:] {
		if n.StartByte() < lastEndOff {
			continue
		}
		d := displayContext(n, p.before, p.after)
		if d.startLine <= lastEnd+p.after {
			ret.Write(src[lastEndOff:n.StartByte()])
			p.paintMatched(&ret, d.matched)
			lastEndOff = n.EndByte()
			lastTrailing = d.trailing
			continue
		}
		ret.WriteString(lastTrailing)
		width := p.block(path, ret.String(), lastStart)
		if p.before+p.after > 0 {
			if p.heading {
				fmt.Fprintf(p.w, "%s┤\n", strings.Repeat("╴", width))
			} else {
				fmt.Fprintln(p.w, "--")
			}
		}
		lastStart = d.startLine + 1
		lastEnd = n.EndPoint().Row + 1
		lastTrailing = d.trailing
		lastEndOff = n.EndByte()
		ret.Reset()
		ret.WriteString(d.leading)
		p.paintMatched(&ret, d.matched)
	}
	ret.WriteString(lastTrailing)
	p.block(path, ret.String(), lastStart)
	if p.heading {
		fmt.Fprintln(p.w)
	}
}

func (p *matchPrinter) paintMatched(b *strings.Builder, matched string) {
	for i, l := range rustLines(matched) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.pal.matched.paint(l))
	}
}

// block prints the lines of one block, numbered from start; it returns
// the width of the line numbers.
func (p *matchPrinter) block(path, text string, start int) int {
	lines := rustLines(text)
	width := len(fmt.Sprint(len(lines) + start))
	for i, l := range lines {
		if p.heading {
			num := fmt.Sprintf("%-*d", width, start+i)
			fmt.Fprintf(p.w, "%s│%s\n", p.pal.lineNum.paint(num), l)
		} else {
			fmt.Fprintf(p.w, "%s:%d:%s\n", path, start+i, l)
		}
	}
	return width
}
