package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestNewFromSubfolder creates items from a folder below the project's:
// the folders sgconfig.yml names are below the project folder, and a test
// case is shown relative to the current folder.
func TestNewFromSubfolder(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		created string // below the project folder
		stdout  string // with the project folder as $WORK
	}{
		{"test", []string{"new", "test", "t1", "-y"}, "rule-tests/t1-test.yml", "Created test at ../rule-tests/t1-test.yml\n"},
		{"rule", []string{"new", "rule", "r1", "-l", "go", "-y"}, "rules/r1.yml",
			"Created rules at $WORK/rules/r1.yml\nCreated test at ../rule-tests/r1-test.yml\n"},
		{"util", []string{"new", "util", "u1", "-l", "rust", "-y"}, "utils/u1.yml", "Created util at $WORK/utils/u1.yml\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			var out, errOut bytes.Buffer
			e := &env{stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
			if code := dispatch(context.Background(), e, []string{"new", "project", "-y"}); code != 0 {
				t.Fatalf("new project: status %d: %s", code, errOut.String())
			}
			if err := os.Mkdir("sub", 0o755); err != nil {
				t.Fatal(err)
			}
			t.Chdir(filepath.Join(dir, "sub"))
			out.Reset()
			if code := dispatch(context.Background(), e, tt.args); code != 0 {
				t.Fatalf("%v: status %d: %s", tt.args, code, errOut.String())
			}
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(tt.created))); err != nil {
				t.Errorf("%v did not create %s: %v", tt.args, tt.created, err)
			}
			if got := workPath(out.String(), dir); got != tt.stdout {
				t.Errorf("stdout %q, want %q", got, tt.stdout)
			}
		})
	}
}
