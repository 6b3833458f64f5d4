package wire

import (
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Style is one of ast-grep's --json styles.
type Style string

// The --json styles.
const (
	// Pretty is an array with one pretty-printed object per item (the
	// default of --json).
	Pretty Style = "pretty"
	// Stream is one compact object per line, no array.
	Stream Style = "stream"
	// Compact is a one-line array.
	Compact Style = "compact"
)

// ParseStyle checks a --json value.
func ParseStyle(s string) (Style, error) {
	switch st := Style(s); st {
	case Pretty, Stream, Compact:
		return st, nil
	}
	return "", fmt.Errorf("invalid JSON style %q (expected pretty, stream or compact)", s)
}

// Encode renders m as one item of style s.
func (m *Match) Encode(s Style) string {
	e := newEncoder(s)
	m.encode(e)
	return e.b.String()
}

func (m *Match) encode(e *encoder) {
	e.b.grow(m.sizeHint())
	e.open('{')
	m.fields(e)
	e.close('}')
}

// Encode renders f as one item of style s.
func (f *Finding) Encode(s Style) string {
	e := newEncoder(s)
	f.encode(e)
	return e.b.String()
}

// sizeHint is about the bytes f encodes to (see Match.sizeHint).
func (f *Finding) sizeHint() int {
	n := f.Match.sizeHint() + len(f.Message)
	for _, l := range f.Labels {
		n += len(l.Text) + len(l.Text)/8 + 256
	}
	return n
}

func (f *Finding) encode(e *encoder) {
	e.b.grow(f.sizeHint())
	e.open('{')
	text := f.Match.fields(e)
	e.key("ruleId")
	e.str(f.RuleID)
	e.key("severity")
	e.str(f.Severity)
	e.key("note")
	if f.Note == nil {
		e.raw("null")
	} else {
		e.str(*f.Note)
	}
	e.key("message")
	e.str(f.Message)
	if len(f.Labels) > 0 {
		e.key("labels")
		e.open('[')
		for _, l := range f.Labels {
			e.item()
			e.open('{')
			e.key("text")
			if l.Range == f.Range && l.Text == f.Text {
				e.raw(`"`)
				e.b.b = append(e.b.b, e.b.b[text[0]:text[1]]...)
				e.raw(`"`)
			} else {
				e.str(l.Text)
			}
			e.key("range")
			e.rng(l.Range)
			if l.Message != nil {
				e.key("message")
				e.str(*l.Message)
			}
			e.key("style")
			e.str(l.Style)
			e.close('}')
		}
		e.close(']')
	}
	if f.Metadata != nil {
		e.key("metadata")
		e.any(f.Metadata)
	}
	e.close('}')
}

// sizeHint is about the bytes m encodes to, an eighth more for escapes
// (a line's end, a quote), so that its encoder allocates once.
func (m *Match) sizeHint() int {
	n := len(m.Text) + len(m.Lines)
	n += n/8 + len(m.File) + 512
	if m.Replacement != nil {
		n += len(*m.Replacement)
	}
	if mv := m.MetaVariables; mv != nil {
		for _, v := range mv.Single {
			n += len(v.Node.Text) + 160
		}
		for _, v := range mv.Multi {
			for _, n2 := range v.Nodes {
				n += len(n2.Text) + 160
			}
		}
	}
	return n
}

// fields encodes m's fields and returns where its text's escaped bytes
// are in e's buffer, for a label of the same text to copy.
func (m *Match) fields(e *encoder) [2]int {
	e.key("text")
	from := len(e.b.b) + 1 // after the quote
	e.str(m.Text)
	to := len(e.b.b) - 1
	e.key("range")
	e.rng(m.Range)
	e.key("file")
	e.str(m.File)
	e.key("lines")
	e.strAround(m.Lines, m.Text, from, to)
	e.key("charCount")
	e.charCount(m.CharCount)
	if m.Replacement != nil {
		e.key("replacement")
		e.str(*m.Replacement)
	}
	if m.ReplacementOffsets != nil {
		e.key("replacementOffsets")
		e.byteRange(*m.ReplacementOffsets)
	}
	e.key("language")
	e.str(m.Language)
	if mv := m.MetaVariables; mv != nil {
		e.key("metaVariables")
		e.metaVariables(mv)
	}
	return [2]int{from, to}
}

// metaVariables writes mv's lists as objects keyed by name, in the order
// the lists hold (by name, as serde writes a map ast-grep sorts).
func (e *encoder) metaVariables(mv *MetaVariables) {
	e.open('{')
	e.key("single")
	e.open('{')
	for _, v := range mv.Single {
		e.userKey(v.Name)
		e.node(v.Node)
	}
	e.close('}')
	e.key("multi")
	e.open('{')
	for _, v := range mv.Multi {
		e.userKey(v.Name)
		e.open('[')
		for _, n := range v.Nodes {
			e.item()
			e.node(n)
		}
		e.close(']')
	}
	e.close('}')
	e.key("transformed")
	e.open('{')
	for _, v := range mv.Transformed {
		e.userKey(v.Name)
		e.str(v.Text)
	}
	e.close('}')
	e.close('}')
}

// encoder writes JSON as serde_json does: compact, or pretty with
// two-space indents (an empty object or array stays "{}" or "[]");
// strings escaped the serde way (\" \\ \b \f \n \r \t, other control
// characters as \u00XX, everything else, U+2028 and "<>&" included, as
// is; invalid UTF-8 as U+FFFD).
type encoder struct {
	b      buffer
	pretty bool
	stream bool // items end their lines (Items)
	depth  int
	// empty is true right after an opening bracket: the next item or key
	// needs no comma.
	empty bool
}

// buffer is an encoder's output.
type buffer struct{ b []byte }

func (w *buffer) addByte(c byte) { w.b = append(w.b, c) }
func (w *buffer) add(s string)   { w.b = append(w.b, s...) }
func (w *buffer) grow(n int)     { w.b = slices.Grow(w.b, n) }

// String returns the output; the encoder must not be used afterwards.
func (w *buffer) String() string {
	if len(w.b) == 0 {
		return ""
	}
	return unsafe.String(&w.b[0], len(w.b))
}

func newEncoder(s Style) *encoder { return &encoder{pretty: s == Pretty} }

func (e *encoder) newline() {
	e.b.addByte('\n')
	for range e.depth {
		e.b.add("  ")
	}
}

func (e *encoder) open(c byte) {
	e.b.addByte(c)
	e.depth++
	e.empty = true
}

func (e *encoder) close(c byte) {
	e.depth--
	if !e.empty && e.pretty {
		e.newline()
	}
	e.b.addByte(c)
	e.empty = false
}

// item starts an array element.
func (e *encoder) item() {
	if !e.empty {
		e.b.addByte(',')
	}
	if e.pretty {
		e.newline()
	}
	e.empty = false
}

// key starts a member whose name is one of the encoder's own (plain
// ASCII, nothing to escape), written as it is.
func (e *encoder) key(k string) {
	e.item()
	b := append(e.b.b, '"')
	b = append(b, k...)
	e.b.b = append(b, '"', ':')
	if e.pretty {
		e.b.addByte(' ')
	}
}

// userKey starts a member named by the input (a metavariable's name, a
// metadata key), escaped as a string.
func (e *encoder) userKey(k string) {
	e.item()
	e.str(k)
	e.b.addByte(':')
	if e.pretty {
		e.b.addByte(' ')
	}
}

func (e *encoder) raw(s string) {
	e.b.add(s)
	e.empty = false
}

func (e *encoder) int(n int) {
	e.b.b = strconv.AppendInt(e.b.b, int64(n), 10)
	e.empty = false
}

func (e *encoder) byteRange(r ByteRange) {
	e.open('{')
	e.key("start")
	e.int(r.Start)
	e.key("end")
	e.int(r.End)
	e.close('}')
}

func (e *encoder) pos(p Position) {
	e.open('{')
	e.key("line")
	e.int(p.Line)
	e.key("column")
	e.int(p.Column)
	e.close('}')
}

func (e *encoder) rng(r Range) {
	if !e.pretty {
		// Compact, the object in a few appends (what the calls below
		// write without indents).
		b := append(e.b.b, `{"byteOffset":{"start":`...)
		b = strconv.AppendInt(b, int64(r.ByteOffset.Start), 10)
		b = append(b, `,"end":`...)
		b = strconv.AppendInt(b, int64(r.ByteOffset.End), 10)
		b = append(b, `},"start":{"line":`...)
		b = strconv.AppendInt(b, int64(r.Start.Line), 10)
		b = append(b, `,"column":`...)
		b = strconv.AppendInt(b, int64(r.Start.Column), 10)
		b = append(b, `},"end":{"line":`...)
		b = strconv.AppendInt(b, int64(r.End.Line), 10)
		b = append(b, `,"column":`...)
		b = strconv.AppendInt(b, int64(r.End.Column), 10)
		e.b.b = append(b, "}}"...)
		e.empty = false
		return
	}
	e.open('{')
	e.key("byteOffset")
	e.byteRange(r.ByteOffset)
	e.key("start")
	e.pos(r.Start)
	e.key("end")
	e.pos(r.End)
	e.close('}')
}

func (e *encoder) charCount(c CharCount) {
	if !e.pretty {
		b := append(e.b.b, `{"leading":`...)
		b = strconv.AppendInt(b, int64(c.Leading), 10)
		b = append(b, `,"trailing":`...)
		b = strconv.AppendInt(b, int64(c.Trailing), 10)
		e.b.b = append(b, '}')
		e.empty = false
		return
	}
	e.open('{')
	e.key("leading")
	e.int(c.Leading)
	e.key("trailing")
	e.int(c.Trailing)
	e.close('}')
}

func (e *encoder) node(n Node) {
	e.open('{')
	e.key("text")
	e.str(n.Text)
	e.key("range")
	e.rng(n.Range)
	e.close('}')
}

// any writes plain Go data as decoded from YAML (a rule's metadata), map
// keys sorted, floats always with a fraction as serde writes them.
func (e *encoder) any(v any) {
	switch t := v.(type) {
	case nil:
		e.raw("null")
	case string:
		e.str(t)
	case bool:
		e.raw(strconv.FormatBool(t))
	case int:
		e.raw(strconv.Itoa(t))
	case int64:
		e.raw(strconv.FormatInt(t, 10))
	case uint64:
		e.raw(strconv.FormatUint(t, 10))
	case float64:
		s := strconv.FormatFloat(t, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		e.raw(s)
	case []any:
		e.open('[')
		for _, x := range t {
			e.item()
			e.any(x)
		}
		e.close(']')
	case map[string]any:
		e.open('{')
		for _, k := range slices.Sorted(maps.Keys(t)) {
			e.userKey(k)
			e.any(t[k])
		}
		e.close('}')
	default:
		e.str(fmt.Sprint(v))
	}
}

const hexDigits = "0123456789abcdef"

// plain marks the ASCII bytes a JSON string holds as they are.
var plain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// Masks for special8.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// specials returns a mask of the bytes of x, eight bytes of a string read
// as a little-endian word, that a string cannot copy as they are: a
// control character, '"', '\\' or a byte of a multi-byte character (not
// ASCII), whose encoding is checked. Its lowest set bit, which is a
// byte's high bit, marks the first of them exactly; bits above it may
// mark bytes that need nothing.
func specials(x uint64) uint64 {
	q, bs := x^(ones*'"'), x^(ones*'\\')
	return ((x-ones*0x20) & ^x | (q-ones) & ^q | (bs-ones) & ^bs | x) & highs
}

// str writes s as a JSON string, in one pass: ASCII that needs no escape
// is copied eight bytes at a time, written ahead into the buffer's room
// (no copy call for the run between two escapes, which in source text
// come every few dozen bytes), escapes written as serde_json writes them,
// a multi-byte character checked where it is met, and a byte that is not
// valid UTF-8 replaced with U+FFFD.
func (e *encoder) str(s string) {
	b := append(e.b.b, '"')
	b = appendEscaped(b, s)
	e.b.b = append(b, '"')
	e.empty = false
}

// strAround writes s as str does, where s holds t, written by the
// item's last str(t) at b[from:to] (quotes excluded), at an offset that
// t's place in memory gives: a match's lines hold its text, which is then
// escaped once. JSON escapes each character alone, so t's escaped bytes
// are those of s's part. Where s does not hold t there, it is str(s).
func (e *encoder) strAround(s, t string, from, to int) {
	off, ok := within(s, t)
	if !ok {
		e.str(s)
		return
	}
	b := append(e.b.b, '"')
	b = appendEscaped(b, s[:off])
	b = append(b, b[from:to]...)
	b = appendEscaped(b, s[off+len(t):])
	e.b.b = append(b, '"')
	e.empty = false
}

// within returns the offset of t in s when t is a view of s's bytes (a
// match's text of its lines) with the same content.
func within(s, t string) (int, bool) {
	if len(t) == 0 || len(t) > len(s) {
		return 0, false
	}
	off := int(uintptr(unsafe.Pointer(unsafe.StringData(t))) - uintptr(unsafe.Pointer(unsafe.StringData(s))))
	if off < 0 || off > len(s)-len(t) || s[off:off+len(t)] != t {
		return 0, false
	}
	return off, true
}

// appendEscaped appends the JSON escape of s to b.
func appendEscaped(b []byte, s string) []byte {
	b = slices.Grow(b, len(s)+len(s)/8+strRoom)
	j := len(b) // where the next byte goes; b's length is its capacity
	b = b[:cap(b)]
	for i := 0; i < len(s); {
		if len(b)-j < strRoom {
			b = slices.Grow(b[:j], len(s)-i+(len(s)-i)/8+strRoom)
			b = b[:cap(b)]
		}
		if i+8 <= len(s) {
			w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
			binary.LittleEndian.PutUint64(b[j:], w)
			m := specials(w)
			if m == 0 {
				i += 8
				j += 8
				continue
			}
			k := bits.TrailingZeros64(m) >> 3
			i += k
			j += k
		}
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				j += copy(b[j:], "\ufffd")
			} else {
				j += copy(b[j:], s[i:i+size])
			}
			i += size
			continue
		case plain[c]:
			b[j] = c
		case c == '"' || c == '\\':
			b[j], b[j+1] = '\\', c
			j++
		case c == '\n':
			b[j], b[j+1] = '\\', 'n'
			j++
		case c == '\t':
			b[j], b[j+1] = '\\', 't'
			j++
		case c == '\r':
			b[j], b[j+1] = '\\', 'r'
			j++
		case c == '\b':
			b[j], b[j+1] = '\\', 'b'
			j++
		case c == '\f':
			b[j], b[j+1] = '\\', 'f'
			j++
		default:
			j += copy(b[j:], `\u00`)
			b[j], b[j+1] = hexDigits[c>>4], hexDigits[c&0xf]
			j++
		}
		i++
		j++
	}
	return b[:j]
}

// strRoom is the room str keeps ahead in its buffer: eight bytes written
// ahead and then at most six for one escape.
const strRoom = 16

// Writer writes encoded items as one --json output: an array for pretty
// and compact, one line per item for stream. Items may be encoded on
// several goroutines and written in order from one.
type Writer struct {
	w       io.Writer
	style   Style
	written bool
}

// NewWriter starts an output of style s on w.
func NewWriter(w io.Writer, s Style) *Writer {
	if s != Stream {
		io.WriteString(w, "[")
	}
	return &Writer{w: w, style: s}
}

// Style returns the output's style.
func (p *Writer) Style() Style { return p.style }

// Write writes one item that Encode rendered in the writer's style.
func (p *Writer) Write(item string) {
	switch p.style {
	case Stream:
		io.WriteString(p.w, item)
		io.WriteString(p.w, "\n")
		return
	case Pretty:
		if p.written {
			io.WriteString(p.w, ",\n")
		} else {
			io.WriteString(p.w, "\n")
		}
	default:
		if p.written {
			io.WriteString(p.w, ",")
		}
	}
	io.WriteString(p.w, item)
	p.written = true
}

// Close ends the output.
func (p *Writer) Close() {
	if p.style == Stream {
		return
	}
	if p.written && p.style == Pretty {
		io.WriteString(p.w, "\n")
	}
	io.WriteString(p.w, "]\n")
}
