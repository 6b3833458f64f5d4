package host_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/loupe-dev/loupe/grammars"
	"github.com/loupe-dev/loupe/host"
	"github.com/loupe-dev/loupe/host/wazhost"
)

// Load an embedded grammar module on an engine and parse with it: the
// module returns the whole tree as one flat pre-order array of records,
// each naming its symbol and field by index into the grammar's name table.
// A node's children follow it; its next sibling is SubtreeSize records on.
// Here the named nodes are printed, indented by depth.
func ExampleGrammar() {
	ctx := context.Background()
	engine, err := wazhost.New(ctx, wazhost.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer engine.Close(ctx)
	info, ok := grammars.Lookup("json")
	if !ok {
		log.Fatal("no json grammar")
	}
	wasm, err := info.Wasm()
	if err != nil {
		log.Fatal(err)
	}
	g, err := engine.Load(ctx, info.Name, wasm)
	if err != nil {
		log.Fatal(err)
	}
	src := []byte(`{"a": [1, true]}`)
	nodes, err := g.Parse(ctx, src)
	if err != nil {
		log.Fatal(err)
	}
	names := g.Names()
	var ends []uint32 // the end index of each open ancestor
	for i, n := range nodes {
		for len(ends) > 0 && uint32(i) >= ends[len(ends)-1] {
			ends = ends[:len(ends)-1]
		}
		depth := len(ends)
		ends = append(ends, uint32(i)+n.SubtreeSize)
		if n.Flags&host.FlagNamed == 0 {
			continue
		}
		field := ""
		if n.Field != 0 {
			field = names.Fields[n.Field] + ": "
		}
		fmt.Printf("%s%s%s [%d,%d) %s\n", strings.Repeat("  ", depth), field,
			names.Symbols[n.Symbol], n.StartByte, n.EndByte, src[n.StartByte:n.EndByte])
	}
	// Output:
	// document [0,16) {"a": [1, true]}
	//   object [0,16) {"a": [1, true]}
	//     pair [1,15) "a": [1, true]
	//       key: string [1,4) "a"
	//         string_content [2,3) a
	//       value: array [6,15) [1, true]
	//         number [7,8) 1
	//         true [10,14) true
}
