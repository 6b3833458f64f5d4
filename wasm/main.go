//go:build js

// Command wasm is loupe's GOOS=js entry point. It installs one global
// object, loupe, with a handful of methods; each tool invocation is one
// call into Go with JSON in and JSON out, never a call per node or file:
//
//	loupe.init(loader, configJSON, approve?) → Promise<JSON {session, languages, tools: [info], prompt} | {error}>
//	loupe.call(session, name, paramsJSON, id) → Promise<JSON {text, result} | {error}>
//	loupe.cancel(id)                 cancels call id (AbortSignal support)
//	loupe.languageFor(nameOrPath)    → the canonical name of a language name or alias, or of a path's extension; "" if none
//	loupe.parse(paramsJSON)          → Promise<JSON {sexp, nodes} | {error}>: {language, source}
//	loupe.merge(name, paramsJSON, replies) → JSON {text, result} | {error}: replies is an array of call's replies (JSON strings)
//	loupe.playground(loader, paramsJSON) → Promise<JSON>: the browser playground's runs and trees (playground.go)
//
// Every tool comes from the registry (package tools): init lists the
// session's tools as the registry describes them (toolspec.Info: name,
// title, summary, description, category, permissions, requiresApproval,
// termination, examples, inputSchema, outputSchema) plus split, set for
// the tools whose calls may be split between instances, and prompt is
// those tools formatted for a system prompt (toolspec.Prompt). init's
// config may carry "disabled": [names] to leave tools out of the session.
// approve, when given, is the session's approver: a function that takes a
// write's toolspec.Request as JSON and returns a boolean, or a Promise of
// one (true allows the write; false, a rejection or a throw refuses it).
// Without it a tool that would write refuses to (toolspec.ErrNoApprover).
// "index": {"path", "build"} names the project index the ten
// project-index tools read, and has the first of their calls build it
// when there is none; without build they are listed only when it exists.
// "customParseMs": n sets a custom language's limit per parse (default
// 30000), which its module's fuel counts (host/jshost).
//
// init's config may also carry "shard": {"index": i, "count": n}: the
// split tools then search only that shard of the files, so that n
// instances (one per worker thread) split each call. merge, given the
// call's name and parameters and the n shards' replies as call returned
// them, returns the reply one instance over all the files gives: the
// first error among the replies (in shard order) if any, otherwise their
// results merged by tools.Merge. The JavaScript side only passes the
// replies along.
//
// loader.instantiate(name) must return a WebAssembly.Instance of the named
// grammar module: grammars run on the JavaScript engine's own WebAssembly
// (see host/jshost), never interpreted inside Go. File access goes through
// Go's os package, which uses Node's fs under js.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"syscall/js"
	"time"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/treecache"
	"github.com/loupe-dev/loupe/host/jshost"
	"github.com/loupe-dev/loupe/tools"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

// config is init's configuration, as the JS shim passes it.
type config struct {
	WorkspaceRoot string `json:"workspaceRoot"`
	Timeouts      struct {
		AstGrepMs            int `json:"astGrepMs"`
		StructuralAnalysisMs int `json:"structuralAnalysisMs"`
		GrepFileMs           int `json:"grepFileMs"`
	} `json:"timeouts"`
	Limits struct {
		MaxFileSize int64 `json:"maxFileSize"`
	} `json:"limits"`
	Shard struct {
		Index int `json:"index"`
		Count int `json:"count"`
	} `json:"shard"`
	Disabled []string `json:"disabled"`
	// CustomParseMs is a custom language's limit per parse, counted in
	// its module's fuel (jshost.New); 0 is the default, 30 s.
	CustomParseMs int `json:"customParseMs"`
	// Index is the project index: its file (tools.Config.Index) and
	// whether the first project-index call builds it when there is none
	// (tools.Config.BuildIndex). Without build, the ten project-index
	// tools are listed only when the file exists, as `loupe mcp` does.
	Index struct {
		Path  string `json:"path"`
		Build bool   `json:"build"`
	} `json:"index"`
}

// toolInfo is a tool as init lists it.
type toolInfo struct {
	toolspec.Info
	Split bool `json:"split"`
}

// Each init opens a session: one workspace and its tools.
var (
	mu       sync.Mutex
	sessions = map[string]map[string]*tools.Tool{}
	cancels  = map[string]context.CancelFunc{}
)

func main() {
	api := js.Global().Get("Object").New()
	api.Set("init", js.FuncOf(initTools))
	api.Set("call", js.FuncOf(call))
	api.Set("cancel", js.FuncOf(cancel))
	api.Set("parse", js.FuncOf(parse))
	api.Set("languageFor", js.FuncOf(languageFor))
	api.Set("merge", js.FuncOf(merge))
	api.Set("setHash", js.FuncOf(setHash))
	api.Set("playground", js.FuncOf(playground))
	js.Global().Set("loupe", api)
	if ready := js.Global().Get("__loupeReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// initTools opens a session. It touches the file system (the workspace
// root is resolved), so it answers through a Promise like call.
func initTools(this js.Value, args []js.Value) any {
	if len(args) < 2 || len(args) > 3 || args[0].Type() != js.TypeObject || args[1].Type() != js.TypeString ||
		len(args) == 3 && args[2].Type() != js.TypeFunction && !args[2].IsUndefined() {
		return resolved(reply(nil, errors.New("init(loader, configJSON, approve?) expects a loader object, a JSON string and an optional function")))
	}
	loader, raw := args[0], args[1].String()
	var approver toolspec.Approver
	if len(args) == 3 && args[2].Type() == js.TypeFunction {
		approver = jsApprover(args[2])
	}
	return promise(func() string { return openSession(loader, raw, approver) })
}

// jsApprover asks the JavaScript function approve about each write and
// waits for its answer (the call runs on its own goroutine, so the event
// loop goes on meanwhile) or for the call's context to end.
func jsApprover(approve js.Value) toolspec.Approver {
	return func(ctx context.Context, r toolspec.Request) (bool, error) {
		req, err := json.Marshal(r)
		if err != nil {
			return false, err
		}
		type answer struct {
			ok  bool
			err error
		}
		res, err := invoke(approve, string(req))
		if err != nil {
			return false, err
		}
		// approve's answer is a boolean or a Promise of one. The callbacks
		// release themselves when it settles, which may be after the call
		// gave up waiting.
		done := make(chan answer, 1)
		var onOK, onErr js.Func
		settle := func(a answer) {
			onOK.Release()
			onErr.Release()
			done <- a
		}
		onOK = js.FuncOf(func(_ js.Value, a []js.Value) any {
			settle(answer{ok: len(a) > 0 && a[0].Type() == js.TypeBoolean && a[0].Bool()})
			return nil
		})
		onErr = js.FuncOf(func(_ js.Value, a []js.Value) any {
			msg := "the approver rejected"
			if len(a) > 0 {
				msg = js.Global().Get("String").Invoke(a[0]).String()
			}
			settle(answer{err: errors.New(msg)})
			return nil
		})
		js.Global().Get("Promise").Call("resolve", res).Call("then", onOK, onErr)
		select {
		case a := <-done:
			return a.ok, a.err
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
}

// invoke calls the JavaScript function f; what it throws is an error.
func invoke(f js.Value, args ...any) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			jsErr, ok := r.(js.Error)
			if !ok {
				panic(r)
			}
			err = jsErr
		}
	}()
	return f.Invoke(args...), nil
}

// setHash makes the tree cache's keys computed by the JavaScript function
// sha256(prefix, src), which returns their SHA-256 as a Uint8Array: the
// host's native hash, where Go's own is slow as wasm (treecache.SetSum).
// Should it throw or return something else, Go's own computes the key
// (treecache.KeyOf).
func setHash(this js.Value, args []js.Value) any {
	if len(args) != 1 || args[0].Type() != js.TypeFunction {
		return nil
	}
	f := args[0]
	u8 := js.Global().Get("Uint8Array")
	bytesToJS := func(b []byte) js.Value {
		a := u8.New(len(b))
		js.CopyBytesToJS(a, b)
		return a
	}
	treecache.SetSum(func(prefix, src []byte) (treecache.Key, bool) {
		var k treecache.Key
		sum, err := invoke(f, bytesToJS(prefix), bytesToJS(src))
		ok := err == nil && sum.InstanceOf(u8) && sum.Length() == len(k) && js.CopyBytesToGo(k[:], sum) == len(k)
		return k, ok
	})
	return nil
}

// openTreeCache puts the persistent tree cache the environment names
// under search.Default, once, as the CLI does (treecache.OpenDefault): the
// JavaScript side sets LOUPE_TREE_CACHE_DIR, or LOUPE_NO_CACHE for none. A
// cache that cannot be opened only costs parsing.
var openTreeCache = sync.OnceFunc(func() {
	if st, _ := treecache.OpenDefault(os.Getenv); st != nil {
		search.Default.SetStore(st)
		language.SetNameStore(st)
	}
})

func openSession(loader js.Value, raw string, approver toolspec.Approver) string {
	var cfg config
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		return reply(nil, err)
	}
	language.SetEngine(jshost.New(loader, time.Duration(cfg.CustomParseMs)*time.Millisecond))
	engineSet.Store(true)
	openTreeCache()
	tcfg := tools.Config{
		Workspace:       cfg.WorkspaceRoot,
		AstGrepTimeout:  time.Duration(cfg.Timeouts.AstGrepMs) * time.Millisecond,
		AnalysisTimeout: time.Duration(cfg.Timeouts.StructuralAnalysisMs) * time.Millisecond,
		GrepFileTimeout: time.Duration(cfg.Timeouts.GrepFileMs) * time.Millisecond,
		MaxFileSize:     cfg.Limits.MaxFileSize,
		Shard:           search.Shard{Index: cfg.Shard.Index, Count: cfg.Shard.Count},
		Index:           cfg.Index.Path,
		BuildIndex:      cfg.Index.Build,
		// No watching under js: each project-index call first runs a stat
		// pass that applies what others changed to the copy it answers from.
		WatchIndex: true,
		Approver:   approver,
	}
	ts, err := tools.New(tcfg)
	if err != nil {
		return reply(nil, err)
	}
	if _, err := os.Stat(tools.IndexPath(tcfg)); err != nil && !cfg.Index.Build {
		// No index and none to build: the project-index tools, which
		// could only fail, are left out.
		ts = slices.DeleteFunc(ts, func(t *tools.Tool) bool { return t.Category == tools.ProjectIndex })
	}
	infos := []toolInfo{}
	var specs []toolspec.Info
	byName := map[string]*tools.Tool{}
	for _, t := range ts {
		if slices.Contains(cfg.Disabled, t.Name) {
			continue
		}
		byName[t.Name] = t
		infos = append(infos, toolInfo{t.Info, t.Splittable()})
		specs = append(specs, t.Info)
	}
	mu.Lock()
	session := strconv.Itoa(len(sessions) + 1)
	sessions[session] = byName
	mu.Unlock()
	return reply(map[string]any{"session": session, "languages": language.Names(), "tools": infos, "prompt": toolspec.Prompt(specs)}, nil)
}

// promise runs f on its own goroutine and returns a Promise of its result.
// A handler must not block: Go's file I/O under js waits for Node's
// callbacks, so blocking the event loop would deadlock (and AbortSignal
// events could not arrive).
func promise(f func() string) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(this js.Value, pargs []js.Value) any {
		resolve := pargs[0]
		go func() {
			defer executor.Release()
			resolve.Invoke(f())
		}()
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}

func resolved(v string) js.Value { return js.Global().Get("Promise").Call("resolve", v) }

// call runs a tool; call id can be cancelled while it runs.
func call(this js.Value, args []js.Value) any {
	const usage = "call(session, name, paramsJSON, id) expects four strings"
	if len(args) != 4 {
		return resolved(reply(nil, errors.New(usage)))
	}
	for _, a := range args {
		if a.Type() != js.TypeString {
			return resolved(reply(nil, errors.New(usage)))
		}
	}
	session, name, params, id := args[0].String(), args[1].String(), args[2].String(), args[3].String()
	mu.Lock()
	tool, ok := sessions[session][name]
	ctx, cancelFn := context.WithCancel(context.Background())
	cancels[id] = cancelFn
	mu.Unlock()
	return promise(func() string {
		defer func() {
			mu.Lock()
			delete(cancels, id)
			mu.Unlock()
			cancelFn()
		}()
		if !ok {
			return reply(nil, errors.New("unknown tool "+name+" (call init first)"))
		}
		out, err := tool.Call(ctx, json.RawMessage(params))
		if err != nil {
			return reply(nil, err)
		}
		return reply(map[string]any{"text": out.Text, "result": out.Result, "structured": out.Structured}, nil)
	})
}

func cancel(this js.Value, args []js.Value) any {
	if len(args) == 1 && args[0].Type() == js.TypeString {
		mu.Lock()
		if c := cancels[args[0].String()]; c != nil {
			c()
		}
		mu.Unlock()
	}
	return nil
}

func languageFor(this js.Value, args []js.Value) any {
	if len(args) != 1 || args[0].Type() != js.TypeString {
		return ""
	}
	s := args[0].String()
	l, err := language.Lookup(s)
	if err != nil {
		var ok bool
		if l, ok = language.ForPath(s); !ok {
			return ""
		}
	}
	if _, custom := l.Custom(); custom {
		// Go hands a custom language's module to the loader itself
		// (loadBytes): there is no file of it for the JS side to prepare.
		return ""
	}
	return l.Name()
}

// merge turns the replies of the instances that split a call between them
// (each configured with its shard) into the reply one instance gives.
func merge(this js.Value, args []js.Value) any {
	const usage = "merge(name, paramsJSON, replies) expects two strings and an array of strings"
	if len(args) != 3 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString || !args[2].InstanceOf(js.Global().Get("Array")) {
		return reply(nil, errors.New(usage))
	}
	name := args[0].String()
	shards := make([]json.RawMessage, args[2].Length())
	for i := range shards {
		v := args[2].Index(i)
		if v.Type() != js.TypeString {
			return reply(nil, errors.New(usage))
		}
		var r struct {
			Error  *string         `json:"error"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(v.String()), &r); err != nil {
			return reply(nil, fmt.Errorf("merge: shard %d: %w", i, err))
		}
		switch {
		case r.Error != nil:
			return reply(nil, errors.New(*r.Error))
		case len(r.Result) == 0 || string(r.Result) == "null":
			return reply(nil, fmt.Errorf("merge: shard %d replied with no result", i))
		}
		shards[i] = r.Result
	}
	out, err := tools.Merge(name, json.RawMessage(args[1].String()), shards)
	if err != nil {
		return reply(nil, err)
	}
	return reply(map[string]any{"text": out.Text, "result": out.Result, "structured": out.Structured}, nil)
}

// parse answers through a Promise: the grammar may have to be loaded
// first, which waits for the JavaScript loader.
func parse(this js.Value, args []js.Value) any {
	if len(args) != 1 || args[0].Type() != js.TypeString {
		return resolved(reply(nil, errors.New("parse(paramsJSON) expects a JSON string")))
	}
	raw := args[0].String()
	return promise(func() string {
		var p struct {
			Language string `json:"language"`
			Source   string `json:"source"`
		}
		if err := json.Unmarshal([]byte(raw), &p); err != nil {
			return reply(nil, err)
		}
		lang, err := language.Lookup(p.Language)
		if err != nil {
			return reply(nil, err)
		}
		t, err := lang.Parse(context.Background(), []byte(p.Source))
		if err != nil {
			return reply(nil, err)
		}
		return reply(map[string]any{"sexp": t.Root().SExp(), "nodes": t.Len()}, nil)
	})
}

func reply(v any, err error) string {
	if err != nil {
		v = map[string]string{"error": err.Error()}
	}
	b, merr := json.Marshal(v)
	if merr != nil {
		b, _ = json.Marshal(map[string]string{"error": merr.Error()})
	}
	return string(b)
}
