// Package adversarial attacks loupe's tools as a hostile agent or a
// hostile neighbour process would (issue 18). `make test` runs bounded
// sizes; LOUPE_ADVERSARIAL_FULL=1 (make adversarial) runs the full ones.
package adversarial

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/analysis"
	"github.com/loupe-dev/loupe/tools/astgrep"
)

// full reports whether the full sizes were asked for.
func full() bool { return os.Getenv("LOUPE_ADVERSARIAL_FULL") != "" }

// TestSwapRace: while another process's writer keeps swapping a directory
// of the workspace for a symlink to a directory outside it, no call of
// ast_grep or structural_analysis returns a byte of the outside files
// (issue 18 item 4: before reads went through an os.Root, 37% of calls
// did). 10,000 calls in the full run.
func TestSwapRace(t *testing.T) {
	calls := 400
	if full() {
		calls = 10_000
	}
	base := t.TempDir()
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for i := range 8 {
		write(t, filepath.Join(ws, "d", fmt.Sprintf("f%d.ts", i)), fmt.Sprintf("export function shared%d() { return 'inside'; }\nshared%d();\n", i, i))
		write(t, filepath.Join(outside, fmt.Sprintf("f%d.ts", i)), fmt.Sprintf("export function shared%d() { return 'OUTSIDE_SECRET'; }\nshared%d();\n", i, i))
	}
	ag, err := astgrep.New(astgrep.Config{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	sa, err := analysis.New(analysis.Config{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}

	stop := make(chan struct{})
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		d, real := filepath.Join(ws, "d"), filepath.Join(ws, "d.real")
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
			os.Rename(real, d)
			// Leave the directory in place a moment, so calls also
			// find it whole and the race is hit at every stage.
			time.Sleep(100 * time.Microsecond)
		}
	}()

	var leaks, answered, found atomic.Int64
	work := make(chan int)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				var (
					v   any
					err error
				)
				switch i % 4 {
				case 0:
					v, err = ag.Run(context.Background(), astgrep.Params{Pattern: "'$A'", Language: "typescript", Path: "d"})
				case 1:
					v, err = ag.Run(context.Background(), astgrep.Params{Pattern: "'$A'", Path: fmt.Sprintf("d/f%d.ts", i%8)})
				case 2:
					v, err = sa.Run(context.Background(), analysis.Params{Mode: "definitions", Language: "typescript", Symbol: fmt.Sprintf("shared%d", i%8), Path: "d"})
				default:
					v, err = sa.Run(context.Background(), analysis.Params{Mode: "callers", Language: "typescript", Symbol: fmt.Sprintf("shared%d", i%8)})
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
				if strings.Contains(text, "OUTSIDE") || strings.Contains(text, outside) {
					leaks.Add(1)
					t.Errorf("call %d returned outside content: %.300s", i, text)
				}
				answered.Add(1)
				if strings.Contains(text, "inside") {
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
	t.Logf("%d calls during %d swaps: %d found inside content, %d leaks", answered.Load(), swaps.Load(), found.Load(), leaks.Load())
	if swaps.Load() == 0 || found.Load() == 0 {
		t.Fatal("the writer never swapped the directory, or no call found anything: the test proved nothing")
	}
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
