package filetools

import (
	"strings"
)

// bom is the UTF-8 byte-order mark.
const bom = "\uFEFF"

// textFile is a file's text as the editing tools work on it, and what an
// edit must keep of the original: the byte-order mark, the line endings
// and whether the file ends with a newline.
type textFile struct {
	// body is the text without the BOM; when crlf, with every "\r\n" as
	// "\n".
	body string
	bom  bool
	// crlf: every line break is "\r\n", so the body is worked on with
	// "\n" and turned back on encoding.
	crlf bool
	// eol is the line break for new lines: "\r\n" when most breaks are
	// (in a file that mixes them, the body keeps its breaks as they are).
	eol string
	// finalNL: the file ends with a line break. empty: there was no text,
	// so nothing is kept about the end.
	finalNL, empty bool
}

// decodeText splits data into what an edit changes and what it keeps.
func decodeText(data []byte) textFile {
	s := string(data)
	f := textFile{eol: "\n"}
	if rest, ok := strings.CutPrefix(s, bom); ok {
		f.bom, s = true, rest
	}
	crlf := strings.Count(s, "\r\n")
	lf := strings.Count(s, "\n") - crlf
	if crlf > lf {
		f.eol = "\r\n"
	}
	if crlf > 0 && lf == 0 {
		f.crlf = true
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	f.body = s
	f.empty = s == ""
	f.finalNL = strings.HasSuffix(s, "\n")
	return f
}

// input turns text from the model into the body's convention: its line
// breaks become "\n" in a CRLF file's body, and the file's eol otherwise.
func (f textFile) input(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if !f.crlf && f.eol == "\r\n" {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return s
}

// breakLen is the length of the line break body ends with (0 if none).
func breakLen(body string) int {
	switch {
	case strings.HasSuffix(body, "\r\n"):
		return 2
	case strings.HasSuffix(body, "\n"):
		return 1
	}
	return 0
}

// keepEnd gives body the original's final-newline state: a break added or
// the last one removed. An originally empty file keeps body's own.
func (f textFile) keepEnd(body string) string {
	if f.empty || body == "" {
		return body
	}
	n := breakLen(body)
	switch {
	case f.finalNL && n == 0:
		if f.crlf {
			return body + "\n"
		}
		return body + f.eol
	case !f.finalNL && n > 0:
		return body[:len(body)-n]
	}
	return body
}

// encode turns a new body back into file bytes with the original's BOM,
// line endings and final-newline state.
func (f textFile) encode(body string) []byte {
	body = f.keepEnd(body)
	if f.crlf {
		body = strings.ReplaceAll(body, "\n", "\r\n")
	}
	if f.bom {
		body = bom + body
	}
	return []byte(body)
}

// countLines counts lines as editors number them: a final line without a
// break counts, an empty text has none.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// line is one line of a body and the break that ends it ("" for a last
// line without one).
type line struct {
	text, eol string
}

// splitBody splits a body into lines, each keeping its own break.
func splitBody(body string) []line {
	var out []line
	for body != "" {
		i := strings.IndexByte(body, '\n')
		if i < 0 {
			out = append(out, line{text: body})
			break
		}
		text, eol := body[:i], "\n"
		if strings.HasSuffix(text, "\r") {
			text, eol = text[:len(text)-1], "\r\n"
		}
		out = append(out, line{text: text, eol: eol})
		body = body[i+1:]
	}
	return out
}

// joinLines joins lines back into a body, every line but the last ending
// with a break (its own, or the file's for a line that had none).
func (f textFile) joinLines(lines []line) string {
	eol := f.eol
	if f.crlf {
		eol = "\n"
	}
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l.text)
		e := l.eol
		if e == "" && i < len(lines)-1 {
			e = eol
		}
		b.WriteString(e)
	}
	return b.String()
}

// contentLines splits text from the model into lines with the file's
// line break: a final break in content ends the last line, it does not
// add an empty one.
func (f textFile) contentLines(content string) []line {
	eol := f.eol
	if f.crlf {
		eol = "\n"
	}
	content = strings.ReplaceAll(content, "\r\n", "\n")
	content = strings.TrimSuffix(content, "\n")
	parts := strings.Split(content, "\n")
	out := make([]line, len(parts))
	for i, p := range parts {
		out[i] = line{text: p, eol: eol}
	}
	return out
}
