package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/core/outline"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

// The bounds of one page of an outline: a page ends at the symbol whose
// text or structured JSON would cross them, or at its limit of symbols.
const (
	// MaxOutlineTextBytes bounds the text of one page (about 4,000
	// tokens).
	MaxOutlineTextBytes = 16 << 10
	// outlineJSONBytes bounds the JSON of a page's symbols in the
	// structured output, leaving room for the rest of it.
	outlineJSONBytes = MaxStructuredBytes - 1<<10
	// outlineLimit is a page's default limit of symbols, and maxOutlineLimit
	// the largest one a call may set.
	outlineLimit, maxOutlineLimit = 400, 2000
	// defaultOutlineTimeout bounds a call when Config.AnalysisTimeout
	// does not.
	defaultOutlineTimeout = 60 * time.Second
)

// outlineParams are the outline tool's parameters.
type outlineParams struct {
	Path       string   `json:"path,omitempty" desc:"File or directory."`
	Globs      []string `json:"globs,omitempty"`
	Items      string   `json:"items,omitempty" enum:"structure,exports,imports,all" desc:"Default: exports (directory), structure (file)."`
	Type       string   `json:"type,omitempty" desc:"class,function,…"`
	Match      string   `json:"match,omitempty" desc:"Regex on names, signatures."`
	Members    *bool    `json:"members,omitempty" desc:"Default: file only."`
	PubMembers bool     `json:"pub_members,omitempty"`
	Offset     int      `json:"offset,omitempty" min:"0"`
	Limit      int      `json:"limit,omitempty" min:"1"`
}

// outlineResult is one page of the outline of the files a call selects.
type outlineResult struct {
	// Symbols are the page's symbols: by file in path order, each file's
	// items in source order, each followed by its members.
	Symbols []outlineSymbol `json:"symbols"`
	// Total counts the symbols of the whole outline, Next is the offset
	// of the page after this one (0: none).
	Total int `json:"total"`
	Next  int `json:"next_offset,omitempty"`
	// FilesOutlined counts the files outlined, with or without symbols.
	FilesOutlined int `json:"files_outlined"`
	// Message is said instead of symbols, or after them (a partial
	// outline).
	Message string `json:"message,omitempty"`
	// Skipped lists the files passed over, with the reason.
	Skipped []string `json:"skipped,omitempty"`
}

// outlineSymbol is an item of a file (a top-level symbol) or a member of
// one (a field, method, variant, …).
type outlineSymbol struct {
	File      string `json:"file" desc:"Relative to the workspace root."`
	Line      int    `json:"line" desc:"1-based."`
	Type      string `json:"type" desc:"Symbol type: class, function, method, field, constant, …"`
	Name      string `json:"name"`
	Signature string `json:"signature,omitempty" desc:"Its head on one line, clipped; absent when it is the name."`
	Member    bool   `json:"member,omitempty" desc:"A member of the last item before it."`
	Public    bool   `json:"public,omitempty" desc:"An exported item or a public member."`
	// item is a member's item.
	item *outlineSymbol
}

// Text is the page written for a model: per file its path, then one line
// per symbol ("LINE: signature"), members indented under their item (a
// page starting with members repeats their item, "(continued)"), and how
// to ask for the rest.
func (r *outlineResult) Text() string {
	var b strings.Builder
	for i := range r.Symbols {
		s := &r.Symbols[i]
		if i == 0 || s.File != r.Symbols[i-1].File {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(s.File)
			b.WriteByte('\n')
			if s.Member && s.item != nil {
				b.WriteString(strings.TrimSuffix(s.item.line(), "\n") + " (continued)\n")
			}
		}
		b.WriteString(s.line())
	}
	if r.Next > 0 {
		fmt.Fprintf(&b, "%d more of %d: call again with offset=%d\n", r.Total-r.Next, r.Total, r.Next)
	}
	if r.Message != "" {
		b.WriteString(r.Message + "\n")
	}
	return b.String()
}

// line is the symbol's line of Text.
func (s *outlineSymbol) line() string {
	sig := s.Signature
	if sig == "" {
		sig = s.Name
	}
	if s.Member {
		return "  " + strconv.Itoa(s.Line) + ": " + sig + "\n"
	}
	return strconv.Itoa(s.Line) + ": " + sig + "\n"
}

// pageOutline cuts the page at offset out of syms: at most limit
// symbols, within MaxOutlineTextBytes of text and outlineJSONBytes of
// JSON, at least one symbol when any is left.
func pageOutline(syms []outlineSymbol, offset, limit int) *outlineResult {
	r := &outlineResult{Symbols: []outlineSymbol{}, Total: len(syms)}
	offset = min(max(offset, 0), len(syms))
	text, js := 0, 0
	for i := offset; i < len(syms); i++ {
		s := &syms[i]
		add := len(s.line())
		if i == offset || s.File != syms[i-1].File {
			add += len(s.File) + 2
			if s.Member && s.item != nil {
				add += len(s.item.line()) + len(" (continued)")
			}
		}
		addJSON := jsonSize(s) + 1
		if i > offset && (i-offset >= limit || text+add > MaxOutlineTextBytes || js+addJSON > outlineJSONBytes) {
			r.Next = i
			break
		}
		text, js = text+add, js+addJSON
		r.Symbols = append(r.Symbols, *s)
	}
	return r
}

// plural is "1 file", "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func jsonSize(v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return len(b)
}

// outlineTool is one workspace's outline tool.
type outlineTool struct {
	ws      search.Workspace
	cfg     Config
	timeout time.Duration
}

// run outlines the files p selects and returns the page p asks for.
func (t *outlineTool) run(ctx context.Context, p outlineParams) (*outlineResult, error) {
	limit := p.Limit
	switch {
	case limit == 0:
		limit = outlineLimit
	case limit < 0:
		return nil, fmt.Errorf("outline: limit must be positive, got %d", limit)
	case limit > maxOutlineLimit:
		limit = maxOutlineLimit
	}
	if p.Offset < 0 {
		return nil, fmt.Errorf("outline: offset must not be negative, got %d", p.Offset)
	}
	abs, rel, err := t.ws.Resolve(p.Path)
	if err != nil {
		return nil, fmt.Errorf("outline: %w", err)
	}
	if rel == "" {
		rel = "."
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("outline: path %q: %w", p.Path, err)
	}
	dir := fi.IsDir()
	members := !dir
	if p.Members != nil {
		members = *p.Members
	}
	q := outline.Query{Items: p.Items, View: "signatures", Types: p.Type, PubMembers: p.PubMembers}
	if members {
		q.View = "expanded"
	}
	if p.Match != "" {
		q.Match = &p.Match
	}
	opts, _, err := q.Resolve(dir)
	if err != nil {
		return nil, fmt.Errorf("outline: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	var syms []outlineSymbol
	outlined := 0
	st, err := outline.NewOutliner(outline.Default(), opts).Walk(ctx, search.Options{
		Root:        t.ws.Root(),
		Paths:       []string{abs},
		Globs:       p.Globs,
		MaxFileSize: t.cfg.MaxFileSize,
		Cache:       search.Default,
	}, outline.Walk{}, func(f *outline.File) error {
		outlined++
		syms = appendSymbols(syms, f)
		return nil
	})
	partial := ""
	if err != nil {
		if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
			return nil, fmt.Errorf("outline: %w", err)
		}
		partial = fmt.Sprintf("Stopped after %s (time limit or cancellation): the outline is partial; narrow path or globs.", plural(outlined, "file"))
	}
	r := pageOutline(syms, p.Offset, limit)
	r.FilesOutlined = outlined
	for _, s := range st.Skipped {
		r.Skipped = append(r.Skipped, s.Path+" ("+string(s.Reason)+")")
	}
	switch {
	case outlined == 0:
		r.Message = fmt.Sprintf("No file under %q is in a language outline knows (%s).", rel, strings.Join(outline.Languages(), ", "))
	case r.Total == 0:
		r.Message = fmt.Sprintf("No symbols in the %s outlined, with these filters (outline knows %s).", plural(outlined, "file"), strings.Join(outline.Languages(), ", "))
	case p.Offset >= r.Total:
		r.Message = fmt.Sprintf("offset %d is past the end: the outline has %d symbols.", p.Offset, r.Total)
	}
	if partial != "" {
		r.Message = strings.TrimSpace(r.Message + " " + partial)
	}
	return r, nil
}

// appendSymbols appends f's items and members to syms, as the tool
// answers them: signatures with their runs of white space made one space
// (gofmt's alignment) and clipped, a signature equal to the name left out.
func appendSymbols(syms []outlineSymbol, f *outline.File) []outlineSymbol {
	for i := range f.Items {
		it := &f.Items[i]
		item := &outlineSymbol{File: f.Path, Line: it.Range.Start.Line + 1, Type: it.SymbolType, Name: it.Name,
			Signature: clipSig(it.Signature, it.Name), Public: it.IsExported}
		syms = append(syms, *item)
		for _, m := range it.Members {
			syms = append(syms, outlineSymbol{File: f.Path, Line: m.Range.Start.Line + 1, Type: m.SymbolType, Name: m.Name,
				Signature: clipSig(m.Signature, m.Name), Member: true, Public: m.IsPublic, item: item})
		}
	}
	return syms
}

func clipSig(sig, name string) string {
	if sig == name {
		return ""
	}
	return clip(strings.Join(strings.Fields(sig), " "))
}

// outlineOutput is the outline tool's structured output: the page's
// symbols, the same as the text.
type outlineOutput struct {
	Symbols    []outlineSymbol `json:"symbols" desc:"The page's symbols: by file in path order, each file's items in source order, each item followed by its members."`
	Total      int             `json:"total" desc:"Symbols (items and members) in the whole outline."`
	NextOffset int             `json:"next_offset,omitempty" desc:"The offset of the next page; absent on the last."`
	Message    string          `json:"message,omitempty" desc:"Said when there are no symbols, or the outline is partial."`
}

var outlineEntry = declare(decl[outlineParams, *outlineResult, outlineOutput]{
	Name:        "outline",
	Title:       "Outline code",
	Summary:     "The symbols of files or a directory, by file: items (functions, types, constants, imports) with line and signature, and their members, in pages.",
	Description: "Per file, its items (functions, types, constants, …) as LINE: signature, members indented; in pages.",
	Guide: "Use outline first to map an unfamiliar repository or package, then read_file on the lines it gives; on one file it shows its classes with their methods. " +
		"type and match narrow it (type=class, match=^Parse); items=all adds imports and private items.",
	Category:    toolspec.CodeAnalysis,
	Permissions: toolspec.ReadFiles,
	Termination: "Set terminate=false when the outline leads to further steps (reading the files it names, a search); set terminate=true when the list of symbols is itself the answer to present to the user.",
	Examples: []example[outlineParams]{
		{"The exported symbols under src", outlineParams{Path: "src"}},
		{"One file's classes with their public methods", outlineParams{Path: "src/registry.ts", Type: "class", PubMembers: true}},
	},
	Open: func(cfg Config) (func(context.Context, outlineParams) (*outlineResult, error), error) {
		ws, err := search.OpenWorkspace(cfg.Workspace)
		if err != nil {
			return nil, fmt.Errorf("outline: %w", err)
		}
		if cfg.MaxFileSize <= 0 {
			cfg.MaxFileSize = search.DefaultMaxFileSize
		}
		t := &outlineTool{ws: ws, cfg: cfg, timeout: cfg.AnalysisTimeout}
		if t.timeout <= 0 {
			t.timeout = defaultOutlineTimeout
		}
		return t.run, nil
	},
	Structured: func(r *outlineResult) outlineOutput {
		return outlineOutput{Symbols: r.Symbols, Total: r.Total, NextOffset: r.Next, Message: clipN(r.Message, maxNote)}
	},
	Warnings: func(r *outlineResult) []string {
		w := make([]string, len(r.Skipped))
		for i, s := range r.Skipped {
			w[i] = "outline skipped " + s
		}
		return w
	},
})
