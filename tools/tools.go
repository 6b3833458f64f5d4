// Package tools is loupe's one tool registry: every tool an LLM is given
// (ast_grep, structural_analysis, outline, the file tools) is declared here exactly once, with its
// name, title, summary and description, category, permissions,
// requires-approval rule, termination guidance, example parameters,
// handler and compact structured output. The input schema comes from the
// Go parameter struct and the output schema from the structured output's
// struct (package schema), the MCP annotations from the permissions
// (toolspec.Info.Hints). Every face is built from the registry: the MCP
// server (package mcp), the GOOS=js module behind the npm package (wasm/)
// and the Go API (New).
//
// Adding a tool is one declaration (see declare) in the registry list;
// the tool's package need not import this one (only toolspec, to ask for
// approval before a write).
package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/tools/schema"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

// registry lists every tool, in the order faces list them.
var registry = append([]entry{
	astGrep, structuralAnalysis, outlineEntry,
	grepTool, globTool, searchTool, listDirectoryTool, readFileTool,
	createFileTool, updateFileTool, appendFileTool, replaceInFileTool, editLinesTool, deleteFileTool,
}, indexTools...)

// Config sets up the tools for one workspace.
type Config struct {
	// Workspace is the root directory no path may leave (required).
	Workspace string
	// AstGrepTimeout bounds one ast_grep call (default 30 s).
	AstGrepTimeout time.Duration
	// AnalysisTimeout bounds one structural_analysis or outline call
	// (default 60 s).
	AnalysisTimeout time.Duration
	// MaxFileSize skips larger files (default 10 MiB).
	MaxFileSize int64
	// GrepFileTimeout is grep's time limit per file (default 5 s): a file
	// that takes longer is abandoned with a warning.
	GrepFileTimeout time.Duration
	// Shard makes the tools that can be split (Tool.Splittable) search
	// only one shard of the files (see search.Shard), for a pool of
	// instances that split each call and merge the shards' results with
	// Tool.Merge.
	Shard search.Shard
	// Index is the project index (loupe index) the project-index tools
	// read; "" means the workspace's default one (index.DefaultPath).
	// Whatever the tools write is applied to it before they return.
	Index string
	// BuildIndex has the first project-index call build the index of
	// Workspace at Index when there is none (index.Build): for workspaces
	// that no `loupe index` reaches, such as the npm package's in-memory
	// files.
	BuildIndex bool
	// WatchIndex keeps the project index up with changes others make
	// while the tools serve (a server and the npm package set it): from
	// the first project-index call on, a watcher applies them as they
	// happen; where watching is unavailable (GOOS=js, or the system's
	// limit on watches reached), a stat pass of the tree runs before each
	// project-index query.
	WatchIndex bool
	// Approver is asked before a tool writes (toolspec.Approve); without
	// one, tools that write refuse to. A call's context may carry its own
	// (toolspec.WithApprover), which takes precedence.
	Approver toolspec.Approver
}

// Tool is one tool bound to a workspace.
type Tool struct {
	toolspec.Info
	call          func(context.Context, json.RawMessage) (*Output, error)
	needsApproval func(json.RawMessage) (bool, error)
	splittable    bool
}

// Output is what a call returns.
type Output struct {
	// Text is what the model reads: the result rendered compactly.
	Text string
	// Result is the tool's whole result (for ast_grep an
	// *astgrep.Result), for programs in the same process.
	Result any
	// Structured is the compact form of Result that Info.OutputSchema
	// describes, bounded to MaxStructuredBytes of JSON: what the MCP
	// server sends as structuredContent.
	Structured any
	// Warnings say what the call passed over or cut short (skipped
	// files, a timeout), one sentence each, for a host's log.
	Warnings []string
}

// Call runs the tool with its JSON parameters. Unknown parameters, invalid
// values and failed calls are errors; a timeout or a cancellation is a
// partial result, not an error. The context's Approver
// (toolspec.WithApprover), else the Config's, is asked before any write.
func (t *Tool) Call(ctx context.Context, params json.RawMessage) (*Output, error) {
	return t.call(ctx, params)
}

// NeedsApproval reports whether a call with params would ask for approval
// before it writes, by the tool's requires-approval rule (a preview never
// does); the tool may still find nothing to write and not ask. It is an
// error when params are invalid.
func (t *Tool) NeedsApproval(params json.RawMessage) (bool, error) {
	return t.needsApproval(params)
}

// Splittable reports whether calls of the tool may be split between
// instances configured with Config.Shard and their results merged by
// Merge.
func (t *Tool) Splittable() bool { return t.splittable }

// Merge returns the output of one call of the named tool split between
// instances (Tool.Splittable), given the call's parameters and each
// shard's Output.Result as JSON, in shard order, exactly as one instance
// over every file returns it.
func Merge(name string, params json.RawMessage, shards []json.RawMessage) (*Output, error) {
	for _, e := range registry {
		if e.info().Name == name {
			return e.merge(params, shards)
		}
	}
	return nil, fmt.Errorf("merge: no tool %q", name)
}

// New returns the tools of the registry for cfg's workspace.
func New(cfg Config) ([]*Tool, error) {
	ts := make([]*Tool, 0, len(registry))
	for _, e := range registry {
		t, err := e.bind(cfg)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// NewTool returns a tool outside the registry, described by info and run
// by call, for a host that serves its own tools beside loupe's through
// the same faces (and for tests of those faces). Its calls never ask for
// approval by rule (NeedsApproval is false) and are not split.
func NewTool(info toolspec.Info, call func(ctx context.Context, params json.RawMessage) (*Output, error)) *Tool {
	return &Tool{Info: info, call: call, needsApproval: func(json.RawMessage) (bool, error) { return false, nil }}
}

// Infos describes every tool of the registry, without a workspace.
func Infos() []toolspec.Info {
	infos := make([]toolspec.Info, len(registry))
	for i, e := range registry {
		infos[i] = e.info()
	}
	return infos
}

// TypeSchemas are one tool's schemas for generating typed bindings (the
// npm package's TypeScript types): its input schema, and the full schema
// of its structured output, with the descriptions and required lists that
// Info.OutputSchema, its terse form, leaves out.
type TypeSchemas struct {
	Name     string
	Category toolspec.Category
	Input    map[string]any
	Output   map[string]any
}

// Types returns the TypeSchemas of every tool of the registry, in the
// registry's order.
func Types() []TypeSchemas {
	out := make([]TypeSchemas, len(registry))
	for i, e := range registry {
		out[i] = e.types()
	}
	return out
}

// Prompt is the registry's tools formatted for an agent's system prompt,
// grouped by category (toolspec.Prompt).
func Prompt() string { return toolspec.Prompt(Infos()) }

// entry is a declaration with its types erased.
type entry interface {
	info() toolspec.Info
	types() TypeSchemas
	bind(Config) (*Tool, error)
	merge(params json.RawMessage, shards []json.RawMessage) (*Output, error)
}

// A result renders itself for an LLM.
type result interface{ Text() string }

// decl declares one tool: parameters P, result R, structured output S.
type decl[P any, R result, S any] struct {
	Name    string
	Title   string
	Summary string
	// Description is the full text a tool registration carries.
	Description string
	// Guide is the system prompt's prose: common uses, important options.
	Guide       string
	Category    toolspec.Category
	Permissions toolspec.Permission
	// Additive: every write of the tool only adds (toolspec.Info.Additive).
	Additive bool
	// NeedsApproval is the requires-approval rule: whether a call with
	// these parameters would write (and so ask the Approver first). nil:
	// the tool never writes.
	NeedsApproval func(P) bool
	Termination   string
	Examples      []example[P]
	// Wrote, for a tool that writes, is the file a result wrote
	// (relative to the workspace; "" for none, as in a preview): the
	// project index is brought up to date for it before the call returns.
	Wrote func(R) string
	// Open binds the tool to a workspace and returns its handler.
	Open func(Config) (func(context.Context, P) (R, error), error)
	// Structured returns the compact structured output of a result,
	// within MaxStructuredBytes of JSON.
	Structured func(R) S
	// Warnings, when set, lists what a result passed over or cut short.
	Warnings func(R) []string
	// Merge, when set, merges the results of a call split between
	// instances configured with Config.Shard.
	Merge func(P, []R) R
}

// example is a typed example call, so examples are checked against the
// parameters when the code compiles.
type example[P any] struct {
	Use    string
	Params P
}

// declare checks a declaration and returns its registry entry. It panics
// on a declaration that is incomplete (a programming error the tests
// catch, as every declaration runs at package initialisation).
func declare[P any, R result, S any](d decl[P, R, S]) entry {
	if d.Name == "" || d.Title == "" || d.Summary == "" || d.Description == "" || d.Guide == "" || d.Category.Name == "" ||
		d.Permissions == 0 || d.Termination == "" || len(d.Examples) == 0 || d.Open == nil || d.Structured == nil {
		panic(fmt.Sprintf("tools: incomplete declaration of %q", d.Name))
	}
	if d.Permissions&^toolspec.ReadFiles != 0 && d.NeedsApproval == nil {
		panic(fmt.Sprintf("tools: %s writes (%s) but has no requires-approval rule", d.Name, d.Permissions))
	}
	return &declared[P, R, S]{decl: d}
}

// declared is a checked declaration and its Info, built on first use: a
// process that calls no tool (a CLI search) does not reflect over every
// tool's types for schemas at start.
type declared[P any, R result, S any] struct {
	decl[P, R, S]
	once sync.Once
	inf  toolspec.Info
}

func (d *declared[P, R, S]) types() TypeSchemas {
	return TypeSchemas{Name: d.Name, Category: d.Category, Input: schema.For(new(P)), Output: schema.For(new(S))}
}

func (d *declared[P, R, S]) info() toolspec.Info {
	d.once.Do(func() {
		d.inf = toolspec.Info{
			Name: d.Name, Title: d.Title, Summary: d.Summary, Description: d.Description, Guide: d.Guide,
			Category: d.Category, Permissions: d.Permissions, RequiresApproval: d.NeedsApproval != nil, Additive: d.Additive,
			Termination:  d.Termination,
			InputSchema:  schema.For(new(P)),
			OutputSchema: schema.Terse(schema.For(new(S))),
		}
		for _, e := range d.Examples {
			raw, err := json.Marshal(e.Params)
			if err != nil {
				panic(fmt.Sprintf("tools: %s example %q: %v", d.Name, e.Use, err))
			}
			d.inf.Examples = append(d.inf.Examples, toolspec.Example{Use: e.Use, Params: raw})
		}
	})
	return d.inf
}

func (d *declared[P, R, S]) bind(cfg Config) (*Tool, error) {
	run, err := d.Open(cfg)
	if err != nil {
		return nil, err
	}
	t := &Tool{Info: d.info(), splittable: d.Merge != nil}
	t.call = func(ctx context.Context, raw json.RawMessage) (*Output, error) {
		var p P
		if err := decodeStrict(raw, d.info().InputSchema, &p); err != nil {
			return nil, err
		}
		if cfg.Approver != nil && !toolspec.HasApprover(ctx) {
			ctx = toolspec.WithApprover(ctx, cfg.Approver)
		}
		res, err := run(ctx, p)
		if err != nil {
			return nil, err
		}
		out := d.output(res)
		if d.Wrote != nil {
			if rel := d.Wrote(res); rel != "" {
				if err := afterWrite(ctx, cfg, rel); err != nil {
					out.Warnings = append(out.Warnings, fmt.Sprintf("%s: the project index was not updated for %s: %v", d.Name, rel, err))
				}
			}
		}
		return out, nil
	}
	t.needsApproval = func(raw json.RawMessage) (bool, error) {
		var p P
		if err := decodeStrict(raw, d.info().InputSchema, &p); err != nil {
			return false, err
		}
		return d.NeedsApproval != nil && d.NeedsApproval(p), nil
	}
	return t, nil
}

func (d *declared[P, R, S]) merge(raw json.RawMessage, shards []json.RawMessage) (*Output, error) {
	if d.Merge == nil {
		return nil, fmt.Errorf("%s: calls are not split between instances", d.Name)
	}
	var p P
	if err := decodeStrict(raw, d.info().InputSchema, &p); err != nil {
		return nil, err
	}
	rs := make([]R, len(shards))
	for i, s := range shards {
		if err := json.Unmarshal(s, &rs[i]); err != nil {
			return nil, fmt.Errorf("%s: merge: shard %d: %w", d.Name, i, err)
		}
	}
	return d.output(d.Merge(p, rs)), nil
}

func (d *declared[P, R, S]) output(res R) *Output {
	out := &Output{Text: res.Text(), Result: res, Structured: d.Structured(res)}
	if d.Warnings != nil {
		out.Warnings = d.Warnings(res)
	}
	return out
}

// decodeStrict unmarshals tool parameters after checking them against
// the tool's input schema exactly (checkParams): Go's decoder alone would
// match keys case-insensitively and let the last of two equal keys win,
// so {"path":"shown.txt","PATH":"hidden.txt"} would act on hidden.txt
// while a client asking its user shows path: shown.txt. Every face (the
// MCP server, the GOOS=js module, the Go API) calls tools through here.
func decodeStrict(raw json.RawMessage, schema map[string]any, v any) error {
	if t := bytes.TrimSpace(raw); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		raw = json.RawMessage("{}")
	}
	if err := checkParams(raw, schema); err != nil {
		return fmt.Errorf("invalid parameters: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid parameters: %w", err)
	}
	return nil
}

// maxParamDepth is how deeply tool parameters may nest (as deeply as
// encoding/json decodes).
const maxParamDepth = 10000

// checkParams checks raw, one JSON object, against schema (as package
// schema derives it): each object's keys are unique, and where the schema
// lists an object's properties, each key is one of them, spelt exactly;
// scalars have the schema's type; nesting stays within maxParamDepth.
func checkParams(raw []byte, schema map[string]any) error {
	c := paramChecker{dec: json.NewDecoder(bytes.NewReader(raw))}
	c.dec.UseNumber()
	tok, err := c.dec.Token()
	if err != nil {
		return syntaxError(err)
	}
	if tok != json.Delim('{') {
		return fmt.Errorf("expected a JSON object of parameters, got %s", kindOf(tok))
	}
	if err := c.object(schema, "", 1); err != nil {
		return err
	}
	if _, err := c.dec.Token(); err != io.EOF {
		return errors.New("more than one JSON value")
	}
	return nil
}

// paramChecker walks one parameter object token by token, so a value of
// any depth is checked without being decoded.
type paramChecker struct{ dec *json.Decoder }

// object checks the members of an object whose '{' was read.
func (c *paramChecker) object(schema map[string]any, path string, depth int) error {
	props, strict := schema["properties"].(map[string]any)
	seen := map[string]bool{}
	for c.dec.More() {
		tok, err := c.dec.Token()
		if err != nil {
			return syntaxError(err)
		}
		key := tok.(string) // the decoder gives an object's keys as strings
		if seen[key] {
			return fmt.Errorf("duplicate field %q%s", key, in(path))
		}
		seen[key] = true
		var sub map[string]any
		if strict {
			p, ok := props[key]
			if !ok {
				return unknownField(key, path, props)
			}
			sub, _ = p.(map[string]any)
		}
		if err := c.value(sub, join(path, key), depth); err != nil {
			return err
		}
	}
	_, err := c.dec.Token() // '}'
	return syntaxError(err)
}

// value checks the next value against schema (nil: any value).
func (c *paramChecker) value(schema map[string]any, path string, depth int) error {
	tok, err := c.dec.Token()
	if err != nil {
		return syntaxError(err)
	}
	if err := checkType(tok, schema, path); err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		if depth >= maxParamDepth {
			return fmt.Errorf("parameters nested more than %d levels deep", maxParamDepth)
		}
		return c.object(schema, path, depth+1)
	case json.Delim('['):
		if depth >= maxParamDepth {
			return fmt.Errorf("parameters nested more than %d levels deep", maxParamDepth)
		}
		items, _ := schema["items"].(map[string]any)
		for i := 0; c.dec.More(); i++ {
			if err := c.value(items, fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
		_, err := c.dec.Token() // ']'
		return syntaxError(err)
	}
	return nil
}

// checkType reports a value (by its first token) that the schema's type
// does not allow; null is allowed anywhere (it leaves the default).
func checkType(tok json.Token, schema map[string]any, path string) error {
	var allowed []string
	switch t := schema["type"].(type) {
	case string:
		allowed = []string{t}
	case []string:
		allowed = t
	}
	if alts, ok := schema["anyOf"].([]any); ok { // a parameter of any type: anyOf object or string
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok {
				if t, ok := m["type"].(string); ok {
					allowed = append(allowed, t)
				}
			}
		}
	}
	if tok == nil || len(allowed) == 0 {
		return nil
	}
	got := kindOf(tok)
	for _, a := range allowed {
		if a == got || (a == "number" && got == "integer") {
			return nil
		}
	}
	want := strings.Join(allowed, " or ")
	if n, ok := tok.(json.Number); ok && want == "integer" {
		return fmt.Errorf("%s: expected an integer, got %s", path, n)
	}
	return fmt.Errorf("%s: expected %s %s, got %s", path, article(want), want, article(got)+" "+got)
}

// kindOf names the JSON type a token starts, as JSON Schema does.
func kindOf(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return "array"
		}
		return "object"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return "integer"
		}
		return "number"
	}
	return "null"
}

func article(word string) string {
	if strings.IndexByte("aeiou", word[0]) >= 0 {
		return "an"
	}
	return "a"
}

// unknownField refuses key, naming the parameter it differs from only in
// case, if any: keys are case-sensitive.
func unknownField(key, path string, props map[string]any) error {
	for name := range props {
		if strings.EqualFold(name, key) {
			return fmt.Errorf("unknown field %q%s (parameter names are case-sensitive: did you mean %q?)", key, in(path), name)
		}
	}
	return fmt.Errorf("unknown field %q%s", key, in(path))
}

// syntaxError words a tokenizer's error without Go's names; nil stays
// nil.
func syntaxError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the JSON ends early")
	}
	return fmt.Errorf("not valid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func in(path string) string {
	if path == "" {
		return ""
	}
	return " in " + path
}

// ProjectIndex is the category of the ten tools answering from the
// project index (loupe index), in every face (see indexTools).
var ProjectIndex = toolspec.Category{Name: "Project Index", Description: "Look up the repository's packages (npm, Go, Cargo, Python, Maven, Gradle), their dependencies and the symbols of their source files in the project index that `loupe index` builds: exact names and full-text search, answered at once without reading files. Read-only; kept up with edits while served (index_status)."}
