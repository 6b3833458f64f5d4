package filetools_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/loupe-dev/loupe/tools/filetools"

	"github.com/loupe-dev/loupe/tools/toolspec"
)

// exampleWorkspace creates a small project and returns its directory.
func exampleWorkspace() string {
	dir, err := os.MkdirTemp("", "filetools-example-")
	if err != nil {
		log.Fatal(err)
	}
	files := map[string]string{
		"src/engine.rs":       "pub struct Engine;\n// runs tools\nimpl Engine {\n    pub async fn execute(&self) {}\n}\n",
		"src/tools/grep.rs":   "pub async fn execute_grep() {}\n",
		"src/App.tsx":         "export const App = () => null;\n",
		"node_modules/x/a.ts": "async fn execute\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	return dir
}

// grep returns matching lines with their context; node_modules is left
// out by default.
func ExampleTools_Grep() {
	dir := exampleWorkspace()
	defer os.RemoveAll(dir)
	tools, err := filetools.New(filetools.Config{Workspace: dir})
	if err != nil {
		log.Fatal(err)
	}
	res, err := tools.Grep(context.Background(), filetools.GrepParams{Pattern: "async fn.*execute", ContextLines: filetools.Int(1)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Text())
	// Output:
	// Found 2 matches in 2 files for /async fn.*execute/ (3 files searched).
	//
	// src/engine.rs
	//   3- impl Engine {
	//   4:     pub async fn execute(&self) {}
	//   5- }
	//
	// src/tools/grep.rs
	//   1: pub async fn execute_grep() {}
}

// glob lists files matching a pattern, sorted.
func ExampleTools_Glob() {
	dir := exampleWorkspace()
	defer os.RemoveAll(dir)
	tools, err := filetools.New(filetools.Config{Workspace: dir})
	if err != nil {
		log.Fatal(err)
	}
	res, err := tools.Glob(context.Background(), filetools.GlobParams{Pattern: "src/**/*.rs"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Files, res.TotalFiles)
	// Output:
	// [src/engine.rs src/tools/grep.rs] 2
}

// A preview shows the diff and writes nothing, so it needs no approver; the
// same call without preview_only asks the approver first.
func ExampleTools_ReplaceInFile() {
	dir := exampleWorkspace()
	defer os.RemoveAll(dir)
	approve := func(_ context.Context, r toolspec.Request) (bool, error) {
		fmt.Println("approve?", r.Summary)
		return true, nil
	}
	tools, err := filetools.New(filetools.Config{Workspace: dir, Approver: approve})
	if err != nil {
		log.Fatal(err)
	}
	params := filetools.ReplaceInFileParams{Path: "src/engine.rs", Find: `fn (\w+)\(`, Replace: "fn ${1}_now(", IsRegex: true, PreviewOnly: true}
	res, err := tools.ReplaceInFile(context.Background(), params)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Text())
	params.PreviewOnly = false
	if res, err = tools.ReplaceInFile(context.Background(), params); err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Text())
	// Output:
	// Preview: 1 occurrence of /fn (\w+)\(/ in src/engine.rs would be replaced. Nothing was written; call again without preview_only to apply.
	//
	// --- a/src/engine.rs
	// +++ b/src/engine.rs
	// @@ -1,5 +1,5 @@
	//  pub struct Engine;
	//  // runs tools
	//  impl Engine {
	// -    pub async fn execute(&self) {}
	// +    pub async fn execute_now(&self) {}
	//  }
	// approve? replace 1 occurrence of /fn (\w+)\(/ in src/engine.rs
	// Replaced 1 occurrence of /fn (\w+)\(/ in src/engine.rs (now 5 lines).
}

// Without an approver, a call that would write is refused.
func ExampleTools_EditLines() {
	dir := exampleWorkspace()
	defer os.RemoveAll(dir)
	tools, err := filetools.New(filetools.Config{Workspace: dir})
	if err != nil {
		log.Fatal(err)
	}
	_, err = tools.EditLines(context.Background(), filetools.EditLinesParams{
		Path: "src/engine.rs", Operation: filetools.OpInsert, Line: filetools.Int(1), Content: "// the engine"})
	fmt.Println(err)
	// Output:
	// edit_lines: not written: approval is unavailable (no approver is configured), so this tool cannot change files: src/engine.rs. Show the user the change instead, or use preview_only=true where the tool has it
}
