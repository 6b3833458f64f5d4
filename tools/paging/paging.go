// Package paging is the one paging convention of loupe's list tools (grep,
// glob, search, list_directory, ast_grep, structural_analysis): a list in
// a stable order is answered a page at a time, a page holds at most the
// tool's item limit and MaxTextBytes of text, and a page that is not the
// last says how many items it left out and the offset to ask for, in the
// text ("N more of M: call again with offset=K") and in the structured
// output (next_offset).
package paging

import (
	"fmt"
)

// MaxTextBytes bounds the text of one page of a list (about 6,000
// tokens): a page ends before the item that would cross it, but always
// holds one item, so paging makes progress.
const MaxTextBytes = 24 << 10

// ItemBytes is what the items of a page may take of MaxTextBytes; the
// rest is for what the text says around them (a heading, counts, hints,
// warnings, how to ask for the next page).
const ItemBytes = MaxTextBytes - 2<<10

// Params is the paging parameter every list tool embeds.
type Params struct {
	Offset int `json:"offset,omitempty" min:"0" desc:"Item to start from: the offset a capped answer gives."`
}

// Check refuses a negative offset.
func Check(offset int) error {
	if offset < 0 {
		return fmt.Errorf("offset must be 0 or more, got %d", offset)
	}
	return nil
}

// Page is where one page lies in its list.
type Page struct {
	// Offset is the index of the page's first item in the list.
	Offset int
	// Count is how many items the page holds.
	Count int
	// Total is how many items the whole list holds.
	Total int
}

// Next is the offset of the page after this one, 0 when this is the
// last.
func (p Page) Next() int {
	if end := p.Offset + p.Count; end < p.Total {
		return end
	}
	return 0
}

// More says how to ask for the rest: "N more of M: call again with
// offset=K", or "" on the last page.
func (p Page) More() string {
	next := p.Next()
	if next == 0 {
		return ""
	}
	return fmt.Sprintf("%d more of %d: call again with offset=%d", p.Total-next, p.Total, next)
}

// PastEnd says that an offset lies past the end of the list, or "" when
// it does not.
func (p Page) PastEnd() string {
	if p.Count > 0 || p.Offset == 0 || p.Offset < p.Total {
		return ""
	}
	return fmt.Sprintf("offset %d is past the end: there are %d", p.Offset, p.Total)
}

// Fit returns how many leading items fit in a page of at most limit items
// and budget bytes, size giving each item's bytes; it is at least 1 when
// items is not empty (one item larger than a page still makes progress).
func Fit[T any](items []T, limit, budget int, size func(T) int) int {
	used := 0
	for i, it := range items {
		if i >= limit {
			return i
		}
		used += size(it)
		if used > budget && i > 0 {
			return i
		}
	}
	return len(items)
}
