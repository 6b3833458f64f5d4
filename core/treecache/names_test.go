package treecache

import (
	"context"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
)

// TestNames saves and loads every built-in language's name table: it comes
// back equal, under its grammar's hash only; a damaged table is refused
// and saving again repairs it.
func TestNames(t *testing.T) {
	s, err := Open(t.TempDir(), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{} // grammars saved (Vue is HTML's grammar)
	for _, l := range language.All() {
		names, err := l.Names(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		grammar := l.Info().SHA256
		if seen[grammar] {
			continue
		}
		seen[grammar] = true
		if _, ok := s.LoadNames(grammar); ok {
			t.Fatalf("%s: names found before they were saved", l.Name())
		}
		if err := s.SaveNames(grammar, names); err != nil {
			t.Fatal(err)
		}
		got, ok := s.LoadNames(grammar)
		if !ok || !reflect.DeepEqual(got, names) {
			t.Fatalf("%s: names do not load back", l.Name())
		}
		if _, ok := s.LoadNames(grammar + "0"); ok {
			t.Fatalf("%s: names load under another grammar", l.Name())
		}
		// Another process finds the table, without the packs' indexes.
		other, err := Open(s.Dir(), 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := other.LoadNames(grammar); !ok || !reflect.DeepEqual(got, names) {
			t.Fatalf("%s: names do not load in another Store", l.Name())
		}
		path := s.namesPath(namesKey(grammar))
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, damage := range []func([]byte) []byte{
			func(b []byte) []byte { c := slices.Clone(b); c[len(c)/2] ^= 0x20; return c },
			func(b []byte) []byte { return b[:len(b)-1] },
			func(b []byte) []byte { return nil },
		} {
			if err := os.WriteFile(path, damage(b), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, ok := s.LoadNames(grammar); ok {
				t.Fatalf("%s: damaged names load", l.Name())
			}
			if err := s.SaveNames(grammar, names); err != nil {
				t.Fatal(err)
			}
			if got, ok := s.LoadNames(grammar); !ok || !reflect.DeepEqual(got, names) {
				t.Fatalf("%s: names do not load after saving again", l.Name())
			}
		}
	}
}
