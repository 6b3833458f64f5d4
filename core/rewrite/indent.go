package rewrite

import "bytes"

// lookBehind bounds how far back IndentAt searches for the start of a line.
// ast-grep uses the same bound: a longer line counts as not indented.
const lookBehind = 512

// IndentAt returns the indentation, in spaces, of the line that contains
// offset end of src: the run of spaces that follows the last newline before
// end. Only spaces count (a tab ends the run). When no newline lies within
// the last 512 bytes the line is treated as unindented, except at the very
// start of a short file.
func IndentAt(src []byte, end int) int {
	start := max(end-lookBehind, 0)
	indent := 0
	for i := end - 1; i >= start; i-- {
		switch src[i] {
		case '\n':
			return indent
		case ' ':
			indent++
		default:
			indent = 0
		}
	}
	if start == 0 {
		return indent
	}
	return 0
}

// Reindent moves text, whose continuation lines are indented relative to
// an indentation of from spaces, to an indentation of to spaces. The first
// line never gains spaces. Moving left strips exactly from-to leading
// spaces from every line that has them, the first included (lines with
// fewer are kept as they are); moving right prepends spaces to every line
// but the first.
func Reindent(text []byte, from, to int) []byte {
	if from == to || bytes.IndexByte(text, '\n') < 0 {
		return text
	}
	var out []byte
	if from > to {
		strip := bytes.Repeat([]byte{' '}, from-to)
		for i, line := range bytes.Split(text, []byte{'\n'}) {
			if i > 0 {
				out = append(out, '\n')
			}
			out = append(out, bytes.TrimPrefix(line, strip)...)
		}
		return out
	}
	pad := bytes.Repeat([]byte{' '}, to-from)
	for i, line := range bytes.Split(text, []byte{'\n'}) {
		if i > 0 {
			out = append(out, '\n')
			out = append(out, pad...)
		}
		out = append(out, line...)
	}
	return out
}

// Deindent returns src[start:end] with the indentation of the line where it
// starts removed from its continuation lines, so that the text is laid out
// as if it started at column 0. Single-line text is returned unchanged.
func Deindent(src []byte, start, end int) []byte {
	text := src[start:end]
	if bytes.IndexByte(text, '\n') < 0 {
		return text
	}
	return Reindent(text, IndentAt(src, start), 0)
}

// DeindentText removes from text's continuation lines the indentation of
// the line of src at offset start, like Deindent for text that came from
// (or replaces) the node starting there.
func DeindentText(text []byte, src []byte, start int) []byte {
	if bytes.IndexByte(text, '\n') < 0 {
		return text
	}
	return Reindent(text, IndentAt(src, start), 0)
}
