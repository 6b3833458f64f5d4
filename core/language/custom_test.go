package language

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/grammars"
	"github.com/loupe-dev/loupe/host"
	"github.com/loupe-dev/loupe/host/hostile"
	"github.com/loupe-dev/loupe/host/wazhost"
)

// forgetCustoms unregisters every custom language when the test ends, so
// other tests see the built-in languages only.
func forgetCustoms(t *testing.T) {
	t.Cleanup(func() {
		customMu.Lock()
		customs = nil
		customMu.Unlock()
	})
}

// writeModule writes wasm to a file in a temporary folder.
func writeModule(t *testing.T, name string, wasm []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRegisterCustom registers the built-in json module's file as a custom
// language: it is found by name and extension ahead of the built-ins,
// parses in the sandbox exactly as the built-in json does, and its tree
// cache key is its module's hash.
func TestRegisterCustom(t *testing.T) {
	forgetCustoms(t)
	info, _ := grammars.Lookup("json")
	wasm, err := info.Wasm()
	if err != nil {
		t.Fatal(err)
	}
	path := writeModule(t, "myjson.wasm", wasm)
	l, err := RegisterCustom(Custom{Name: "myjson", Path: path, Extensions: []string{"jsonx", ".json5"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Lookup("MyJSON"); err != nil || got != l {
		t.Fatalf("Lookup: %v, %v", got, err)
	}
	for _, f := range []string{"a/b.jsonx", "c.json5"} {
		if got, ok := ForPath(f); !ok || got != l {
			t.Fatalf("ForPath(%s) = %v", f, got)
		}
	}
	if p, ok := l.Custom(); !ok || p != path || l.Expando() != '$' || l.Info().SHA256 != info.SHA256 {
		t.Fatalf("custom %q %v, expando %q, sha256 %s", p, ok, l.Expando(), l.Info().SHA256)
	}
	if !strings.Contains(strings.Join(Names(), ","), "myjson") {
		t.Fatalf("Names() lacks myjson: %v", Names())
	}
	src := []byte(`{"a": [1, true, null], "b": {"c": "d"}}`)
	got, err := l.Parse(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	builtin, _ := Lookup("json")
	want, err := builtin.Parse(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := got.Root().SExp(), want.Root().SExp(); g != w {
		t.Fatalf("custom tree %s\nbuilt-in tree %s", g, w)
	}
	// Registering the name again replaces the definition.
	l2, err := RegisterCustom(Custom{Name: "myjson", Path: path, Extensions: []string{"jsony"}, Expando: 'µ'})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := Lookup("myjson"); got != l2 || l2.Expando() != 'µ' {
		t.Fatal("re-registration did not replace")
	}
	if _, ok := ForPath("x.jsonx"); ok {
		t.Fatal("the replaced definition's extension still maps")
	}
}

// TestRegisterCustomRefused: a built-in language's name and an unreadable
// module are refused at registration.
func TestRegisterCustomRefused(t *testing.T) {
	forgetCustoms(t)
	if _, err := RegisterCustom(Custom{Name: "Python", Path: "x.wasm"}); err == nil || !errors.Is(err, ErrCustom) {
		t.Fatalf("built-in name: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "none.wasm")
	if _, err := RegisterCustom(Custom{Name: "none", Path: missing}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("missing module: %v", err)
	}
	for _, bad := range []string{"ab", "\xff"} {
		if _, err := ParseExpando(bad); err == nil {
			t.Fatalf("expandoChar %q accepted", bad)
		}
	}
}

// TestCustomHostile: a custom module that loops while parsing is stopped at
// the sandbox's time limit and one with the wrong ABI is refused, each
// error naming the module's file.
func TestCustomHostile(t *testing.T) {
	forgetCustoms(t)
	// The loop runs until the limit however fast the machine is; what
	// comes before it (the tiny module's start and name table) takes
	// microseconds, far inside a second even on a loaded machine.
	e, err := wazhost.New(context.Background(), wazhost.Config{Sandbox: true, NoCache: true, ParseTime: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	SetSandbox(e)
	t.Cleanup(func() {
		SetSandbox(nil)
		_ = e.Close(context.Background())
	})
	loopy := writeModule(t, "loopy.wasm", hostile.Module(hostile.Spec{Parse: hostile.Loop}))
	l, err := RegisterCustom(Custom{Name: "loopy", Path: loopy, Extensions: []string{"loopy"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Check(context.Background()); err != nil {
		t.Fatalf("check: %v", err)
	}
	_, err = l.Parse(context.Background(), []byte("x"))
	if !errors.Is(err, host.ErrTimeLimit) || !strings.Contains(err.Error(), loopy) {
		t.Fatalf("parse: %v", err)
	}
	bad := writeModule(t, "importer.wasm", hostile.Module(hostile.Spec{Import: true}))
	l, err = RegisterCustom(Custom{Name: "importer", Path: bad})
	if err != nil {
		t.Fatal(err)
	}
	err = l.Check(context.Background())
	if !errors.Is(err, ErrCustom) || !errors.Is(err, host.ErrBadModule) || !strings.Contains(err.Error(), bad) {
		t.Fatalf("check: %v", err)
	}
}
