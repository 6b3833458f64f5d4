package adversarial

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/tools/filetools"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

// TestSwapRaceFiles (issue 33 item 2): while a writer keeps swapping a
// directory of the workspace for a symlink to one outside it, the file
// tools' listings, reads, deletes, creates and mkdirs never name, read,
// delete or make anything outside. The outside directory's files have
// names found nowhere inside (secretN.txt), so a listing that strays
// shows it, besides victims named as files inside are (victimN.txt), so
// a delete that strays removes one; a create that strays leaves a new
// entry there. 640 calls, 6,400 in the full run.
func TestSwapRaceFiles(t *testing.T) {
	calls := 640
	if full() {
		calls = 6_400
	}
	base := t.TempDir()
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for i := range 8 {
		write(t, filepath.Join(ws, "d", fmt.Sprintf("f%d.txt", i)), "inside\n")
		write(t, filepath.Join(outside, fmt.Sprintf("secret%d.txt", i)), "OUTSIDE_SECRET\n")
		write(t, filepath.Join(outside, fmt.Sprintf("victim%d.txt", i)), "OUTSIDE_VICTIM\n")
	}
	before := listing(t, outside)
	root, err := os.OpenRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	ft, err := filetools.New(filetools.Config{Workspace: ws, Approver: toolspec.AllowAll})
	if err != nil {
		t.Fatal(err)
	}

	stop := make(chan struct{})
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		swapLoop(stop, &swaps, filepath.Join(ws, "d"), outside)
	}()

	var leaks, answered, found atomic.Int64
	work := make(chan int)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			for i := range work {
				var (
					v   any
					err error
				)
				k := i % 8
				switch i % 8 {
				case 0:
					v, err = ft.ListDirectory(ctx, filetools.ListDirectoryParams{Path: "d"})
				case 1:
					v, err = ft.ListDirectory(ctx, filetools.ListDirectoryParams{Path: "d", Recursive: true})
				case 2:
					v, err = ft.ReadFile(ctx, filetools.ReadFileParams{Path: fmt.Sprintf("d/f%d.txt", k)})
				case 3:
					// A victim inside to delete, named as one outside,
					// written through a root so that the test itself
					// never writes through the swapped link.
					root.WriteFile(filepath.Join("d", fmt.Sprintf("victim%d.txt", i/8%8)), []byte("inside\n"), 0o644)
					v, err = ft.DeleteFile(ctx, filetools.DeleteFileParams{Path: fmt.Sprintf("d/victim%d.txt", i/8%8)})
				case 4:
					v, err = ft.CreateFile(ctx, filetools.CreateFileParams{Path: fmt.Sprintf("d/new%d/made.txt", i), Content: "inside\n"})
				case 5:
					v, err = ft.CreateFile(ctx, filetools.CreateFileParams{Path: fmt.Sprintf("d/top%d.txt", i), Content: "inside\n"})
				case 6:
					v, err = ft.Grep(ctx, filetools.GrepParams{Pattern: "ins[i]de|OUT[S]IDE", Path: "d"})
				default:
					v, err = ft.Glob(ctx, filetools.GlobParams{Pattern: "d/**"})
				}
				text := ""
				if err != nil {
					text = err.Error()
				} else {
					out, _ := json.Marshal(v)
					text = string(out)
					if r, ok := v.(interface{ Text() string }); ok {
						text += r.Text()
					}
				}
				if strings.Contains(text, "OUTSIDE") || strings.Contains(text, "secret") || strings.Contains(text, outside) {
					leaks.Add(1)
					t.Errorf("call %d (kind %d) told of the outside: %.300s", i, i%8, text)
				}
				answered.Add(1)
				if strings.Contains(text, "inside") || strings.Contains(text, "f3.txt") {
					found.Add(1)
				}
			}
		}()
	}
	for i := range calls {
		work <- i
	}
	close(work)
	close(stop)
	wg.Wait()
	after := listing(t, outside)
	t.Logf("%d calls during %d swaps: %d found inside content, %d told of the outside; outside before %d entries, after %d",
		answered.Load(), swaps.Load(), found.Load(), leaks.Load(), len(before), len(after))
	if !slices.Equal(before, after) {
		t.Errorf("the outside directory changed:\nbefore %q\nafter  %q", before, after)
	}
	for _, e := range after {
		if data, err := os.ReadFile(filepath.Join(outside, e)); err == nil && !strings.HasPrefix(string(data), "OUTSIDE_") {
			t.Errorf("outside file %s was written: %q", e, data)
		}
	}
	if swaps.Load() == 0 || found.Load() == 0 {
		t.Fatal("the writer never swapped the directory, or no call found anything: the test proved nothing")
	}
}

// swapLoop swaps the directory d for a link to outside and back until
// stop closes.
func swapLoop(stop chan struct{}, swaps *atomic.Int64, d, outside string) {
	real := d + ".real"
	for {
		select {
		case <-stop:
			return
		default:
		}
		if os.Rename(d, real) != nil {
			continue
		}
		if os.Symlink(outside, d) == nil {
			swaps.Add(1)
			os.Remove(d)
		}
		// A create of the race may have made d anew meanwhile: the
		// swapper takes its place back.
		if os.Rename(real, d) != nil {
			os.RemoveAll(d)
			os.Rename(real, d)
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// listing is every path below dir, sorted.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	slices.Sort(out)
	return out
}
