package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// script returns the completion script loupe writes for shell, in a file.
func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	if code := dispatch(context.Background(), e, []string{"completions", shell}); code != 0 {
		t.Fatalf("completions %s: status %d: %s", shell, code, errb.String())
	}
	p := filepath.Join(t.TempDir(), "loupe."+shell)
	if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// needs skips the test when a program it runs is not installed
// (scripts/test-deps.sh installs the shells).
func needs(t *testing.T, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (apt-get install zsh fish elvish)", p)
		}
	}
}

// shellRun runs a shell command with a fresh home, in an empty folder,
// and returns its output.
func shellRun(t *testing.T, stdin string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	home := t.TempDir()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home, "XDG_CACHE_HOME="+home, "TERM=dumb")
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", name, args, err, out)
	}
	return strings.ReplaceAll(string(out), "\r", "")
}

// inTerminal runs a shell in a pseudo-terminal (script(1)), typing stdin
// into it, and returns what it shows.
func inTerminal(t *testing.T, shell, stdin string) string {
	t.Helper()
	return shellRun(t, stdin, "script", "-qec", shell, "/dev/null")
}

func TestCompletionsBash(t *testing.T) {
	needs(t, "bash")
	script := completionScript(t, "bash")
	tests := []struct {
		words []string // the last is the word completed
		want  string   // COMPREPLY
	}{
		{[]string{"loupe", "sc"}, "scan"},
		{[]string{"loupe", "-"}, "-h --help -V --version"},
		{[]string{"loupe", "scan", "--form"}, "--format"},
		{[]string{"loupe", "scan", "--format", ""}, "github sarif"},
		{[]string{"loupe", "scan", "--json", "=", "st"}, "stream"},
		{[]string{"loupe", "scan", "--json", "="}, "=pretty =stream =compact"},
		{[]string{"loupe", "run", "--color", "n"}, "never"},
		{[]string{"loupe", "run", "-l", "typ"}, "typescript"},
		{[]string{"loupe", "-p", "x", "--stri"}, "--strictness"},
		{[]string{"loupe", "run", "--ki"}, "--kind"},
		{[]string{"loupe", "new", ""}, "project rule test util"},
		{[]string{"loupe", "new", "rule", "--y"}, "--yes"},
		{[]string{"loupe", "completions", "z"}, "zsh"},
		{[]string{"loupe", "help", "an"}, "analyze"},
		{[]string{"loupe", "scan", "--of"}, "--off"},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "source %s\ncomplete -p loupe\n", script)
	for _, tt := range tests {
		fmt.Fprintf(&b, "COMP_WORDS=(%s); COMP_CWORD=%d; COMPREPLY=(); _loupe; echo \"RESULT:${COMPREPLY[*]}\"\n",
			shellWords(tt.words), len(tt.words)-1)
	}
	out := shellRun(t, "", "bash", "--norc", "--noprofile", "-c", b.String())
	if !strings.Contains(out, "complete -o bashdefault -o default -F _loupe loupe") {
		t.Errorf("the script does not register _loupe for loupe:\n%s", out)
	}
	var got []string
	for _, l := range strings.Split(out, "\n") {
		if r, ok := strings.CutPrefix(l, "RESULT:"); ok {
			got = append(got, r)
		}
	}
	if len(got) != len(tests) {
		t.Fatalf("%d results for %d cases:\n%s", len(got), len(tests), out)
	}
	for i, tt := range tests {
		if got[i] != tt.want {
			t.Errorf("%q: completed %q, want %q", tt.words, got[i], tt.want)
		}
	}
}

// shellWords quotes words for a bash array.
func shellWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = bashQuote(w)
	}
	return strings.Join(q, " ")
}

func TestCompletionsZsh(t *testing.T) {
	needs(t, "zsh", "script")
	script := completionScript(t, "zsh")
	// Each line is typed with a Tab at its end; the line then completed is
	// printed behind a marker the typed text does not hold.
	tests := []struct{ typed, want string }{
		{"loupe sc", "loupe scan"},
		{"loupe scan --format g", "loupe scan --format github"},
		{"loupe scan --json=co", "loupe scan --json=compact"},
		{"loupe run -l pyt", "loupe run -l python"},
		{"loupe new pr", "loupe new project"},
		{"loupe new rule --ye", "loupe new rule --yes"},
		{"loupe completions fi", "loupe completions fish"},
		{"loupe help ana", "loupe help analyze"},
		{"loupe scan --inspect=en", "loupe scan --inspect=entity"},
	}
	for _, tt := range tests {
		stdin := fmt.Sprintf("autoload -U compinit; compinit -u -D; source %s\n%s\t\x01print -r -- ${(U):-c}OMPLETED: \nexit\n", script, tt.typed)
		out := inTerminal(t, "zsh -f -i", stdin)
		re := regexp.MustCompile(`(?m)^COMPLETED: (.*?)\s*$`)
		m := re.FindStringSubmatch(out)
		if m == nil {
			t.Errorf("%q: nothing completed:\n%q", tt.typed, out)
			continue
		}
		if m[1] != tt.want {
			t.Errorf("%q completed to %q, want %q", tt.typed, m[1], tt.want)
		}
	}
}

func TestCompletionsFish(t *testing.T) {
	needs(t, "fish")
	script := completionScript(t, "fish")
	tests := []struct {
		line string
		want []string // the candidates, in fish's order
	}{
		{"loupe sc", []string{"scan"}},
		{"loupe scan --form", []string{"--format"}},
		{"loupe scan --format ", []string{"github", "sarif"}},
		{"loupe scan --json=", []string{"--json=compact", "--json=pretty", "--json=stream"}},
		{"loupe new ", []string{"project", "rule", "test", "util"}},
		{"loupe run -l pyt", []string{"python"}},
		{"loupe -p x --stri", []string{"--strictness"}},
		{"loupe run --ki", []string{"--kind"}},
		{"loupe completions p", []string{"powershell"}},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "source %s\n", script)
	for _, tt := range tests {
		fmt.Fprintf(&b, "echo CASE; complete -C %s\n", fishQuote(tt.line))
	}
	out := shellRun(t, "", "fish", "--no-config", "-c", b.String())
	cases := strings.Split(out, "CASE\n")[1:]
	if len(cases) != len(tests) {
		t.Fatalf("%d results for %d cases:\n%s", len(cases), len(tests), out)
	}
	for i, tt := range tests {
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(cases[i]), "\n") {
			if l != "" {
				got = append(got, strings.SplitN(l, "\t", 2)[0])
			}
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%q: candidates %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestCompletionsElvish(t *testing.T) {
	needs(t, "elvish", "script")
	script := completionScript(t, "elvish")
	// The completer returns every candidate for the words so far (the
	// editor filters them by the word typed); each is printed behind a
	// marker the typed text does not hold.
	tests := []struct {
		words string
		want  []string // some of the candidates
	}{
		{"loupe ''", []string{"scan", "run", "new", "completions", "--version"}},
		{"loupe new ''", []string{"project", "util", "--yes", "--lang"}},
		{"loupe new rule ''", []string{"--yes", "-l"}},
		{"loupe scan ''", []string{"--format", "--inspect", "--off"}},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "eval (slurp < %s)\n", script)
	for i, tt := range tests {
		fmt.Fprintf(&b, "for c [($edit:completion:arg-completer[loupe] %s)] { echo C\"\"ASE%d:$c[stem] }\n", tt.words, i)
	}
	b.WriteString("exit\n")
	out := inTerminal(t, "elvish -norc", b.String())
	for i, tt := range tests {
		got := map[string]bool{}
		for _, m := range regexp.MustCompile(fmt.Sprintf(`CASE%d:(\S+)`, i)).FindAllStringSubmatch(out, -1) {
			got[m[1]] = true
		}
		for _, w := range tt.want {
			if !got[w] {
				t.Errorf("%s: no candidate %q among %v", tt.words, w, got)
			}
		}
	}
}

// TestCompletionsCoverFlags: every script offers every flag of every
// command and every command, as the commands declare them. PowerShell is
// not installable from Debian; its script is checked here only.
func TestCompletionsCoverFlags(t *testing.T) {
	tree := completionTree(context.Background())
	if len(tree.commands) != len(commands)+1 {
		t.Fatalf("%d commands in the tree, %d registered (and help)", len(tree.commands), len(commands))
	}
	for _, shell := range []string{"bash", "zsh", "fish", "powershell", "elvish"} {
		data, err := os.ReadFile(completionScript(t, shell))
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, c := range tree.commands {
			if !strings.Contains(text, c.name) {
				t.Errorf("%s: command %s missing", shell, c.name)
			}
			for _, f := range c.flags {
				want := "--" + f.long
				if shell == "fish" {
					want = "-l " + f.long
				}
				if !strings.Contains(text, want) {
					t.Errorf("%s: %s's flag --%s missing", shell, c.name, f.long)
				}
			}
		}
	}
	for _, c := range tree.commands {
		if c.name != "help" && len(c.flags) == 0 {
			t.Errorf("%s declared no flags when run with --help", c.name)
		}
	}
}

func TestCompletionsShell(t *testing.T) {
	run := func(shellEnv string, args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string {
			if k == "SHELL" {
				return shellEnv
			}
			return ""
		}}
		code := dispatch(context.Background(), e, append([]string{"completions"}, args...))
		return out.String(), errb.String(), code
	}
	if out, _, code := run("/usr/bin/zsh"); code != 0 || !strings.HasPrefix(out, "#compdef loupe") {
		t.Errorf("SHELL=zsh: status %d, script %.40q", code, out)
	}
	if _, errOut, code := run("/bin/sh"); code != exitNoShell || !strings.Contains(errOut, "Can not infer which shell") {
		t.Errorf("SHELL=sh: status %d, %q", code, errOut)
	}
	if _, errOut, code := run("", "tcsh"); code != exitError || !strings.Contains(errOut, "possible values: bash, elvish, fish, powershell, zsh") {
		t.Errorf("tcsh: status %d, %q", code, errOut)
	}
}
