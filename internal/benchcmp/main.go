// Command benchcmp measures loupe against the reference ast-grep in one run
// on the same machine, corpora and queries, and prints a table of wall
// time, CPU time, peak RSS and match counts (which must agree):
//
//	go run ./internal/benchcmp [-runs 3] [-corpus name,...]
//
// Both tools run as separate processes (`loupe run`/`scan --json=stream`
// and `ast-grep run`/`scan --json=stream`), so wall time, CPU time and peak
// RSS are measured the same way for both. The repeated-query row runs
// loupe's ast_grep tool twice in this process: the second call hits the
// tree cache, which is what an agent's follow-up query gets.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/loupe-dev/loupe/astgrep"
)

type corpus struct {
	name, dir, lang string
}

type query struct {
	corpus  string
	label   string // "selective" or "parse-all"
	pattern string // for run
	rule    string // for scan --inline-rules (YAML)
}

var queries = []query{
	{corpus: "typescript", label: "selective", pattern: "console.log($$$A)"},
	{corpus: "typescript", label: "selective", pattern: "$A.kind === SyntaxKind.$B"},
	{corpus: "typescript", label: "parse-all", rule: "kind: function_declaration"},
	{corpus: "go", label: "selective", pattern: "errors.New($A)"},
	{corpus: "go", label: "selective", pattern: "if err != nil { return $$$R }"},
	{corpus: "go", label: "parse-all", rule: "kind: function_declaration"},
	{corpus: "python", label: "selective", pattern: "self.assertEqual($A, $B)"},
	{corpus: "python", label: "parse-all", rule: "kind: function_definition"},
}

type measure struct {
	wall, cpu time.Duration
	rssKB     int64
	matches   int
}

func main() {
	runs := flag.Int("runs", 3, "runs per tool and query (the fastest is reported)")
	only := flag.String("corpus", "", "comma-separated corpora to run (default all found)")
	loupeBin := flag.String("loupe", "bin/loupe", "loupe binary")
	sgBin := flag.String("ast-grep", "node_modules/@ast-grep/cli/ast-grep", "ast-grep binary")
	flag.Parse()
	if err := run(*runs, *only, *loupeBin, *sgBin); err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp:", err)
		os.Exit(1)
	}
}

func corpora(cache string) ([]corpus, error) {
	goroot := strings.TrimSpace(string(must(exec.Command("go", "env", "GOROOT").Output())))
	ts := filepath.Join(cache, "corpus", "typescript@5.9.3", "package", "lib")
	if _, err := os.Stat(ts); err != nil {
		dir := filepath.Dir(filepath.Dir(ts))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		out, err := exec.Command("sh", "-c", "cd "+dir+" && npm pack --silent typescript@5.9.3 | tail -1 | xargs tar xzf").CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("fetch typescript@5.9.3: %v\n%s", err, out)
		}
	}
	cs := []corpus{{"typescript", ts, "ts"}, {"go", filepath.Join(goroot, "src"), "go"}}
	if _, err := os.Stat("/usr/lib/python3.11"); err == nil {
		cs = append(cs, corpus{"python", "/usr/lib/python3.11", "py"})
	}
	return cs, nil
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func run(runs int, only, loupeBin, sgBin string) error {
	cache := os.Getenv("LOUPE_CACHE")
	if cache == "" {
		cache = ".cache"
	}
	cs, err := corpora(cache)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "corpus\tquery\tkind\tast-grep wall\tloupe wall\tratio\tast-grep cpu\tloupe cpu\tast-grep RSS MB\tloupe RSS MB\tRSS ratio\tmatches\t")
	for _, c := range cs {
		if only != "" && !strings.Contains(","+only+",", ","+c.name+",") {
			continue
		}
		for _, q := range queries {
			if q.corpus != c.name {
				continue
			}
			sg, err := best(runs, func() (measure, error) { return measureCLI(sgBin, c, q) })
			if err != nil {
				return fmt.Errorf("ast-grep %s: %w", q.text(), err)
			}
			lp, err := best(runs, func() (measure, error) { return measureCLI(loupeBin, c, q) })
			if err != nil {
				return fmt.Errorf("loupe %s: %w", q.text(), err)
			}
			agree := fmt.Sprint(lp.matches)
			if lp.matches != sg.matches {
				agree = fmt.Sprintf("%d vs %d DIFFER", lp.matches, sg.matches)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2fx\t%s\t%s\t%d\t%d\t%.2fx\t%s\t\n", c.name, q.text(), q.label,
				ms(sg.wall), ms(lp.wall), lp.wall.Seconds()/sg.wall.Seconds(), ms(sg.cpu), ms(lp.cpu),
				sg.rssKB/1024, lp.rssKB/1024, float64(lp.rssKB)/float64(sg.rssKB), agree)
		}
		if err := repeated(tw, c); err != nil {
			return err
		}
	}
	return tw.Flush()
}

func (q query) text() string {
	if q.pattern != "" {
		return q.pattern
	}
	return q.rule
}

func ms(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }

func best(runs int, f func() (measure, error)) (measure, error) {
	var b measure
	for i := range runs {
		m, err := f()
		if err != nil {
			return m, err
		}
		if i == 0 || m.wall < b.wall {
			b = m
		}
	}
	return b, nil
}

// measureCLI runs one search as a child process and counts its JSON lines.
func measureCLI(bin string, c corpus, q query) (measure, error) {
	var args []string
	if q.pattern != "" {
		args = []string{"run", "-p", q.pattern, "-l", c.lang, "--json=stream", c.dir}
	} else {
		rule := fmt.Sprintf("id: bench\nlanguage: %s\nrule:\n  %s\n", c.lang, q.rule)
		args = []string{"scan", "--inline-rules", rule, "--json=stream", c.dir}
	}
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return measure{}, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return measure{}, err
	}
	n := 0
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			n++
		}
	}
	err = cmd.Wait()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return measure{}, fmt.Errorf("%v: %s", err, stderr.String())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return measure{wall: wall, cpu: cpu, rssKB: ru.Maxrss, matches: n}, nil
}

// repeated runs the corpus's first selective pattern twice through the
// in-process ast_grep tool and reports the second call against the first.
func repeated(tw *tabwriter.Writer, c corpus) error {
	var q query
	for _, x := range queries {
		if x.corpus == c.name && x.pattern != "" {
			q = x
			break
		}
	}
	tool, err := astgrep.New(astgrep.Config{Workspace: c.dir, Timeout: 10 * time.Minute})
	if err != nil {
		return err
	}
	var walls [2]time.Duration
	var total int
	for i := range walls {
		start := time.Now()
		res, err := tool.Run(context.Background(), astgrep.Params{Pattern: q.pattern, Language: c.lang, MaxResults: 1})
		if err != nil {
			return err
		}
		walls[i], total = time.Since(start), res.TotalMatches
	}
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2fx\t\t\t\t\t\t%d\t\n", c.name, q.pattern, "repeat (in-process)",
		"first "+ms(walls[0]), "second "+ms(walls[1]), walls[1].Seconds()/walls[0].Seconds(), total)
	return nil
}
