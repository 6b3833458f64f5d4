package treecache_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/treecache"
)

// Put a persistent store under a search's tree cache, so that a second
// process (here a second Store and cache on the same folder) reads the
// trees the first parsed instead of parsing them again.
func ExampleStore() {
	dir, err := os.MkdirTemp("", "trees")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	lang, err := language.Lookup("rust")
	if err != nil {
		log.Fatal(err)
	}
	src := []byte("fn main() { println!(\"hi\"); }\n")
	for run := 1; run <= 2; run++ {
		store, err := treecache.Open(dir, 64<<20)
		if err != nil {
			log.Fatal(err)
		}
		cache := search.NewCache(0) // nothing kept in memory: every tree goes through the store
		cache.SetStore(store)
		t, _, err := cache.Parse(ctx, lang, src)
		if err != nil {
			log.Fatal(err)
		}
		if err := store.Close(); err != nil { // finishes the pack: other processes see it
			log.Fatal(err)
		}
		usage, err := store.Usage()
		if err != nil {
			log.Fatal(err)
		}
		st := store.Stats()
		fmt.Printf("run %d: %d nodes; store hits %d, misses %d, saves %d; entries %d\n",
			run, t.Len(), st.Hits, st.Misses, st.Saves, usage.Entries)
	}
	// Output:
	// run 1: 22 nodes; store hits 0, misses 1, saves 1; entries 1
	// run 2: 22 nodes; store hits 1, misses 0, saves 0; entries 1
}
