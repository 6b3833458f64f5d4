package main

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// flagSet parses command lines the way ast-grep's (clap) do: `-x VALUE`,
// `-xVALUE`, `--long VALUE`, `--long=VALUE`, flags and positional
// arguments in any order, `--` ending the flags. A flag with an optional
// value (`--json[=STYLE]`) takes one only after `=`.
type flagSet struct {
	cmd   string
	flags []*flagSpec
	args  []string // positional arguments
}

type flagKind uint8

const (
	boolFlag     flagKind = iota // no value
	valueFlag                    // one value; repeated, the last wins
	optionalFlag                 // a value only with `=`; alone, its default
	listFlag                     // one value, repeatable, all kept
)

type flagSpec struct {
	short   byte
	long    string
	kind    flagKind
	metavar string
	help    string
	missing string   // optionalFlag: the value when given without `=`
	choices []string // the values allowed, when limited (see choose)
	hints   []string // values completions suggest, not limited to (see suggest)

	set    bool
	value  string
	values []string
}

// newFlagSet returns a command's flag set, which declared then remembers
// under the command's name.
func newFlagSet(cmd string) *flagSet {
	fs := &flagSet{cmd: cmd}
	declared.Store(cmd, fs)
	return fs
}

// declared holds the flag set each command created last, by the name it
// gave newFlagSet: completions learns a command's flags from the command
// itself, by running it with --help, so that no list of flags is kept
// apart from the command's own.
var declared sync.Map // command name → *flagSet

// choose limits the flag's values to choices, which Parse checks and
// completions offer.
func (f *flagSpec) choose(choices ...string) *flagSpec {
	f.choices = choices
	return f
}

// suggest gives values for completions to offer, which the flag is not
// limited to (a language's aliases are accepted too).
func (f *flagSpec) suggest(hints ...string) *flagSpec {
	f.hints = hints
	return f
}

func (fs *flagSet) add(short byte, long string, kind flagKind, metavar, help string) *flagSpec {
	f := &flagSpec{short: short, long: long, kind: kind, metavar: metavar, help: help}
	fs.flags = append(fs.flags, f)
	return f
}

// Bool adds a switch.
func (fs *flagSet) Bool(short byte, long, help string) *flagSpec {
	return fs.add(short, long, boolFlag, "", help)
}

// String adds a flag with one value.
func (fs *flagSet) String(short byte, long, metavar, help string) *flagSpec {
	return fs.add(short, long, valueFlag, metavar, help)
}

// Optional adds a flag whose value is optional (given with `=`).
func (fs *flagSet) Optional(long, metavar, missing, help string) *flagSpec {
	f := fs.add(0, long, optionalFlag, metavar, help)
	f.missing = missing
	return f
}

// List adds a repeatable flag.
func (fs *flagSet) List(short byte, long, metavar, help string) *flagSpec {
	return fs.add(short, long, listFlag, metavar, help)
}

func (fs *flagSet) byLong(name string) *flagSpec {
	for _, f := range fs.flags {
		if f.long == name {
			return f
		}
	}
	return nil
}

func (fs *flagSet) byShort(c byte) *flagSpec {
	for _, f := range fs.flags {
		if f.short != 0 && f.short == c {
			return f
		}
	}
	return nil
}

// Parse parses args and checks the values of flags with choices; errors
// name the offending flag.
func (fs *flagSet) Parse(args []string) error {
	if err := fs.parse(args); err != nil {
		return err
	}
	for _, f := range fs.flags {
		if err := f.check(); err != nil {
			return err
		}
	}
	return nil
}

func (fs *flagSet) parse(args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			fs.args = append(fs.args, args[i+1:]...)
			return nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			f := fs.byLong(name)
			if f == nil {
				return fmt.Errorf("unexpected argument '--%s'", name)
			}
			switch f.kind {
			case boolFlag:
				if hasVal {
					return fmt.Errorf("unexpected value '%s' for '--%s'", val, name)
				}
				f.setValue("")
			case optionalFlag:
				if !hasVal {
					val = f.missing
				}
				f.setValue(val)
			default:
				if !hasVal {
					if i+1 >= len(args) {
						return fmt.Errorf("a value is required for '%s'", f.display())
					}
					i++
					val = args[i]
				}
				f.setValue(val)
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// A cluster of short switches, the last of which may take a value.
			for j := 1; j < len(a); j++ {
				f := fs.byShort(a[j])
				if f == nil {
					return fmt.Errorf("unexpected argument '-%c'", a[j])
				}
				if f.kind == boolFlag {
					f.setValue("")
					continue
				}
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return fmt.Errorf("a value is required for '%s'", f.display())
					}
					i++
					val = args[i]
				}
				f.setValue(strings.TrimPrefix(val, "="))
				break
			}
		default:
			fs.args = append(fs.args, a)
		}
	}
	return nil
}

// setValue records a value: the last one in value, all of them in
// values.
func (f *flagSpec) setValue(v string) {
	f.set = true
	f.value = v
	f.values = append(f.values, v)
}

func (f *flagSpec) display() string {
	name := "--" + f.long
	if f.short != 0 {
		name = "-" + string(f.short) + "/" + name
	}
	if f.metavar != "" {
		name += " <" + f.metavar + ">"
	}
	return name
}

// Int returns the value as a non-negative integer.
func (f *flagSpec) Int() (int, error) {
	if !f.set {
		return 0, nil
	}
	n, err := strconv.Atoi(f.value)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("invalid value '%s' for '%s': not a number", f.value, f.display())
	}
	return n, nil
}

// check checks every value given against the flag's choices, if any.
func (f *flagSpec) check() error {
	if f.choices == nil {
		return nil
	}
	for _, v := range f.values {
		if !contains(f.choices, v) {
			return fmt.Errorf("invalid value '%s' for '%s' [possible values: %s]", v, f.display(), strings.Join(f.choices, ", "))
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// usage renders the flags' help.
func (fs *flagSet) usage(b *strings.Builder) {
	for _, f := range fs.flags {
		var name string
		if f.short != 0 {
			name = "-" + string(f.short) + ", "
		} else {
			name = "    "
		}
		name += "--" + f.long
		switch f.kind {
		case optionalFlag:
			name += "[=<" + f.metavar + ">]"
		case valueFlag, listFlag:
			name += " <" + f.metavar + ">"
		}
		fmt.Fprintf(b, "  %-32s %s\n", name, f.help)
	}
}
