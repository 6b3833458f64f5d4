package difftest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
)

// The outline suite runs `outline` (ast-grep 0.51's repository map)
// through `ast-grep` and `loupe` over the corpora the pattern suite
// searches, bounded unless LOUPE_DIFFTEST_FULL=1, in every text view,
// every --items mode and every JSON style, and compares the outputs byte
// for byte. ast-grep prints files in no fixed order, so each output is
// cut into its files (text blocks, JSON array elements or stream lines),
// which are compared sorted; within a file nothing is reordered.

// outlineCorpus is one corpus and language the suite outlines.
type outlineCorpus struct{ corpus, lang string }

var outlineCorpora = []outlineCorpus{
	{"go-std", "go"},
	{"py-std", "python"},
	{"ts-lib", "typescript"},
	{"ts-lib", "javascript"},
	{"rxjs", "typescript"},
	{"rxjs", "javascript"},
	{"local", "tsx"},
	{"local", "rust"},
	{"local", "java"},
	{"local", "kotlin"},
	{"local", "swift"},
	{"local", "csharp"},
	{"local", "cpp"},
	{"local", "c"},
	{"local", "ruby"},
	{"local", "php"},
}

// The rxjs package (its TypeScript sources and their ES5 build) is a
// corpus of this suite: classes, interfaces, overloads, enums and
// namespaces the TypeScript library files have few of.
func init() {
	corpora["rxjs"] = corpus{
		root: func(ctx context.Context, _ string) (string, error) { return NpmPackage(ctx, "rxjs", "7.8.2") },
		bounded: map[string][]string{
			"typescript": {"src/internal/*.ts", "src/internal/operators/[a-f]*.ts", "src/internal/scheduler"},
			"javascript": {"dist/esm5/internal/*.js", "dist/esm5/internal/observable"},
		},
	}
}

// outlineModes are the flag sets each corpus is outlined with; "dir"
// passes the corpus parts as directories (ast-grep's directory defaults:
// exports, names) instead of files.
var outlineModes = [][]string{
	{},
	{"--view", "names"},
	{"--view", "signatures", "--items", "all"},
	{"--view", "expanded", "--items", "all"},
	{"--view", "digest", "--items", "exports", "--pub-members"},
	{"--view", "signatures", "--items", "imports"},
	{"--view", "expanded", "--pub-members"},
	{"--type", "function,method", "--view", "signatures"},
	{"--match", "^[A-Z]", "--view", "names"},
	{"--match", "(?i)err", "--items", "all"},
	{"--json"},
	{"--json=compact", "--items", "all", "--view", "expanded"},
	{"--json=stream", "--items", "all", "--view", "digest"},
	{"--json=stream", "--view", "names", "--items", "exports"},
	{"--color", "always", "--view", "expanded", "--items", "all"},
	{"--color", "always", "--items", "exports", "--view", "digest"},
	{"dir"},
	{"dir", "--color", "always"},
	{"dir", "--json=stream", "--view", "expanded"},
}

func TestOutline(t *testing.T) {
	bin := needAstGrep(t)
	loupe := buildLoupe(t)
	ctx := context.Background()
	full := os.Getenv("LOUPE_DIFFTEST_FULL") == "1"
	for _, oc := range outlineCorpora {
		lang, err := language.Lookup(oc.lang)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(oc.corpus+"/"+oc.lang, func(t *testing.T) {
			root, files := corpusFiles(ctx, t, oc.corpus, lang, full)
			dirs := corpora[oc.corpus].bounded[lang.Name()]
			if full || len(dirs) == 0 {
				dirs = []string{"."}
			}
			agree, total, fileCount := 0, 0, 0
			for _, mode := range outlineModes {
				total++
				args := append([]string{"outline", "-l", oc.lang}, mode...)
				paths := files
				if len(mode) > 0 && mode[0] == "dir" {
					args = append([]string{"outline", "-l", oc.lang}, mode[1:]...)
					paths = dirs
				}
				args = append(append(args, "--"), paths...)
				name := strings.Join(mode, " ")
				t.Run(name, func(t *testing.T) {
					ref, err := runOutline(ctx, bin, root, args)
					if err != nil {
						t.Fatal(err)
					}
					got, err := runOutline(ctx, loupe, root, args)
					if err != nil {
						t.Fatal(err)
					}
					if d := outlineDiff(ref, got); d != "" {
						t.Fatalf("ast-grep and loupe differ on %v:\n%s", mode, d)
					}
					if len(ref.files) == 0 {
						t.Fatalf("ast-grep outlined no file: the case is wrong")
					}
					fileCount += len(ref.files)
					agree++
				})
			}
			t.Logf("outline %s %s: %d of %d modes agree with ast-grep over %d files (%d file outlines compared)", oc.corpus, oc.lang, agree, total, len(files), fileCount)
		})
	}
}

// outlineAnswer is what an outline run printed: its status, its files'
// outputs sorted, what enclosed them (a JSON array's brackets) and its
// stderr.
type outlineAnswer struct {
	code   int
	files  []string
	frame  string
	stderr string
}

func runOutline(ctx context.Context, bin, dir string, args []string) (outlineAnswer, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		return outlineAnswer{}, fmt.Errorf("%s %v: %w", filepath.Base(bin), args, err)
	}
	raw := stdout.String()
	ans := outlineAnswer{code: code, stderr: stderr.String()}
	switch {
	case slices.Contains(args, "--json=stream"):
		ans.files = strings.Split(strings.TrimSuffix(raw, "\n"), "\n")
	case slices.Contains(args, "--json") || slices.Contains(args, "--json=compact") || slices.Contains(args, "--json=pretty"):
		var elems []json.RawMessage
		if err := json.Unmarshal([]byte(raw), &elems); err != nil {
			return ans, fmt.Errorf("%s printed no JSON array: %w", bin, err)
		}
		for _, e := range elems {
			ans.files = append(ans.files, string(e))
		}
		// The frame is the output with its elements cut out.
		frame := raw
		for _, e := range ans.files {
			frame = strings.Replace(frame, e, "", 1)
		}
		ans.frame = frame
	default:
		ans.files = strings.Split(strings.TrimSuffix(raw, "\n"), "\n\n")
	}
	slices.Sort(ans.files)
	return ans, nil
}

func outlineDiff(ref, got outlineAnswer) string {
	var b strings.Builder
	if ref.code != got.code {
		fmt.Fprintf(&b, "status: ast-grep %d, loupe %d\n", ref.code, got.code)
	}
	if ref.stderr != got.stderr {
		fmt.Fprintf(&b, "stderr: ast-grep %.300q, loupe %.300q\n", ref.stderr, got.stderr)
	}
	if ref.frame != got.frame {
		fmt.Fprintf(&b, "JSON frame: ast-grep %q, loupe %q\n", ref.frame, got.frame)
	}
	if !slices.Equal(ref.files, got.files) {
		fmt.Fprintf(&b, "files: ast-grep %d, loupe %d\n", len(ref.files), len(got.files))
		writeOnly(&b, "only ast-grep: ", ref.files, got.files, 3, 600)
		writeOnly(&b, "only loupe:    ", got.files, ref.files, 3, 600)
	}
	return b.String()
}
