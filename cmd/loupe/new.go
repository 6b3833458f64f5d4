package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/project"
)

func init() {
	register(&command{
		name:        "new",
		summary:     "Create a new project, or a rule, test or utility in one",
		run:         runNew,
		subcommands: newEntities,
	})
}

// newEntities are the items `new` creates, as ast-grep names them.
var newEntities = []subcommand{
	{"project", "Create a new project by scaffolding"},
	{"rule", "Create a new rule"},
	{"test", "Create a new test case"},
	{"util", "Create a new global utility rule"},
}

// newOptions are the parsed arguments of `loupe new`.
type newOptions struct {
	entity, name string
	lang         *language.Language
	yes          bool
	config       string
}

func newUsage(fs *flagSet) string {
	var b strings.Builder
	b.WriteString("Create a new project, or a rule, test or utility in one (ast-grep's `new`)\n\n")
	b.WriteString("Usage: loupe new [COMMAND] [NAME] [OPTIONS]\n\nCommands:\n")
	for _, s := range newEntities {
		fmt.Fprintf(&b, "  %-8s %s\n", s.name, s.summary)
	}
	b.WriteString("\nNAME is the id of the rule, test or utility to create.\n\nOptions:\n")
	fs.usage(&b)
	b.WriteString("\nWithout a COMMAND, `new` creates a project when there is none. loupe asks no questions:\n")
	b.WriteString("give the NAME and --lang an item needs and -y to accept every default (the first of\n")
	b.WriteString("several rule, test or utility folders; a test for a new rule).\n")
	return b.String()
}

func parseNewFlags(e *env, args []string) (*newOptions, bool, error) {
	fs := newFlagSet("new")
	lang := fs.String('l', "lang", "LANG", "The language of the rule or utility to create").suggest(languageNames()...)
	yes := fs.Bool('y', "yes", "Accept every default without asking (give NAME and --lang as needed)")
	config := fs.String('c', "config", "CONFIG_FILE", "The project configuration file (default: the sgconfig.yml found upwards)")
	customLangs := addCustomLanguagesFlag(fs)
	help := fs.Bool('h', "help", "Print help")
	if err := fs.Parse(args); err != nil {
		return nil, false, err
	}
	if help.set {
		fmt.Fprint(e.stdout, newUsage(fs))
		return nil, true, nil
	}
	o := &newOptions{yes: yes.set, config: config.value}
	rest := fs.args
	if len(rest) > 0 && isNewEntity(rest[0]) {
		o.entity, rest = rest[0], rest[1:]
	}
	switch len(rest) {
	case 0:
	case 1:
		o.name = rest[0]
	default:
		return nil, false, fmt.Errorf("unexpected argument '%s'", rest[1])
	}
	if lang.set {
		// The project's custom languages are languages too.
		if p, err := project.Find(config.value, "."); err == nil {
			applyCustomLanguages(customLangs, p)
		}
		l, err := language.Lookup(lang.value)
		if err != nil {
			return nil, false, fmt.Errorf("invalid value '%s' for '--lang <LANG>': %v", lang.value, err)
		}
		o.lang = l
	}
	return o, false, nil
}

func isNewEntity(s string) bool {
	for _, n := range newEntities {
		if n.name == s {
			return true
		}
	}
	return false
}

func runNew(ctx context.Context, e *env, args []string) int {
	o, done, err := parseNewFlags(e, args)
	if err != nil {
		return e.errorf("%v", err)
	}
	if done {
		return exitMatch
	}
	proj, err := project.Find(o.config, ".")
	if err != nil && !errors.Is(err, project.ErrNotFound) {
		return e.errorf("%v", err)
	}
	n := &creator{o: o, e: e, proj: proj}
	switch {
	case o.entity == "" && proj != nil:
		if !o.yes {
			return n.noQuestions("which item to create (project, rule, test or util)")
		}
		return n.insufficient("entity")
	case o.entity == "":
		if !o.yes {
			return n.noQuestions("where to put the new project's folders")
		}
		fmt.Fprint(e.stdout, "No sgconfig.yml found. ")
		return n.project()
	case o.entity == "project" && proj != nil:
		return e.guidedError(exitExists, "ast-grep project already exists.",
			"You are already inside a sub-folder of an ast-grep project. Try finding sgconfig.yml in ancestor directory?",
			"https://ast-grep.github.io/guide/scan-project.html")
	case o.entity == "project":
		if !o.yes {
			return n.noQuestions("where to put the new project's folders")
		}
		return n.project()
	case proj == nil:
		return e.noProject()
	case o.entity == "rule":
		return n.rule()
	case o.entity == "test":
		return n.test(o.name)
	default:
		return n.util()
	}
}

// The statuses of `new`'s errors, as ast-grep's.
const (
	exitNoFolder     = 5  // no test or utility folder configured
	exitExists       = 17 // the project or file to create exists
	exitInsufficient = 22 // --yes without an argument it needs
)

// creator creates one item of `loupe new`.
type creator struct {
	o    *newOptions
	e    *env
	proj *project.Project // nil when there is none
}

// noQuestions refuses to go on where ast-grep would ask what, in a
// terminal.
func (n *creator) noQuestions(what string) int {
	return n.e.errorf("loupe new does not ask questions, here %s: give the NAME and --lang the item needs, and -y (--yes) to accept the defaults", what)
}

// insufficient reports that -y was given without argument what.
func (n *creator) insufficient(what string) int {
	return n.e.guidedError(exitInsufficient, "Insufficient command line argument provided to use `--yes` option.",
		fmt.Sprintf("You need to provide `%s` in command line to use non-interactive `new`.", what), "")
}

// exists reports that the file to create exists.
func (n *creator) exists(path string) int {
	return n.e.guidedError(exitExists, fmt.Sprintf("File `%s` already exists.", path),
		"The item you want to create already exists. Try editing the existing file or create a new one with a different name?", "")
}

// project scaffolds a project in the current folder: sgconfig.yml and the
// folders of rules, rule tests and utilities, each with a .gitkeep.
// sgconfig.yml names the folders relative to itself (ast-grep writes
// their absolute paths).
func (n *creator) project() int {
	fmt.Fprintln(n.e.stdout, "Creating a new ast-grep project...")
	for _, dir := range []string{"rules", "rule-tests", "utils"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return n.e.errorf("create the folder %s: %v", dir, err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".gitkeep"), nil, 0o644); err != nil {
			return n.e.errorf("%v", err)
		}
	}
	config := "ruleDirs:\n- rules\ntestConfigs:\n- testDir: rule-tests\nutilDirs:\n- utils\n"
	if err := os.WriteFile("sgconfig.yml", []byte(config), 0o644); err != nil {
		return n.e.errorf("%v", err)
	}
	fmt.Fprintln(n.e.stdout, "Your new ast-grep project has been created!")
	return exitMatch
}

// rule creates a rule in the first rule folder, then its test.
func (n *creator) rule() int {
	if !n.o.yes {
		return n.noQuestions("whether to create a test for the rule")
	}
	if n.o.name == "" {
		return n.insufficient("name")
	}
	if len(n.proj.RuleDirs) == 0 {
		return n.e.errorf("%s lists no ruleDirs to create the rule in", n.proj.Config)
	}
	path := filepath.Join(n.folder(n.proj.RuleDirs[0]), n.o.name+".yml")
	if fileExists(path) {
		return n.exists(path)
	}
	if n.o.lang == nil {
		return n.insufficient("lang")
	}
	text := fmt.Sprintf(`# yaml-language-server: $schema=https://raw.githubusercontent.com/ast-grep/ast-grep/main/schemas/rule.json

id: %s
message: Add your rule message here....
severity: error # error, warning, info, hint
language: %s
rule:
  pattern: Your Rule Pattern here...
# utils: Extract repeated rule as local utility here.
# note: Add detailed explanation for the rule.`, n.o.name, n.o.lang.Display())
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return n.e.errorf("%v", err)
	}
	fmt.Fprintf(n.e.stdout, "Created rules at %s\n", path)
	return n.test(n.o.name)
}

// test creates a rule test case in the first test folder.
func (n *creator) test(name string) int {
	tests := n.proj.TestConfigs
	if len(tests) == 0 {
		return n.e.guidedError(exitNoFolder, "No test file directory is configured.",
			"Fail to create a test file because the project `sgconfig.yml` does not specify any test configuration.",
			"https://ast-grep.github.io/guide/test-rule.html")
	}
	if len(tests) > 1 && !n.o.yes {
		return n.noQuestions("which test folder to use")
	}
	if name == "" {
		if !n.o.yes {
			return n.noQuestions("the id of the rule to test")
		}
		return n.insufficient("name")
	}
	dir := tests[0].TestDir
	path := filepath.Join(n.folder(dir), name+"-test.yml")
	// The path as ast-grep prints it: the folder as configured, which a
	// relative one is to the current folder.
	shown := path
	if !filepath.IsAbs(dir) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, path); err == nil {
				shown = rel
			}
		}
	}
	if fileExists(path) {
		return n.exists(shown)
	}
	text := fmt.Sprintf("id: %s\nvalid:\n- \"valid code\"\ninvalid:\n- \"invalid code\"\n", name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return n.e.errorf("%v", err)
	}
	fmt.Fprintf(n.e.stdout, "Created test at %s\n", shown)
	return exitMatch
}

// util creates a utility rule in the first utility folder.
func (n *creator) util() int {
	utils := n.proj.UtilDirs
	if len(utils) == 0 {
		return n.e.guidedError(exitNoFolder, "No util file directory is configured.",
			"Fail to create a utility rule because the project `sgconfig.yml` does not specify any utils directory.",
			"https://ast-grep.github.io/guide/rule-config/utility-rule.html")
	}
	switch {
	case len(utils) > 1 && !n.o.yes:
		return n.noQuestions("which utility folder to use")
	case n.o.name == "" && !n.o.yes:
		return n.noQuestions("the utility's name")
	case n.o.name == "":
		return n.insufficient("name")
	}
	path := filepath.Join(n.folder(utils[0]), n.o.name+".yml")
	if fileExists(path) {
		return n.exists(path)
	}
	switch {
	case n.o.lang == nil && !n.o.yes:
		return n.noQuestions("the utility's language")
	case n.o.lang == nil:
		return n.insufficient("lang")
	}
	text := fmt.Sprintf(`id: %s
language: %s
rule:
  pattern: Your Rule Pattern here...
# utils: Extract repeated rule as local utility here.`, n.o.name, n.o.lang.Display())
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return n.e.errorf("%v", err)
	}
	fmt.Fprintf(n.e.stdout, "Created util at %s\n", path)
	return exitMatch
}

// folder is a folder the project configuration names, as ast-grep names
// it: an absolute one as it is, a relative one below the project folder
// with its links resolved.
func (n *creator) folder(dir string) string {
	if filepath.IsAbs(dir) {
		return dir
	}
	root := n.proj.Dir
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return filepath.Join(root, dir)
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
