package wazhost_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/host/wazhost"
)

// Run loupe's grammars on an engine configured by the caller, here with its
// compiled modules cached in a folder of one's own and every parse
// sandboxed (at most 256 MiB of module memory, 5 s a parse), and make it
// the engine core/language parses with. SetEngine must come before the
// first parse of the process.
func ExampleNew() {
	ctx := context.Background()
	cache, err := os.MkdirTemp("", "wazero")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(cache)
	engine, err := wazhost.New(ctx, wazhost.Config{
		CacheDir:    cache,
		Sandbox:     true,
		MemoryLimit: 256 << 20,
		ParseTime:   5 * time.Second,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer engine.Close(ctx)
	language.SetEngine(engine)

	lang, err := language.Lookup("json")
	if err != nil {
		log.Fatal(err)
	}
	t, err := lang.Parse(ctx, []byte(`{"retries": 3}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Root().SExp())
	cached, err := os.ReadDir(cache)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("compilation cached:", len(cached) > 0)
	// Output:
	// (document (object (pair key: (string (string_content)) value: (number))))
	// compilation cached: true
}
