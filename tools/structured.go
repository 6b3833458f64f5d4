package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxStructuredBytes bounds the JSON of a tool's structured output
// (Output.Structured, MCP's structuredContent). Each text in it is clipped
// to its first line and at most maxClip characters, and the items (matches,
// call-tree nodes, references, …) that do not fit are left out and counted
// in its omitted field; the text output still lists them.
const MaxStructuredBytes = 32 << 10

// maxClip is the longest text, in characters, a structured item carries.
const maxClip = 120

// maxNote is the longest hint or note, in characters, a structured
// output carries.
const maxNote = 300

// maxNotes is the most hints or notes a structured output carries. With
// maxNote and maxClip it bounds what is not an item (at most 5 × 300 and
// a few × 120 characters) well under MaxStructuredBytes, however the
// characters are escaped.
const maxNotes = 5

// clip shortens s to its first line and at most maxClip characters,
// saying how much was cut.
func clip(s string) string { return clipN(s, maxClip) }

// clipN is clip to at most n characters.
func clipN(s string, n int) string {
	first, rest, multi := strings.Cut(s, "\n")
	first = strings.TrimRight(first, " \t\r")
	more := ""
	if multi {
		more = fmt.Sprintf(" (+%d lines)", strings.Count(rest, "\n")+1)
	}
	if utf8.RuneCountInString(first) > n {
		first = string([]rune(first)[:n])
		return first + "…" + more
	}
	if more != "" {
		return first + " …" + more
	}
	return first
}

// clipAll clips each of ss (hints, notes) to maxNote characters, keeping
// at most maxNotes of them.
func clipAll(ss []string) []string {
	if len(ss) > maxNotes {
		ss = ss[:maxNotes]
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clipN(s, maxNote)
	}
	return out
}

// bound keeps the leading items that fit in what MaxStructuredBytes
// leaves once rest (the structured output without its items) is counted,
// and returns how many it left out.
func bound[T any](rest any, items []T) ([]T, int) {
	b, err := json.Marshal(rest)
	if err != nil {
		return items[:0], len(items)
	}
	// The items' brackets and the omitted field with its count.
	const slack = 64
	return fit(items, MaxStructuredBytes-len(b)-slack)
}

// boundPage is bound for one page of a list (package paging): the page's
// items start at offset and the text's next page at next (0: none). When
// the size bound leaves items out, the structured form's next page starts
// at the first of them, so a client reading only the structured form
// still pages through every item.
func boundPage[T any](rest any, items []T, offset, next int) (kept []T, omitted, nextOffset int) {
	kept, omitted = bound(rest, items)
	if omitted > 0 {
		next = offset + len(kept)
	}
	return kept, omitted, next
}

// fit keeps the leading items whose JSON fits in budget bytes (with the
// commas between them) and returns how many it left out.
func fit[T any](items []T, budget int) ([]T, int) {
	used := 0
	for i, it := range items {
		b, err := json.Marshal(it)
		if err != nil || used+len(b)+1 > budget {
			return items[:i], len(items) - i
		}
		used += len(b) + 1
	}
	return items, 0
}
