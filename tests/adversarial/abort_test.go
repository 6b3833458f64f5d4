package adversarial

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/analysis"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/tools/astgrep"
)

// abortLatency starts call, cancels it once it has run for a while, and
// returns the time from the cancel to the call's return. call reports
// whether the cancel cut it short: a call that ended first measured
// nothing.
func abortLatency(b *testing.B, call func(ctx context.Context) (bool, error)) time.Duration {
	ctx, cancel := context.WithCancel(context.Background())
	type outcome struct {
		cut bool
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		cut, err := call(ctx)
		done <- outcome{cut, err}
	}()
	time.Sleep(30 * time.Millisecond)
	start := time.Now()
	cancel()
	o := <-done
	lat := time.Since(start)
	if o.err != nil {
		b.Fatal(o.err)
	}
	if !o.cut {
		b.Fatal("the call ended before the cancel: make it longer")
	}
	return lat
}

// report records the median and 95th percentile of the latencies.
func report(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "ms-p95")
}

// BenchmarkAbortToIdle: how long a cancelled call takes to return, for
// an ast_grep call stuck inside one node's exponential match and a
// structural_analysis call parsing a large tree (issue 18: under 100 ms).
// The npm package's figure is js/bench/abort.mjs.
func BenchmarkAbortToIdle(b *testing.B) {
	root := b.TempDir()
	write(b, filepath.Join(root, "deep.js"), strings.Repeat("f(", 60)+"1"+strings.Repeat(")", 60)+";\n")
	// tree writes the TypeScript files anew, so no cache holds them.
	tree := func(round int) {
		for i := range 600 {
			var src strings.Builder
			fmt.Fprintf(&src, "// round %d\n", round)
			for j := range 40 {
				fmt.Fprintf(&src, "export function fn%d_%d(a: number) { return helper(a) + fn%d_%d(a - 1); }\n", i, j, (i+1)%600, j)
			}
			write(b, filepath.Join(root, "src", fmt.Sprintf("m%03d.ts", i)), src.String())
		}
	}
	rule := "{kind: string}"
	for range 14 {
		rule = fmt.Sprintf("{has: {stopBy: end, all: [%s]}}", rule)
	}
	ag, err := astgrep.New(astgrep.Config{Workspace: root, Limits: match.Limits{Steps: 1 << 62}, Timeout: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	sa, err := analysis.New(analysis.Config{Workspace: root, Timeout: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("ast_grep", func(b *testing.B) {
		var lat []time.Duration
		for b.Loop() {
			lat = append(lat, abortLatency(b, func(ctx context.Context) (bool, error) {
				r, err := ag.Run(ctx, astgrep.Params{Rule: "kind: call_expression\nall: [" + rule + "]\n", Language: "javascript", Path: "deep.js"})
				return err == nil && r.Reason == astgrep.ReasonCancelled, err
			}))
		}
		report(b, lat)
	})
	b.Run("structural_analysis", func(b *testing.B) {
		var lat []time.Duration
		round := 0
		for b.Loop() {
			b.StopTimer()
			round++
			tree(round)
			b.StartTimer()
			lat = append(lat, abortLatency(b, func(ctx context.Context) (bool, error) {
				r, err := sa.Run(ctx, analysis.Params{Mode: "callers", Language: "typescript", Symbol: "helper", Depth: 3})
				return err == nil && r.Partial, err
			}))
		}
		report(b, lat)
	})
}
