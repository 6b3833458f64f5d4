//go:build !js

package index

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// killChildEnv makes TestKillDuringUpdate's process the child that
// stalls inside an update's transaction, on the tree it names.
const killChildEnv = "LOUPE_INDEX_KILL_CHILD"

// TestKillDuringUpdate: a process killed (SIGKILL) half-way through an
// update leaves the index as it was before the update, consistent; the
// next update applies it whole. The child stalls after writing its
// first file inside the transaction, so the kill lands mid-update by
// count, not by timing.
func TestKillDuringUpdate(t *testing.T) {
	if root := os.Getenv(killChildEnv); root != "" {
		killChild(root)
		return
	}
	root, _ := buildShop(t)
	changed := changeShop(t, root)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillDuringUpdate$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	stalled := false
	for sc.Scan() {
		if sc.Text() == "stalled" {
			stalled = true
			break
		}
	}
	if !stalled {
		cmd.Wait()
		t.Fatal("the child never stalled inside its update")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	db := open(t, root)
	ctx := context.Background()
	check := func(when string, want map[string][]string) {
		t.Helper()
		for name, files := range want {
			if got := symbolFiles(t, db, name); !slices.Equal(got, files) {
				t.Errorf("%s: %s: %v, want %v", when, name, got, files)
			}
		}
		name, err := dsn(DefaultPath(root), "mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		raw, err := sql.Open(driverName, name)
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		var ok string
		if err := raw.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
			t.Errorf("%s: integrity_check: %q %v", when, ok, err)
		}
	}
	check("after the kill", map[string][]string{
		"Server":   {"api/server.go:example.com/shop/api"},
		"Cart":     {"packages/core/src/cart.ts:@shop/core"},
		"Replaced": {},
		"Added":    {},
	})
	u := newUpdater(t, root)
	if _, err := u.Update(ctx, changed); err != nil {
		t.Fatal(err)
	}
	check("after the update again", map[string][]string{
		"Server":   {},
		"Cart":     {},
		"Replaced": {"api/server.go:example.com/shop/api"},
		"Added":    {"api/added.go:example.com/shop/api"},
	})
}

// changeShop changes three files of the shop (one edited, one deleted,
// one added) and returns their paths.
func changeShop(t *testing.T, root string) []string {
	write(t, root, "api/server.go", "package api\n\nfunc Replaced() {}\n")
	write(t, root, "api/added.go", "package api\n\nfunc Added() {}\n")
	if err := os.Remove(filepath.Join(root, "packages/core/src/cart.ts")); err != nil {
		t.Fatal(err)
	}
	return []string{"api/server.go", "api/added.go", "packages/core/src/cart.ts"}
}

// killChild applies the shop's changes and stalls after the first file
// is written inside the transaction, until it is killed.
func killChild(root string) {
	u, err := NewUpdater(Options{Root: root, Progress: func(done, total int) {
		if done == 1 {
			fmt.Println("stalled")
			select {}
		}
	}})
	if err != nil {
		fmt.Println(strings.ReplaceAll(err.Error(), "\n", " "))
		os.Exit(1)
	}
	_, err = u.Update(context.Background(), []string{"api/server.go", "api/added.go", "packages/core/src/cart.ts"})
	fmt.Println("the update ended:", err)
	os.Exit(1)
}
