package analysis

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

// file is one source file of a call's scope. Its content is read, and its
// tree parsed and walked, at most once per call.
type file struct {
	rel string
	abs string
	c   *compiled

	f      search.File // as the pipeline knows it
	loaded bool
	src    []byte
	skip   bool // unreadable, too large or not text
	// unread, when the read failed (permission, a fifo swapped in), says
	// why, to be named in the answer's notes.
	unread *search.Skipped
	facts  *fileFacts
}

// session is the state of one call: the files in scope and the facts found
// so far.
type session struct {
	ctx   context.Context
	req   *request
	ws    *workspace
	main  *compiled
	exts  map[string]*compiled
	files []*file // the scope (Path), sorted
	byAbs map[string]*file

	// reader is the pipeline's read and screen stage, shared with every
	// other face.
	reader *search.Reader

	parsed   int // files parsed by this call
	reused   int // files whose facts an earlier call left in the cache
	skipped  int
	seenSkip map[string]bool // paths counted in skipped by a listing
	// unreadable describes the paths a listing could not read.
	unreadable []string
	stopped    bool // the context ended before the work did
	truncated  bool // maxNodes cut the answer
	untyped    int  // calls of the symbol's name on untyped values, left out (Completeness.Untyped)
	related    int  // references of related members, left out (Completeness.Related)
	notes      []string

	sites      map[string][]site         // callSitesOf, by name
	aliasNames map[string][]string       // exportedAs, by name
	defsByName map[string][]defRef       // callableDefsOf, by name
	bind       *binder                   // import and scope resolution, made when first needed
	targets    map[string]resolvedTarget // resolveTarget, by name and qualifier
}

func newSession(ctx context.Context, req *request) (*session, error) {
	main, err := compileSpec(ctx, req.lang.Name())
	if err != nil {
		return nil, err
	}
	s := &session{ctx: ctx, req: req, ws: req.ws, main: main,
		exts: map[string]*compiled{}, byAbs: map[string]*file{},
		sites: map[string][]site{}, aliasNames: map[string][]string{}, defsByName: map[string][]defRef{}, targets: map[string]resolvedTarget{}}
	// Scope languages first, so the main language's own extensions win.
	for i := len(main.spec.Scope) - 1; i >= 0; i-- {
		c, err := compileSpec(ctx, main.spec.Scope[i])
		if err != nil {
			return nil, err
		}
		for _, e := range c.lang.Extensions() {
			s.exts[strings.ToLower(e)] = c
		}
	}
	for _, e := range main.spec.ExtraExts {
		s.exts[e] = main
	}
	if s.reader, err = search.NewReader(search.Options{Root: req.ws.root, MaxFileSize: req.ws.maxSize}); err != nil {
		return nil, err
	}
	files, skipped, err := s.ws.listFiles(ctx, req.scope, s.exts)
	if err != nil {
		if ctx.Err() != nil {
			s.stopped = true
			return s, nil
		}
		s.close()
		return nil, fmt.Errorf("listing %s: %w", displayPath(req.scopeRel), err)
	}
	s.missed(skipped)
	s.files = s.intern(files)
	return s, nil
}

// maxRepairs bounds the repairs and parses a file's syntax errors get
// (langSpec.Repair).
const maxRepairs = 4

// testHookParsed, set by tests, runs after each file is parsed and
// walked.
var testHookParsed func()

// close releases what the session holds open.
func (s *session) close() {
	if s.reader != nil {
		s.reader.Close()
	}
}

// intern returns the session's own file records for fs, so a file listed
// twice (the scope and a target) is still read and parsed once.
func (s *session) intern(fs []*file) []*file {
	out := make([]*file, 0, len(fs))
	for _, f := range fs {
		if g, ok := s.byAbs[f.abs]; ok {
			out = append(out, g)
			continue
		}
		s.byAbs[f.abs] = f
		out = append(out, f)
	}
	return out
}

// list returns the files under abs, interned.
func (s *session) list(abs string) ([]*file, error) {
	fs, skipped, err := s.ws.listFiles(s.ctx, abs, s.exts)
	if err != nil {
		return nil, err
	}
	s.missed(skipped)
	return s.intern(fs), nil
}

// missed records what a listing could not take in, once per path: a
// skipped file counts in SkippedFiles, and an unreadable path is named in
// the notes, since what it holds is missing from the answer.
func (s *session) missed(skipped []search.Skipped) {
	for _, sk := range skipped {
		if s.seenSkip[sk.Path] {
			continue
		}
		if s.seenSkip == nil {
			s.seenSkip = map[string]bool{}
		}
		s.seenSkip[sk.Path] = true
		s.skipped++
		if sk.Reason == search.SkipUnreadable {
			s.unreadable = append(s.unreadable, sk.String())
		}
	}
}

// done reports whether the call's context has ended, recording it.
func (s *session) done() bool {
	if s.ctx.Err() != nil {
		s.stopped = true
		return true
	}
	return false
}

// judgedPerCheck is how many call sites are judged between two looks
// at the call's context: a file of 40,000 calls stops within a few
// hundred once cancelled.
const judgedPerCheck = 256

// stopAfter counts one more judged site in *n and reports whether the
// call's context has ended, looking every judgedPerCheck sites.
func (s *session) stopAfter(n *int) bool {
	*n++
	return *n%judgedPerCheck == 0 && s.done()
}

// parallel runs fn over fs on all cores through the pipeline's driver,
// stopping early when ctx ends.
func (s *session) parallel(fs []*file, fn func(*file)) {
	if len(fs) == 0 {
		return
	}
	search.Ordered(s.ctx, len(fs), search.OrderedLimits{}, func(ctx context.Context, i int) (struct{}, int64) {
		if ctx.Err() == nil {
			fn(fs[i])
		}
		return struct{}{}, 0
	}, func(int, struct{}) bool { return true })
	s.done()
}

// load reads the content of fs that are not read yet.
func (s *session) load(fs []*file) {
	var todo []*file
	for _, f := range fs {
		if !f.loaded {
			todo = append(todo, f)
		}
	}
	s.parallel(todo, func(f *file) { f.read(s.reader) })
	for _, f := range todo {
		switch {
		case f.loaded && f.unread != nil:
			s.missed([]search.Skipped{*f.unread})
		case f.loaded && f.skip:
			s.skipped++
		}
	}
}

// read reads f through the pipeline's read and screen stage.
func (f *file) read(r *search.Reader) {
	defer func() { f.loaded = true }()
	src, skip := r.Read(f.f)
	if skip != nil && skip.Reason != search.SkipEmpty {
		f.skip = true
		if skip.Reason == search.SkipUnreadable || skip.Reason == search.SkipOutside {
			f.unread = skip
		}
		return
	}
	f.src = src
}

// ensure gives the files of fs their facts: from the facts cache, else
// parsed (through core/search's process-wide tree cache) and walked. Files
// the context's end left unparsed keep no facts; callers read whatever
// facts exist.
func (s *session) ensure(fs []*file) {
	s.load(fs)
	var todo []*file
	for _, f := range fs {
		if f.facts == nil && !f.skip && f.loaded {
			todo = append(todo, f)
		}
	}
	var mu sync.Mutex
	s.parallel(todo, func(f *file) {
		lang := f.c.lang.Name()
		if facts := sharedFacts.get(lang, f.rel, f.src); facts != nil {
			mu.Lock()
			f.facts = facts
			s.reused++
			mu.Unlock()
			return
		}
		t, err := search.Parse(s.ctx, f.c.lang, f.src)
		if err != nil {
			if s.ctx.Err() == nil {
				mu.Lock()
				f.skip = true
				s.skipped++
				mu.Unlock()
			}
			return
		}
		// Each repair may uncover the next body an error hid: a few
		// rounds, each a parse.
		for round := 0; round < maxRepairs && f.c.spec.Repair != nil && t.Root().HasError(); round++ {
			fixed := f.c.spec.Repair(t)
			if fixed == nil {
				break
			}
			t2, err := search.Parse(s.ctx, f.c.lang, fixed)
			if err != nil {
				break
			}
			t = t2 // its offsets and lines are the source's
		}
		facts, err := safeExtract(f.c, f.rel, t)
		if facts != nil {
			facts.src = f.src
		}
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			f.skip = true
			s.skipped++
			s.notes = append(s.notes, err.Error())
			return
		}
		f.facts = facts
		s.parsed++
		sharedFacts.put(lang, facts)
		if testHookParsed != nil {
			testHookParsed()
		}
	})
}

// safeExtract runs extract, turning a failure on an unexpected tree shape
// into an error about that file rather than a crash of the whole call.
func safeExtract(c *compiled, rel string, t *tree.Tree) (f *fileFacts, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("%s skipped: internal error while analysing it: %v", rel, r)
		}
	}()
	return extract(c, rel, t), nil
}

// containing returns the files of fs whose text contains one of names,
// reading them first. An empty name list selects nothing.
func (s *session) containing(fs []*file, names []string) []*file {
	if len(names) == 0 {
		return nil
	}
	s.load(fs)
	needles := make([][]byte, len(names))
	for i, n := range names {
		needles[i] = []byte(n)
	}
	var out []*file
	for _, f := range fs {
		if f.skip || !f.loaded {
			continue
		}
		for _, nd := range needles {
			if bytes.Contains(f.src, nd) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// facts parses the files of fs containing one of names and returns their
// facts.
func (s *session) factsWith(fs []*file, names []string) []*fileFacts {
	cands := s.containing(fs, names)
	s.ensure(cands)
	return collectFacts(cands)
}

func collectFacts(fs []*file) []*fileFacts {
	var out []*fileFacts
	for _, f := range fs {
		if f.facts != nil {
			out = append(out, f.facts)
		}
	}
	return out
}

// fold lowers ASCII letters and drops '_' and '-', so ToolRegistry,
// tool_registry and toolRegistry compare equal.
func fold(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '-':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

// containsFold reports whether hay contains needle (already folded) when
// both are folded.
func containsFold(hay []byte, needle string) bool {
	if needle == "" {
		return true
	}
	first := needle[0]
	for i := 0; i < len(hay); i++ {
		if lower(hay[i]) != first {
			continue
		}
		j, k := i, 0
		for j < len(hay) && k < len(needle) {
			c := hay[j]
			if c == '_' || c == '-' {
				j++
				continue
			}
			if lower(c) != needle[k] {
				break
			}
			j++
			k++
		}
		if k == len(needle) {
			return true
		}
	}
	return false
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// explainEmpty notes why an answer is empty when the reason is plain: no
// file of the language in scope, or a symbol no file even mentions (a
// misspelt name, or the wrong language).
func (s *session) explainEmpty(res *Result) {
	if s.stopped || !res.Empty() {
		return
	}
	var exts []string
	for e := range s.exts {
		exts = append(exts, "."+e)
	}
	sort.Strings(exts)
	switch {
	case len(s.files) == 0:
		s.notes = append(s.notes, fmt.Sprintf("no %s files (%s) in %s", s.req.lang.Name(),
			strings.Join(exts, " "), displayPath(s.req.scopeRel)))
	case s.req.symbol != "" && len(s.containing(s.files, []string{s.req.symbol})) == 0:
		s.notes = append(s.notes, fmt.Sprintf("no %s file in %s mentions %s", s.req.lang.Name(),
			displayPath(s.req.scopeRel), s.req.symbol))
	}
}

// displayPath shows a root-relative path, "." for the root itself.
func displayPath(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}
