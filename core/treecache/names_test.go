package treecache

import (
	"context"
	"reflect"
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
	for _, l := range language.All() {
		names, err := l.Names(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		grammar := l.Info().SHA256
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
		b := entryOf(t, s, namesKey(grammar))
		b[len(b)/2] ^= 0x20
		dir := t.TempDir()
		forge(t, dir, namesKey(grammar), b)
		damaged, err := Open(dir, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := damaged.LoadNames(grammar); ok {
			t.Fatalf("%s: damaged names load", l.Name())
		}
		if err := damaged.SaveNames(grammar, names); err != nil {
			t.Fatal(err)
		}
		if got, ok := damaged.LoadNames(grammar); !ok || !reflect.DeepEqual(got, names) {
			t.Fatalf("%s: names do not load after saving again", l.Name())
		}
	}
}
