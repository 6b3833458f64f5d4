package recipe

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLinkHasNoOptimizeFlag: every compile step is optimised and the link
// step has no -O flag, clang's cue to run wasm-opt after linking.
func TestLinkHasNoOptimizeFlag(t *testing.T) {
	for _, u := range []Unit{
		{Runtime: "/rt/lib", Src: "/src", Function: "tree_sitter_json"},
		{Runtime: "/rt/lib", Src: "/src", Function: "tree_sitter_go", PrefixMaps: []string{"/cache", "/work"}},
	} {
		if c := CompileFlags(u); !slices.Contains(c, Optimize) {
			t.Errorf("%s: compile flags %q lack %s", u.Function, c, Optimize)
		}
		for _, f := range LinkFlags(u) {
			if strings.HasPrefix(f, "-O") {
				t.Errorf("%s: link flags carry %s", u.Function, f)
			}
		}
	}
}

// TestLinkRunsNoWasmOpt asks the installed clang what the recipe's link
// step runs (-###) with a wasm-opt on PATH: wasm-ld alone, with none of the
// arguments clang adds for wasm-opt. The same link with -O added plans
// wasm-opt, which shows the stand-in wasm-opt is found.
func TestLinkRunsNoWasmOpt(t *testing.T) {
	if _, err := exec.LookPath(Clang); err != nil {
		t.Skipf("%s is not installed", Clang)
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "wasm-opt"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	obj := filepath.Join(t.TempDir(), "0.o")
	if err := os.WriteFile(obj, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	u := Unit{Runtime: "/rt/lib", Src: "/src", Function: "tree_sitter_json"}
	for _, c := range []struct {
		name    string
		extra   []string
		wantOpt bool
	}{
		{"recipe", nil, false},
		{"with -O3", []string{Optimize}, true},
	} {
		args := append(append(LinkFlags(u), c.extra...), "-###", "-o", filepath.Join(t.TempDir(), "m.wasm"), obj)
		cmd := exec.Command(Clang, args...)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %s -###: %v\n%s", c.name, Clang, err, out)
		}
		plan := string(out)
		if !strings.Contains(plan, "wasm-ld") {
			t.Fatalf("%s: no wasm-ld in the plan:\n%s", c.name, plan)
		}
		gotOpt := strings.Contains(plan, filepath.Join(bin, "wasm-opt")) || strings.Contains(plan, "--keep-section=target_features")
		if gotOpt != c.wantOpt {
			t.Errorf("%s: plan runs wasm-opt = %v, want %v:\n%s", c.name, gotOpt, c.wantOpt, plan)
		}
	}
}

// TestToolchain: every pinned part and wasm-opt are reported, and the
// report names the flags; a tool that is installed is found in a version.
func TestToolchain(t *testing.T) {
	ts := Toolchain()
	if len(ts) != len(pinned)+1 || ts[len(ts)-1].Name != "wasm-opt" {
		t.Fatalf("Toolchain() = %+v, want the %d pinned parts and wasm-opt", ts, len(pinned))
	}
	if _, err := exec.LookPath(Clang); err == nil && ts[0].Found == "missing" {
		t.Errorf("%s is on PATH but reported missing", Clang)
	}
	r := ToolchainReport()
	for _, want := range []string{Clang, "wasm-ld-19", "wasm-opt", "compile: ", "link:    "} {
		if !strings.Contains(r, want) {
			t.Errorf("report lacks %q:\n%s", want, r)
		}
	}
}

func TestToolDiffers(t *testing.T) {
	for _, c := range []struct {
		t    Tool
		want bool
	}{
		{Tool{Found: "a", Pinned: "a"}, false},
		{Tool{Found: "b", Pinned: "a"}, true},
		{Tool{Found: "missing", Pinned: "a"}, true},
		{Tool{Found: "/usr/bin/wasm-opt: wasm-opt version 108"}, false},
	} {
		if got := c.t.Differs(); got != c.want {
			t.Errorf("%+v.Differs() = %v, want %v", c.t, got, c.want)
		}
	}
}
