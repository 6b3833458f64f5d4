// Package docs checks that what the README and the pages of docs/ tell a
// reader to run works: every shell command of their ```sh blocks, the MCP
// configuration, the Neovim configuration, and the Go and JavaScript
// examples. A command that cannot run in a test (a placeholder path, a
// target that is the test suite itself) is checked for what can be checked
// of it, and a command this test does not know how to check fails it, so a
// new example cannot go unchecked.
package docs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pages are the documents whose examples are checked, relative to the
// module root; docs/*.md is added to them.
var pages = []string{"README.md", "CONTRIBUTING.md", "js/README.md"}

// unrunnable are the shell commands that cannot run in a test, each with
// what checks it instead. A listed command that no page shows any more
// fails the test, so the list stays true.
var unrunnable = map[string]string{
	"loupe grammar build path/to/tree-sitter-toml -o grammars/toml.wasm": "a placeholder path; cmd/loupe's TestGrammarBuild* build real grammars with it",
}

// block is one fenced code block of a page.
type block struct {
	page string
	line int // the line of its first content line
	info string
	text string
}

// moduleRoot is the folder of go.mod above the working directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// readBlocks returns the fenced code blocks of every page.
func readBlocks(t *testing.T, root string) []block {
	t.Helper()
	names := append([]string(nil), pages...)
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range more {
		names = append(names, filepath.ToSlash(strings.TrimPrefix(m, root+string(filepath.Separator))))
	}
	var out []block
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		var cur *block
		var body []string
		for i, line := range strings.Split(string(data), "\n") {
			fence := strings.HasPrefix(line, "```")
			switch {
			case fence && cur == nil:
				cur = &block{page: name, line: i + 2, info: strings.TrimSpace(line[3:])}
				body = body[:0]
			case fence:
				cur.text = strings.Join(body, "\n")
				out = append(out, *cur)
				cur = nil
			case cur != nil:
				body = append(body, line)
			}
		}
		if cur != nil {
			t.Fatalf("%s: a code block opened at line %d is never closed", name, cur.line-1)
		}
	}
	return out
}

// stripComment removes a shell comment (a # after white space, outside
// quotes) and the white space before it.
func stripComment(line string) string {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return strings.TrimSpace(line[:i])
		}
	}
	return strings.TrimSpace(line)
}

// env is what the runnable examples need: a loupe binary on PATH, a copy
// of testdata/demo to run in (a rewrite example may write there) and a
// private tree cache.
type env struct {
	root   string // the module root
	bin    string // the folder holding the loupe binary
	work   string // the working folder, holding testdata/demo
	vars   []string
	jsDist bool // js/dist is built (make js)
}

func newEnv(t *testing.T, root string) *env {
	t.Helper()
	e := &env{root: root, bin: t.TempDir(), work: t.TempDir()}
	if bin := os.Getenv("LOUPE_BIN"); bin != "" {
		abs, err := filepath.Abs(bin)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(e.bin, "loupe")); err != nil {
			t.Fatal(err)
		}
	} else {
		cmd := exec.Command("go", "build", "-o", filepath.Join(e.bin, "loupe"), "./cmd/loupe")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build ./cmd/loupe: %v\n%s", err, out)
		}
	}
	if err := os.CopyFS(filepath.Join(e.work, "testdata", "demo"), os.DirFS(filepath.Join(root, "testdata", "demo"))); err != nil {
		t.Fatal(err)
	}
	// bin/loupe, as the README calls it from a clone after make build.
	if err := os.Mkdir(filepath.Join(e.work, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(e.bin, "loupe"), filepath.Join(e.work, "bin", "loupe")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "js", "dist", "index.js")); err == nil {
		e.jsDist = true
		if err := os.Symlink(filepath.Join(root, "js"), filepath.Join(e.work, "js")); err != nil {
			t.Fatal(err)
		}
	}
	e.vars = append(os.Environ(),
		"PATH="+e.bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"LOUPE_TREE_CACHE_DIR="+t.TempDir(),
		"HOME="+t.TempDir(),
	)
	return e
}

// run runs a shell command in the working folder with no input and
// returns its output.
func (e *env) run(command string) (string, error) {
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = e.work
	cmd.Env = e.vars
	cmd.Stdin = bytes.NewReader(nil)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// makeTargets lists the targets the Makefile defines.
func makeTargets(t *testing.T, root string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([A-Za-z][A-Za-z0-9_-]*):`).FindAllStringSubmatch(string(data), -1) {
		targets[m[1]] = true
	}
	return targets
}

// checkShell checks one shell command of a page.
func checkShell(t *testing.T, e *env, targets map[string]bool, command string) {
	t.Helper()
	for _, part := range strings.Split(command, "&&") {
		part = strings.TrimSpace(part)
		fields := strings.Fields(part)
		switch {
		case fields[0] == "make":
			// make's targets are the test suite itself, a server or a
			// build; that each is defined is what can be checked here.
			for _, target := range fields[1:] {
				if !targets[target] {
					t.Errorf("`%s`: the Makefile has no target %q", part, target)
				}
			}
		case fields[0] == "go" && len(fields) == 3 && fields[1] == "install":
			modPath, _, _ := strings.Cut(fields[2], "@")
			mod := modulePath(t, e.root)
			rel, ok := strings.CutPrefix(modPath, mod+"/")
			if !ok {
				t.Errorf("`%s`: %s is not in module %s", part, modPath, mod)
				continue
			}
			if _, err := os.Stat(filepath.Join(e.root, rel, "main.go")); err != nil {
				t.Errorf("`%s`: %s has no main.go: %v", part, rel, err)
			}
		case fields[0] == "npm" && len(fields) == 3 && fields[1] == "install":
			var pkg struct{ Name string }
			data, err := os.ReadFile(filepath.Join(e.root, "js", "package.json"))
			if err == nil {
				err = json.Unmarshal(data, &pkg)
			}
			if err != nil {
				t.Fatal(err)
			}
			if pkg.Name != fields[2] {
				t.Errorf("`%s`: the npm package is named %q", part, pkg.Name)
			}
		case fields[0] == "node":
			if !e.jsDist {
				t.Logf("`%s` not run: js/dist is not built (make js)", part)
				continue
			}
			out, err := e.run(part)
			if err != nil {
				t.Errorf("`%s`: %v\n%s", part, err, out)
			} else if !strings.Contains(out, "registered:") || !strings.Contains(out, "console.log") {
				t.Errorf("`%s` printed no registered tools and no match:\n%s", part, out)
			}
		case fields[0] == "loupe" || fields[0] == "bin/loupe":
			out, err := e.run(part)
			if err != nil {
				t.Errorf("`%s`: %v\n%s", part, err, out)
			} else if strings.TrimSpace(out) == "" {
				t.Errorf("`%s` printed nothing: an example should show something", part)
			}
		default:
			t.Errorf("`%s`: this test does not know how to check the command; run it here, or list it in unrunnable with what checks it", part)
		}
	}
}

// modulePath is go.mod's module path.
func modulePath(t *testing.T, root string) string {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "module "); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatal("go.mod names no module")
	return ""
}

func TestCommands(t *testing.T) {
	root := moduleRoot(t)
	e := newEnv(t, root)
	targets := makeTargets(t, root)
	seen := map[string]bool{}
	for _, b := range readBlocks(t, root) {
		if b.info != "sh" {
			continue
		}
		for i, line := range strings.Split(b.text, "\n") {
			command := stripComment(line)
			if command == "" {
				continue
			}
			t.Run(fmt.Sprintf("%s:%d", b.page, b.line+i), func(t *testing.T) {
				if why, ok := unrunnable[command]; ok {
					seen[command] = true
					t.Logf("`%s` not run: %s", command, why)
					return
				}
				checkShell(t, e, targets, command)
			})
		}
	}
	for command := range unrunnable {
		if !seen[command] {
			t.Errorf("unrunnable lists `%s`, which no page shows any more", command)
		}
	}
}

// TestMCPConfig starts every server of each MCP configuration the pages
// show, as a client would, with its input closed at once: the command
// and its arguments must be accepted.
func TestMCPConfig(t *testing.T) {
	root := moduleRoot(t)
	e := newEnv(t, root)
	n := 0
	for _, b := range readBlocks(t, root) {
		if b.info != "json" || !strings.Contains(b.text, "mcpServers") {
			continue
		}
		var cfg struct {
			MCPServers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(b.text), &cfg); err != nil {
			t.Errorf("%s:%d: the MCP configuration is not JSON: %v", b.page, b.line, err)
			continue
		}
		for name, s := range cfg.MCPServers {
			n++
			if s.Command != "loupe" {
				t.Errorf("%s:%d: server %q runs %q, not loupe", b.page, b.line, name, s.Command)
				continue
			}
			cmd := exec.Command(filepath.Join(e.bin, "loupe"), s.Args...)
			cmd.Dir = e.work
			cmd.Env = e.vars
			cmd.Stdin = bytes.NewReader(nil)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s:%d: server %q (%s %s): %v\n%s", b.page, b.line, name, s.Command, strings.Join(s.Args, " "), err, out)
			}
		}
	}
	if n == 0 {
		t.Fatal("no page shows an MCP configuration")
	}
}

// TestGoExample checks that the README's Go example is the runnable
// Example it says it is, line for line.
func TestGoExample(t *testing.T) {
	root := moduleRoot(t)
	example, err := os.ReadFile(filepath.Join(root, "tools", "astgrep", "example_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, line := range strings.Split(string(example), "\n") {
		have[strings.TrimSpace(line)] = true
	}
	n := 0
	for _, b := range readBlocks(t, root) {
		if b.page != "README.md" || b.info != "go" {
			continue
		}
		n++
		leading := true // the comment above the code says what the Example sets up
		for i, line := range strings.Split(b.text, "\n") {
			l := strings.TrimSpace(line)
			if leading && strings.HasPrefix(l, "//") {
				continue
			}
			leading = false
			if l != "" && !have[l] {
				t.Errorf("README.md:%d: %q is not in tools/astgrep/example_test.go", b.line+i, l)
			}
		}
	}
	if n == 0 {
		t.Fatal("README.md shows no Go example")
	}
}

// TestNodeExample runs the README's npm example against the built
// package, in the demo project.
func TestNodeExample(t *testing.T) {
	root := moduleRoot(t)
	e := newEnv(t, root)
	if !e.jsDist {
		t.Skip("js/dist is not built: run make js")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	n := 0
	for _, b := range readBlocks(t, root) {
		if b.page != "README.md" || b.info != "js" {
			continue
		}
		n++
		src := strings.ReplaceAll(b.text, "'@loupe-dev/loupe'", "'"+filepath.ToSlash(filepath.Join(root, "js", "dist", "index.js"))+"'")
		script := filepath.Join(t.TempDir(), "example.mjs")
		if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("node", script)
		cmd.Dir = filepath.Join(e.work, "testdata", "demo")
		cmd.Env = e.vars
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("README.md:%d: %v\n%s", b.line, err, out)
		} else if !strings.Contains(string(out), "console.log(") {
			t.Errorf("README.md:%d: the example found no console.log call:\n%s", b.line, out)
		}
	}
	if n == 0 {
		t.Fatal("README.md shows no JavaScript example")
	}
}

// TestNeovimConfig runs the Neovim configuration docs/lsp.md shows in a
// headless Neovim on a project with one rule, and reads its diagnostic
// back.
func TestNeovimConfig(t *testing.T) {
	root := moduleRoot(t)
	var config string
	for _, b := range readBlocks(t, root) {
		if b.page == "docs/lsp.md" && b.info == "lua" {
			config = b.text
		}
	}
	if config == "" {
		t.Fatal("docs/lsp.md shows no Neovim configuration")
	}
	if _, err := exec.LookPath("nvim"); err != nil {
		t.Skip("nvim is not installed: apt-get install neovim runs this test")
	}
	e := newEnv(t, root)
	project := t.TempDir()
	files := map[string]string{
		"sgconfig.yml":       "ruleDirs: [rules]\n",
		"rules/no-log.yml":   "id: no-console-log\nlanguage: typescript\nseverity: warning\nmessage: no console.log here\nrule:\n  pattern: console.log($$$A)\n",
		"a.ts":               "console.log(1);\n",
		"nvim/init.lua":      config,
		"nvim/read-back.lua": "vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end)\nfor _, d in ipairs(vim.diagnostic.get(0)) do io.stdout:write('diagnostic: ' .. d.message .. '\\n') end\n",
	}
	for name, text := range files {
		path := filepath.Join(project, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("nvim", "--headless", "-u", "nvim/init.lua", "a.ts", "-c", "luafile nvim/read-back.lua", "-c", "qa!")
	cmd.Dir = project
	cmd.Env = e.vars
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "diagnostic: no console.log here") {
		t.Fatalf("Neovim showed no diagnostic from loupe lsp (%v):\n%s", err, out)
	}
}

// TestLinks checks that every relative link of the pages names a file
// that exists.
func TestLinks(t *testing.T) {
	root := moduleRoot(t)
	link := regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)
	names := append([]string(nil), pages...)
	err := fs.WalkDir(os.DirFS(root), "docs", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			names = append(names, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	names = append(names, "tests/README.md", "CHANGELOG.md")
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			target := filepath.Join(root, filepath.Dir(name), m[1])
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s links to %s, which does not exist", name, m[1])
			}
		}
	}
}
