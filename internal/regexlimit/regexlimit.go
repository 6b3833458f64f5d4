// Package regexlimit compiles regular expressions that come from users
// (rule regexes, transforms, the file tools' searches) under bounds on
// the memory compiling and running them takes. Go's regexp never
// backtracks, so a match costs time in proportion to the program's size
// times the text; but the program itself, and the parse that builds it,
// grow with the source and with Unicode classes: a 10 MB source takes
// over a gigabyte to compile, 21,000 \pL escapes half a gigabyte, and
// a{1000} three hundred times 145 MB.
//
// Compile refuses, with an error wrapping ErrTooLarge, a source longer
// than MaxSource bytes or with more than MaxClasses Unicode class escapes
// (\p, \P: each parses into a table of hundreds of ranges) before
// parsing it; a parse whose repetitions would expand past MaxInsts
// instructions before expanding it; and a program of more than MaxInsts instructions before
// regexp.Compile builds the matcher.
package regexlimit

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// The bounds Compile enforces. MaxClasses bounds the memory of the
// parse: each Unicode class escape costs up to about 25 KB. Go's regexp matches in time proportional
// to the program's instructions times the text, so MaxInsts bounds the
// time of a match as well as the memory of the program: a rule's regex
// rarely needs a few hundred instructions; 20,000 is a literal of 20,000
// characters.
const (
	// MaxSource bounds the length of a source in bytes.
	MaxSource = 64 << 10
	// MaxClasses bounds the \p and \P escapes of a source.
	MaxClasses = 1024
	// MaxInsts bounds the instructions of the compiled program.
	MaxInsts = 20_000
)

// ErrTooLarge is wrapped by the errors of sources over a bound.
var ErrTooLarge = errors.New("regular expression too large")

// maxEcho bounds how much of a source an error repeats.
const maxEcho = 60

// Compile is regexp.Compile under the package's bounds. A syntax error
// is a *syntax.Error whose Expr repeats at most a short prefix of the
// offending text.
func Compile(expr string) (*regexp.Regexp, error) {
	if len(expr) > MaxSource {
		return nil, fmt.Errorf("%w: %d bytes, more than the %d allowed", ErrTooLarge, len(expr), MaxSource)
	}
	if n := classEscapes(expr); n > MaxClasses {
		return nil, fmt.Errorf("%w: %d Unicode class escapes (\\p, \\P, or \\w, \\d, \\s in rules), more than the %d allowed", ErrTooLarge, n, MaxClasses)
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, shorten(err)
	}
	// The parse is small; expanding its repetitions is what costs. Its
	// size is estimated first, and the program measured once compiled.
	if insts(re) > MaxInsts {
		return nil, errInsts
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, shorten(err)
	}
	if len(prog.Inst) > MaxInsts {
		return nil, errInsts
	}
	compiled, err := regexp.Compile(expr)
	if err != nil {
		return nil, shorten(err)
	}
	return compiled, nil
}

// classEscapes counts the \p and \P escapes of expr (an escaped
// backslash is not the start of one).
func classEscapes(expr string) int {
	n := 0
	for i := 0; i+1 < len(expr); i++ {
		if expr[i] != '\\' {
			continue
		}
		if c := expr[i+1]; c == 'p' || c == 'P' {
			n++
		}
		i++
	}
	return n
}

var errInsts = fmt.Errorf("%w: it compiles to more than the %d instructions allowed (a repetition such as {1000} copies what it repeats)", ErrTooLarge, MaxInsts)

// insts estimates the instructions re compiles to, from below, without
// expanding its repetitions; it stops counting past MaxInsts.
func insts(re *syntax.Regexp) int {
	sum := func(subs []*syntax.Regexp) int {
		n := 0
		for _, s := range subs {
			n = min(n+insts(s), MaxInsts+1)
		}
		return n
	}
	switch re.Op {
	case syntax.OpLiteral:
		return max(len(re.Rune), 1)
	case syntax.OpConcat:
		return sum(re.Sub)
	case syntax.OpAlternate:
		return min(sum(re.Sub)+len(re.Sub)-1, MaxInsts+1)
	case syntax.OpCapture:
		return min(insts(re.Sub[0])+2, MaxInsts+1)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		return min(insts(re.Sub[0])+1, MaxInsts+1)
	case syntax.OpRepeat:
		copies := re.Max
		if copies < 0 {
			copies = re.Min + 1
		}
		return min(insts(re.Sub[0])*max(copies, 1), MaxInsts+1)
	}
	return 1
}

// shorten cuts the offending text a *syntax.Error repeats to maxEcho
// bytes, so an error about a long source stays one short line.
func shorten(err error) error {
	var se *syntax.Error
	if !errors.As(err, &se) || len(se.Expr) <= maxEcho {
		return err
	}
	cut := maxEcho
	for cut > 0 && !utf8.RuneStart(se.Expr[cut]) {
		cut--
	}
	return &syntax.Error{Code: se.Code, Expr: se.Expr[:cut] + "…"}
}
