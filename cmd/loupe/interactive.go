package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/printer"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/ruletest"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
	"golang.org/x/term"
)

// The interactive sessions of `run -i`, `scan -i` and `test -i` are
// ast-grep's: each change (a rewrite, a fix, a new snapshot) is shown on
// a screen of its own with the diff it makes, and a key decides it;
// findings without a change are shown a file (scan: a file and a rule)
// at a time. Accepted rewrites and fixes are written when the review of
// their file is over, through the same atomic rewrite.WriteFile as -U;
// accepted snapshots when the review is over, as -U writes them.

// The prompts, as ast-grep words them.
const (
	editPrompt = "Accept? [y]es/[↵], [n]o, [a]ll, [q]uit, [e]dit"
	viewPrompt = "Next[enter], Quit[q], Edit[e]"
)

// The terminal sequences around each screen: ast-grep draws a screen on
// the alternate screen, cleared, and leaves it after the answer.
const (
	enterAltScreen = "\x1b[?1049h"
	leaveAltScreen = "\x1b[?1049l"
	clearScreen    = "\x1b[2J\x1b[1;1H"
)

// errQuit ends a session on the user's `q`: what was accepted is saved.
var errQuit = errors.New("interactive editing exited")

// session is one interactive review, reading single keys from a
// terminal in raw mode and drawing on out.
type session struct {
	tty       *os.File // where keys are read (and the editor runs)
	ownTTY    bool     // tty was opened by the session, which closes it
	out       *bufio.Writer
	stderr    io.Writer
	getenv    func(string) string
	pal       printer.Palette
	acceptAll bool   // `a` was answered: the rest is accepted unasked
	applied   int    // changes accepted
	pending   []byte // keys read from the terminal but not yet answered
}

// errNoTerminal is an interactive session without a terminal to ask on.
var errNoTerminal = errors.New("--interactive needs a terminal: neither standard input nor /dev/tty is one (use --update-all to apply every change)")

// newSession starts a session on standard input when it is a terminal,
// else on the process's controlling terminal (as ast-grep's terminal
// library does); without either it fails.
func newSession(e *env, out *bufio.Writer, pal printer.Palette) (*session, error) {
	s := &session{out: out, stderr: e.stderr, getenv: e.getenv, pal: pal}
	if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		s.tty = f
		return s, nil
	}
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, errNoTerminal
	}
	if !term.IsTerminal(int(f.Fd())) {
		f.Close()
		return nil, errNoTerminal
	}
	s.tty, s.ownTTY = f, true
	return s, nil
}

// close releases the terminal the session opened.
func (s *session) close() {
	if s.ownTTY {
		s.tty.Close()
	}
}

// quitMessage is what ast-grep says when the user quits.
func (s *session) quitMessage() {
	fmt.Fprint(s.stderr, "Warning: Interactive editing exited.\nHelp: Your accepted edit has been saved.\n\n")
}

// readKey reads one key press in raw mode: Enter is '\n', Tab '\t',
// Ctrl-C 'q', a character itself; other keys (arrows, function keys,
// Escape) are passed over, as ast-grep passes them over.
func (s *session) readKey() (rune, error) {
	fd := int(s.tty.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		return 0, fmt.Errorf("terminal: %w", err)
	}
	defer term.Restore(fd, old)
	for {
		if len(s.pending) == 0 {
			buf := make([]byte, 64)
			n, err := s.tty.Read(buf)
			if err != nil {
				return 0, fmt.Errorf("read the terminal: %w", err)
			}
			s.pending = buf[:n]
			continue
		}
		k := s.pending
		if k[0] == 0x1b {
			// An escape sequence arrives in one read: drop it whole.
			s.pending = nil
			continue
		}
		r, size := utf8.DecodeRune(k)
		s.pending = k[size:]
		switch {
		case r == '\r' || r == '\n':
			return '\n', nil
		case r == '\t':
			return '\t', nil
		case r == 3:
			return 'q', nil
		case r < 0x20 || r == 0x7f:
			continue
		}
		return r, nil
	}
}

// prompt writes text and reads keys until one of letters (or Enter, which
// is def) is pressed, saying so after any other key.
func (s *session) prompt(text, letters string, def rune) (rune, error) {
	for {
		s.out.WriteString(text)
		if err := s.out.Flush(); err != nil {
			return 0, fmt.Errorf("write output: %w", err)
		}
		k, err := s.readKey()
		if err != nil {
			return 0, err
		}
		if k == '\n' {
			return def, nil
		}
		if strings.ContainsRune(letters, k) {
			return k, nil
		}
		fmt.Fprintln(s.stderr, "Unrecognized command, try again?")
	}
}

// screen draws a screen on the alternate screen, cleared first, runs ask,
// and leaves the alternate screen.
func (s *session) screen(draw func(io.Writer), ask func() error) error {
	s.out.WriteString(enterAltScreen + clearScreen)
	draw(s.out)
	err := ask()
	s.out.WriteString(leaveAltScreen)
	if ferr := s.out.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("write output: %w", ferr)
	}
	return err
}

// edit opens path in $EDITOR (vim by default) at line (0-based), as
// ast-grep does: `EDITOR PATH +LINE`, on the terminal.
func (s *session) edit(path string, line int) error {
	editor := s.getenv("EDITOR")
	if editor == "" {
		editor = "vim"
	}
	cmd := exec.Command(editor, path, fmt.Sprintf("+%d", line+1))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.tty, s.tty, s.tty
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("cannot open %s in the editor %q: %v; check that the EDITOR environment variable names an installed editor", path, editor, err)
	}
	return nil
}

// change is one proposed change of a file: the edits of its options (a
// rewrite has one, a rule one per fix), each drawn by show.
type change struct {
	line    int // the match's first line (0-based), for the editor
	options []rewrite.Edit
	titles  []string // the options' titles, "" for none
	show    func(w io.Writer, option int)
}

// review asks about each change of one file in order, passing over the
// options that start before the end of the last accepted change (and a
// change left with none); it returns the accepted edits. It returns
// errQuit after `q`, with the edits accepted before.
func (s *session) review(path string, changes []change) ([]rewrite.Edit, error) {
	var accepted []rewrite.Edit
	end := 0
	for _, c := range changes {
		if c = c.after(end); len(c.options) == 0 {
			continue
		}
		if s.acceptAll {
			accepted = append(accepted, c.options[0])
			end = c.options[0].End
			s.applied++
			continue
		}
		choice, option, err := s.ask(path, c)
		if err != nil {
			return accepted, err
		}
		switch choice {
		case 'q':
			return accepted, errQuit
		case 'y', 'a':
			accepted = append(accepted, c.options[option])
			end = c.options[option].End
			s.applied++
			s.acceptAll = choice == 'a'
		}
	}
	return accepted, nil
}

// after returns the change with only its options starting at or after
// end, each still drawn as the option it was.
func (c change) after(end int) change {
	var kept []int
	for i, o := range c.options {
		if o.Start >= end {
			kept = append(kept, i)
		}
	}
	if len(kept) == len(c.options) {
		return c
	}
	out := change{line: c.line, show: func(w io.Writer, i int) { c.show(w, kept[i]) }}
	for _, i := range kept {
		out.options = append(out.options, c.options[i])
		out.titles = append(out.titles, c.titles[i])
	}
	return out
}

// ask shows a change and returns the answer and the option shown when it
// was given; Tab shows the next option.
func (s *session) ask(path string, c change) (rune, int, error) {
	option := 0
	var choice rune
	err := s.screen(func(w io.Writer) { s.drawChange(w, c, option) }, func() error {
		for {
			k, err := s.prompt(editPrompt, "ynaqe\t", 'y')
			if err != nil {
				return err
			}
			switch k {
			case '\t':
				option = (option + 1) % len(c.options)
				s.out.WriteString(clearScreen)
				s.drawChange(s.out, c, option)
				continue
			case 'e':
				choice = 'n'
				return s.edit(path, c.line)
			}
			choice = k
			return nil
		}
	})
	return choice, option, err
}

// drawChange draws option i of a change and, when it has several, their
// titles with the one shown marked, as ast-grep lists them.
func (s *session) drawChange(w io.Writer, c change, i int) {
	c.show(w, i)
	if len(c.options) <= 1 {
		return
	}
	fmt.Fprintln(w, s.pal.Emphasis.Paint("Switch fix by [tab]:"))
	for j, t := range c.titles {
		if t == "" {
			t = "No title"
		}
		if j == i {
			fmt.Fprintf(w, "%s %s\n", s.pal.Hunk.Paint("⇥"), s.pal.Emphasis.Paint(t))
		} else {
			fmt.Fprintf(w, "  %s\n", t)
		}
	}
	fmt.Fprintln(w)
}

// view shows findings that change nothing and waits for Enter; `e` opens
// the file at line (0-based), `q` quits with errQuit. After `a` they are
// printed as they are without a session.
func (s *session) view(path string, line int, draw func(io.Writer)) error {
	if s.acceptAll {
		draw(s.out)
		return nil
	}
	return s.screen(draw, func() error {
		switch k, err := s.prompt(viewPrompt, "qe", '\n'); {
		case err != nil:
			return err
		case k == 'q':
			return errQuit
		case k == 'e':
			return s.edit(path, line)
		}
		return nil
	})
}

// write applies a file's accepted edits to src and writes the file
// atomically. The file must still hold src: one changed meanwhile (in
// the editor the session opened) is left alone rather than overwritten.
func (s *session) write(abs string, src []byte, edits []rewrite.Edit) error {
	if len(edits) == 0 {
		return nil
	}
	updated, err := rewrite.Apply(src, edits)
	if err != nil {
		return err
	}
	now, err := os.ReadFile(abs)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, src) {
		s.applied -= len(edits)
		return fmt.Errorf("%s changed during the review; its %d accepted change(s) were not written", abs, len(edits))
	}
	return rewrite.WriteFile(abs, updated)
}

// review runs the -i session over one file's matches: with --rewrite a
// screen for each rewrite, which is written when accepted, else one
// screen of the file's matches. `q` stops the search (search.ErrStop).
func (r *runner) review(path, abs string, t *tree.Tree, ms []search.Match) error {
	s := r.session
	var err error
	if r.o.rewrite == nil {
		nodes := make([]tree.Node, len(ms))
		for i, m := range ms {
			nodes[i] = m.Node
		}
		mp := printer.Matches{Heading: r.o.heading, Before: r.o.before, After: r.o.after, Palette: r.pal}
		err = s.view(path, ms[0].Node.StartPoint().Row, func(w io.Writer) { mp.Print(w, path, nodes) })
	} else {
		src := t.Source()
		changes := make([]change, 0, len(ms))
		for _, m := range ms {
			e := rewrite.Edit{Start: m.Node.StartByte(), End: m.Node.EndByte(), Text: []byte(r.o.rewrite.Render(m.Env, m.Node))}
			if err := m.Env.Budget().Err(); err != nil {
				fmt.Fprintf(r.e.stderr, "Error: %s: rewrite at line %d: %v\n", path, m.Node.StartPoint().Row+1, err)
				r.failed = true
				return nil
			}
			changes = append(changes, change{line: m.Node.StartPoint().Row, options: []rewrite.Edit{e}, titles: []string{""}, show: func(w io.Writer, _ int) {
				fmt.Fprintln(w, r.pal.Path.Paint(path))
				updated := string(src[:e.Start]) + string(e.Text) + string(src[e.End:])
				printer.Diff(w, string(src), updated, diffContext(r.o.before), r.pal)
			}})
		}
		var accepted []rewrite.Edit
		accepted, err = s.review(path, changes)
		if werr := s.write(abs, src, accepted); werr != nil {
			fmt.Fprintf(r.e.stderr, "Error: %v\n", werr)
			r.failed = true
		}
	}
	if errors.Is(err, errQuit) {
		r.quit = true
		return search.ErrStop
	}
	if err != nil {
		return err
	}
	return r.flush()
}

// review runs the -i session over one scanned file, as ast-grep does:
// a screen for each fix (the rule's fixes a Tab apart), the accepted
// ones written when the file is done, then a screen for each rule
// without a fix that fired. `q` stops the scan (search.ErrStop).
func (p *scanPrinter) review(r fileResult) error {
	fs := r.findings
	if len(fs) == 0 {
		return nil
	}
	fs = fs[:p.take(len(fs), func(i int) bool { return p.failsOn(fs[i]) })]
	s := p.session
	rep := printer.Report{Style: p.o.reportStyle, Context: diffContext(p.o.before), StartContext: p.o.before, EndContext: p.o.after, Palette: p.pal}
	var changes []change
	var others []rule.Finding
	for _, f := range fs {
		if len(f.Config.Fixes) == 0 {
			others = append(others, f)
			continue
		}
		c := change{line: f.Node.StartPoint().Row}
		for _, fix := range f.Config.Fixes {
			c.options = append(c.options, fix.Edit(f.Node, f.Env))
			c.titles = append(c.titles, fix.Title)
			if err := f.Env.Budget().Err(); err != nil {
				fmt.Fprintf(p.e.stderr, "Error: %s: fix of rule %s at line %d: %v\n", r.path, f.Config.ID, c.line+1, err)
				p.failed = true
				return nil
			}
		}
		c.show = func(w io.Writer, i int) { rep.PrintFix(w, r.path, r.src, f, c.options[i]) }
		changes = append(changes, c)
	}
	accepted, err := s.review(r.path, changes)
	if werr := s.write(r.abs, r.src, accepted); werr != nil {
		fmt.Fprintf(p.e.stderr, "Error: %v\n", werr)
		p.failed = true
	}
	for _, group := range printer.GroupByRule(others) {
		if err != nil {
			break
		}
		err = s.view(r.path, group[0].Node.StartPoint().Row, func(w io.Writer) { rep.Print(w, r.path, r.src, group) })
	}
	if errors.Is(err, errQuit) {
		p.quit = true
		return search.ErrStop
	}
	return err
}

// snapshotPrompt is ast-grep's question for a changed snapshot.
const snapshotPrompt = "Accept new snapshot? (Yes[y], No[n], Accept All[a], Quit[q])"

// snapshot shows a failing test case of rule id on a screen of its own,
// as `test -i` does: a changed or new snapshot is accepted (its status
// becomes Updated) on `y` or, from then on, `a`; Enter is `n`. Another
// failure waits for Enter. `q` returns errQuit.
func (s *session) snapshot(id string, st *ruletest.Status) error {
	if st.Kind == ruletest.Pass {
		return nil
	}
	return s.screen(func(w io.Writer) { reportDetail(w, id, *st) }, func() error {
		if st.Kind != ruletest.Wrong {
			if k, err := s.prompt("Next[enter], Quit[q]", "q", '\n'); err != nil || k != 'q' {
				return err
			}
			return errQuit
		}
		k := 'a'
		if !s.acceptAll {
			var err error
			if k, err = s.prompt(snapshotPrompt, "ynaq", 'n'); err != nil {
				return err
			}
		}
		switch k {
		case 'q':
			return errQuit
		case 'y', 'a':
			st.Kind = ruletest.Updated
			s.acceptAll = k == 'a'
		}
		return nil
	})
}
