package search

import (
	"bytes"
	"container/list"
	"context"
	"fmt"
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/core/treecache"
)

// DefaultCacheBytes is the budget of the process-wide cache, Default.
const DefaultCacheBytes = 512 << 20

// Default is the process-wide tree cache: the ast_grep tool and the MCP
// server pass it in Options.Cache so that a second query over the same
// code does not parse again.
var Default = NewCache(DefaultCacheBytes)

// Parse parses src as lang through the Default cache.
func Parse(ctx context.Context, lang *language.Language, src []byte) (*tree.Tree, error) {
	t, _, err := Default.Parse(ctx, lang, src)
	return t, err
}

// Cache keeps parsed trees keyed by language and content, evicting the
// least recently used when their approximate size (tree.Tree.Bytes)
// passes a budget. It is safe for concurrent use; trees are
// immutable and may be shared. Concurrent requests for the same content
// share one parse (single flight): the others wait for it instead of
// parsing again, which would cost the time and memory of a parse each.
//
// A persistent store (SetStore) may sit under the memory: a tree not in
// memory is then read from the store before it is parsed, and a parsed
// tree is saved there, so that another process (a second `loupe run`, a
// restarted MCP server) finds it. A Cache with a memory budget of 0 keeps
// nothing in memory and only shares concurrent parses and uses the store.
type Cache struct {
	store    atomic.Pointer[treecache.Store]
	mu       sync.Mutex
	limit    int64
	size     int64
	entries  map[cacheKey]*list.Element
	lru      *list.List // front = most recently used
	inflight map[cacheKey]*flight
	stats    CacheStats
}

// flight is a parse in progress that other requests wait for.
type flight struct {
	done    chan struct{}
	tree    *tree.Tree
	err     error
	waiters int // requests that joined the flight (under Cache.mu)
}

// CacheStats counts a cache's traffic: Hits are requests answered from
// memory (or by a concurrent request's parse), Misses the others, of which
// StoreHits were read from the persistent store instead of parsed.
type CacheStats struct {
	Hits, Misses, Evictions int64
	StoreHits               int64
	Entries                 int
	Bytes, Limit            int64
}

type cacheKey struct {
	lang string
	hash uint64
	size int
}

type cacheEntry struct {
	key  cacheKey
	tree *tree.Tree
	cost int64
}

var seed = maphash.MakeSeed()

// NewCache returns a cache holding at most limit bytes of trees.
func NewCache(limit int64) *Cache {
	return &Cache{limit: limit, entries: map[cacheKey]*list.Element{}, lru: list.New(), inflight: map[cacheKey]*flight{}}
}

// SetStore puts the persistent store s under the cache (nil: none). Trees
// read from it are checked as a parse's are; one that does not check out
// is parsed again and saved over it.
func (c *Cache) SetStore(s *treecache.Store) { c.store.Store(s) }

// Store returns the persistent store under the cache, or nil.
func (c *Cache) Store() *treecache.Store { return c.store.Load() }

// SetLimit changes the budget, evicting at once if needed.
func (c *Cache) SetLimit(limit int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.limit = limit
	c.evict()
}

// Stats returns the cache's counters.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Entries, s.Bytes, s.Limit = c.lru.Len(), c.size, c.limit
	return s
}

// Clear drops every tree.
func (c *Cache) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = map[cacheKey]*list.Element{}
	c.lru.Init()
	c.size = 0
}

// Parse returns the tree of src in lang, from the cache when an equal
// source was parsed before (hit reports it; a parse shared with a
// concurrent request counts as a hit too), else parsing and keeping it.
// The returned tree's Source is the cached copy, equal to src. src must
// not be modified afterwards. A request waiting for another's parse stops
// when its own ctx is done, and parses itself if that parse failed.
func (c *Cache) Parse(ctx context.Context, lang *language.Language, src []byte) (t *tree.Tree, hit bool, err error) {
	t, hit, _, err = c.acquire(ctx, lang, src)
	return t, hit, err
}

// acquire is Parse, also reporting whether the tree is owned: neither
// kept in the cache nor handed to a concurrent request, so that its
// caller may release it (see Options.Recycle).
func (c *Cache) acquire(ctx context.Context, lang *language.Language, src []byte) (t *tree.Tree, hit, owned bool, err error) {
	key := cacheKey{lang: lang.Name(), hash: maphash.Bytes(seed, src), size: len(src)}
	for {
		c.mu.Lock()
		if t := c.get(key, src); t != nil {
			c.stats.Hits++
			c.mu.Unlock()
			return t, true, false, nil
		}
		f, waiting := c.inflight[key]
		if waiting {
			f.waiters++
		} else {
			f = &flight{done: make(chan struct{})}
			c.inflight[key] = f
			c.stats.Misses++
		}
		c.mu.Unlock()
		if !waiting {
			var stored bool
			f.tree, stored, f.err = c.parse(ctx, lang, src)
			c.mu.Lock()
			// No request joins the flight once it is out of inflight.
			delete(c.inflight, key)
			kept := f.err == nil && c.put(key, f.tree)
			if stored {
				c.stats.StoreHits++
			}
			owned := f.err == nil && !kept && f.waiters == 0
			c.mu.Unlock()
			close(f.done)
			return f.tree, stored, owned, f.err
		}
		select {
		case <-f.done:
		case <-ctx.Done():
			return nil, false, false, fmt.Errorf("parse: %w", ctx.Err())
		}
		if f.err == nil && bytes.Equal(f.tree.Source(), src) {
			c.mu.Lock()
			c.stats.Hits++
			c.mu.Unlock()
			return f.tree, true, false, nil
		}
		// The shared parse failed (its caller was cancelled, say) or was
		// of other content with the same hash: look again.
	}
}

// parse reads src's tree from the store, or parses it and saves it there;
// stored reports a tree read from the store.
func (c *Cache) parse(ctx context.Context, lang *language.Language, src []byte) (t *tree.Tree, stored bool, err error) {
	st := c.store.Load()
	if st == nil {
		t, err = parseGated(ctx, lang, src)
		return t, false, err
	}
	key := treecache.KeyOf(lang.Info().SHA256, src)
	names, err := lang.Names(ctx)
	if err != nil {
		return nil, false, err
	}
	if t, ok := st.Load(key, src, names); ok {
		return t, true, nil
	}
	if t, err = parseGated(ctx, lang, src); err != nil {
		return nil, false, err
	}
	// A store that cannot be written costs later processes a parse, not
	// this one its result; the store counts the failure.
	_ = st.Save(key, len(src), t.Nodes())
	return t, false, nil
}

// largeSource is the size from which a source's parse takes the large
// parse's turn (largeParses): a parser's memory grows with its input, some
// twenty times it for Go, and two such parses at once made a process's
// peak. Over Go's standard library, whose three largest files (3, 1.9 and
// 0.8 MB, generated code) sit in one folder and came to the workers
// together, one at a time took a cold scan's peak memory from 169 to
// 154-156 MB (ast-grep's: 114 MB) for 0.7 s more of 15.
const largeSource = 1 << 20

// largeParses holds the turn of the one large parse that may run at once.
var largeParses = make(chan struct{}, 1)

// parseGated parses src, waiting first, when it is large, for the parses
// of other large sources to end, or for ctx to.
func parseGated(ctx context.Context, lang *language.Language, src []byte) (*tree.Tree, error) {
	leave, err := enterParse(ctx, len(src))
	if err != nil {
		return nil, err
	}
	defer leave()
	return lang.Parse(ctx, src)
}

// enterParse waits for the turn of a parse of n bytes of source (none
// when n is under largeSource) and returns what gives it back.
func enterParse(ctx context.Context, n int) (leave func(), err error) {
	if n < largeSource {
		return func() {}, nil
	}
	select {
	case largeParses <- struct{}{}:
		return func() { <-largeParses }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("parse: %w", ctx.Err())
	}
}

// get returns the cached tree of src; c.mu is held.
func (c *Cache) get(key cacheKey, src []byte) *tree.Tree {
	if el, ok := c.entries[key]; ok {
		e := el.Value.(*cacheEntry)
		if bytes.Equal(e.tree.Source(), src) {
			c.lru.MoveToFront(el)
			return e.tree
		}
	}
	return nil
}

// put keeps t, unless it is over the budget, and reports whether it
// did; c.mu is held.
func (c *Cache) put(key cacheKey, t *tree.Tree) bool {
	cost := t.Bytes()
	if cost > c.limit {
		return false
	}
	if el, ok := c.entries[key]; ok {
		// Another worker parsed the same content meanwhile, or a hash
		// collision: keep the newer tree.
		old := el.Value.(*cacheEntry)
		c.size -= old.cost
		old.tree, old.cost = t, cost
		c.size += cost
		c.lru.MoveToFront(el)
	} else {
		c.entries[key] = c.lru.PushFront(&cacheEntry{key: key, tree: t, cost: cost})
		c.size += cost
	}
	c.evict()
	return true
}

func (c *Cache) evict() {
	for c.size > c.limit && c.lru.Len() > 0 {
		el := c.lru.Back()
		e := el.Value.(*cacheEntry)
		c.lru.Remove(el)
		delete(c.entries, e.key)
		c.size -= e.cost
		c.stats.Evictions++
	}
}
