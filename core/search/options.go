// Package search is loupe's one per-file pipeline, the ripgrep-like part
// of every face: it resolves search paths inside a workspace, walks
// directories honouring ignore files, hidden files and globs, picks each
// file's language, reads files (race-free inside the workspace) and
// screens them (size, binary, encoding), runs a cheap prefilter, parses
// through a tree cache and hands each tree to the caller, in parallel,
// delivering results in a stable order: by file path, then by position.
//
// Files lists what a run would look at; Run takes them through the
// pipeline with a caller's Job; Search is Run with a matcher; FindAll
// matches one tree; Reader is the read and screen stage alone; Parse and
// Cache share parsed trees between calls.
package search

import (
	"hash/fnv"
	"runtime"
	"sort"

	"github.com/loupe-dev/loupe/core/language"
)

// DefaultMaxFileSize is the file-size cap the ast_grep tool uses. The CLI
// has none, like ast-grep.
const DefaultMaxFileSize = 10 << 20

// Options selects the files of a search.
type Options struct {
	// Root is the workspace root. When set, every path must resolve inside
	// it (see Workspace.Resolve), symlinks leaving it are never followed,
	// and File.Path is relative to it. When empty, there is no boundary:
	// paths are taken as given (relative to the working directory) and
	// File.Path is spelled from the path argument, as ast-grep prints it.
	Root string
	// Paths are the files and directories to search; none means Root (or
	// "." when Root is empty). A file named here is searched even when an
	// ignore file, a glob or the hidden rule would skip it, but only if
	// its language is known (and is Lang when Lang is set).
	Paths []string
	// Globs include paths matching them and exclude paths matching a glob
	// prefixed with `!`, with gitignore syntax (`*.ts` matches at any
	// depth, `src/*.ts` only under src at the root); the last matching
	// glob wins, and a glob match overrides ignore files and the hidden
	// rule. Globs are matched against File.Path.
	Globs []string
	// Lang, when set, restricts the search to files of that language (by
	// extension or LangGlobs); otherwise each file's language is inferred
	// and files without one are passed over.
	Lang *language.Language
	// Injections searches the code injected in files (language.Inject:
	// <script> and <style> in HTML, Markdown's fenced code blocks, an
	// sgconfig.yml's languageInjections) as ast-grep does: with Lang set,
	// the files of the languages that may hold code of Lang are selected
	// too (HTML files for JavaScript), and only their regions of Lang are
	// searched. Search and core/scan set it; other jobs see the files of
	// Lang alone.
	Injections bool
	// LangGlobs maps a language name to file-name globs that select it,
	// taking precedence over the extension table (ast-grep's
	// languageGlobs).
	LangGlobs map[string][]string
	// Hidden searches hidden files and directories (names starting with
	// "."). A .git directory is never searched.
	Hidden bool
	// NoIgnore turns off the ignore files named by its bits.
	NoIgnore IgnoreKind
	// NodeModules searches node_modules directories, which are skipped by
	// default. (ast-grep only skips them through ignore files; the CLI sets
	// this for parity.)
	NodeModules bool
	// AllFiles selects files whatever their language: a file of no known
	// language is listed with a nil File.Lang instead of being passed over
	// (Lang, when set, still restricts the walk to its files). For callers
	// that read files with Files and Reader rather than parse them; Run
	// passes over files without a language (counted in Stats.NoMatcher).
	AllFiles bool
	// NoRequireGit applies .gitignore files outside a git repository too
	// (ripgrep's --no-require-git); by default they count only inside one.
	NoRequireGit bool
	// MaxDepth, when over 0, is how many directory levels below each
	// search path are walked: a directory deeper than that is not entered
	// and is reported as SkipDepth.
	MaxDepth int
	// Follow follows symbolic links met during the walk. With a Root, a
	// link whose target lies outside it is reported as skipped and never
	// read. Without Follow, links inside directories are passed over; a
	// path named in Paths is always resolved.
	Follow bool
	// MaxFileSize skips larger files (reported as SkipTooLarge); 0 means
	// no cap beyond what a grammar module can address.
	MaxFileSize int64
	// Threads is the number of files processed at once; 0 means
	// GOMAXPROCS.
	Threads int
	// Prefilter, when set, rules a file out before it is parsed.
	Prefilter Prefilter
	// Cache, when set, is where parsed trees are looked up and kept;
	// search.Default is the process-wide one. nil parses every file anew.
	Cache *Cache
	// Recycle says that what a job's Visit returns (for Search, what
	// its render returns) holds nothing of the tree and source it is
	// given: no node, text or byte slice of them. Once Visit returns,
	// a tree no one else holds (neither the cache nor a concurrent
	// request for the same content) is then released (tree.Release) and
	// its source read into again, which spares the allocation and the
	// garbage collection of both. Search, whose values hold trees,
	// ignores it.
	Recycle bool
	// Held, when over 0, bounds the bytes that visited, undelivered
	// values hold, instead of the job's own bound (Job.Held).
	Held int64
	// Shard, when its Count is over 1, keeps only this shard's part of
	// the files (and of the paths passed over), so that Count searches
	// with Index 0..Count-1, in separate processes, together cover every
	// file exactly once. The zero value searches everything.
	Shard Shard
}

// Shard selects one of Count disjoint parts of a file list. Files are
// dealt by size, largest first (ties in path order), each to the part with
// the least work so far (ties to the lower Index), so that every part
// gets about the same work: a split by path hash left one part with the
// few big files that dominate a search. A file's work is its size plus
// shardFileCost. The paths passed over (not searched) go by the 64-bit
// FNV-1a hash of their path modulo Count. Instances that walk the same
// files compute the same parts.
type Shard struct {
	Index, Count int
}

// shardFileCost is the work of a file besides its bytes, in bytes parsed
// in the same time: opening and reading it, the parser's instance, the
// cache, matching and rendering. Counted in bytes alone, typescript's
// lib/*.d.ts split into lib.dom.d.ts with one small file against the 100
// others, the same bytes, and the part with the 100 took 60 to 260 ms
// longer in the npm package's 2-worker pool (the first call of
// js/bench/bench.mjs's .d.ts query); at 16 KiB a file, the two parts
// mostly end within 50 ms of each other.
const shardFileCost = 16 << 10

// keep returns the files of files (sorted by path) that belong to s, in
// the same order.
func (s Shard) keep(files []File) []File {
	if s.Count <= 1 {
		return files
	}
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return files[order[a]].Size > files[order[b]].Size })
	load := make([]int64, s.Count)
	mine := make([]bool, len(files))
	for _, i := range order {
		part := 0
		for k := 1; k < s.Count; k++ {
			if load[k] < load[part] {
				part = k
			}
		}
		load[part] += files[i].Size + shardFileCost
		mine[i] = part == s.Index
	}
	kept := files[:0:0]
	for i, f := range files {
		if mine[i] {
			kept = append(kept, f)
		}
	}
	return kept
}

// keepsPath reports whether a path passed over belongs to s.
func (s Shard) keepsPath(path string) bool {
	if s.Count <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(path))
	return h.Sum64()%uint64(s.Count) == uint64(s.Index)
}

// IgnoreKind is a set of ignore-file kinds (ast-grep's --no-ignore
// values).
type IgnoreKind uint8

// Ignore-file kinds.
const (
	// IgnoreDot is .ignore files.
	IgnoreDot IgnoreKind = 1 << iota
	// IgnoreVCS is .gitignore files and .git/info/exclude.
	IgnoreVCS
	// IgnoreExclude is .git/info/exclude.
	IgnoreExclude
	// IgnoreParent is ignore files in the directories above a search path.
	IgnoreParent
	// IgnoreAll is every kind.
	IgnoreAll = IgnoreDot | IgnoreVCS | IgnoreExclude | IgnoreParent
)

func (o *Options) threads() int {
	if o.Threads > 0 {
		return o.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// File is a file selected for searching.
type File struct {
	// Path is the file's slash-separated path: relative to Options.Root,
	// or, without a Root, the path argument joined with the path below it
	// (a leading "./" dropped), as ast-grep prints it.
	Path string
	// Abs is the absolute file-system path.
	Abs string
	// Lang is the file's language.
	Lang *language.Language
	// Size is the size in bytes when the walk saw the file.
	Size int64
	// Named is set for a file named in Options.Paths, rather than found
	// in a directory.
	Named bool
}

// SkipReason says why a file was not searched.
type SkipReason string

// Reasons for skipping a file.
const (
	SkipBinary     SkipReason = "binary"            // a NUL byte in the first 8 KiB
	SkipTooLarge   SkipReason = "too large"         // over the size cap
	SkipUnreadable SkipReason = "unreadable"        // an I/O or permission error
	SkipEncoding   SkipReason = "bad encoding"      // not valid UTF-8
	SkipLanguage   SkipReason = "language"          // a named file of no (or another) language
	SkipMissing    SkipReason = "not found"         // a named path that does not exist
	SkipOutside    SkipReason = "outside workspace" // a followed symlink leaving the root
	SkipParse      SkipReason = "parse failed"      // the grammar module failed on it
	SkipDepth      SkipReason = "too deep"          // a directory below Options.MaxDepth, not entered
	// SkipEmpty is an empty file, passed over silently as ast-grep does:
	// counted in Stats.Empty, never listed in Stats.Skipped.
	SkipEmpty SkipReason = "empty"
)

// Skipped is a file (or named path) that was not searched.
type Skipped struct {
	Path   string // as File.Path
	Reason SkipReason
	Err    error // the underlying error, if any
}

// String renders s as "path: reason (error)".
func (s Skipped) String() string {
	if s.Err != nil {
		return s.Path + ": " + string(s.Reason) + " (" + s.Err.Error() + ")"
	}
	return s.Path + ": " + string(s.Reason)
}
