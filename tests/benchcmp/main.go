// Command benchcmp measures loupe against the reference ast-grep in one run
// on the same machine, corpora and queries, and prints a table of wall
// time, CPU time, peak RSS and match counts (which must agree):
//
//	go run ./tests/benchcmp [-runs 2] [-corpus name,...]
//
// Both tools run as separate processes (`loupe run`/`scan --json=stream`
// and `ast-grep run`/`scan --json=stream`), so wall time, CPU time and peak
// RSS are measured the same way for both. loupe is measured three ways:
//
//   - cold: its tree cache on but empty (a folder of its own for each run),
//     so every file is parsed and its tree written;
//   - warm: a second process with a different query over the unchanged
//     files, the cache filled by the corpus's floor rule before;
//   - floor: a rule that parses every file of the language and matches
//     nothing (`all: [{kind: ROOT}, {not: {kind: ROOT}}]`), cache off: what
//     parsing alone costs loupe, which the cold run is compared with.
//
// The repeated-query rows run loupe's ast_grep tool twice in this process:
// the second call hits the in-memory tree cache, which is what an agent's
// follow-up query gets.
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
	"text/tabwriter"
	"time"

	"github.com/loupe-dev/loupe/tools/astgrep"
)

type corpus struct {
	name, dir string
	// globs leave out what ast-grep silently skips (a file over 3,000,000
	// bytes and 200,000 lines), so both tools do the same work.
	globs []string
}

type query struct {
	corpus, lang string
	label        string // "selective", "common", "parse-all" or "floor"
	pattern      string // for run
	rule         string // for scan --inline-rules (YAML)
}

// roots are the root kinds of the languages queried: the floor rule of a
// language matches a root that is not a root.
var roots = map[string]string{"js": "program", "ts": "program", "go": "source_file", "py": "module"}

// floor is the rule that parses every file of lang and matches nothing.
func floor(c, lang string) query {
	r := roots[lang]
	return query{corpus: c, lang: lang, label: "floor", rule: fmt.Sprintf("all: [{kind: %s}, {not: {kind: %s}}]", r, r)}
}

var queries = []query{
	{corpus: "typescript", lang: "js", label: "selective", pattern: "console.log($$$A)"},
	{corpus: "typescript", lang: "js", label: "selective", pattern: "new Map($$$A)"},
	{corpus: "typescript", lang: "js", label: "parse-all", rule: "kind: function_declaration"},
	{corpus: "typescript", lang: "ts", label: "parse-all", rule: "kind: interface_declaration"},
	{corpus: "go", lang: "go", label: "selective", pattern: "$A := fmt.Sprintf($$$B)"},
	{corpus: "go", lang: "go", label: "common", pattern: "if err != nil { return $$$R }"},
	{corpus: "go", lang: "go", label: "parse-all", rule: "kind: function_declaration"},
	{corpus: "python", lang: "py", label: "selective", pattern: "self.assertEqual($A, $B)"},
	{corpus: "python", lang: "py", label: "parse-all", rule: "kind: function_definition"},
}

type measure struct {
	wall, cpu time.Duration
	rssKB     int64 // peak resident set in KiB, -1 where the OS does not report it
	matches   int
}

func main() {
	runs := flag.Int("runs", 2, "runs per tool and query (the fastest is reported)")
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
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	goroot := strings.TrimSpace(string(out))
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
	cs := []corpus{{"typescript", ts, []string{"!typescript.js"}}, {"go", filepath.Join(goroot, "src"), nil}}
	if _, err := os.Stat("/usr/lib/python3.11"); err == nil {
		cs = append(cs, corpus{"python", "/usr/lib/python3.11", nil})
	}
	return cs, nil
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
	trees, err := os.MkdirTemp("", "benchcmp-trees-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(trees)
	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "corpus\tquery\tlang\tkind\tast-grep wall\tcpu\tRSS MB\t"+
		"loupe cold wall\tcpu\tRSS MB\tcold/ast-grep\tcold/floor\t"+
		"loupe warm wall\tcpu\tRSS MB\twarm/ast-grep\tmatches\t")
	for _, c := range cs {
		if only != "" && !strings.Contains(","+only+",", ","+c.name+",") {
			continue
		}
		floors := map[string]measure{}
		for _, q := range queries {
			if q.corpus != c.name {
				continue
			}
			fl, ok := floors[q.lang]
			if !ok {
				// The floor, cache off; then the same rule fills the
				// language's warm cache.
				fq := floor(c.name, q.lang)
				if fl, err = best(runs, func() (measure, error) { return measureCLI(loupeBin, c, fq, "off") }); err != nil {
					return fmt.Errorf("loupe floor %s: %w", q.lang, err)
				}
				floors[q.lang] = fl
				if _, err := measureCLI(loupeBin, c, fq, warmDir(trees, c, q.lang)); err != nil {
					return fmt.Errorf("loupe filling the cache: %w", err)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\t\t\t%s\t%s\t%s\t\t1.00x\t\t\t\t\t%d\t\n", c.name, fq.text(), q.lang, "floor (no cache)",
					ms(fl.wall), ms(fl.cpu), mb(fl.rssKB), fl.matches)
			}
			sg, err := best(runs, func() (measure, error) { return measureCLI(sgBin, c, q, "") })
			if err != nil {
				return fmt.Errorf("ast-grep %s: %w", q.text(), err)
			}
			cold, err := best(runs, func() (measure, error) {
				dir, err := os.MkdirTemp(trees, "cold-*")
				if err != nil {
					return measure{}, err
				}
				defer os.RemoveAll(dir)
				return measureCLI(loupeBin, c, q, dir)
			})
			if err != nil {
				return fmt.Errorf("loupe cold %s: %w", q.text(), err)
			}
			warm, err := best(runs, func() (measure, error) { return measureCLI(loupeBin, c, q, warmDir(trees, c, q.lang)) })
			if err != nil {
				return fmt.Errorf("loupe warm %s: %w", q.text(), err)
			}
			agree := fmt.Sprint(cold.matches)
			if cold.matches != sg.matches || warm.matches != sg.matches {
				agree = fmt.Sprintf("%d/%d vs %d DIFFER", cold.matches, warm.matches, sg.matches)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2fx\t%.2fx\t%s\t%s\t%s\t%.3fx\t%s\t\n",
				c.name, q.text(), q.lang, q.label,
				ms(sg.wall), ms(sg.cpu), mb(sg.rssKB),
				ms(cold.wall), ms(cold.cpu), mb(cold.rssKB), ratio(cold.wall, sg.wall), ratio(cold.wall, fl.wall),
				ms(warm.wall), ms(warm.cpu), mb(warm.rssKB), ratio(warm.wall, sg.wall), agree)
		}
	}
	// In-process runs come last: a child forked from a process that holds
	// parsed trees would report that process's memory as its peak RSS.
	for _, c := range cs {
		if only != "" && !strings.Contains(","+only+",", ","+c.name+",") {
			continue
		}
		if err := repeated(tw, c); err != nil {
			return err
		}
	}
	return tw.Flush()
}

// warmDir is the tree cache of a corpus's files of one language.
func warmDir(trees string, c corpus, lang string) string {
	return filepath.Join(trees, "warm-"+c.name+"-"+lang)
}

func ratio(a, b time.Duration) float64 { return a.Seconds() / b.Seconds() }

func (q query) text() string {
	if q.pattern != "" {
		return q.pattern
	}
	return q.rule
}

func ms(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }

// mb formats a peak RSS in KiB as whole MiB, "-" when it is unknown.
func mb(kb int64) string {
	if kb < 0 {
		return "-"
	}
	return fmt.Sprint(kb / 1024)
}

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
// trees is the folder of loupe's tree cache, "off" to turn it off, or ""
// for ast-grep.
func measureCLI(bin string, c corpus, q query, trees string) (measure, error) {
	var args []string
	if q.pattern != "" {
		args = []string{"run", "-p", q.pattern, "-l", q.lang, "--json=stream"}
	} else {
		rule := fmt.Sprintf("id: bench\nlanguage: %s\nrule:\n  %s\n", q.lang, q.rule)
		args = []string{"scan", "--inline-rules", rule, "--json=stream"}
	}
	for _, g := range c.globs {
		args = append(args, "--globs", g)
	}
	args = append(args, c.dir)
	cmd := exec.Command(bin, args...)
	switch trees {
	case "":
	case "off":
		cmd.Env = append(os.Environ(), "LOUPE_NO_CACHE=1")
	default:
		cmd.Env = append(os.Environ(), "LOUPE_NO_CACHE=", "LOUPE_TREE_CACHE_DIR="+trees)
	}
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
	ps := cmd.ProcessState
	return measure{wall: wall, cpu: ps.UserTime() + ps.SystemTime(), rssKB: peakRSSKB(ps), matches: n}, nil
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
		res, err := tool.Run(context.Background(), astgrep.Params{Pattern: q.pattern, Language: q.lang, Globs: c.globs, MaxResults: 1})
		if err != nil {
			return err
		}
		walls[i], total = time.Since(start), res.TotalMatches
	}
	// The first call goes in the cold columns, the second in the warm ones,
	// with its ratio to the first.
	fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\t\t\t%s\t\t\t\t\t%s\t\t\t%.3fx of first\t%d\t\n", c.name, q.pattern, q.lang, "repeat (in-process)",
		ms(walls[0]), ms(walls[1]), walls[1].Seconds()/walls[0].Seconds(), total)
	return nil
}
