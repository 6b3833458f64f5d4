package analysis

import (
	"bytes"
	"container/list"
	"hash/maphash"
	"sync"
	"unsafe"
)

// factsCacheBytes is the budget of the process-wide facts cache.
const factsCacheBytes = 256 << 20

// factsCache keeps the facts of files across calls, keyed by language and
// content, least recently used first out. Facts are far smaller than trees,
// so an agent's next question over a large repository reuses them even when
// core/search's tree cache has evicted the trees. Cached facts are never
// modified; a file at another path with the same content gets a copy that
// differs only in its path.
type factsCache struct {
	mu      sync.Mutex
	limit   int64
	size    int64
	entries map[factsKey]*list.Element
	lru     *list.List // front = most recently used
}

type factsKey struct {
	lang string
	hash uint64
	size int
}

type factsEntry struct {
	key   factsKey
	facts *fileFacts
	cost  int64
}

var factsSeed = maphash.MakeSeed()

// sharedFacts is the process-wide facts cache.
var sharedFacts = newFactsCache(factsCacheBytes)

func newFactsCache(limit int64) *factsCache {
	return &factsCache{limit: limit, entries: map[factsKey]*list.Element{}, lru: list.New()}
}

func keyOf(lang string, src []byte) factsKey {
	return factsKey{lang: lang, hash: maphash.Bytes(factsSeed, src), size: len(src)}
}

// get returns the cached facts of src in lang, for the file at rel.
func (c *factsCache) get(lang, rel string, src []byte) *fileFacts {
	key := keyOf(lang, src)
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return nil
	}
	e := el.Value.(*factsEntry)
	if !bytes.Equal(e.facts.src, src) {
		return nil
	}
	c.lru.MoveToFront(el)
	if e.facts.rel == rel {
		return e.facts
	}
	f := *e.facts
	f.rel = rel
	return &f
}

// put keeps f, the facts of its source in lang.
func (c *factsCache) put(lang string, f *fileFacts) {
	cost := factsCost(f)
	key := keyOf(lang, f.src)
	c.mu.Lock()
	defer c.mu.Unlock()
	if cost > c.limit {
		return
	}
	if el, ok := c.entries[key]; ok {
		e := el.Value.(*factsEntry)
		c.size += cost - e.cost
		e.facts, e.cost = f, cost
		c.lru.MoveToFront(el)
	} else {
		c.entries[key] = c.lru.PushFront(&factsEntry{key: key, facts: f, cost: cost})
		c.size += cost
	}
	for c.size > c.limit && c.lru.Len() > 0 {
		el := c.lru.Back()
		e := el.Value.(*factsEntry)
		c.lru.Remove(el)
		delete(c.entries, e.key)
		c.size -= e.cost
	}
}

// clear drops every entry.
func (c *factsCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = map[factsKey]*list.Element{}
	c.lru.Init()
	c.size = 0
}

// factsCost estimates the memory a file's facts hold, its source included.
func factsCost(f *fileFacts) int64 {
	n := int64(len(f.src)) + int64(len(f.lineStarts))*8
	n += int64(len(f.defs)) * int64(unsafe.Sizeof(def{}))
	n += int64(len(f.calls)) * int64(unsafe.Sizeof(call{}))
	for _, k := range f.calls {
		n += int64(len(k.Args)+len(k.RecvAlts))*16 + int64(len(k.TypeArgs))*16
		for _, a := range k.TypeArgs {
			n += int64(len(a))
		}
	}
	n += int64(len(f.supers)) * int64(unsafe.Sizeof(superFact{}))
	n += int64(len(f.typed)) * int64(unsafe.Sizeof(typedName{}))
	n += int64(len(f.narrows)) * int64(unsafe.Sizeof(narrowFact{}))
	n += int64(len(f.types)) * int64(unsafe.Sizeof(typeRef{}))
	n += int64(len(f.imports)) * int64(unsafe.Sizeof(importFact{}))
	n += int64(len(f.exports)) * int64(unsafe.Sizeof(exportFact{}))
	n += int64(len(f.returns)) * int64(unsafe.Sizeof(returnFact{}))
	n += int64(len(f.loops)+len(f.blocks)) * int64(unsafe.Sizeof([2]int{}))
	n += int64(len(f.clauses)) * int64(unsafe.Sizeof(pyClause{}))
	n += int64(len(f.tries)) * int64(unsafe.Sizeof([3]int{}))
	n += int64(len(f.typeParams)) * int64(unsafe.Sizeof(typedName{}))
	n += int64(len(f.defs)) * 64 // byName: an entry and its index per definition
	return n
}
