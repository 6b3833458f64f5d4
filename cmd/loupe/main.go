// Command loupe is the command-line face of loupe, a structural code
// search engine compatible with ast-grep: `loupe run` takes ast-grep's
// flags and prints ast-grep's output, `loupe parse` shows a file's syntax
// tree.
//
// # Adding a subcommand
//
// Each subcommand lives in its own file of this package and registers
// itself from an init function:
//
//	func init() {
//		register(&command{
//			name:    "scan",
//			summary: "Scan files with YAML rules",
//			run:     runScan,
//		})
//	}
//
//	func runScan(ctx context.Context, e *env, args []string) int { ... }
//
// run receives the arguments after the subcommand's name and returns the
// exit status: 0 success (something matched), 1 nothing matched, 2 an
// error (print it to e.stderr with e.errorf). Write output only through
// e.stdout and e.stderr and read input only from e.stdin, so that the
// golden tests (cmd/loupe/testdata/*.txtar, run by golden_test.go) can run
// the command in-process. Parse flags with newFlagSet, which follows
// ast-grep's conventions; printing helpers for matches (JSON, text,
// diffs) are shared in this package.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sort"
	"strings"

	"golang.org/x/mod/module"
)

// version is loupe's version, stamped at build time with
// -ldflags "-X main.version=..." (make build and make dist stamp `git
// describe --tags` when the commit has a tag behind it); otherwise it comes
// from the binary's build information (see versionOf).
var version = ""

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e *env, args []string) int
	// subcommands are the words the command takes as its first argument
	// (new's project, rule, test and util), which completions offer.
	subcommands []subcommand
}

// subcommand is a word a command takes as its first argument.
type subcommand struct {
	name, summary string
}

var commands = map[string]*command{}

// register adds a subcommand; it panics on a duplicate name, a
// programming error caught by any test run.
func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("loupe: duplicate command " + c.name)
	}
	commands[c.name] = c
}

// env is what a command sees of the process.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// tty reports whether stdout is a terminal (colour and headings).
	tty    bool
	getenv func(string) string
}

func (e *env) errorf(format string, args ...any) int {
	fmt.Fprintf(e.stderr, "Error: "+format+"\n", args...)
	return 2
}

// Exit statuses.
const (
	exitMatch   = 0
	exitNoMatch = 1
	exitError   = 2
	// exitSetup is ast-grep's status for a command that cannot start as
	// set up: no project configuration, standard input of no language.
	exitSetup = 3
)

// setupError prints an error with its help and link, as ast-grep does,
// and returns exitSetup.
func (e *env) setupError(msg, help, link string) int {
	return e.guidedError(exitSetup, msg, help, link)
}

// guidedError prints an error with its help and, unless link is "", a
// link to read, as ast-grep prints its errors, and returns code.
func (e *env) guidedError(code int, msg, help, link string) int {
	fmt.Fprintf(e.stderr, "Error: %s\nHelp: %s\n", msg, help)
	if link != "" {
		fmt.Fprintf(e.stderr, "See also: %s\n", link)
	}
	fmt.Fprintln(e.stderr)
	return code
}

// noProject reports a missing sgconfig.yml.
func (e *env) noProject() int {
	return e.setupError("No ast-grep project configuration is found.",
		"You need to create an ast-grep project for this command. Try `loupe new` to create one.",
		"https://ast-grep.github.io/guide/scan-project.html")
}

func main() {
	widenPipe(os.Stdout)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	e := &env{
		stdin:  os.Stdin,
		stdout: os.Stdout,
		stderr: os.Stderr,
		tty:    isTerminal(os.Stdout),
		getenv: os.Getenv,
	}
	code := dispatch(ctx, e, os.Args[1:])
	stop()
	os.Exit(code)
}

// buildVersion is loupe's version as --version, the MCP and LSP servers
// and SARIF output report it (see versionOf).
func buildVersion() string {
	info, _ := debug.ReadBuildInfo()
	return versionOf(version, info)
}

// versionOf is the version a binary reports, without the tag's "v":
//   - stamped, when the build stamped one (make build and make dist stamp
//     `git describe --tags`: "0.4.0" on a tag, "0.4.0-3-g1a2b3c4" past it);
//   - else the module version the build recorded: what `go install
//     github.com/loupe-dev/loupe/cmd/loupe@v0.4.0` builds ("0.4.0"), and
//     what a plain `go build` in a checkout of a tag records;
//   - else "dev" with the commit, when the build knows it: a plain `go build`
//     of an untagged commit records a pseudo-version and the VCS revision
//     ("dev+1a2b3c4d5e6f", "-dirty" when it had uncommitted changes); and
//     "dev" alone when there is no build information.
func versionOf(stamped string, info *debug.BuildInfo) string {
	if stamped != "" {
		return trimV(stamped)
	}
	if info == nil {
		return "dev"
	}
	v := info.Main.Version
	if v != "" && v != "(devel)" && !module.IsPseudoVersion(v) {
		return trimV(v)
	}
	var rev string
	dirty := strings.HasSuffix(v, "+dirty")
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = dirty || s.Value == "true"
		}
	}
	if rev == "" && module.IsPseudoVersion(v) {
		rev, _ = module.PseudoVersionRev(v)
	}
	out := "dev"
	if rev != "" {
		out += "+" + rev[:min(12, len(rev))]
	}
	if dirty {
		out += "-dirty"
	}
	return out
}

// trimV drops a version tag's leading "v" ("v0.4.0" is "0.4.0").
func trimV(v string) string {
	if len(v) > 1 && v[0] == 'v' && v[1] >= '0' && v[1] <= '9' {
		return v[1:]
	}
	return v
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// dispatch runs the subcommand named by args[0]. As with ast-grep, a
// command line that starts with a flag is a `run`.
func dispatch(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitError
	}
	switch args[0] {
	case "help":
		// `help COMMAND` is COMMAND's --help, as in ast-grep.
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return c.run(ctx, e, []string{"--help"})
			}
			fmt.Fprintf(e.stderr, "Error: unknown command %q\n\n", args[1])
			usage(e.stderr)
			return exitError
		}
		usage(e.stdout)
		return exitMatch
	case "-h", "--help":
		usage(e.stdout)
		return exitMatch
	case "-V", "--version", "version":
		fmt.Fprintf(e.stdout, "loupe %s\n", buildVersion())
		return exitMatch
	}
	name, rest := args[0], args[1:]
	if strings.HasPrefix(name, "-") {
		name, rest = "run", args
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(e.stderr, "Error: unknown command %q\n\n", name)
		usage(e.stderr)
		return exitError
	}
	return c.run(ctx, e, rest)
}

// rootFlags are the flags loupe takes before a command (dispatch reads
// them), for the usage and completions.
func rootFlags() *flagSet {
	fs := &flagSet{cmd: "loupe"}
	fs.Bool('h', "help", "Print help")
	fs.Bool('V', "version", "Print version")
	return fs
}

func usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("loupe: structural code search, compatible with ast-grep\n\nUsage: loupe <COMMAND> [ARGS]\n\nCommands:\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "  %-12s %s\n", n, commands[n].summary)
	}
	b.WriteString("\nOptions:\n")
	rootFlags().usage(&b)
	b.WriteString("\nRun `loupe <COMMAND> --help` for a command's flags.\n")
	io.WriteString(w, b.String())
}
