package main

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonValue is a JSON value whose object keys keep their order, written
// byte for byte as serde_json (ast-grep's serialiser) writes it: compact,
// or pretty with two-space indents; strings escaped the serde way
// (\" \\ \b \f \n \r \t, other control characters as \u00XX, everything
// else, including U+2028 and "<>&", as is).
type jsonValue interface {
	writeJSON(b *strings.Builder, indent int, pretty bool)
}

type (
	jsonObject []jsonField
	jsonArray  []jsonValue
	jsonString string
	jsonInt    int
	jsonBool   bool
)

type jsonField struct {
	key   string
	value jsonValue
}

// obj builds an object from alternating keys and values.
func obj(kv ...any) jsonObject {
	o := make(jsonObject, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		o = append(o, jsonField{kv[i].(string), kv[i+1].(jsonValue)})
	}
	return o
}

// encodeJSON renders v.
func encodeJSON(v jsonValue, pretty bool) string {
	var b strings.Builder
	v.writeJSON(&b, 0, pretty)
	return b.String()
}

func newline(b *strings.Builder, indent int) {
	b.WriteByte('\n')
	for range indent {
		b.WriteString("  ")
	}
}

func (o jsonObject) writeJSON(b *strings.Builder, indent int, pretty bool) {
	if len(o) == 0 {
		b.WriteString("{}")
		return
	}
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		if pretty {
			newline(b, indent+1)
		}
		jsonString(f.key).writeJSON(b, indent+1, pretty)
		b.WriteByte(':')
		if pretty {
			b.WriteByte(' ')
		}
		f.value.writeJSON(b, indent+1, pretty)
	}
	if pretty {
		newline(b, indent)
	}
	b.WriteByte('}')
}

func (a jsonArray) writeJSON(b *strings.Builder, indent int, pretty bool) {
	if len(a) == 0 {
		b.WriteString("[]")
		return
	}
	b.WriteByte('[')
	for i, v := range a {
		if i > 0 {
			b.WriteByte(',')
		}
		if pretty {
			newline(b, indent+1)
		}
		v.writeJSON(b, indent+1, pretty)
	}
	if pretty {
		newline(b, indent)
	}
	b.WriteByte(']')
}

const hexDigits = "0123456789abcdef"

func (s jsonString) writeJSON(b *strings.Builder, _ int, _ bool) {
	b.WriteByte('"')
	str := string(s)
	start := 0
	for i := 0; i < len(str); {
		c := str[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(str[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteString(str[start:i])
				b.WriteString("\ufffd")
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		var esc string
		switch c {
		case '"':
			esc = `\"`
		case '\\':
			esc = `\\`
		case '\b':
			esc = `\b`
		case '\f':
			esc = `\f`
		case '\n':
			esc = `\n`
		case '\r':
			esc = `\r`
		case '\t':
			esc = `\t`
		default:
			if c < 0x20 {
				esc = `\u00` + string(hexDigits[c>>4]) + string(hexDigits[c&0xf])
			}
		}
		if esc != "" {
			b.WriteString(str[start:i])
			b.WriteString(esc)
			start = i + 1
		}
		i++
	}
	b.WriteString(str[start:])
	b.WriteByte('"')
}

func (n jsonInt) writeJSON(b *strings.Builder, _ int, _ bool) {
	b.WriteString(strconv.Itoa(int(n)))
}

func (v jsonBool) writeJSON(b *strings.Builder, _ int, _ bool) {
	b.WriteString(strconv.FormatBool(bool(v)))
}
