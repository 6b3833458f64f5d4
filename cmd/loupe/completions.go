package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
)

func init() {
	register(&command{
		name:        "completions",
		summary:     "Generate a shell completion script",
		run:         runCompletions,
		subcommands: shells,
	})
}

// shells are the shells completions writes scripts for, as ast-grep's.
var shells = []subcommand{
	{"bash", "Bash: source it, or put it in bash-completion's completions folder"},
	{"elvish", "Elvish: eval it in rc.elv"},
	{"fish", "fish: put it in ~/.config/fish/completions/loupe.fish"},
	{"powershell", "PowerShell: dot-source it in your profile"},
	{"zsh", "zsh: put it as _loupe in a folder of $fpath"},
}

// scriptWriters write each shell's script.
var scriptWriters = map[string]func(io.Writer, *compTree){
	"bash":       writeBash,
	"elvish":     writeElvish,
	"fish":       writeFish,
	"powershell": writePowerShell,
	"zsh":        writeZsh,
}

func runCompletions(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("completions")
	help := fs.Bool('h', "help", "Print help")
	if err := fs.Parse(args); err != nil {
		return e.errorf("%v", err)
	}
	if help.set {
		var b strings.Builder
		b.WriteString("Generate a shell completion script for loupe's commands and flags\n\n")
		b.WriteString("Usage: loupe completions [SHELL]\n\nShells:\n")
		for _, s := range shells {
			fmt.Fprintf(&b, "  %-11s %s\n", s.name, s.summary)
		}
		b.WriteString("\nWithout SHELL, the shell is the one $SHELL names.\n\nOptions:\n")
		fs.usage(&b)
		fmt.Fprint(e.stdout, b.String())
		return exitMatch
	}
	var shell string
	switch len(fs.args) {
	case 0:
		shell = filepath.Base(e.getenv("SHELL"))
		if shell == "pwsh" {
			shell = "powershell"
		}
		if scriptWriters[shell] == nil {
			return e.guidedError(exitNoShell, "Can not infer which shell to generate completions.",
				"Either specify shell flavor by `loupe completions [SHELL]` or set correct `SHELL` environment.",
				"https://ast-grep.github.io/reference/cli.html")
		}
	case 1:
		shell = fs.args[0]
		if scriptWriters[shell] == nil {
			names := make([]string, len(shells))
			for i, s := range shells {
				names[i] = s.name
			}
			return e.errorf("invalid value '%s' for '[SHELL]' [possible values: %s]", shell, strings.Join(names, ", "))
		}
	default:
		return e.errorf("unexpected argument '%s'", fs.args[1])
	}
	scriptWriters[shell](e.stdout, completionTree(ctx))
	return exitMatch
}

// exitNoShell is ast-grep's status when it cannot tell the shell.
const exitNoShell = 10

// compTree is what a completion script offers: loupe's own flags and
// commands, and each command's flags and first-argument words.
type compTree struct {
	root     *compCommand
	commands []*compCommand // by name
}

// compCommand is one command's completions.
type compCommand struct {
	name, summary string
	flags         []*flagSpec
	words         []subcommand // the values of its first argument, if limited
}

// completionTree collects what the scripts complete from the commands
// themselves: each command is run with --help, which declares its flags
// (see declared), with output discarded.
func completionTree(ctx context.Context) *compTree {
	t := &compTree{root: &compCommand{name: "loupe", flags: rootFlags().flags}}
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	quiet := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	for _, n := range names {
		c := commands[n]
		cc := &compCommand{name: n, summary: c.summary, words: c.subcommands}
		c.run(ctx, quiet, []string{"--help"})
		if fs, ok := declared.Load(n); ok {
			cc.flags = fs.(*flagSet).flags
		}
		t.commands = append(t.commands, cc)
		t.root.words = append(t.root.words, subcommand{n, c.summary})
	}
	// help COMMAND is dispatch's own.
	help := &compCommand{name: "help", summary: "Print the help of a command", words: t.root.words}
	t.commands = append(t.commands, help)
	t.root.words = append(t.root.words, subcommand{help.name, help.summary})
	sort.Slice(t.commands, func(i, j int) bool { return t.commands[i].name < t.commands[j].name })
	sort.Slice(t.root.words, func(i, j int) bool { return t.root.words[i].name < t.root.words[j].name })
	return t
}

// values are the values completions offer for the flag: its choices, or
// the ones it suggests.
func (f *flagSpec) completionValues() []string {
	if f.choices != nil {
		return f.choices
	}
	return f.hints
}

// takesValue reports whether the flag takes a value (always, or with `=`).
func (f *flagSpec) takesValue() bool { return f.kind != boolFlag }

// names are the flag's spellings: -x and --long.
func (f *flagSpec) names() []string {
	var out []string
	if f.short != 0 {
		out = append(out, "-"+string(f.short))
	}
	return append(out, "--"+f.long)
}

// pathValued reports whether the flag's value is a file or folder, by its
// metavariable (CONFIG_FILE, DIR, PATH, …).
func (f *flagSpec) pathValued() bool {
	m := f.metavar
	return strings.HasSuffix(m, "FILE") || strings.HasSuffix(m, "DIR") || m == "PATH" || m == "TARGET"
}

// languageNames are the --lang values completions suggest.
func languageNames() []string {
	var out []string
	for _, l := range language.All() {
		out = append(out, l.Name())
	}
	return out
}

// flagWords lists every spelling of flags.
func flagWords(flags []*flagSpec) []string {
	var out []string
	for _, f := range flags {
		out = append(out, f.names()...)
	}
	return out
}

func wordNames(words []subcommand) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = w.name
	}
	return out
}

func writeBash(w io.Writer, t *compTree) {
	var b strings.Builder
	b.WriteString(`# bash completion for loupe: loupe completions bash > /etc/bash_completion.d/loupe
_loupe() {
    local cur prev cmd pre eq
    COMPREPLY=()
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev=""
    if (( COMP_CWORD > 0 )); then prev="${COMP_WORDS[COMP_CWORD-1]}"; fi
    pre=""
    eq=""
    # --flag=value: bash splits the word at "=" (COMP_WORDBREAKS) or not.
    if [[ "${cur}" == "=" ]]; then
        cur=""; pre="="; eq=1
    elif [[ "${prev}" == "=" && ${COMP_CWORD} -ge 2 ]]; then
        prev="${COMP_WORDS[COMP_CWORD-2]}"; eq=1
    elif [[ "${cur}" == --*=* ]]; then
        prev="${cur%%=*}"; pre="${prev}="; cur="${cur#*=}"; eq=1
    fi
    cmd=""
    if (( COMP_CWORD >= 2 )); then
        case "${COMP_WORDS[1]}" in
`)
	fmt.Fprintf(&b, "            %s) cmd=\"${COMP_WORDS[1]}\" ;;\n", strings.Join(wordNames(t.root.words), "|"))
	b.WriteString(`            -*) cmd="run" ;;
        esac
    fi
    case "${cmd}" in
        "")
`)
	fmt.Fprintf(&b, "            COMPREPLY=( $(compgen -W %s -- \"${cur}\") )\n", bashQuote(strings.Join(append(flagWords(t.root.flags), wordNames(t.root.words)...), " ")))
	b.WriteString("            return 0\n            ;;\n")
	for _, c := range t.commands {
		fmt.Fprintf(&b, "        %s)\n", c.name)
		// Values after "--flag=": every flag that takes one.
		var eqCases, spaceCases strings.Builder
		for _, f := range c.flags {
			if !f.takesValue() {
				continue
			}
			action := "return 0"
			if vs := f.completionValues(); len(vs) > 0 {
				action = fmt.Sprintf("COMPREPLY=( $(compgen -P \"${pre}\" -W %s -- \"${cur}\") ); return 0", bashQuote(strings.Join(vs, " ")))
			}
			if f.pathValued() {
				action = `COMPREPLY=( $(compgen -P "${pre}" -f -- "${cur}") ); return 0`
			}
			long := "--" + f.long
			fmt.Fprintf(&eqCases, "                    %s) %s ;;\n", long, action)
			if f.kind != optionalFlag {
				fmt.Fprintf(&spaceCases, "                    %s) %s ;;\n", strings.Join(f.names(), "|"), action)
			}
		}
		if eqCases.Len() > 0 {
			fmt.Fprintf(&b, "            if [[ -n \"${eq}\" ]]; then\n                case \"${prev}\" in\n%s                esac\n", eqCases.String())
			if spaceCases.Len() > 0 {
				fmt.Fprintf(&b, "            else\n                case \"${prev}\" in\n%s                esac\n", spaceCases.String())
			}
			b.WriteString("            fi\n")
		}
		fmt.Fprintf(&b, "            if [[ \"${cur}\" == -* ]]; then\n                COMPREPLY=( $(compgen -W %s -- \"${cur}\") )\n                return 0\n            fi\n",
			bashQuote(strings.Join(flagWords(c.flags), " ")))
		if len(c.words) > 0 {
			fmt.Fprintf(&b, "            if (( COMP_CWORD == 2 )); then\n                COMPREPLY=( $(compgen -W %s -- \"${cur}\") )\n                return 0\n            fi\n",
				bashQuote(strings.Join(wordNames(c.words), " ")))
		}
		b.WriteString("            return 0\n            ;;\n")
	}
	b.WriteString(`    esac
}

complete -F _loupe -o bashdefault -o default loupe
`)
	io.WriteString(w, b.String())
}

// bashQuote quotes s as one shell word.
func bashQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func writeZsh(w io.Writer, t *compTree) {
	var b strings.Builder
	b.WriteString(`#compdef loupe

# zsh completion for loupe: loupe completions zsh > "${fpath[1]}/_loupe"
_loupe() {
    local curcontext="$curcontext" state line ret=1
    typeset -A opt_args
    _arguments -C -s -S : \
`)
	for _, f := range t.root.flags {
		fmt.Fprintf(&b, "        '(- *)'{%s}'[%s]' \\\n", strings.Join(f.names(), ","), zshEscape(f.help))
	}
	b.WriteString(`        '1: :_loupe_commands' \
        '*:: :->command' && ret=0
    case $state in
    (command)
        curcontext="${curcontext%:*:*}:loupe-command-$line[1]:"
        case $line[1] in
`)
	for _, c := range t.commands {
		fmt.Fprintf(&b, "        (%s)\n            _arguments -s -S : \\\n", c.name)
		for _, f := range c.flags {
			for _, spec := range zshSpecs(f) {
				fmt.Fprintf(&b, "                %s \\\n", spec)
			}
		}
		if len(c.words) > 0 {
			var alts []string
			for _, wd := range c.words {
				alts = append(alts, wd.name+`\:"`+zshDescribe(wd.summary)+`"`)
			}
			fmt.Fprintf(&b, "                '1::%s:((%s))' \\\n", strings.ToUpper(c.name), strings.Join(alts, " "))
		}
		b.WriteString("                '*:argument:_files' && ret=0\n            ;;\n")
	}
	b.WriteString(`        esac
        ;;
    esac
    return ret
}

(( $+functions[_loupe_commands] )) ||
_loupe_commands() {
    local commands; commands=(
`)
	for _, wd := range t.root.words {
		fmt.Fprintf(&b, "        '%s:%s'\n", wd.name, zshQuoteDescribe(wd.summary))
	}
	b.WriteString(`    )
    _describe -t commands 'loupe commands' commands "$@"
}

if [ "$funcstack[1]" = "_loupe" ]; then
    _loupe "$@"
else
    compdef _loupe loupe
fi
`)
	io.WriteString(w, b.String())
}

// zshSpecs are the _arguments specs of a flag, one per spelling.
func zshSpecs(f *flagSpec) []string {
	help := zshEscape(f.help)
	rep := ""
	if f.kind == listFlag {
		rep = "*"
	}
	if f.kind == boolFlag {
		var out []string
		for _, n := range f.names() {
			out = append(out, "'"+rep+n+"["+help+"]'")
		}
		return out
	}
	action := "_default"
	if vs := f.completionValues(); len(vs) > 0 {
		action = "(" + strings.Join(vs, " ") + ")"
	} else if f.pathValued() {
		action = "_files"
	}
	arg := ":" + f.metavar + ":" + action
	if f.kind == optionalFlag {
		return []string{"'" + rep + "--" + f.long + "=-[" + help + "]:" + arg + "'"}
	}
	var out []string
	if f.short != 0 {
		out = append(out, "'"+rep+"-"+string(f.short)+"+["+help+"]"+arg+"'")
	}
	return append(out, "'"+rep+"--"+f.long+"=["+help+"]"+arg+"'")
}

// zshEscape escapes s for the description of an _arguments spec inside
// single quotes.
func zshEscape(s string) string {
	s = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
	return strings.ReplaceAll(s, "'", `'\''`)
}

// zshDescribe escapes s for a description in double quotes inside a
// single-quoted _arguments spec.
func zshDescribe(s string) string {
	s = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(s)
	return strings.ReplaceAll(s, "'", `'\''`)
}

// zshQuoteDescribe escapes s for the description of a _describe entry
// inside single quotes.
func zshQuoteDescribe(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, ":", `\:`), "'", `'\''`)
}

func writeFish(w io.Writer, t *compTree) {
	var b strings.Builder
	b.WriteString(`# fish completion for loupe: loupe completions fish > ~/.config/fish/completions/loupe.fish

# The command of the command line: its first word after loupe, or run when
# that word is a flag.
function __fish_loupe_command
    set -l words (commandline -opc)
    if test (count $words) -ge 2
        switch $words[2]
`)
	fmt.Fprintf(&b, "            case %s\n                echo $words[2]\n", strings.Join(wordNames(t.root.words), " "))
	b.WriteString(`            case '-*'
                echo run
        end
    end
end

function __fish_loupe_needs_command
    test (count (commandline -opc)) -eq 1
end

function __fish_loupe_using_command
    contains -- (__fish_loupe_command) $argv
end

function __fish_loupe_first_argument
    test (count (commandline -opc)) -eq 2
end

`)
	for _, f := range t.root.flags {
		fmt.Fprintf(&b, "complete -c loupe -n __fish_loupe_needs_command%s -d %s\n", fishFlag(f), fishQuote(f.help))
	}
	for _, wd := range t.root.words {
		fmt.Fprintf(&b, "complete -c loupe -n __fish_loupe_needs_command -f -a %s -d %s\n", wd.name, fishQuote(wd.summary))
	}
	for _, c := range t.commands {
		cond := fishQuote("__fish_loupe_using_command " + c.name)
		for _, f := range c.flags {
			fmt.Fprintf(&b, "complete -c loupe -n %s%s -d %s\n", cond, fishFlag(f), fishQuote(f.help))
		}
		for _, wd := range c.words {
			fmt.Fprintf(&b, "complete -c loupe -n %s -f -a %s -d %s\n",
				fishQuote("__fish_loupe_using_command "+c.name+"; and __fish_loupe_first_argument"), wd.name, fishQuote(wd.summary))
		}
	}
	io.WriteString(w, b.String())
}

// fishFlag is a flag's part of a fish complete command: its spellings and
// what its value takes.
func fishFlag(f *flagSpec) string {
	var b strings.Builder
	if f.short != 0 {
		fmt.Fprintf(&b, " -s %c", f.short)
	}
	fmt.Fprintf(&b, " -l %s", f.long)
	if f.takesValue() {
		b.WriteString(" -r")
		if vs := f.completionValues(); len(vs) > 0 {
			fmt.Fprintf(&b, " -f -a %s", fishQuote(strings.Join(vs, " ")))
		} else if f.pathValued() {
			b.WriteString(" -F")
		}
	}
	return b.String()
}

// fishQuote quotes s as one fish word.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

func writePowerShell(w io.Writer, t *compTree) {
	var b strings.Builder
	b.WriteString(`# PowerShell completion for loupe: loupe completions powershell | Out-String | Invoke-Expression
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'loupe' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    # The command so far: loupe and its words up to the first flag.
    $commandElements = $commandAst.CommandElements
    $command = @(
        'loupe'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
            }
            $element.Value
        }) -join ';'

    $completions = @(switch ($command) {
`)
	psCase := func(key string, flags []*flagSpec, words []subcommand) {
		fmt.Fprintf(&b, "        %s {\n", psQuote(key))
		for _, f := range flags {
			for _, n := range f.names() {
				fmt.Fprintf(&b, "            [CompletionResult]::new(%s, %s, [CompletionResultType]::ParameterName, %s)\n", psQuote(n), psQuote(n), psQuote(f.help))
			}
		}
		for _, wd := range words {
			fmt.Fprintf(&b, "            [CompletionResult]::new(%s, %s, [CompletionResultType]::ParameterValue, %s)\n", psQuote(wd.name), psQuote(wd.name), psQuote(wd.summary))
		}
		b.WriteString("            break\n        }\n")
	}
	psCase("loupe", t.root.flags, t.root.words)
	for _, c := range t.commands {
		psCase("loupe;"+c.name, c.flags, c.words)
		if c.name == "help" {
			continue
		}
		for _, wd := range c.words {
			psCase("loupe;"+c.name+";"+wd.name, c.flags, nil)
		}
	}
	b.WriteString(`    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
`)
	io.WriteString(w, b.String())
}

// psQuote quotes s as a PowerShell verbatim string.
func psQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func writeElvish(w io.Writer, t *compTree) {
	var b strings.Builder
	b.WriteString(`# Elvish completion for loupe: eval (loupe completions elvish | slurp)
use builtin;
use str;

set edit:completion:arg-completer[loupe] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    # The command so far: loupe and its words up to the first flag.
    var command = 'loupe'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
`)
	elvCase := func(key string, flags []*flagSpec, words []subcommand) {
		fmt.Fprintf(&b, "        &%s= {\n", elvQuote(key))
		for _, f := range flags {
			for _, n := range f.names() {
				fmt.Fprintf(&b, "            cand %s %s\n", n, elvQuote(f.help))
			}
		}
		for _, wd := range words {
			fmt.Fprintf(&b, "            cand %s %s\n", wd.name, elvQuote(wd.summary))
		}
		b.WriteString("        }\n")
	}
	elvCase("loupe", t.root.flags, t.root.words)
	for _, c := range t.commands {
		elvCase("loupe;"+c.name, c.flags, c.words)
		if c.name == "help" {
			continue
		}
		for _, wd := range c.words {
			elvCase("loupe;"+c.name+";"+wd.name, c.flags, nil)
		}
	}
	b.WriteString(`    ]
    if (has-key $completions $command) {
        $completions[$command]
    }
}
`)
	io.WriteString(w, b.String())
}

// elvQuote quotes s as an Elvish single-quoted string.
func elvQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
