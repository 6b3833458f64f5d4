package difftest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// Capture is one metavariable binding as ast-grep reports it.
type Capture struct {
	Text       string
	Start, End int // byte offsets
}

// Match is one match: its file (relative to the corpus root), byte range,
// text and metavariables.
type Match struct {
	File       string
	Start, End int
	Text       string
	Singles    map[string]Capture
	Multis     map[string][]Capture
}

// AstGrep returns the path of the reference ast-grep binary:
// $LOUPE_ASTGREP when set, else node_modules/@ast-grep/cli/ast-grep at the
// module root (`npm install` there installs it).
func AstGrep() (string, error) {
	if p := os.Getenv("LOUPE_ASTGREP"); p != "" {
		return p, nil
	}
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	p := filepath.Join(root, "node_modules", "@ast-grep", "cli", "ast-grep")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("reference ast-grep 0.51.1 not installed (`make test-deps`, or `npm ci` in %s, installs it): %w", root, err)
	}
	return p, nil
}

// ModuleRoot returns the folder of loupe's go.mod, searched upwards from
// the working directory.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("difftest: no go.mod above the working directory")
		}
		dir = parent
	}
}

// ErrRejected wraps ast-grep's message when it refuses a pattern.
var ErrRejected = errors.New("ast-grep rejected the query")

type jsonRange struct {
	ByteOffset struct {
		Start int `json:"start"`
		End   int `json:"end"`
	} `json:"byteOffset"`
}

type jsonCapture struct {
	Text  string    `json:"text"`
	Range jsonRange `json:"range"`
}

type jsonMatch struct {
	Text          string    `json:"text"`
	Range         jsonRange `json:"range"`
	File          string    `json:"file"`
	MetaVariables struct {
		Single map[string]jsonCapture   `json:"single"`
		Multi  map[string][]jsonCapture `json:"multi"`
	} `json:"metaVariables"`
}

// Run runs `ast-grep run ARGS --json=stream FILES` in dir and calls add
// for each match as it is read. Exit status 1 with no output is "no
// match"; a refusal of the query (a bad pattern, reported on stderr as
// "Error: ...") returns an error wrapping ErrRejected.
func Run(ctx context.Context, bin, dir string, args, files []string, add func(Match)) error {
	argv := append([]string{"run"}, args...)
	argv = append(argv, "--json=stream", "--")
	argv = append(argv, files...)
	cmd := exec.CommandContext(ctx, bin, argv...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start ast-grep: %w", err)
	}
	lines := 0
	var decodeErr error
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		lines++
		var m jsonMatch
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			decodeErr = fmt.Errorf("ast-grep output: %w", err)
			break
		}
		add(fromJSON(m))
	}
	if decodeErr == nil {
		decodeErr = sc.Err()
	}
	_, _ = io.Copy(io.Discard, stdout) // let ast-grep finish writing
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case decodeErr != nil:
		return decodeErr
	case err == nil:
		return nil
	case errors.As(err, &exit) && exit.ExitCode() == 1 && lines == 0 && stderr.Len() == 0:
		return nil
	case errors.As(err, &exit) && bytes.HasPrefix(stderr.Bytes(), []byte("Error:")):
		return fmt.Errorf("%w: %s", ErrRejected, bytes.TrimSpace(stderr.Bytes()))
	}
	return fmt.Errorf("ast-grep %v: %w: %s", args, err, stderr.Bytes())
}

func fromJSON(m jsonMatch) Match {
	r := Match{File: filepath.ToSlash(m.File), Start: m.Range.ByteOffset.Start, End: m.Range.ByteOffset.End, Text: m.Text,
		Singles: map[string]Capture{}, Multis: map[string][]Capture{}}
	for k, v := range m.MetaVariables.Single {
		r.Singles[k] = Capture{v.Text, v.Range.ByteOffset.Start, v.Range.ByteOffset.End}
	}
	for k, vs := range m.MetaVariables.Multi {
		cs := make([]Capture, 0, len(vs))
		for _, v := range vs {
			cs = append(cs, Capture{v.Text, v.Range.ByteOffset.Start, v.Range.ByteOffset.End})
		}
		r.Multis[k] = cs
	}
	return r
}
