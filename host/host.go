// Package host is the boundary between loupe and a tree-sitter grammar
// module. A grammar module (see grammars/glue/glue.c) parses a whole buffer
// in one call and returns the tree as one flat, pre-order array of Node
// records; this package holds that protocol and the interfaces a host
// implements. It has no WebAssembly runtime of its own: host/wazhost runs
// modules with wazero, and the GOOS=js build runs them on the JavaScript
// engine's WebAssembly.
package host

import (
	"context"
	"errors"
)

// Node is one record of the flat tree, exactly as the grammar module writes
// it (24 bytes, little-endian). Children of a node follow it directly; the
// next sibling of node i is node i+SubtreeSize. Rows and columns are not
// sent: tree-sitter counts a row per '\n' and columns in bytes, so they
// follow from the byte offsets and the source (see core/tree).
type Node struct {
	Symbol      uint16 // alias-aware symbol id, an index into Names.Symbols
	Field       uint16 // field id in the parent, an index into Names.Fields; 0 when none
	Flags       uint32 // Flag* bits
	StartByte   uint32
	EndByte     uint32
	ChildCount  uint32 // all children, named and anonymous
	SubtreeSize uint32 // this node and all its descendants
}

// NodeSize is the size of one encoded Node.
const NodeSize = 24

// Node flags.
const (
	FlagNamed    = 1 << iota // a named node (not an anonymous token)
	FlagExtra                // an extra such as a comment
	FlagMissing              // inserted by error recovery, zero width
	FlagError                // an ERROR node
	FlagHasError             // the subtree contains an error or missing node
)

// Names is a grammar's symbol and field name table, read once per language.
type Names struct {
	Symbols []string // indexed by symbol id
	Named   []bool   // whether a symbol is a named node kind
	Visible []bool   // whether a symbol can appear in a tree (named or anonymous token)
	Fields  []string // indexed by field id; Fields[0] is ""
}

// Grammar parses source text with one grammar module. Implementations are
// safe for concurrent use.
type Grammar interface {
	// Names returns the grammar's symbol and field table.
	Names() *Names
	// Parse parses src and returns its flat tree. It honours ctx: when ctx
	// is done the parse stops and ctx's error is returned (wrapped).
	Parse(ctx context.Context, src []byte) ([]Node, error)
}

// Engine loads grammar modules.
type Engine interface {
	// Load prepares the module wasm under the given language name. Loading
	// the same name twice returns the same Grammar.
	Load(ctx context.Context, name string, wasm []byte) (Grammar, error)
	// Close releases every module and instance.
	Close(ctx context.Context) error
}

// Exports are the functions every grammar module exports (grammars/glue/glue.c);
// a host refuses a module that lacks one.
var Exports = []string{"loupe_init", "loupe_names", "loupe_input", "loupe_parse", "loupe_output", "loupe_cancel_flag"}

// Errors a grammar module reports.
var (
	// ErrBadModule means a module lacks the loupe glue exports or rejected
	// its language (an ABI mismatch).
	ErrBadModule = errors.New("host: not a loupe grammar module")
	// ErrOutOfMemory means the module ran out of linear memory for the input.
	ErrOutOfMemory = errors.New("host: grammar module out of memory")
	// ErrTooLarge means the input exceeds what a 32-bit module can address.
	ErrTooLarge = errors.New("host: input too large for a grammar module")
	// ErrTimeLimit means a sandboxed module was stopped at its time limit:
	// by the clock natively, by its fuel (MeterModule) under js.
	ErrTimeLimit = errors.New("host: grammar module over its time limit")
)

// MaxInput is the largest source a module accepts: its 4 GiB address space
// holds the source and a tree of about 13 records per source byte at worst,
// so loupe stays well below it.
const MaxInput = 256 << 20

// Glue error codes (grammars/glue/glue.c).
const (
	codeNoMemory = -1
	codeNoParser = -2
	codeNoTree   = -3
	// CodeCancelled is loupe_parse's status when the host set the module's
	// cancel flag during the parse.
	CodeCancelled = -4
)

// CodeError turns a negative status from loupe_parse into an error.
func CodeError(code int32) error {
	switch code {
	case codeNoMemory:
		return ErrOutOfMemory
	case codeNoParser:
		return ErrBadModule
	case codeNoTree:
		return errors.New("host: tree-sitter returned no tree")
	case CodeCancelled:
		return errors.New("host: parse cancelled")
	}
	return errors.New("host: unknown grammar module status")
}
