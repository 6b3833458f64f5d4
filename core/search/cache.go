package search

import (
	"bytes"
	"container/list"
	"context"
	"hash/maphash"
	"sync"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/tree"
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
// immutable and may be shared.
type Cache struct {
	mu      sync.Mutex
	limit   int64
	size    int64
	entries map[cacheKey]*list.Element
	lru     *list.List // front = most recently used
	stats   CacheStats
}

// CacheStats counts a cache's traffic.
type CacheStats struct {
	Hits, Misses, Evictions int64
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
	return &Cache{limit: limit, entries: map[cacheKey]*list.Element{}, lru: list.New()}
}

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
// source was parsed before (hit reports it), else parsing and keeping it.
// The returned tree's Source is the cached copy, equal to src. src must
// not be modified afterwards.
func (c *Cache) Parse(ctx context.Context, lang *language.Language, src []byte) (t *tree.Tree, hit bool, err error) {
	key := cacheKey{lang: lang.Name(), hash: maphash.Bytes(seed, src), size: len(src)}
	if t := c.get(key, src); t != nil {
		return t, true, nil
	}
	t, err = lang.Parse(ctx, src)
	if err != nil {
		return nil, false, err
	}
	c.put(key, t)
	return t, false, nil
}

func (c *Cache) get(key cacheKey, src []byte) *tree.Tree {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		e := el.Value.(*cacheEntry)
		if bytes.Equal(e.tree.Source(), src) {
			c.lru.MoveToFront(el)
			c.stats.Hits++
			return e.tree
		}
	}
	c.stats.Misses++
	return nil
}

func (c *Cache) put(key cacheKey, t *tree.Tree) {
	cost := t.Bytes()
	c.mu.Lock()
	defer c.mu.Unlock()
	if cost > c.limit {
		return
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
