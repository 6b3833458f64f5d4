package printer

import (
	"strconv"
	"strings"
)

// Notes are markdown, which ast-grep renders with termimad (minimad 0.16
// parses it) and, without colours, no styles. plainMarkdown renders a
// note the same way for the lines notes hold: inline markers (`*`, `**`,
// `~~`, backticks, with `\` escapes) dropped, list items with a "•" or
// their renumbered index, code lines (indented by four spaces or a tab,
// or between ``` fences, which are dropped) padded to the width of their
// block, headers without their `#`, quotes after "▐ ", a horizontal rule
// as an empty line. Tables are printed as paragraphs.

// maxHeaderDepth is the deepest header minimad reads.
const maxHeaderDepth = 8

// mdLine is a rendered line of a note; code lines are padded later.
type mdLine struct {
	text    string
	code    bool
	ordered bool // an ordered list item, renumbered later
	depth   int  // its indentation
	index   int  // its number as written
}

// plainMarkdown renders a note as ast-grep prints it without colours:
// each line (as Lines splits the note) rendered and ending with a line
// break.
func plainMarkdown(s string) string {
	var lines []mdLine
	fenced := false
	for _, l := range Lines(s) {
		if fenced || strings.HasPrefix(l, "```") {
			if strings.HasPrefix(l, "```") {
				fenced = !fenced
				continue
			}
			lines = append(lines, mdLine{text: l, code: true})
			continue
		}
		lines = append(lines, markdownLine(l))
	}
	renumber(lines)
	var b strings.Builder
	for i := 0; i < len(lines); {
		if !lines[i].code {
			b.WriteString(lines[i].text + "\n")
			i++
			continue
		}
		j, width := i, 0
		for ; j < len(lines) && lines[j].code; j++ {
			width = max(width, textWidth(lines[j].text))
		}
		for ; i < j; i++ {
			b.WriteString(lines[i].text + strings.Repeat(" ", width-textWidth(lines[i].text)) + "\n")
		}
	}
	return b.String()
}

// textWidth is the display width of a line of text.
func textWidth(s string) int {
	w := 0
	for _, r := range s {
		w += RuneWidth(r)
	}
	return w
}

// markdownLine renders one line outside code fences.
func markdownLine(l string) mdLine {
	switch {
	case strings.HasPrefix(l, "    "):
		return mdLine{text: l[4:], code: true}
	case strings.HasPrefix(l, "\t"):
		return mdLine{text: l[1:], code: true}
	}
	if depth, n, index, ok := listPrefix(l); ok {
		if index < 0 {
			return mdLine{text: strings.Repeat(" ", depth) + "• " + inlineMarkdown(l[n:])}
		}
		return mdLine{text: inlineMarkdown(l[n:]), ordered: true, depth: depth, index: index}
	}
	switch {
	case l == ">":
		return mdLine{text: "▐ "}
	case strings.HasPrefix(l, "> "):
		return mdLine{text: "▐ " + inlineMarkdown(l[2:])}
	}
	if h := headerLevel(l); h > 0 {
		return mdLine{text: inlineMarkdown(l[h+1:])}
	}
	text := inlineMarkdown(l)
	if len(text) >= 3 && strings.Trim(text, "-") == "" && !strings.ContainsAny(l, "*~`\\") {
		return mdLine{} // a horizontal rule
	}
	return mdLine{text: text}
}

// renumber numbers ordered list items as minimad does: a run of items of
// one depth counts up from its first item's number.
func renumber(lines []mdLine) {
	type seq struct {
		start, count int
		active       bool
	}
	var seqs []seq
	for i := range lines {
		l := &lines[i]
		if !l.ordered {
			for k := range seqs {
				seqs[k].active = false
			}
			continue
		}
		for len(seqs) <= l.depth {
			seqs = append(seqs, seq{})
		}
		if seqs[l.depth].active {
			seqs[l.depth].count++
		} else {
			seqs[l.depth] = seq{start: l.index, count: 1, active: true}
			for k := l.depth + 1; k < len(seqs); k++ {
				seqs[k].active = false
			}
		}
		n := seqs[l.depth].start + seqs[l.depth].count - 1
		l.text = strings.Repeat(" ", l.depth) + strconv.Itoa(n) + ". " + l.text
	}
}

// listPrefix reads a list item's marker: up to three spaces, then "* ",
// "- ", "+ " or digits and "." or ")" with a space or the line's end. It
// returns the indentation, the marker's length and, for an ordered item,
// its number (else -1).
func listPrefix(l string) (depth, n, index int, ok bool) {
	for depth < len(l) && l[depth] == ' ' {
		depth++
	}
	if depth >= 4 {
		return 0, 0, 0, false
	}
	rest := l[depth:]
	if strings.HasPrefix(rest, "* ") || strings.HasPrefix(rest, "- ") || strings.HasPrefix(rest, "+ ") {
		return depth, depth + 2, -1, true
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || i == len(rest) || rest[i] != '.' && rest[i] != ')' {
		return 0, 0, 0, false
	}
	index, err := strconv.Atoi(rest[:i])
	if err != nil {
		index = 1
	}
	switch {
	case i+1 == len(rest):
		return depth, depth + i + 1, index, true
	case rest[i+1] == ' ':
		return depth, depth + i + 2, index, true
	}
	return 0, 0, 0, false
}

// headerLevel is the level of a header line ("## A" is 2), 0 for none.
func headerLevel(l string) int {
	if len(l) <= 2 {
		return 0
	}
	for i := 0; i < min(len(l)-1, maxHeaderDepth+1); i++ {
		switch l[i] {
		case '#':
		case ' ':
			return i
		default:
			return 0
		}
	}
	return 0
}

// inlineMarkdown drops a line's inline markers as minimad reads them:
// `**` toggles bold, a lone `*` italic, `~~` strikeout (a lone `~` is
// text), a backtick code, inside which only a backtick counts; `\`
// escapes `*`, `~`, `|`, a backtick and itself. A `*` (or `~`) ending
// the line while italic (strikeout) is on is dropped.
func inlineMarkdown(l string) string {
	var b strings.Builder
	var italic, code, strike bool
	afterStar, afterTilde, afterSlash := false, false, false
	// pending is text held back while a marker is undecided: the star or
	// tilde just read.
	pending := ""
	for _, r := range l {
		if code {
			if r == '`' {
				code = false
			} else {
				b.WriteRune(r)
			}
			afterSlash, afterStar = false, false
			continue
		}
		if afterSlash {
			afterSlash = false
			switch r {
			case '*', '~', '|', '`':
				b.WriteRune(r)
				continue
			case '\\':
				b.WriteRune('\\')
				continue
			}
			b.WriteRune('\\')
		} else if r == '\\' {
			afterSlash = true
			continue
		}
		switch {
		case afterStar:
			afterStar, pending = false, ""
			switch r {
			case '*': // bold
			case '~': // the tilde goes with the star
				afterTilde = true
				italic = !italic
			case '`':
				italic = !italic
				code = true
			default:
				italic = !italic
				b.WriteRune(r)
			}
		case afterTilde:
			afterTilde = false
			switch r {
			case '*':
				b.WriteString(pending)
				afterStar, pending = true, "*"
			case '~':
				strike = !strike
				pending = ""
			default:
				b.WriteString(pending)
				pending = ""
				b.WriteRune(r)
			}
		default:
			switch r {
			case '*':
				afterStar, pending = true, "*"
			case '~':
				afterTilde, pending = true, "~"
			case '`':
				code = true
			default:
				b.WriteRune(r)
			}
		}
	}
	if afterSlash {
		b.WriteRune('\\')
	}
	switch {
	case afterStar && !italic, afterTilde && !strike:
		b.WriteString(pending)
	}
	return b.String()
}
