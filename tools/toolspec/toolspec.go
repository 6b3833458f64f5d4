// Package toolspec is the vocabulary of loupe's tool registry (package
// tools): the category a tool is listed under, the permissions it needs,
// how it asks the host to approve a write, the static description every
// face publishes (Info) and the system prompt built from those
// descriptions (Prompt).
//
// It imports no tool, so a tool's own package may import it (to call
// Approve just before it writes) and still be registered in package tools
// by one declaration.
package toolspec

import (
	"encoding/json"
	"strings"
)

// Category groups tools in a system prompt.
type Category struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// The categories, as the system prompt introduces them.
var (
	SearchDiscovery = Category{"Search & Discovery", "Find files and text in the workspace: by content, by name or path pattern, by directory, or by syntactic shape. These tools are read-only; their results are capped, and a capped answer gives the total, the offset of the next page and how to narrow the search."}
	CodeAnalysis    = Category{"Code Analysis", "Answer how code relates (callers and callees, definitions, type hierarchies, references, imports and exports) from syntax trees, matching names as written rather than resolving types. Read-only."}
	FileReading     = Category{"File Reading", "Read file contents, whole or by line range. Read-only access: nothing is changed."}
	FileWriting     = Category{"File Writing", "Create and change files. A call that would write asks the user for approval first; a preview, or a change that finds nothing to change, writes nothing and needs no approval."}
	FileManagement  = Category{"File Management", "Destructive operations: deleting a file cannot be undone from here. Each one needs the user's approval; check the path before asking."}
)

// Categories lists the categories in the order Prompt shows them; a tool
// in a category not listed here comes after them.
var Categories = []Category{SearchDiscovery, CodeAnalysis, FileReading, FileWriting, FileManagement}

// Example is one example call of a tool: what it is for and its JSON
// parameters.
type Example struct {
	Use    string          `json:"use"`
	Params json.RawMessage `json:"params"`
}

// Info is everything a face publishes about a tool. Package tools derives
// it from the tool's one declaration: the schemas come from Go types, the
// hints from the permissions.
type Info struct {
	Name string `json:"name"`
	// Title is a short human-readable name (MCP's title annotation).
	Title string `json:"title"`
	// Summary is one sentence for the system prompt; Description is the
	// full text a tool registration carries.
	Summary     string `json:"summary"`
	Description string `json:"description"`
	// Guide is the prompt's prose about the tool: its common uses and the
	// options that matter.
	Guide       string     `json:"guide"`
	Category    Category   `json:"category"`
	Permissions Permission `json:"permissions"`
	// RequiresApproval: some calls of the tool write, and those ask the
	// host's Approver first (package tools tells which calls).
	RequiresApproval bool `json:"requiresApproval"`
	// Termination tells an agent when a call's result should end its turn
	// (terminate=true) and when it is input to further steps
	// (terminate=false).
	Termination string    `json:"termination"`
	Examples    []Example `json:"examples"`
	// InputSchema is the JSON Schema of the parameters; OutputSchema that
	// of the structured result.
	InputSchema  map[string]any `json:"inputSchema"`
	OutputSchema map[string]any `json:"outputSchema"`
	// Additive: the tool's writes only add to what exists (append_file),
	// so it is not destructive although it writes files.
	Additive bool `json:"-"`
}

// Hints are the MCP tool annotations implied by a tool's permissions.
type Hints struct {
	// ReadOnly: the tool changes nothing.
	ReadOnly bool
	// Destructive: the tool may change or remove what exists (rather
	// than only add to it): it writes or deletes files and is not
	// Additive.
	Destructive bool
	// Idempotent: calling it again with the same parameters has no
	// further effect. Only read-only tools are declared so: a write's
	// repeat may insert or replace again.
	Idempotent bool
}

// Hints derives the annotations from the permissions.
func (i *Info) Hints() Hints {
	readOnly := i.Permissions&^ReadFiles == 0
	return Hints{
		ReadOnly:    readOnly,
		Destructive: i.Permissions&(WriteFiles|DeleteFiles) != 0 && !i.Additive,
		Idempotent:  readOnly,
	}
}

// Permission is a set of file-system permissions a tool needs.
type Permission uint8

// The permissions.
const (
	ReadFiles Permission = 1 << iota
	WriteFiles
	CreateFiles
	DeleteFiles
)

var permissionNames = []struct {
	p    Permission
	name string
}{{ReadFiles, "ReadFiles"}, {WriteFiles, "WriteFiles"}, {CreateFiles, "CreateFiles"}, {DeleteFiles, "DeleteFiles"}}

// Names lists the permissions in p, in the order ReadFiles, WriteFiles,
// CreateFiles, DeleteFiles.
func (p Permission) Names() []string {
	names := []string{}
	for _, n := range permissionNames {
		if p&n.p != 0 {
			names = append(names, n.name)
		}
	}
	return names
}

// String lists the permissions, comma-separated.
func (p Permission) String() string { return strings.Join(p.Names(), ", ") }

// MarshalJSON writes p as its list of names.
func (p Permission) MarshalJSON() ([]byte, error) { return json.Marshal(p.Names()) }
