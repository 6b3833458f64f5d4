package language

import (
	"context"
	"reflect"
	"sync"
	"testing"

	"github.com/loupe-dev/loupe/grammars"
	"github.com/loupe-dev/loupe/host"
)

// fakeNames is a NameStore in memory that counts what it is asked.
type fakeNames struct {
	mu           sync.Mutex
	tables       map[string]*host.Names
	loads, saves int
}

func (f *fakeNames) LoadNames(grammar string) (*host.Names, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.loads++
	n, ok := f.tables[grammar]
	return n, ok
}

func (f *fakeNames) SaveNames(grammar string, names *host.Names) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saves++
	f.tables[grammar] = names
	return nil
}

// TestNameStore: a language whose module is not loaded takes its names,
// kinds and fields from the name store; parsing loads the module, whose
// names then serve (equal to the stored ones), and a module loaded with a
// store that lacks its table saves it there once.
func TestNameStore(t *testing.T) {
	info, ok := grammars.Lookup("go")
	if !ok {
		t.Fatal("no go grammar")
	}
	ctx := context.Background()
	store := &fakeNames{tables: map[string]*host.Names{}}
	SetNameStore(store)
	defer SetNameStore(nil)

	first := &Language{info: info}
	want, err := first.Names(ctx) // no table stored: the module is loaded
	if err != nil {
		t.Fatal(err)
	}
	if store.saves != 1 || !reflect.DeepEqual(store.tables[info.SHA256], want) {
		t.Fatalf("the module's names were saved %d times", store.saves)
	}
	// A stored table others can tell apart by pointer.
	stored := *want
	store.tables[info.SHA256] = &stored

	l := &Language{info: info}
	got, err := l.Names(ctx)
	if err != nil || got != &stored {
		t.Fatalf("names %p (%v), want the stored table's %p", got, err, &stored)
	}
	if s := l.state.Load(); s == nil || s.grammar != nil {
		t.Fatal("the module was loaded for the names")
	}
	if ids, err := l.KindIDs(ctx, "function_declaration"); err != nil || len(ids) != 1 {
		t.Fatalf("kind ids %v, %v", ids, err)
	}
	if ok, err := l.HasField(ctx, "name"); err != nil || !ok {
		t.Fatalf("field name: %v, %v", ok, err)
	}
	tr, err := l.Parse(ctx, []byte("package p\nfunc f() {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Root().Child(1).Kind() != "function_declaration" {
		t.Fatalf("parsed %s", tr.Root().SExp())
	}
	if s := l.state.Load(); s.grammar == nil || !reflect.DeepEqual(s.names, &stored) {
		t.Fatal("the module's state does not replace the names alone")
	}
	if store.saves != 1 {
		t.Errorf("a stored table was saved again (%d saves)", store.saves)
	}
}
