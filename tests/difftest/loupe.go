package difftest

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

// Matches calls add with each of the product's matches of one file
// (search.FindAll's) in the suite's terms.
func Matches(file string, found []search.Match, add func(Match)) {
	for _, f := range found {
		n, env := f.Node, f.Env
		r := Match{File: file, Start: n.StartByte(), End: n.EndByte(), Text: n.Text(),
			Singles: map[string]Capture{}, Multis: map[string][]Capture{}}
		env.Singles(func(name string, v tree.Node) {
			r.Singles[name] = Capture{v.Text(), v.StartByte(), v.EndByte()}
		})
		env.Multis(func(name string, vs []tree.Node) {
			cs := make([]Capture, 0, len(vs))
			for _, v := range vs {
				cs = append(cs, Capture{v.Text(), v.StartByte(), v.EndByte()})
			}
			r.Multis[name] = cs
		})
		add(r)
	}
}

// Key renders a match as one comparable line: file, range and every
// metavariable with its text and start.
func (m Match) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d-%d", m.File, m.Start, m.End)
	for _, k := range slices.Sorted(maps.Keys(m.Singles)) {
		v := m.Singles[k]
		fmt.Fprintf(&b, " $%s=%q@%d", k, v.Text, v.Start)
	}
	for _, k := range slices.Sorted(maps.Keys(m.Multis)) {
		fmt.Fprintf(&b, " $$$%s=[", k)
		for i, v := range m.Multis[k] {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%q@%d", v.Text, v.Start)
		}
		b.WriteString("]")
	}
	return b.String()
}

// Answer is one tool's matches for one case: their keys (see Match.Key)
// while there are few, and always a count and an order-free hash per file,
// so that a pattern matching millions of nodes stays small.
type Answer struct {
	Total int
	keep  int
	keys  map[string]int // nil once Total passes keep
	files map[string]digest
}

type digest struct {
	count int
	sum   uint64
}

// NewAnswer returns an empty answer that keeps up to keep keys.
func NewAnswer(keep int) *Answer {
	return &Answer{keep: keep, keys: map[string]int{}, files: map[string]digest{}}
}

// Add records one match.
func (a *Answer) Add(m Match) {
	k := m.Key()
	a.Total++
	if a.keys != nil {
		if a.Total > a.keep {
			a.keys = nil
		} else {
			a.keys[k]++
		}
	}
	h := fnv.New64a()
	h.Write([]byte(k))
	d := a.files[m.File]
	d.count++
	d.sum += h.Sum64()
	a.files[m.File] = d
}

// Compare returns the differences between ast-grep's answer and loupe's,
// one line each; none means they agree. With both answers' keys at hand
// it lists the keys only one side has, else the files whose matches differ.
func Compare(astgrep, loupe *Answer) []string {
	if astgrep.Total == loupe.Total && maps.Equal(astgrep.files, loupe.files) {
		return nil
	}
	var out []string
	if astgrep.keys != nil && loupe.keys != nil {
		for _, k := range slices.Sorted(maps.Keys(union(astgrep.keys, loupe.keys))) {
			for n := astgrep.keys[k] - loupe.keys[k]; n > 0; n-- {
				out = append(out, "ast-grep: "+k)
			}
			for n := loupe.keys[k] - astgrep.keys[k]; n > 0; n-- {
				out = append(out, "loupe:    "+k)
			}
		}
		return out
	}
	for _, f := range slices.Sorted(maps.Keys(union(astgrep.files, loupe.files))) {
		if a, l := astgrep.files[f], loupe.files[f]; a != l {
			out = append(out, fmt.Sprintf("%s: ast-grep %d matches, loupe %d (or other metavariables)", f, a.count, l.count))
		}
	}
	return out
}

func union[V any](a, b map[string]V) map[string]V {
	u := make(map[string]V, len(a)+len(b))
	maps.Copy(u, a)
	maps.Copy(u, b)
	return u
}
