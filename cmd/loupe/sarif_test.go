package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tests/difftest"
	"github.com/loupe-dev/loupe/tests/jsonschema"

	"golang.org/x/tools/txtar"
)

// sarifSchema is the SARIF 2.1.0 JSON schema (its final text, rtm.5, the
// one the OASIS standard publishes), from the npm package that ships it,
// fetched into the cache folder on first use.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	dir, err := difftest.NpmPackage(context.Background(), "@microsoft/jest-sarif", "1.0.0-beta.0")
	if err != nil {
		t.Fatalf("fetching the SARIF schema: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "lib", "schemas", "sarif-2.1.0-rtm.5.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := jsonschema.Compile(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSARIFSchema validates the output of every `scan --format sarif`
// golden (which TestGolden checks is what loupe prints) against the
// SARIF 2.1.0 schema, and checks that the schema rejects broken logs.
func TestSARIFSchema(t *testing.T) {
	s := sarifSchema(t)
	files, err := filepath.Glob("testdata/scan_format_sarif*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no SARIF goldens (%v)", err)
	}
	var sample string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out := string(get(txtar.Parse(data), "stdout"))
		if err := s.Validate([]byte(out)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if strings.Contains(out, `"fixes"`) {
			sample = out
		}
	}
	if sample == "" {
		t.Fatal("no golden with a fix")
	}
	broken := map[string]func(string) string{
		"unknown level":    func(s string) string { return strings.Replace(s, `"level": "error"`, `"level": "fatal"`, 1) },
		"no version":       func(s string) string { return strings.Replace(s, `,`+"\n"+`  "version": "2.1.0"`, "", 1) },
		"unknown property": func(s string) string { return strings.Replace(s, `"ruleId":`, `"rule": 1, "ruleId":`, 1) },
		"line 0":           func(s string) string { return strings.Replace(s, `"startLine": 1`, `"startLine": 0`, 1) },
		"fix without change": func(s string) string {
			return strings.Replace(s, `"artifactChanges": [`, `"artifactChanges": [], "x": [`, 1)
		},
	}
	for name, breakIt := range broken {
		doc := breakIt(sample)
		if doc == sample {
			t.Fatalf("%s: the sample has nothing to break", name)
		}
		if err := s.Validate([]byte(doc)); err == nil {
			t.Errorf("%s: the schema accepts a broken log", name)
		}
	}
}
