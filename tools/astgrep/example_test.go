package astgrep_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/loupe-dev/loupe/tools/astgrep"
)

// A pattern search over a workspace: every console.log call, with its
// arguments captured by $$$ARGS.
func ExampleTool_Run() {
	dir, err := os.MkdirTemp("", "loupe-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	src := "function greet(name: string) {\n  console.log('hello', name);\n  // console.log('not code');\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "app.ts"), []byte(src), 0o644); err != nil {
		log.Fatal(err)
	}

	tool, err := astgrep.New(astgrep.Config{Workspace: dir})
	if err != nil {
		log.Fatal(err)
	}
	res, err := tool.Run(context.Background(), astgrep.Params{Pattern: "console.log($$$ARGS)", Language: "typescript"})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range res.Matches {
		fmt.Printf("%s:%d:%d %s\n", m.File, m.StartLine, m.StartCol, m.Text)
		fmt.Println("  ARGS =", strings.Join(m.MetaVariables.Multi["ARGS"], ", "))
	}
	// Output:
	// app.ts:2:3 console.log('hello', name)
	//   ARGS = 'hello', name
}
