package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/search/ignore"
)

// project is an ast-grep project: the folder of an sgconfig.yml and what
// it configures.
type project struct {
	dir         string // absolute
	ruleDirs    []string
	utilDirs    []string
	testConfigs []testConfig
	langGlobs   map[string][]string
}

// testConfig is an entry of sgconfig's testConfigs.
type testConfig struct {
	testDir     string
	snapshotDir string // "" for the default, __snapshots__ in testDir
}

// sgconfigKeys are the keys of sgconfig.yml loupe reads; the others that
// ast-grep knows are accepted and ignored with a warning.
var sgconfigKeys = []string{"ruleDirs", "utilDirs", "testConfigs", "languageGlobs"}

var sgconfigUnsupported = []string{"customLanguages", "languageInjections"}

// errNoProject means no sgconfig.yml was found.
var errNoProject = errors.New("no ast-grep project configuration (sgconfig.yml) found in the current folder or its parents")

// findProject loads the project config at path, or, when path is "",
// the first sgconfig.yml (or .yaml) in the working directory or a parent.
func findProject(path string, warn func(string)) (*project, error) {
	if path == "" {
		dir, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		for {
			for _, name := range []string{"sgconfig.yml", "sgconfig.yaml"} {
				if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.IsDir() {
					path = filepath.Join(dir, name)
					break
				}
			}
			if path != "" {
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return nil, errNoProject
			}
			dir = parent
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("read project configuration: %w", err)
	}
	p, err := parseSgconfig(data, warn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p.dir = filepath.Dir(abs)
	return p, nil
}

func parseSgconfig(data []byte, warn func(string)) (*project, error) {
	var raw map[string]yaml.Node
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("invalid sgconfig: %w", err)
	}
	p := &project{}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		node := raw[k]
		var err error
		switch k {
		case "ruleDirs":
			err = node.Decode(&p.ruleDirs)
		case "utilDirs":
			err = node.Decode(&p.utilDirs)
		case "languageGlobs":
			err = node.Decode(&p.langGlobs)
		case "testConfigs":
			var tcs []struct {
				TestDir     string `yaml:"testDir"`
				SnapshotDir string `yaml:"snapshotDir"`
			}
			if err = node.Decode(&tcs); err == nil {
				for _, tc := range tcs {
					if tc.TestDir == "" {
						return nil, errors.New("testConfigs: every entry needs a testDir")
					}
					p.testConfigs = append(p.testConfigs, testConfig{tc.TestDir, tc.SnapshotDir})
				}
			}
		default:
			if contains(sgconfigUnsupported, k) {
				warn(fmt.Sprintf("sgconfig key %q is not supported by loupe and is ignored", k))
				continue
			}
			return nil, fmt.Errorf("unknown sgconfig key %q (expected one of %s)", k, strings.Join(append(sgconfigKeys, sgconfigUnsupported...), ", "))
		}
		if err != nil {
			return nil, fmt.Errorf("sgconfig %s: %w", k, err)
		}
	}
	return p, nil
}

// yamlFiles lists the .yml and .yaml files under dir, skipping hidden
// entries and what .gitignore and .ignore files in dir and below exclude,
// as ast-grep's rule walk does.
func yamlFiles(dir string) ([]string, error) {
	var out []string
	type level struct {
		dir   string
		rules []*ignore.Rules
	}
	var walk func(l level) error
	walk = func(l level) error {
		entries, err := os.ReadDir(l.dir)
		if err != nil {
			return err
		}
		rules := l.rules
		for _, name := range []string{".gitignore", ".ignore"} {
			if data, err := os.ReadFile(filepath.Join(l.dir, name)); err == nil {
				if r, err := ignore.Parse(data); err == nil {
					rules = append(append([]*ignore.Rules(nil), rules...), r)
				}
			}
		}
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") {
				continue
			}
			full := filepath.Join(l.dir, name)
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 {
				fi, err := os.Stat(full)
				if err != nil {
					continue
				}
				isDir = fi.IsDir()
			}
			if ignored(rules, dir, full, isDir) {
				continue
			}
			if isDir {
				if err := walk(level{full, rules}); err != nil {
					return err
				}
				continue
			}
			if ext := filepath.Ext(name); ext == ".yml" || ext == ".yaml" {
				out = append(out, full)
			}
		}
		return nil
	}
	if err := walk(level{dir: dir}); err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// ignored applies gitignore rules (outermost first, later ones winning)
// to a path, matched relative to root.
func ignored(rules []*ignore.Rules, root, full string, isDir bool) bool {
	rel, err := filepath.Rel(root, full)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	res := ignore.Result(0)
	for _, r := range rules {
		if m := r.Match(rel, isDir); m != 0 {
			res = m
		}
	}
	return res > 0
}

// loadGlobals compiles the project's utility rules.
func (p *project) loadGlobals(ctx context.Context) (*rule.Globals, error) {
	var files []rule.File
	for _, d := range p.utilDirs {
		paths, err := yamlFiles(filepath.Join(p.dir, d))
		if err != nil {
			return nil, fmt.Errorf("utilDirs: %w", err)
		}
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			files = append(files, rule.File{Path: p.rel(path), Data: data})
		}
	}
	return rule.ParseGlobals(ctx, files)
}

// loadRules compiles every rule file of the project's ruleDirs; rule ids
// must be unique.
func (p *project) loadRules(ctx context.Context, globals *rule.Globals) ([]*rule.Config, error) {
	var out []*rule.Config
	seen := map[string]string{}
	for _, d := range p.ruleDirs {
		paths, err := yamlFiles(filepath.Join(p.dir, d))
		if err != nil {
			return nil, fmt.Errorf("ruleDirs: %w", err)
		}
		for _, path := range paths {
			cfgs, err := readRuleFile(ctx, path, p.rel(path), globals)
			if err != nil {
				return nil, err
			}
			for _, c := range cfgs {
				if prev, dup := seen[c.ID]; dup && c.ID != "" {
					return nil, fmt.Errorf("duplicate rule id %q in %s and %s", c.ID, prev, p.rel(path))
				}
				seen[c.ID] = p.rel(path)
			}
			out = append(out, cfgs...)
		}
	}
	return out, nil
}

func (p *project) rel(path string) string {
	if r, err := filepath.Rel(p.dir, path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}

// readRuleFile compiles the rules of one file. A rule without an id is
// named after the file (with its index when the file has several).
func readRuleFile(ctx context.Context, path, display string, globals *rule.Globals) ([]*rule.Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read rule %s: %w", display, err)
	}
	cfgs, err := rule.ParseConfigs(ctx, data, rule.Options{Globals: globals})
	if err != nil {
		return nil, fmt.Errorf("cannot parse rule %s: %w", display, err)
	}
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	for i, c := range cfgs {
		if c.ID != "" {
			continue
		}
		c.ID = stem
		if len(cfgs) > 1 {
			c.ID = fmt.Sprintf("%s-%d", stem, i)
		}
	}
	return cfgs, nil
}
