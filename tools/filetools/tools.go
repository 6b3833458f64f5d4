// Package filetools is the agent file tools: grep, glob and search to
// find files and text, list_directory, read_file, and the writing tools
// create_file, update_file, append_file, replace_in_file, edit_lines and
// delete_file, each with the parameters, limits and result text LLM agents
// are given, over one workspace.
//
// Every path stays inside the workspace: `..`, absolute paths and symbolic
// links that lead out of it are refused (core/search's Workspace), and
// files are opened, written and removed through an os.Root on the
// workspace, so a link swapped in between the check and the use still
// cannot reach outside. A refusal says nothing of what lies outside.
//
// The walking tools (grep, glob, search, list_directory with recursive)
// use core/search's walker: .gitignore and .ignore files are honoured
// (also outside a git repository), hidden files are included, .git is
// never entered, the directories of DefaultExcludes are skipped unless a
// search starts inside one, and the walk stops DefaultMaxDepth directory
// levels below the search path with a warning. grep reads files through
// the search pipeline's Reader: its size cap, then the binary and
// encoding screen (search.Screen).
//
// Writing tools ask for approval (toolspec.Approve: the call context's
// Approver, else the Config's) before a file changes, and only then: a preview, a replace that matches nothing and a write that would
// not change the file ask nothing. Without an Approver they refuse. Every
// write is atomic (a temporary file in the same directory, renamed over
// the target: core/rewrite's ReplaceFileIn and CreateFileIn), so a crash
// or kill leaves the old file or the new one, never a mix; an edited file
// keeps its mode, its line endings (CRLF stays CRLF), its byte-order mark
// and whether it ends with a newline. The temporary files are named so
// that the listing tools never show them (rewrite.IsTempName).
//
// Each tool is a method of Tools taking its Params and returning its
// Result, whose Text is what the model reads and whose JSON is the
// whole result. Package tools declares each of them once in loupe's tool
// registry (description, category, permissions, approval rule,
// termination guidance, examples), from which the MCP server and the npm
// package serve them. Failures the model can act on are *Error values.
package filetools

import (
	"context"
	"errors"
	"fmt"
	"github.com/loupe-dev/loupe/internal/safefs"

	"time"

	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

// Tool names.
const (
	GrepName          = "grep"
	GlobName          = "glob"
	SearchName        = "search"
	ListDirectoryName = "list_directory"
	ReadFileName      = "read_file"
	CreateFileName    = "create_file"
	UpdateFileName    = "update_file"
	AppendFileName    = "append_file"
	ReplaceInFileName = "replace_in_file"
	EditLinesName     = "edit_lines"
	DeleteFileName    = "delete_file"
)

// Limits and defaults.
const (
	// DefaultGrepMaxResults is how many matching lines grep returns when
	// max_results is not given.
	DefaultGrepMaxResults = 50
	// DefaultGlobMaxResults is how many files glob returns when
	// max_results is not given.
	DefaultGlobMaxResults = 100
	// DefaultSearchMaxResults is how many files search returns when
	// max_results is not given.
	DefaultSearchMaxResults = 50
	// DefaultListMaxResults is how many entries list_directory returns
	// when max_results is not given.
	DefaultListMaxResults = 200
	// MaxResultsCap is the most results any tool returns: a larger
	// max_results is lowered to it, and the result says so.
	MaxResultsCap = 500
	// DefaultMaxGrepFileSize is the largest file grep reads; larger files
	// are skipped with a warning.
	DefaultMaxGrepFileSize = 1 << 20
	// DefaultMaxFileSize is the largest file read_file and the editing
	// tools open.
	DefaultMaxFileSize = 10 << 20
	// DefaultMaxDepth is how many directory levels below the search path
	// the walking tools descend; deeper directories are reported in a
	// warning.
	DefaultMaxDepth = 10
	// DefaultFileTimeout is how long grep spends on one file before it
	// abandons it with a warning and goes on.
	DefaultFileTimeout = 5 * time.Second
	// MaxContextLines bounds grep's context_lines.
	MaxContextLines = 10
	// DefaultContextLines is grep's context_lines when not given.
	DefaultContextLines = 2
	// ReadMaxLines and ReadMaxBytes bound what one read_file call
	// returns; the rest is left for a call with a later start_line.
	ReadMaxLines = 2000
	ReadMaxBytes = 256 << 10
)

// DefaultExcludes are the directory names the walking tools skip at any
// depth, besides .git (never entered) and what ignore files exclude:
// dependencies, build output, caches and virtual environments, which
// swamp results and are rarely what an agent looks for. A search whose
// path (or glob's literal prefix) lies inside one of them searches it.
var DefaultExcludes = []string{
	"node_modules", "bower_components", "jspm_packages",
	"dist", "build", "out", "target", "coverage",
	".next", ".nuxt", ".svelte-kit", ".turbo", ".parcel-cache", ".cache",
	"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".tox", ".venv", "venv",
	".gradle", ".hg", ".svn",
}

// Config sets up the tools for one workspace.
type Config struct {
	// Workspace is the root directory no path may leave (required).
	Workspace string
	// Approver is asked before any write, unless the call's context
	// carries its own (toolspec.WithApprover); with neither, every writing
	// tool refuses a call that would change a file (previews still work).
	Approver toolspec.Approver
	// MaxGrepFileSize is the largest file grep reads (default 1 MiB).
	MaxGrepFileSize int64
	// MaxFileSize is the largest file read_file and the editing tools
	// open (default 10 MiB).
	MaxFileSize int64
	// MaxDepth is how many directory levels below the search path the
	// walking tools descend (default 10).
	MaxDepth int
	// FileTimeout is grep's time limit per file (default 5 s), measured
	// on Clock.
	FileTimeout time.Duration
	// Clock is the time source of FileTimeout (default time.Now); grep
	// reads it when it starts a file and every 16 lines after.
	Clock func() time.Time
	// Threads is how many directories the walking tools read, and files
	// grep searches, at once (default GOMAXPROCS).
	Threads int
}

// Tools runs the file tools inside one workspace. It is safe for
// concurrent use.
type Tools struct {
	cfg Config
	ws  search.Workspace
	// afterResolve, when set (by tests), runs between a path's check and
	// its use, to swap a link in.
	afterResolve func(rel string)
}

// New opens the workspace and returns the tools.
func New(cfg Config) (*Tools, error) {
	if cfg.Workspace == "" {
		return nil, errors.New("filetools: no workspace root")
	}
	ws, err := search.OpenWorkspace(cfg.Workspace)
	if err != nil {
		return nil, fmt.Errorf("filetools: %w", err)
	}
	if cfg.MaxGrepFileSize <= 0 {
		cfg.MaxGrepFileSize = DefaultMaxGrepFileSize
	}
	if cfg.MaxFileSize <= 0 {
		cfg.MaxFileSize = DefaultMaxFileSize
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = DefaultMaxDepth
	}
	if cfg.FileTimeout <= 0 {
		cfg.FileTimeout = DefaultFileTimeout
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	return &Tools{cfg: cfg, ws: ws}, nil
}

// Root returns the workspace root, every symlink resolved.
func (t *Tools) Root() string { return t.ws.Root() }

// openRoot opens the workspace for one call's reads and writes.
func (t *Tools) openRoot(tool string) (*safefs.Root, error) {
	r, err := safefs.Open(t.ws.Root())
	if err != nil {
		return nil, &Error{Tool: tool, Msg: "cannot open the workspace", Err: err}
	}
	return r, nil
}

// Error is a tool error: a call refused or failed for a reason the model
// can act on (a bad pattern, a missing file, a line out of range, a path
// outside the workspace, a write not approved). Its message names the
// path concerned and, in Hint, says what to do instead.
type Error struct {
	// Tool is the tool's name.
	Tool string
	// Path is the path as the call gave it, when the error concerns one.
	Path string
	// Msg says what went wrong.
	Msg string
	// Hint suggests a valid call.
	Hint string
	// Err is the underlying error, if any: fs.ErrNotExist,
	// search.ErrOutsideWorkspace, toolspec.ErrNoApprover,
	// toolspec.ErrDenied, ...
	Err error
}

// Error renders "tool: msg: path (hint)".
func (e *Error) Error() string {
	s := e.Tool + ": " + e.Msg
	if e.Path != "" {
		s += ": " + e.Path
	}
	if e.Hint != "" {
		s += ". " + e.Hint
	}
	return s
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// approve asks for approval of a write: the context's Approver
// (toolspec.WithApprover), else the Config's. Without either the write is
// refused with an error wrapping toolspec.ErrNoApprover; a refusal wraps
// toolspec.ErrDenied.
func (t *Tools) approve(ctx context.Context, req toolspec.Request) error {
	if !toolspec.HasApprover(ctx) {
		if t.cfg.Approver == nil {
			return &Error{Tool: req.Tool, Path: req.Path, Msg: "not written: approval is unavailable (no approver is configured), so this tool cannot change files",
				Hint: "Show the user the change instead, or use preview_only=true where the tool has it", Err: toolspec.ErrNoApprover}
		}
		ctx = toolspec.WithApprover(ctx, t.cfg.Approver)
	}
	err := toolspec.Approve(ctx, req)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, toolspec.ErrDenied):
		return &Error{Tool: req.Tool, Path: req.Path, Msg: "the user did not approve the change, nothing was written",
			Hint: "Ask the user how to proceed instead of retrying the same change", Err: toolspec.ErrDenied}
	}
	// The approver's own error says why (toolspec.Approve wraps it).
	cause := err
	if u := errors.Unwrap(err); u != nil {
		cause = u
	}
	return &Error{Tool: req.Tool, Path: req.Path, Msg: fmt.Sprintf("approval failed (%v), nothing was written", cause), Err: err}
}

// Bool returns a pointer to b, for optional boolean parameters such as
// GrepParams.CaseSensitive.
func Bool(b bool) *bool { return &b }

// Int returns a pointer to n, for optional integer parameters such as
// EditLinesParams.Line.
func Int(n int) *int { return &n }

// resultLimit applies a max_results default and the cap; note says when
// the request was lowered.
func resultLimit(tool string, requested, def int) (limit int, note string, err error) {
	switch {
	case requested == 0:
		return def, "", nil
	case requested < 0:
		return 0, "", &Error{Tool: tool, Msg: fmt.Sprintf("max_results must be positive, got %d", requested),
			Hint: fmt.Sprintf("Omit it for the default of %d, or give 1 to %d", def, MaxResultsCap)}
	case requested > MaxResultsCap:
		return MaxResultsCap, fmt.Sprintf("max_results %d is over the limit of %d; %d used", requested, MaxResultsCap, MaxResultsCap), nil
	}
	return requested, "", nil
}
