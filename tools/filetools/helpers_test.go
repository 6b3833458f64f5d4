package filetools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/loupe-dev/loupe/tools/toolspec"
)

// writeTree creates files under dir; a name ending in "/" is a directory,
// a value starting with "->" makes a symlink to the rest.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(body, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// workspace returns a temporary workspace holding files.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	return dir
}

// approvals records what an approver was asked and answers yes (or no).
type approvals struct {
	mu   sync.Mutex
	reqs []toolspec.Request
	deny bool
}

func (a *approvals) approve(_ context.Context, r toolspec.Request) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.reqs = append(a.reqs, r)
	return !a.deny, nil
}

func (a *approvals) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.reqs)
}

// newTools returns tools on dir with an approver recording its requests.
func newTools(t *testing.T, dir string) (*Tools, *approvals) {
	t.Helper()
	a := &approvals{}
	tl, err := New(Config{Workspace: dir, Approver: a.approve})
	if err != nil {
		t.Fatal(err)
	}
	return tl, a
}

// readBack reads a workspace file.
func readBack(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// toolError asserts err is an *Error and returns it.
func toolError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want a tool error (*Error), got %v", err)
	}
	return e
}

// wantNotFound asserts err is a tool error about a missing path that
// names it.
func wantNotFound(t *testing.T, err error, path string) {
	t.Helper()
	e := toolError(t, err)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %q does not wrap fs.ErrNotExist", err)
	}
	if !strings.Contains(e.Error(), path) {
		t.Errorf("error %q does not name the path %s", err, path)
	}
}

// grepLines lists the file:line of a grep result's matches.
func grepLines(r *GrepResult) []string {
	out := []string{}
	for _, m := range r.Matches {
		out = append(out, m.File+":"+strconv.Itoa(m.Line))
	}
	return out
}

// hitPaths lists a search result's paths.
func hitPaths(r *SearchResult) []string {
	out := []string{}
	for _, h := range r.Results {
		out = append(out, h.Path)
	}
	return out
}
