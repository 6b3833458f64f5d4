package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/tools/filetools"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

// The agent file tools (package filetools), each declared once. Their
// parameters and results keep the snake_case names agent hosts give these
// tools.

// Termination guidance shared by the file tools of a kind.
const (
	searchTermination = "Set terminate=false when the results need further processing (reading the files found, editing them, another narrower search); " +
		"set terminate=true only when the results themselves answer the user and you are presenting them. When a result is truncated, refine the search rather than raising max_results, or page on with the offset it gives when every item is needed."
	readTermination = "Set terminate=false when the content feeds further work (an edit, a search, an answer still to compose); " +
		"set terminate=true when showing the content is the answer to the user."
	editTermination = "When unsure of the effect, call with preview_only=true first and check the diff, then call again without it. " +
		"After a successful edit set terminate=true if it completes the user's request; set terminate=false if it needs verifying (read_file, grep, running tests) or more edits follow."
	writeTermination = "After a successful write set terminate=true if the file completes the user's request; set terminate=false to verify it (read_file) or to continue with more changes. " +
		"A refusal (no approval, file exists, not found) is not a reason to stop: read the message and adjust."
)

// writeApproval is the approval rule of the editing tools, as their
// descriptions state it.
const writeApproval = "Writing asks the user's approval; a preview or no change needs none."

// openFiles binds a file tool to cfg's workspace: its handler is the
// filetools method m.
func openFiles[P, R any](m func(*filetools.Tools, context.Context, P) (R, error)) func(Config) (func(context.Context, P) (R, error), error) {
	return func(cfg Config) (func(context.Context, P) (R, error), error) {
		ft, err := filetools.New(filetools.Config{Workspace: cfg.Workspace, Approver: cfg.Approver, FileTimeout: cfg.GrepFileTimeout})
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, p P) (R, error) { return m(ft, ctx, p) }, nil
	}
}

// named prefixes each of a tool's warnings with its name, for a host's
// log.
func named(tool string, warnings []string) []string {
	out := make([]string, len(warnings))
	for i, w := range warnings {
		out[i] = tool + ": " + w
	}
	return out
}

// wrote is the file a call wrote: path when it did, else none.
func wrote(path string, did bool) string {
	if !did {
		return ""
	}
	return path
}

// always is the requires-approval rule of a tool whose every call writes.
func always[P any](P) bool { return true }

var grepTool = declare(decl[filetools.GrepParams, *filetools.GrepResult, grepOutput]{
	Name:    filetools.GrepName,
	Title:   "Search file contents",
	Summary: "Search file contents with a regular expression and get matching lines with context.",
	Description: "Search file contents with a regular expression (Go RE2: no lookaround or backreferences), line by line. " +
		"Returns matching lines with file, line number and context, at most max_results (default 50) with the total count. " +
		"Skips .gitignore'd, binary and 1 MiB+ files, dependency and build directories (node_modules, dist, target, ...) and directories over 10 levels deep, with warnings.",
	Guide: "Use grep to find where something is used or defined by its text: a function name, an error message, a config key, TODO comments. " +
		"Important options: file_type narrows to extensions or a language ('ts', 'rs,toml', 'python'); case_sensitive=false ignores case; " +
		"literal=true searches text with regex characters as written; context_lines sets the lines shown around each match; path limits the search to a directory or file. " +
		"For code shapes (calls, classes) ast_grep is more precise; to find files by name use search or glob.",
	Category:    toolspec.SearchDiscovery,
	Permissions: toolspec.ReadFiles,
	Termination: searchTermination,
	Examples: []example[filetools.GrepParams]{
		{"find an async function named like execute in Rust", filetools.GrepParams{Pattern: "async fn.*execute", FileType: "rs"}},
		{"find a message regardless of case, with more context", filetools.GrepParams{Pattern: "connection refused", CaseSensitive: filetools.Bool(false), ContextLines: filetools.Int(4)}},
		{"find a literal call with parentheses in one directory", filetools.GrepParams{Pattern: "registry.register(", Literal: true, Path: "src/tools"}},
	},
	Open:       openFiles((*filetools.Tools).Grep),
	Structured: compactGrep,
	Warnings:   func(r *filetools.GrepResult) []string { return named(filetools.GrepName, r.Warnings) },
})

var globTool = declare(decl[filetools.GlobParams, *filetools.GlobResult, globOutput]{
	Name:    filetools.GlobName,
	Title:   "Find files by pattern",
	Summary: "List files whose paths match a glob pattern such as **/*.tsx.",
	Description: "List files whose paths match a glob pattern (** spans directories, * and ? stay within one, {a,b}, [a-z]), sorted alphabetically, " +
		"leaving out .gitignore'd files, dependency and build directories (node_modules, dist, build, target, .git, caches) and exclude entries. " +
		"At most max_results (default 100) with the total count.",
	Guide: "Use glob to list files of a kind or in a place: all TypeScript React components, test files under src, configuration files. " +
		"Patterns are relative to path (default the workspace root): '*.json' matches only at the top, '**/*.json' at any depth. " +
		"exclude adds names or paths to leave out ('fixtures', '*.min.js'); a pattern or path that starts inside a default exclusion (node_modules/react/**) searches it.",
	Category:    toolspec.SearchDiscovery,
	Permissions: toolspec.ReadFiles,
	Termination: searchTermination,
	Examples: []example[filetools.GlobParams]{
		{"all TypeScript React files", filetools.GlobParams{Pattern: "**/*.tsx"}},
		{"test files under src, at any depth", filetools.GlobParams{Pattern: "src/**/*.test.ts"}},
		{"JavaScript files without generated ones", filetools.GlobParams{Pattern: "**/*.js", Exclude: []string{"node_modules", "dist", "*.min.js"}}},
	},
	Open: openFiles((*filetools.Tools).Glob),
	Structured: func(r *filetools.GlobResult) globOutput {
		out := globOutput{TotalFiles: r.TotalFiles, Truncated: r.Truncated, Message: clipN(r.Message, maxNote),
			Suggestion: clipN(r.Suggestion, maxNote), Warnings: clipAll(r.Warnings), Files: []string{}, NextOffset: r.NextOffset}
		out.Files, out.Omitted, out.NextOffset = boundPage(out, r.Files, r.Offset, r.NextOffset)
		return out
	},
	Warnings: func(r *filetools.GlobResult) []string { return named(filetools.GlobName, r.Warnings) },
})

var searchTool = declare(decl[filetools.SearchParams, *filetools.SearchResult, searchOutput]{
	Name:    filetools.SearchName,
	Title:   "Find files by name",
	Summary: "Find files by (part of) their name, most relevant first.",
	Description: "Find files by name, ranked by relevance: exact name first, then names starting with the query, names containing it, paths containing it, and fuzzy matches (its letters in order). " +
		"Case is ignored. At most max_results (default 50) with the total count.",
	Guide: "Use search when you know (part of) a file's name but not where it is: 'registry', 'Dockerfile', 'user_service'. " +
		"file_type keeps one kind of file ('rs', 'ts,tsx'); exclude_dirs skips directories such as 'tests' or 'examples'. " +
		"To search file contents use grep; to match a path pattern use glob.",
	Category:    toolspec.SearchDiscovery,
	Permissions: toolspec.ReadFiles,
	Termination: searchTermination,
	Examples: []example[filetools.SearchParams]{
		{"find the tool registry's source", filetools.SearchParams{Query: "registry", FileType: "rs"}},
		{"find configuration files, not in fixtures", filetools.SearchParams{Query: "config", ExcludeDirs: []string{"fixtures", "examples"}, MaxResults: 20}},
	},
	Open: openFiles((*filetools.Tools).Search),
	Structured: func(r *filetools.SearchResult) searchOutput {
		out := searchOutput{TotalMatches: r.TotalMatches, Truncated: r.Truncated, Message: clipN(r.Message, maxNote),
			Suggestion: clipN(r.Suggestion, maxNote), Warnings: clipAll(r.Warnings), Results: []filetools.SearchHit{}, NextOffset: r.NextOffset}
		out.Results, out.Omitted, out.NextOffset = boundPage(out, r.Results, r.Offset, r.NextOffset)
		return out
	},
	Warnings: func(r *filetools.SearchResult) []string { return named(filetools.SearchName, r.Warnings) },
})

var listDirectoryTool = declare(decl[filetools.ListDirectoryParams, *filetools.ListDirectoryResult, listOutput]{
	Name:    filetools.ListDirectoryName,
	Title:   "List a directory",
	Summary: "List a directory's entries, or every file below it.",
	Description: "List a directory's entries (files with sizes, subdirectories with a trailing /), or with recursive=true every file below it " +
		"(leaving out .gitignore'd files and dependency and build directories). At most max_results entries (default 200, up to 500).",
	Guide:       "Use list_directory to get oriented: the top of the workspace, what a package contains. Prefer glob or search to find specific files in a large tree.",
	Category:    toolspec.SearchDiscovery,
	Permissions: toolspec.ReadFiles,
	Termination: searchTermination,
	Examples: []example[filetools.ListDirectoryParams]{
		{"the workspace's top level", filetools.ListDirectoryParams{}},
		{"every file under src", filetools.ListDirectoryParams{Path: "src", Recursive: true}},
	},
	Open: openFiles((*filetools.Tools).ListDirectory),
	Structured: func(r *filetools.ListDirectoryResult) listOutput {
		out := listOutput{Path: r.Path, TotalEntries: r.TotalEntries, Truncated: r.Truncated, Message: clipN(r.Message, maxNote),
			Warnings: clipAll(r.Warnings), Entries: []filetools.Entry{}, NextOffset: r.NextOffset}
		out.Entries, out.Omitted, out.NextOffset = boundPage(out, r.Entries, r.Offset, r.NextOffset)
		return out
	},
	Warnings: func(r *filetools.ListDirectoryResult) []string { return named(filetools.ListDirectoryName, r.Warnings) },
})

var readFileTool = declare(decl[filetools.ReadFileParams, *filetools.ReadFileResult, readOutput]{
	Name:        filetools.ReadFileName,
	Title:       "Read a file",
	Summary:     "Read a text file's lines with their numbers, whole or a range.",
	Description: "Reads a text file's numbered lines, whole or start_line to end_line (1-based, inclusive): at most 2000 lines or 256 KiB a call, saying where to continue; binary files are refused.",
	Guide: "Use read_file before editing a file, and after grep to see a match in full. For a large file read the range around the lines grep found. " +
		"The line numbers shown are the ones edit_lines takes.",
	Category:    toolspec.FileReading,
	Permissions: toolspec.ReadFiles,
	Termination: readTermination,
	Examples: []example[filetools.ReadFileParams]{
		{"read a whole file", filetools.ReadFileParams{Path: "src/main.rs"}},
		{"read lines 120 to 180", filetools.ReadFileParams{Path: "src/tools/registry.ts", StartLine: 120, EndLine: 180}},
	},
	Open:       openFiles((*filetools.Tools).ReadFile),
	Structured: compactRead,
	Warnings:   func(r *filetools.ReadFileResult) []string { return named(filetools.ReadFileName, r.Warnings) },
})

var createFileTool = declare(decl[filetools.CreateFileParams, *filetools.CreateFileResult, filetools.CreateFileResult]{
	Name:        filetools.CreateFileName,
	Title:       "Create a file",
	Summary:     "Create a new file with the given content.",
	Description: "Creates a file and any missing parent directories; an existing file is an error unless overwrite=true. Asks the user's approval first.",
	Guide:       "Use create_file for a new file. To change an existing one prefer replace_in_file or edit_lines, which touch only what changes; overwrite=true rewrites it whole.",
	Category:    toolspec.FileWriting,
	Permissions: toolspec.CreateFiles | toolspec.WriteFiles,
	// Every call creates or overwrites a file.
	NeedsApproval: always[filetools.CreateFileParams],
	Termination:   writeTermination,
	Examples: []example[filetools.CreateFileParams]{
		{"create a module", filetools.CreateFileParams{Path: "src/util/slug.ts", Content: "export function slug(s: string): string {\n  return s.toLowerCase().replace(/\\W+/g, '-');\n}\n"}},
	},
	Open:       openFiles((*filetools.Tools).CreateFile),
	Wrote:      func(r *filetools.CreateFileResult) string { return wrote(r.Path, r.Created || r.Overwritten) },
	Structured: deref[filetools.CreateFileResult],
})

var updateFileTool = declare(decl[filetools.UpdateFileParams, *filetools.UpdateFileResult, filetools.UpdateFileResult]{
	Name:          filetools.UpdateFileName,
	Title:         "Replace a file's content",
	Summary:       "Replace an existing file's whole content.",
	Description:   "Replaces an existing file's whole content, keeping its line endings, BOM, final newline and mode. " + writeApproval,
	Guide:         "Use update_file when most of a file changes. For a few lines use replace_in_file or edit_lines: they cannot drop the parts you did not mean to touch.",
	Category:      toolspec.FileWriting,
	Permissions:   toolspec.ReadFiles | toolspec.WriteFiles,
	NeedsApproval: always[filetools.UpdateFileParams],
	Termination:   writeTermination,
	Examples: []example[filetools.UpdateFileParams]{
		{"rewrite a small config file", filetools.UpdateFileParams{Path: ".prettierrc", Content: "{\n  \"semi\": false,\n  \"singleQuote\": true\n}\n"}},
	},
	Open:       openFiles((*filetools.Tools).UpdateFile),
	Wrote:      func(r *filetools.UpdateFileResult) string { return wrote(r.Path, r.Changed) },
	Structured: deref[filetools.UpdateFileResult],
})

var appendFileTool = declare(decl[filetools.AppendFileParams, *filetools.AppendFileResult, filetools.AppendFileResult]{
	Name:          filetools.AppendFileName,
	Title:         "Append to a file",
	Summary:       "Append lines at the end of an existing file.",
	Description:   "Appends content at the end of an existing file, on a new line. " + writeApproval,
	Guide:         "Use append_file to add entries at the end of a file: a .gitignore line, a changelog entry, a test at the end of a test file.",
	Category:      toolspec.FileWriting,
	Permissions:   toolspec.ReadFiles | toolspec.WriteFiles,
	Additive:      true,
	NeedsApproval: always[filetools.AppendFileParams],
	Termination:   writeTermination,
	Examples: []example[filetools.AppendFileParams]{
		{"ignore a directory", filetools.AppendFileParams{Path: ".gitignore", Content: "coverage/\n"}},
	},
	Open:       openFiles((*filetools.Tools).AppendFile),
	Wrote:      func(r *filetools.AppendFileResult) string { return r.Path },
	Structured: deref[filetools.AppendFileResult],
})

var replaceInFileTool = declare(decl[filetools.ReplaceInFileParams, *filetools.ReplaceInFileResult, filetools.ReplaceInFileResult]{
	Name:    filetools.ReplaceInFileName,
	Title:   "Find and replace in a file",
	Summary: "Replace every occurrence of a text or regular expression in one file, or preview the diff.",
	Description: "Replaces every occurrence of find (text or Go RE2 regex) in one file and returns the count; 0 is a success. " +
		"preview_only=true returns the diff without writing. " + writeApproval,
	Guide: "Use replace_in_file for targeted changes: rename an identifier in a file, change a value, rewrite calls with a regex. " +
		"Make find specific enough to match only what you mean (include surrounding text); check the count, and preview first when unsure. " +
		"With is_regex, ^ and $ match at each line; write ${1}x, not $1x, when a name character follows a group.",
	Category:      toolspec.FileWriting,
	Permissions:   toolspec.ReadFiles | toolspec.WriteFiles,
	NeedsApproval: filetools.ReplaceInFileParams.MayWrite,
	Termination:   editTermination,
	Examples: []example[filetools.ReplaceInFileParams]{
		{"rename an identifier", filetools.ReplaceInFileParams{Path: "src/registry.ts", Find: "oldText", Replace: "newText"}},
		{"swap arguments with capture groups, previewing first", filetools.ReplaceInFileParams{Path: "src/api.go", Find: `assertEqual\((\w+), (\w+)\)`, Replace: "assertEqual($2, $1)", IsRegex: true, PreviewOnly: true}},
	},
	Open:  openFiles((*filetools.Tools).ReplaceInFile),
	Wrote: func(r *filetools.ReplaceInFileResult) string { return wrote(r.Path, r.Applied) },
	Structured: func(r *filetools.ReplaceInFileResult) filetools.ReplaceInFileResult {
		out := *r
		out.Diff = clipLines(r.Diff, maxDiffBytes)
		return out
	},
})

var editLinesTool = declare(decl[filetools.EditLinesParams, *filetools.EditLinesResult, filetools.EditLinesResult]{
	Name:    filetools.EditLinesName,
	Title:   "Edit lines by number",
	Summary: "Insert, delete or replace lines of a file by line number.",
	Description: "Edits a file by the line numbers read_file shows: insert after a line, or delete or replace start_line to end_line. " +
		"Returns the new line count; preview_only=true returns the diff without writing. " + writeApproval,
	Guide: "Use edit_lines right after read_file, while the line numbers are fresh; after an edit, lines below it move, so read again before another edit further down. " +
		"Content takes the file's line endings; a final newline in content is optional.",
	Category:      toolspec.FileWriting,
	Permissions:   toolspec.ReadFiles | toolspec.WriteFiles,
	NeedsApproval: filetools.EditLinesParams.MayWrite,
	Termination:   editTermination,
	Examples: []example[filetools.EditLinesParams]{
		{"insert after line 10", filetools.EditLinesParams{Path: "src/app.py", Operation: filetools.OpInsert, Line: filetools.Int(10), Content: "import logging\n"}},
		{"delete lines 5 to 8", filetools.EditLinesParams{Path: "src/app.py", Operation: filetools.OpDelete, StartLine: 5, EndLine: 8}},
		{"replace lines 10 to 15, previewing first", filetools.EditLinesParams{Path: "src/app.py", Operation: filetools.OpReplace, StartLine: 10, EndLine: 15, Content: "def main():\n    run()\n", PreviewOnly: true}},
	},
	Open:  openFiles((*filetools.Tools).EditLines),
	Wrote: func(r *filetools.EditLinesResult) string { return wrote(r.Path, r.Applied) },
	Structured: func(r *filetools.EditLinesResult) filetools.EditLinesResult {
		out := *r
		out.Diff = clipLines(r.Diff, maxDiffBytes)
		return out
	},
})

var deleteFileTool = declare(decl[filetools.DeleteFileParams, *filetools.DeleteFileResult, filetools.DeleteFileResult]{
	Name:          filetools.DeleteFileName,
	Title:         "Delete a file",
	Summary:       "Delete one file.",
	Description:   "Deletes one file (a symlink itself, not its target); directories are refused. Destructive: asks the user's approval every time.",
	Guide:         "Use delete_file to remove files that are obsolete or were created by mistake. Check the path first (glob or list_directory); deletion cannot be undone from here.",
	Category:      toolspec.FileManagement,
	Permissions:   toolspec.DeleteFiles,
	NeedsApproval: always[filetools.DeleteFileParams],
	Termination:   writeTermination,
	Examples: []example[filetools.DeleteFileParams]{
		{"remove an obsolete file", filetools.DeleteFileParams{Path: "src/legacy/old_registry.ts"}},
	},
	Open:       openFiles((*filetools.Tools).DeleteFile),
	Wrote:      func(r *filetools.DeleteFileResult) string { return wrote(r.Path, r.Deleted) },
	Structured: deref[filetools.DeleteFileResult],
})

// deref is the structured output of a result that is small by nature (a
// path, counts, a one-line message): the result itself.
func deref[R any](r *R) R { return *r }

// maxDiffBytes bounds the diff of an edit's structured output; the text
// output carries it whole.
const maxDiffBytes = 16 << 10

// clipLines cuts s after the last whole line within max bytes and says
// how many lines were left out.
func clipLines(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := strings.LastIndexByte(s[:max], '\n') + 1
	return s[:cut] + fmt.Sprintf("… (%d more lines)\n", strings.Count(s[cut:], "\n")+1)
}

// grepOutput is grep's structured output: the matching lines without
// their context lines, clipped, within MaxStructuredBytes.
type grepOutput struct {
	Matches          []grepLine `json:"matches" desc:"The matching lines, by file then line, as many as fit the size bound (omitted counts the rest; the text lists every match with its context)."`
	TotalMatches     int        `json:"total_matches" desc:"Every matching line, including those cut by max_results."`
	FilesWithMatches int        `json:"files_with_matches"`
	FilesSearched    int        `json:"files_searched"`
	Truncated        bool       `json:"truncated" desc:"Matching lines were left out of this page."`
	Omitted          int        `json:"omitted,omitempty" desc:"Matches of the text's page left out of this structured form by its size bound."`
	NextOffset       int        `json:"next_offset,omitempty" desc:"The offset of the match after the last one listed here, when there are more."`
	Message          string     `json:"message"`
	Suggestion       string     `json:"suggestion,omitempty" desc:"How to refine a truncated or empty search."`
	Warnings         []string   `json:"warnings,omitempty" desc:"What was passed over: large, binary or abandoned files, directories below the depth limit."`
}

// grepLine is one match of grepOutput.
type grepLine struct {
	File   string `json:"file" desc:"Path relative to the workspace root."`
	Line   int    `json:"line" desc:"1-based."`
	Column int    `json:"column" desc:"1-based, in characters, where the first match on the line starts."`
	Text   string `json:"text" desc:"The line, clipped."`
}

func compactGrep(r *filetools.GrepResult) grepOutput {
	lines := make([]grepLine, len(r.Matches))
	for i, m := range r.Matches {
		lines[i] = grepLine{File: m.File, Line: m.Line, Column: m.Column, Text: clip(m.Text)}
	}
	out := grepOutput{TotalMatches: r.TotalMatches, FilesWithMatches: r.FilesWithMatches, FilesSearched: r.FilesSearched,
		Truncated: r.Truncated, Message: clipN(r.Message, maxNote), Suggestion: clipN(r.Suggestion, maxNote),
		Warnings: clipAll(r.Warnings), Matches: []grepLine{}, NextOffset: r.NextOffset}
	out.Matches, out.Omitted, out.NextOffset = boundPage(out, lines, r.Offset, r.NextOffset)
	return out
}

// globOutput is glob's structured output.
type globOutput struct {
	Files      []string `json:"files" desc:"Matching files relative to the workspace root, sorted, as many as fit the size bound."`
	TotalFiles int      `json:"total_files" desc:"Every matching file, including those cut by max_results."`
	Truncated  bool     `json:"truncated" desc:"Files were left out of this page."`
	Omitted    int      `json:"omitted,omitempty" desc:"Files of the text's page left out of this structured form by its size bound."`
	NextOffset int      `json:"next_offset,omitempty" desc:"The offset of the file after the last one listed here, when there are more."`
	Message    string   `json:"message"`
	Suggestion string   `json:"suggestion,omitempty"`
	Warnings   []string `json:"warnings,omitempty"`
}

// searchOutput is search's structured output.
type searchOutput struct {
	Results      []filetools.SearchHit `json:"results" desc:"Matching files, most relevant first, as many as fit the size bound."`
	TotalMatches int                   `json:"total_matches" desc:"Every matching file, including those cut by max_results."`
	Truncated    bool                  `json:"truncated" desc:"Files were left out of this page."`
	Omitted      int                   `json:"omitted,omitempty" desc:"Files of the text's page left out of this structured form by its size bound."`
	NextOffset   int                   `json:"next_offset,omitempty" desc:"The offset of the file after the last one listed here, when there are more."`
	Message      string                `json:"message"`
	Suggestion   string                `json:"suggestion,omitempty"`
	Warnings     []string              `json:"warnings,omitempty"`
}

// listOutput is list_directory's structured output.
type listOutput struct {
	Path         string            `json:"path" desc:"The directory, relative to the workspace root."`
	Entries      []filetools.Entry `json:"entries" desc:"Entries sorted by name, as many as fit the size bound."`
	TotalEntries int               `json:"total_entries"`
	Truncated    bool              `json:"truncated" desc:"Entries were left out of this page."`
	Omitted      int               `json:"omitted,omitempty" desc:"Entries of the text's page left out of this structured form by its size bound."`
	NextOffset   int               `json:"next_offset,omitempty" desc:"The offset of the entry after the last one listed here, when there are more."`
	Message      string            `json:"message"`
	Warnings     []string          `json:"warnings,omitempty"`
}

// readOutput is read_file's structured output: the lines read, as many
// whole lines as fit MaxStructuredBytes (a longer range is truncated
// there, with next_start_line after the last line it holds).
type readOutput struct {
	Path          string   `json:"path"`
	Content       string   `json:"content" desc:"The lines from start_line to end_line with their line breaks."`
	StartLine     int      `json:"start_line"`
	EndLine       int      `json:"end_line" desc:"The last line content holds (start_line-1 when it holds none)."`
	TotalLines    int      `json:"total_lines"`
	Truncated     bool     `json:"truncated" desc:"The range asked for goes on after end_line: read again from next_start_line."`
	NextStartLine int      `json:"next_start_line,omitempty"`
	Warnings      []string `json:"warnings,omitempty"`
}

func compactRead(r *filetools.ReadFileResult) readOutput {
	out := readOutput{Path: r.Path, StartLine: r.StartLine, EndLine: r.EndLine, TotalLines: r.TotalLines,
		Truncated: r.Truncated, NextStartLine: r.NextStartLine, Warnings: clipAll(r.Warnings)}
	rest, err := json.Marshal(out)
	if err != nil {
		return out
	}
	// Keep the whole lines whose JSON (escaped, without the quotes) fits
	// in what is left once the rest is counted, with room for the fields
	// a cut changes or adds (end_line, next_start_line, a warning).
	budget, used, cut, lines := MaxStructuredBytes-len(rest)-256, 0, 0, 0
	for cut < len(r.Content) {
		end := strings.IndexByte(r.Content[cut:], '\n') + 1
		if end == 0 {
			end = len(r.Content) - cut
		}
		esc, _ := json.Marshal(r.Content[cut : cut+end])
		if used+len(esc)-2 > budget {
			break
		}
		used += len(esc) - 2
		cut += end
		lines++
	}
	out.Content = r.Content[:cut]
	if cut < len(r.Content) {
		if lines == 0 {
			// Not even the first line fits: its start is kept (at worst
			// 6 bytes a character escaped); the text output has it whole.
			first, _, _ := strings.Cut(r.Content, "\n")
			if rs := []rune(first); len(rs) > budget/6 {
				first = string(rs[:budget/6])
			}
			out.Content = first
			out.Warnings = append(out.Warnings, fmt.Sprintf("line %d is cut here; the text output has it whole", r.StartLine))
			lines = 1
		}
		out.EndLine = r.StartLine + lines - 1
		out.Truncated, out.NextStartLine = true, out.EndLine+1
	}
	return out
}
