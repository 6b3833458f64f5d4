package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/loupe-dev/loupe/tools"
)

// The tools as an agent's registry sees them: a name, a description, a
// JSON Schema, and a call that takes JSON parameters and returns the text
// the model reads.
func ExampleNew() {
	dir, err := os.MkdirTemp("", "loupe-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	src := "def load(path):\n    return open(path).read()\n"
	if err := os.WriteFile(filepath.Join(dir, "io_util.py"), []byte(src), 0o644); err != nil {
		log.Fatal(err)
	}

	ts, err := tools.New(tools.Config{Workspace: dir})
	if err != nil {
		log.Fatal(err)
	}
	byName := map[string]tools.Tool{}
	for _, t := range ts {
		byName[t.Name] = t
		fmt.Println(t.Name, t.Schema["type"])
	}
	params := json.RawMessage(`{"pattern": "open($P)", "language": "python"}`)
	text, _, err := byName["ast_grep"].Call(context.Background(), params)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(text)
	// Output:
	// ast_grep object
	// structural_analysis object
	// io_util.py:2:12 [call] open(path)
	//   $P = path
	// 1 match.
}
