package adversarial

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tools"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

// TestCaseVariantKeys: a call whose parameters spell a key in another
// case, or name it twice, beside the key an approval shows, never acts
// on the file the hidden key names (issue 33 item 1: update_file and
// delete_file did). Every tool that writes, each of its parameters, case
// variants and duplicates, through the registry every face calls; the
// full run tries up to 64 spellings of each key instead of 2.
func TestCaseVariantKeys(t *testing.T) {
	spellings := 2
	if full() {
		spellings = 64
	}
	rng := rand.New(rand.NewPCG(33, 1))
	calls, refused := 0, 0
	for _, info := range tools.Infos() {
		if !info.RequiresApproval {
			continue
		}
		props, _ := info.InputSchema["properties"].(map[string]any)
		var base map[string]any
		if err := json.Unmarshal(info.Examples[0].Params, &base); err != nil {
			t.Fatal(err)
		}
		base["path"] = "shown.txt"
		delete(base, "preview_only")
		for key := range props {
			var attacks []string
			for _, v := range variants(key, spellings, rng) {
				attacks = append(attacks, withKey(t, base, v, hiddenValue(key, base)))
			}
			if _, ok := base[key]; ok {
				attacks = append(attacks, withKey(t, base, key, hiddenValue(key, base)))
			}
			for _, raw := range attacks {
				ws := t.TempDir()
				write(t, filepath.Join(ws, "shown.txt"), "shown\n")
				write(t, filepath.Join(ws, "hidden.txt"), "hidden\n")
				asked := 0
				ts, err := tools.New(tools.Config{Workspace: ws, Approver: func(context.Context, toolspec.Request) (bool, error) {
					asked++
					return true, nil
				}})
				if err != nil {
					t.Fatal(err)
				}
				var tool *tools.Tool
				for _, x := range ts {
					if x.Name == info.Name {
						tool = x
					}
				}
				_, err = tool.Call(context.Background(), json.RawMessage(raw))
				calls++
				if err != nil && (strings.Contains(err.Error(), "unknown field") || strings.Contains(err.Error(), "duplicate field")) {
					refused++
				} else {
					t.Errorf("%s %s: %v", info.Name, raw, err)
				}
				if asked > 0 {
					t.Errorf("%s %s: the approver was asked", info.Name, raw)
				}
				for name, want := range map[string]string{"shown.txt": "shown\n", "hidden.txt": "hidden\n"} {
					if got, err := os.ReadFile(filepath.Join(ws, name)); err != nil || string(got) != want {
						t.Errorf("%s %s: %s is %q, %v", info.Name, raw, name, got, err)
					}
				}
			}
		}
	}
	t.Logf("%d calls with case-variant or duplicate keys: %d refused, 0 files touched", calls, refused)
	if calls < 20 {
		t.Fatalf("only %d calls: the test proved nothing", calls)
	}
}

// variants returns up to n spellings of key that differ from it only in
// case (all upper first, then random ones).
func variants(key string, n int, rng *rand.Rand) []string {
	seen := map[string]bool{key: true}
	var out []string
	add := func(v string) {
		if !seen[v] && len(out) < n {
			seen[v] = true
			out = append(out, v)
		}
	}
	add(strings.ToUpper(key))
	for range n * 4 {
		b := []byte(key)
		for i, c := range b {
			if rng.IntN(2) == 0 {
				switch {
				case c >= 'a' && c <= 'z':
					b[i] = c - 'a' + 'A'
				case c >= 'A' && c <= 'Z':
					b[i] = c - 'A' + 'a'
				}
			}
		}
		add(string(b))
	}
	return out
}

// hiddenValue is what an attack puts under its extra key: another file
// for a path, the example's value otherwise.
func hiddenValue(key string, base map[string]any) any {
	if key == "path" {
		return "hidden.txt"
	}
	if v, ok := base[key]; ok {
		return v
	}
	return nil
}

// withKey is base as JSON with one more member, key: v, written last (so
// a key base has already is written twice).
func withKey(t *testing.T, base map[string]any, key string, v any) string {
	t.Helper()
	raw, err := json.Marshal(base)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := json.Marshal(key)
	val, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s,%s:%s}", strings.TrimSuffix(string(raw), "}"), k, val)
}
