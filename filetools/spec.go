package filetools

import (
	"encoding/json"
	"strings"
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

// Categories, as a system prompt groups the tools.
const (
	CategorySearch     = "Search & Discovery"
	CategoryReading    = "File Reading"
	CategoryWriting    = "File Writing"
	CategoryManagement = "File Management"
)

// Category is a group of tools with the description a system prompt
// gives it.
type Category struct {
	Name        string
	Description string
}

// Categories are the tool categories in prompt order.
var Categories = []Category{
	{CategorySearch, "Find files and text in the workspace, read-only: grep searches file contents with a regular expression, " +
		"glob lists files whose paths match a pattern, search finds files by name ranked by relevance, list_directory shows a directory's entries. " +
		"Results are capped (with the total and how to narrow the search); .gitignore and dependency and build directories are left out."},
	{CategoryReading, "Read-only access to file contents: read_file returns a file's lines with their numbers, whole or a line range. Nothing is changed."},
	{CategoryWriting, "Create and change files: create_file, update_file, append_file, replace_in_file, edit_lines. " +
		"Every change needs the user's approval before it is written (a preview_only call, or a call that would change nothing, needs none); " +
		"writes are atomic and keep the file's line endings, byte-order mark, final newline and mode."},
	{CategoryManagement, "Destructive operations: delete_file removes a file for good. It needs the user's approval; use it only when the user wants the file gone."},
}

// Permissions a tool requires.
const (
	PermissionReadFiles   = "ReadFiles"
	PermissionWriteFiles  = "WriteFiles"
	PermissionCreateFiles = "CreateFiles"
	PermissionDeleteFiles = "DeleteFiles"
)

// Spec describes one tool for a registry: everything but the handler,
// which is the Tools method of the same name (Grep for grep, ...).
type Spec struct {
	// Name is the tool's registered name.
	Name string
	// Title is a short human-readable name.
	Title string
	// Summary is one sentence for a system prompt.
	Summary string
	// Description is what the model reads about the tool.
	Description string
	// Category is one of the Category* names.
	Category string
	// Permissions are the Permission* names the tool requires.
	Permissions []string
	// RequiresApproval is set for the tools that change files; Approval
	// says when the approval is asked, and the MayWrite method of the
	// tool's Params tells whether a call may ask.
	RequiresApproval bool
	Approval         string
	// Termination is the termination_behavior_doc: whether to end the
	// agent's turn after the call.
	Termination string
	// Guide is the custom prompt's prose: common use cases and the
	// important options.
	Guide string
	// Examples are example calls.
	Examples []Example
	// Params and Result are the zero values of the tool's parameter and
	// result types, for their JSON Schemas.
	Params, Result any
}

// Example is one example call.
type Example struct {
	// Use says what the call is for.
	Use string
	// Params are the call's parameters (a *Params value of the tool).
	Params any
}

// Prompt is the custom prompt: the guide, then each example's use and
// JSON parameters.
func (s Spec) Prompt() string {
	var b strings.Builder
	b.WriteString(s.Guide)
	b.WriteString("\n\nExamples:")
	for _, e := range s.Examples {
		js, err := json.Marshal(e.Params)
		if err != nil {
			panic("filetools: example of " + s.Name + ": " + err.Error()) // a programming error, caught by tests
		}
		b.WriteString("\n- " + e.Use + ": " + string(js))
	}
	return b.String()
}

// Termination guidance shared by tools of a kind.
const (
	searchTermination = "Set terminate=false when the results need further processing (reading the files found, editing them, another narrower search); " +
		"set terminate=true only when the results themselves answer the user and you are presenting them. When a result is truncated, refine the search rather than raising max_results."
	readTermination = "Set terminate=false when the content feeds further work (an edit, a search, an answer still to compose); " +
		"set terminate=true when showing the content is the answer to the user."
	editTermination = "When unsure of the effect, call with preview_only=true first and check the diff, then call again without it. " +
		"After a successful edit set terminate=true if it completes the user's request; set terminate=false if it needs verifying (read_file, grep, running tests) or more edits follow."
	writeTermination = "After a successful write set terminate=true if the file completes the user's request; set terminate=false to verify it (read_file) or to continue with more changes. " +
		"A refusal (no approval, file exists, not found) is not a reason to stop: read the message and adjust."
)

// writeApproval is the approval rule of the editing tools.
const writeApproval = "Approval is asked only when the call would change the file, before anything is written: " +
	"never for preview_only, a replacement with 0 matches, or a change that leaves the file as it is. Without an approver the tool refuses."

// The tools' specs.
var (
	// GrepSpec describes grep (Tools.Grep).
	GrepSpec = Spec{
		Name:    GrepName,
		Title:   "Search file contents",
		Summary: "Search file contents with a regular expression and get matching lines with context.",
		Description: "Search file contents with a regular expression (Go RE2 syntax: no lookaround or backreferences), line by line, across the workspace or under a path. " +
			"Returns matching lines with file, line number and surrounding context, at most max_results (default 50, up to 500) with the total count. " +
			"Honours .gitignore, skips binary files, files over 1 MiB, dependency and build directories (node_modules, dist, target, ...) and directories more than 10 levels deep, with warnings.",
		Category:    CategorySearch,
		Permissions: []string{PermissionReadFiles},
		Termination: searchTermination,
		Guide: "Use grep to find where something is used or defined by its text: a function name, an error message, a config key, TODO comments. " +
			"Important options: file_type narrows to extensions or a language ('ts', 'rs,toml', 'python'); case_sensitive=false ignores case; " +
			"literal=true searches text with regex characters as written; context_lines sets the lines shown around each match; path limits the search to a directory or file. " +
			"For code shapes (calls, classes) ast_grep is more precise; to find files by name use search or glob.",
		Examples: []Example{
			{"find an async function named like execute in Rust", &GrepParams{Pattern: "async fn.*execute", FileType: "rs"}},
			{"find a message regardless of case, with more context", &GrepParams{Pattern: "connection refused", CaseSensitive: Bool(false), ContextLines: Int(4)}},
			{"find a literal call with parentheses in one directory", &GrepParams{Pattern: "registry.register(", Literal: true, Path: "src/tools"}},
		},
		Params: GrepParams{}, Result: GrepResult{},
	}
	// GlobSpec describes glob (Tools.Glob).
	GlobSpec = Spec{
		Name:    GlobName,
		Title:   "Find files by pattern",
		Summary: "List files whose paths match a glob pattern such as **/*.tsx.",
		Description: "List files whose paths match a glob pattern (** spans directories, * and ? stay within one, {a,b} alternatives, [a-z] classes), sorted alphabetically. " +
			"Leaves out .gitignore'd files and dependency and build directories (node_modules, dist, build, target, .git, caches) plus any exclude entries. " +
			"Returns at most max_results (default 100, up to 500) with the total count.",
		Category:    CategorySearch,
		Permissions: []string{PermissionReadFiles},
		Termination: searchTermination,
		Guide: "Use glob to list files of a kind or in a place: all TypeScript React components, test files under src, configuration files. " +
			"Patterns are relative to path (default the workspace root): '*.json' matches only at the top, '**/*.json' at any depth. " +
			"exclude adds names or paths to leave out ('fixtures', '*.min.js'); a pattern or path that starts inside a default exclusion (node_modules/react/**) searches it.",
		Examples: []Example{
			{"all TypeScript React files", &GlobParams{Pattern: "**/*.tsx"}},
			{"test files under src, at any depth", &GlobParams{Pattern: "src/**/*.test.ts"}},
			{"JavaScript files without generated ones", &GlobParams{Pattern: "**/*.js", Exclude: []string{"node_modules", "dist", "*.min.js"}}},
		},
		Params: GlobParams{}, Result: GlobResult{},
	}
	// SearchSpec describes search (Tools.Search).
	SearchSpec = Spec{
		Name:    SearchName,
		Title:   "Find files by name",
		Summary: "Find files by (part of) their name, most relevant first.",
		Description: "Find files by name, ranked by relevance: exact name first, then names starting with the query, names containing it, paths containing it, and fuzzy matches (its letters in order). " +
			"Case is ignored. Filters: file_type, exclude_dirs, path. Returns at most max_results (default 50, up to 500) with the total count.",
		Category:    CategorySearch,
		Permissions: []string{PermissionReadFiles},
		Termination: searchTermination,
		Guide: "Use search when you know (part of) a file's name but not where it is: 'registry', 'Dockerfile', 'user_service'. " +
			"file_type keeps one kind of file ('rs', 'ts,tsx'); exclude_dirs skips directories such as 'tests' or 'examples'. " +
			"To search file contents use grep; to match a path pattern use glob.",
		Examples: []Example{
			{"find the tool registry's source", &SearchParams{Query: "registry", FileType: "rs"}},
			{"find configuration files, not in fixtures", &SearchParams{Query: "config", ExcludeDirs: []string{"fixtures", "examples"}, MaxResults: 20}},
		},
		Params: SearchParams{}, Result: SearchResult{},
	}
	// ListDirectorySpec describes list_directory (Tools.ListDirectory).
	ListDirectorySpec = Spec{
		Name:    ListDirectoryName,
		Title:   "List a directory",
		Summary: "List a directory's entries, or every file below it.",
		Description: "List a directory's entries (files with sizes, subdirectories with a trailing /), or with recursive=true every file below it " +
			"(leaving out .gitignore'd files and dependency and build directories). At most max_results entries (default 200, up to 500).",
		Category:    CategorySearch,
		Permissions: []string{PermissionReadFiles},
		Termination: searchTermination,
		Guide:       "Use list_directory to get oriented: the top of the workspace, what a package contains. Prefer glob or search to find specific files in a large tree.",
		Examples: []Example{
			{"the workspace's top level", &ListDirectoryParams{}},
			{"every file under src", &ListDirectoryParams{Path: "src", Recursive: true}},
		},
		Params: ListDirectoryParams{}, Result: ListDirectoryResult{},
	}
	// ReadFileSpec describes read_file (Tools.ReadFile).
	ReadFileSpec = Spec{
		Name:    ReadFileName,
		Title:   "Read a file",
		Summary: "Read a text file's lines with their numbers, whole or a range.",
		Description: "Read a text file's lines, each with its line number, whole or from start_line to end_line (1-based, inclusive). " +
			"One call returns at most 2000 lines or 256 KiB and says where to continue; files over 10 MiB and binary files are refused.",
		Category:    CategoryReading,
		Permissions: []string{PermissionReadFiles},
		Termination: readTermination,
		Guide: "Use read_file before editing a file, and after grep to see a match in full. For a large file read the range around the lines grep found. " +
			"The line numbers shown are the ones edit_lines takes.",
		Examples: []Example{
			{"read a whole file", &ReadFileParams{Path: "src/main.rs"}},
			{"read lines 120 to 180", &ReadFileParams{Path: "src/tools/registry.ts", StartLine: 120, EndLine: 180}},
		},
		Params: ReadFileParams{}, Result: ReadFileResult{},
	}
	// CreateFileSpec describes create_file (Tools.CreateFile).
	CreateFileSpec = Spec{
		Name:             CreateFileName,
		Title:            "Create a file",
		Summary:          "Create a new file with the given content.",
		Description:      "Create a new file with the given content (missing parent directories are created). An existing file is an error unless overwrite=true. Needs the user's approval.",
		Category:         CategoryWriting,
		Permissions:      []string{PermissionCreateFiles, PermissionWriteFiles},
		RequiresApproval: true,
		Approval:         "Approval is asked before the file is created, with its content as a diff. Without an approver the tool refuses.",
		Termination:      writeTermination,
		Guide:            "Use create_file for a new file. To change an existing one prefer replace_in_file or edit_lines, which touch only what changes; overwrite=true rewrites it whole.",
		Examples: []Example{
			{"create a module", &CreateFileParams{Path: "src/util/slug.ts", Content: "export function slug(s: string): string {\n  return s.toLowerCase().replace(/\\W+/g, '-');\n}\n"}},
		},
		Params: CreateFileParams{}, Result: CreateFileResult{},
	}
	// UpdateFileSpec describes update_file (Tools.UpdateFile).
	UpdateFileSpec = Spec{
		Name:    UpdateFileName,
		Title:   "Replace a file's content",
		Summary: "Replace an existing file's whole content.",
		Description: "Replace an existing file's whole content. The file keeps its line endings (CRLF stays CRLF), byte-order mark, final-newline state and mode. " +
			"Needs the user's approval (not when the content is unchanged).",
		Category:         CategoryWriting,
		Permissions:      []string{PermissionReadFiles, PermissionWriteFiles},
		RequiresApproval: true,
		Approval:         writeApproval,
		Termination:      writeTermination,
		Guide:            "Use update_file when most of a file changes. For a few lines use replace_in_file or edit_lines: they cannot drop the parts you did not mean to touch.",
		Examples: []Example{
			{"rewrite a small config file", &UpdateFileParams{Path: ".prettierrc", Content: "{\n  \"semi\": false,\n  \"singleQuote\": true\n}\n"}},
		},
		Params: UpdateFileParams{}, Result: UpdateFileResult{},
	}
	// AppendFileSpec describes append_file (Tools.AppendFile).
	AppendFileSpec = Spec{
		Name:    AppendFileName,
		Title:   "Append to a file",
		Summary: "Append lines at the end of an existing file.",
		Description: "Append lines at the end of an existing file; they start on a new line and take the file's line endings. " +
			"Needs the user's approval.",
		Category:         CategoryWriting,
		Permissions:      []string{PermissionReadFiles, PermissionWriteFiles},
		RequiresApproval: true,
		Approval:         writeApproval,
		Termination:      writeTermination,
		Guide:            "Use append_file to add entries at the end of a file: a .gitignore line, a changelog entry, a test at the end of a test file.",
		Examples: []Example{
			{"ignore a directory", &AppendFileParams{Path: ".gitignore", Content: "coverage/\n"}},
		},
		Params: AppendFileParams{}, Result: AppendFileResult{},
	}
	// ReplaceInFileSpec describes replace_in_file (Tools.ReplaceInFile).
	ReplaceInFileSpec = Spec{
		Name:    ReplaceInFileName,
		Title:   "Find and replace in a file",
		Summary: "Replace every occurrence of a text or regular expression in one file, or preview the diff.",
		Description: "Find and replace in one file: every occurrence of find (plain text, or with is_regex=true a Go RE2 regular expression whose capture groups replace can use as $1, ${name}) is replaced, and the count is returned. " +
			"preview_only=true returns the unified diff without writing. 0 occurrences is a success that changes nothing. Needs the user's approval when the file would change.",
		Category:         CategoryWriting,
		Permissions:      []string{PermissionReadFiles, PermissionWriteFiles},
		RequiresApproval: true,
		Approval:         writeApproval,
		Termination:      editTermination,
		Guide: "Use replace_in_file for targeted changes: rename an identifier in a file, change a value, rewrite calls with a regex. " +
			"Make find specific enough to match only what you mean (include surrounding text); check the count, and preview first when unsure. " +
			"With is_regex, ^ and $ match at each line; write ${1}x, not $1x, when a name character follows a group.",
		Examples: []Example{
			{"rename an identifier", &ReplaceInFileParams{Path: "src/registry.ts", Find: "oldText", Replace: "newText"}},
			{"swap arguments with capture groups, previewing first", &ReplaceInFileParams{Path: "src/api.go", Find: `assertEqual\((\w+), (\w+)\)`, Replace: "assertEqual($2, $1)", IsRegex: true, PreviewOnly: true}},
		},
		Params: ReplaceInFileParams{}, Result: ReplaceInFileResult{},
	}
	// EditLinesSpec describes edit_lines (Tools.EditLines).
	EditLinesSpec = Spec{
		Name:    EditLinesName,
		Title:   "Edit lines by number",
		Summary: "Insert, delete or replace lines of a file by line number.",
		Description: "Edit a file by line numbers (1-based, as read_file shows them): insert content after a line (0 = at the top), or delete or replace the inclusive range start_line to end_line. " +
			"Returns the new total line count; a line out of range is an error giving the valid range. preview_only=true returns the diff without writing. Needs the user's approval when the file would change.",
		Category:         CategoryWriting,
		Permissions:      []string{PermissionReadFiles, PermissionWriteFiles},
		RequiresApproval: true,
		Approval:         writeApproval,
		Termination:      editTermination,
		Guide: "Use edit_lines right after read_file, while the line numbers are fresh; after an edit, lines below it move, so read again before another edit further down. " +
			"Content takes the file's line endings; a final newline in content is optional.",
		Examples: []Example{
			{"insert after line 10", &EditLinesParams{Path: "src/app.py", Operation: OpInsert, Line: Int(10), Content: "import logging\n"}},
			{"delete lines 5 to 8", &EditLinesParams{Path: "src/app.py", Operation: OpDelete, StartLine: 5, EndLine: 8}},
			{"replace lines 10 to 15, previewing first", &EditLinesParams{Path: "src/app.py", Operation: OpReplace, StartLine: 10, EndLine: 15, Content: "def main():\n    run()\n", PreviewOnly: true}},
		},
		Params: EditLinesParams{}, Result: EditLinesResult{},
	}
	// DeleteFileSpec describes delete_file (Tools.DeleteFile).
	DeleteFileSpec = Spec{
		Name:    DeleteFileName,
		Title:   "Delete a file",
		Summary: "Delete one file.",
		Description: "Delete one file (a symbolic link is removed itself, not its target); directories are refused. Destructive: needs the user's approval, " +
			"and is only for files the user wants gone.",
		Category:         CategoryManagement,
		Permissions:      []string{PermissionDeleteFiles},
		RequiresApproval: true,
		Approval:         "Approval is asked before every deletion, with the file's content as a diff. Without an approver the tool refuses.",
		Termination:      writeTermination,
		Guide:            "Use delete_file to remove files that are obsolete or were created by mistake. Check the path first (glob or list_directory); deletion cannot be undone from here.",
		Examples: []Example{
			{"remove an obsolete file", &DeleteFileParams{Path: "src/legacy/old_registry.ts"}},
		},
		Params: DeleteFileParams{}, Result: DeleteFileResult{},
	}
)

// Specs are every tool's spec, grouped by category in prompt order.
var Specs = []Spec{
	GrepSpec, GlobSpec, SearchSpec, ListDirectorySpec,
	ReadFileSpec,
	CreateFileSpec, UpdateFileSpec, AppendFileSpec, ReplaceInFileSpec, EditLinesSpec,
	DeleteFileSpec,
}
