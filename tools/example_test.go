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

// The tools as an agent's registry sees them: a name, a category and
// permissions, JSON Schemas, and a call that takes JSON parameters and
// returns the text the model reads (and a compact structured form).
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
	for _, t := range ts {
		fmt.Printf("%s (%s; %s; read-only %v)\n", t.Name, t.Category.Name, t.Permissions, t.Hints().ReadOnly)
	}
	params := json.RawMessage(`{"pattern": "open($P)", "language": "python"}`)
	out, err := ts[0].Call(context.Background(), params)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(out.Text)
	structured, err := json.Marshal(out.Structured)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(structured))
	// Output:
	// ast_grep (Search & Discovery; ReadFiles; read-only true)
	// structural_analysis (Code Analysis; ReadFiles; read-only true)
	// outline (Code Analysis; ReadFiles; read-only true)
	// grep (Search & Discovery; ReadFiles; read-only true)
	// glob (Search & Discovery; ReadFiles; read-only true)
	// search (Search & Discovery; ReadFiles; read-only true)
	// list_directory (Search & Discovery; ReadFiles; read-only true)
	// read_file (File Reading; ReadFiles; read-only true)
	// create_file (File Writing; WriteFiles, CreateFiles; read-only false)
	// update_file (File Writing; ReadFiles, WriteFiles; read-only false)
	// append_file (File Writing; ReadFiles, WriteFiles; read-only false)
	// replace_in_file (File Writing; ReadFiles, WriteFiles; read-only false)
	// edit_lines (File Writing; ReadFiles, WriteFiles; read-only false)
	// delete_file (File Management; DeleteFiles; read-only false)
	// search_packages (Project Index; ReadFiles; read-only true)
	// get_package (Project Index; ReadFiles; read-only true)
	// package_dependencies (Project Index; ReadFiles; read-only true)
	// package_dependents (Project Index; ReadFiles; read-only true)
	// dependency_graph (Project Index; ReadFiles; read-only true)
	// list_packages (Project Index; ReadFiles; read-only true)
	// index_status (Project Index; ReadFiles; read-only true)
	// search_symbols (Project Index; ReadFiles; read-only true)
	// get_package_symbols (Project Index; ReadFiles; read-only true)
	// get_symbol (Project Index; ReadFiles; read-only true)
	// io_util.py:2:12 [call] open(path)
	//   $P = path
	// 1 match.
	// {"matches":[{"file":"io_util.py","startLine":2,"startCol":12,"endLine":2,"endCol":22,"nodeKind":"call","text":"open(path)","captures":{"$P":"path"}}],"totalMatches":1,"truncated":false,"filesSearched":1,"skippedFiles":0}
}
