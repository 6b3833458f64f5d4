// Package project is an ast-grep project: an sgconfig.yml found by
// walking up from the working directory as ast-grep does, and what it
// configures: rule and utility folders, test folders, language globs and
// custom languages. It loads the project's rules (ids unique, a rule
// without id named after its file) and selects them for a scan: a
// --filter on ids, severity overrides and a minimum severity.
//
// It is the library under `loupe scan` and `loupe test`, so that any
// face can scan a project's own rules without copying the CLI.
package project

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

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/search/ignore"
)

// Project is an sgconfig.yml and what it configures.
type Project struct {
	// Dir is the absolute folder of the sgconfig.yml; rule paths, rule
	// `files` globs and the folders below are relative to it.
	Dir string
	// Config is the sgconfig.yml's path as found or given.
	Config string
	// RuleDirs and UtilDirs are the folders of rule and utility files.
	RuleDirs, UtilDirs []string
	// TestConfigs are the rule-test folders.
	TestConfigs []TestConfig
	// registered are the custom languages registered, by name.
	registered []string
	// LanguageGlobs maps a language name to globs of files it parses.
	LanguageGlobs map[string][]string
	// CustomLanguages are the custom languages by name.
	CustomLanguages map[string]CustomLanguage
	// LanguageInjections are the languageInjections entries as read;
	// RegisterLanguages compiles and registers them.
	LanguageInjections []map[string]any
	// injectErr is why the languageInjections could not be registered.
	injectErr error
	// Warnings are what went wrong with parts of the project that the
	// rest goes on without: a custom language whose module is refused,
	// a rule file of such a language. Find, CheckLanguages and LoadRules
	// add to them; the caller prints them.
	Warnings []error
}

// TestConfig is an entry of sgconfig's testConfigs.
type TestConfig struct {
	TestDir string `yaml:"testDir"`
	// SnapshotDir is "" for the default, __snapshots__ in TestDir.
	SnapshotDir string `yaml:"snapshotDir"`
}

// CustomLanguage is an entry of sgconfig's customLanguages, with
// ast-grep's keys. In loupe, LibraryPath names a WebAssembly grammar
// module (`loupe grammar build`) rather than a native library, relative to
// the project folder; LanguageSymbol is fixed when the module is built, so
// it is read but not needed; MetaVarChar may only be "$".
type CustomLanguage struct {
	LibraryPath    string   `yaml:"libraryPath"`
	Extensions     []string `yaml:"extensions"`
	ExpandoChar    string   `yaml:"expandoChar"`
	LanguageSymbol string   `yaml:"languageSymbol"`
	MetaVarChar    string   `yaml:"metaVarChar"`
}

// ErrNotFound means no sgconfig.yml was found.
var ErrNotFound = errors.New("no ast-grep project configuration (sgconfig.yml) found in the current folder or its parents")

// configNames are the file names of a project configuration, in the
// order they are looked for.
var configNames = []string{"sgconfig.yml", "sgconfig.yaml"}

// Find loads the project configuration at config, or, when config is
// "", the first sgconfig.yml (or .yaml) in dir or one of its parents.
func Find(config, dir string) (*Project, error) {
	if config == "" {
		var err error
		if dir, err = filepath.Abs(dir); err != nil {
			return nil, err
		}
		for config == "" {
			for _, name := range configNames {
				if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.IsDir() {
					config = filepath.Join(dir, name)
					break
				}
			}
			parent := filepath.Dir(dir)
			if config == "" && parent == dir {
				return nil, ErrNotFound
			}
			dir = parent
		}
	}
	abs, err := filepath.Abs(config)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("read project configuration: %w", err)
	}
	p, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", config, err)
	}
	p.Dir, p.Config = filepath.Dir(abs), config
	p.RegisterLanguages()
	if p.injectErr != nil {
		return nil, fmt.Errorf("%s: %w", config, p.injectErr)
	}
	return p, nil
}

// RegisterLanguages registers the project's custom languages with
// core/language (in name order), so that every face finds them by name
// and extension; one that cannot be registered (its module unreadable,
// a built-in language's name) is left out with a warning. Then it
// registers the project's languageInjections (replacing any registered
// before), unless one of them does not compile: none is registered, the
// error is a warning, and Find fails with it, as ast-grep refuses such a
// configuration. Find calls it; a project made by Parse, once its Dir is
// set, may.
func (p *Project) RegisterLanguages() {
	names := make([]string, 0, len(p.CustomLanguages))
	for name := range p.CustomLanguages {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		cl := p.CustomLanguages[name]
		expando, err := language.ParseExpando(cl.ExpandoChar)
		if err == nil && cl.MetaVarChar != "" && cl.MetaVarChar != "$" {
			err = fmt.Errorf("metaVarChar %q is not supported: loupe's metavariables start with $", cl.MetaVarChar)
		}
		if err == nil {
			_, err = language.RegisterCustom(language.Custom{
				Name: name, Path: p.Path(cl.LibraryPath), Extensions: cl.Extensions, Expando: expando,
			})
		}
		if err != nil {
			p.Warnings = append(p.Warnings, fmt.Errorf("customLanguages %s: %w; its files are not searched", name, err))
			continue
		}
		p.registered = append(p.registered, name)
	}
	if p.injectErr = p.registerInjections(); p.injectErr != nil {
		p.Warnings = append(p.Warnings, p.injectErr)
	}
}

// registerInjections compiles the languageInjections and registers them
// with core/language, in the order given.
func (p *Project) registerInjections() error {
	byHost := map[*language.Language][]language.Injector{}
	for i, obj := range p.LanguageInjections {
		inj, err := rule.ParseInjection(context.Background(), obj)
		if err != nil {
			language.SetInjectors(nil)
			return fmt.Errorf("languageInjections[%d]: %w", i, err)
		}
		byHost[inj.Host] = append(byHost[inj.Host], inj)
	}
	language.SetInjectors(byHost)
	return nil
}

// ForgetLanguages unregisters the custom languages RegisterLanguages
// registered, for a caller told to leave them out (ast-grep's
// `--custom-languages ignore`).
func (p *Project) ForgetLanguages() {
	for _, name := range p.registered {
		language.UnregisterCustom(name)
	}
	p.registered = nil
}

// CheckLanguages loads each custom language's module now, so that one
// the sandbox refuses (not a loupe grammar module, or it traps, loops or
// runs out of memory while starting) is reported once, naming its file,
// instead of at every file: it is added to Warnings, and its files and
// rules are passed over.
func (p *Project) CheckLanguages(ctx context.Context) {
	for _, name := range p.registered {
		l, err := language.Lookup(name)
		if err == nil {
			err = l.Check(ctx)
		}
		if err != nil {
			p.Warnings = append(p.Warnings, fmt.Errorf("%w; its files and rules are passed over", err))
		}
	}
}

// Parse reads an sgconfig.yml. Keys it does not know are ignored, as
// ast-grep ignores them.
func Parse(data []byte) (*Project, error) {
	var raw struct {
		RuleDirs        []string             `yaml:"ruleDirs"`
		UtilDirs        []string             `yaml:"utilDirs"`
		TestConfigs     []TestConfig         `yaml:"testConfigs"`
		LanguageGlobs   map[string][]string  `yaml:"languageGlobs"`
		CustomLanguages map[string]yaml.Node `yaml:"customLanguages"`
		Injections      []map[string]any     `yaml:"languageInjections"`
	}
	if err := rule.UnmarshalYAML(data, &raw); err != nil {
		return nil, fmt.Errorf("invalid sgconfig: %w", err)
	}
	for _, tc := range raw.TestConfigs {
		if tc.TestDir == "" {
			return nil, errors.New("testConfigs: every entry needs a testDir")
		}
	}
	p := &Project{
		RuleDirs: raw.RuleDirs, UtilDirs: raw.UtilDirs, TestConfigs: raw.TestConfigs,
		LanguageGlobs: raw.LanguageGlobs, LanguageInjections: raw.Injections,
	}
	if err := p.readCustomLanguages(raw.CustomLanguages); err != nil {
		return nil, err
	}
	return p, nil
}

// readCustomLanguages reads the customLanguages entries. An entry whose
// libraryPath is ast-grep's per-platform map of native libraries is left
// out with a warning (loupe takes one WebAssembly module, the same on
// every platform); any other malformed entry makes the configuration
// invalid, as in ast-grep.
func (p *Project) readCustomLanguages(nodes map[string]yaml.Node) error {
	names := make([]string, 0, len(nodes))
	for name := range nodes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		n := nodes[name]
		if lib := mapValue(&n, "libraryPath"); lib != nil && lib.Kind == yaml.MappingNode {
			p.Warnings = append(p.Warnings, fmt.Errorf("customLanguages %s: libraryPath is a per-platform map of native libraries, and loupe takes one WebAssembly module (built by loupe grammar build); its files are not searched", name))
			continue
		}
		var cl CustomLanguage
		if err := n.Decode(&cl); err != nil {
			return fmt.Errorf("invalid sgconfig: customLanguages %s: %w", name, err)
		}
		if cl.LibraryPath == "" {
			return fmt.Errorf("customLanguages %s: libraryPath is required", name)
		}
		if p.CustomLanguages == nil {
			p.CustomLanguages = map[string]CustomLanguage{}
		}
		p.CustomLanguages[name] = cl
	}
	return nil
}

// mapValue returns the value of key in a YAML mapping node, nil when n is
// not a mapping or lacks key.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// Rel returns path relative to the project folder, slash-separated (path
// itself when it is elsewhere).
func (p *Project) Rel(path string) string {
	if r, err := filepath.Rel(p.Dir, path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}

// Path returns a folder the configuration names (a ruleDirs, utilDirs or
// testDir entry): the folder itself when absolute (ast-grep's `new
// project` writes absolute ones), else below the project folder.
func (p *Project) Path(dir string) string {
	if filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(p.Dir, dir)
}

// LoadUtils compiles the project's utility rules.
func (p *Project) LoadUtils(ctx context.Context) (*rule.Globals, error) {
	var files []rule.File
	for _, d := range p.UtilDirs {
		paths, err := YAMLFiles(p.Path(d))
		if err != nil {
			return nil, fmt.Errorf("utilDirs: %w", err)
		}
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			files = append(files, rule.File{Path: p.Rel(path), Data: data})
		}
	}
	return rule.ParseGlobals(ctx, files)
}

// LoadRules compiles the project's utilities and every rule file of its
// ruleDirs; rule ids must be unique. A rule file that fails because a
// custom language's module is refused is left out with a warning.
func (p *Project) LoadRules(ctx context.Context) ([]*rule.Config, error) {
	globals, err := p.LoadUtils(ctx)
	if err != nil {
		return nil, err
	}
	var out []*rule.Config
	seen := map[string]string{}
	for _, d := range p.RuleDirs {
		paths, err := YAMLFiles(p.Path(d))
		if err != nil {
			return nil, fmt.Errorf("ruleDirs: %w", err)
		}
		for _, path := range paths {
			cfgs, err := ReadRuleFile(ctx, path, p.Rel(path), globals)
			if errors.Is(err, language.ErrCustom) {
				// A rule of a custom language whose module is refused:
				// the other languages' rules go on.
				p.Warnings = append(p.Warnings, err)
				continue
			}
			if err != nil {
				return nil, err
			}
			for _, c := range cfgs {
				if prev, dup := seen[c.ID]; dup && c.ID != "" {
					return nil, fmt.Errorf("duplicate rule id %q in %s and %s", c.ID, prev, p.Rel(path))
				}
				seen[c.ID] = p.Rel(path)
			}
			out = append(out, cfgs...)
		}
	}
	return out, nil
}

// ReadRuleFile compiles the rules of one file; display names it in
// errors. A rule without an id is named after the file (with its index
// when the file has several).
func ReadRuleFile(ctx context.Context, path, display string, globals *rule.Globals) ([]*rule.Config, error) {
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

// YAMLFiles lists the .yml and .yaml files under dir, sorted, skipping
// hidden entries and what .gitignore and .ignore files in dir and below
// exclude, as ast-grep's rule walk does.
func YAMLFiles(dir string) ([]string, error) {
	var out []string
	var walk func(d string, rules []*ignore.Rules) error
	walk = func(d string, rules []*ignore.Rules) error {
		entries, err := os.ReadDir(d)
		if err != nil {
			return err
		}
		for _, name := range []string{".gitignore", ".ignore"} {
			if data, err := os.ReadFile(filepath.Join(d, name)); err == nil {
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
			full := filepath.Join(d, name)
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
				if err := walk(full, rules); err != nil {
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
	if err := walk(dir, nil); err != nil {
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
