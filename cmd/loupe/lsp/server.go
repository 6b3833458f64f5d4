// Package lsp is ast-grep's language server (`ast-grep lsp`) on loupe's
// engine: over JSON-RPC on a stream, it publishes the diagnostics of a
// project's rules for each open document, found by the same scanner as
// `loupe scan` (core/scan, `ast-grep-ignore` suppressions and their
// unused-suppression report included), offers each rule's fixes as quick
// fixes and all of a document's first fixes as a fix-all source action
// and command, shows a rule's note on hover, and reloads the rules when
// the client reports a change to a YAML file. Capabilities, diagnostics,
// action titles, kinds and edits are those of ast-grep 0.51.1's server;
// docs/differences.md lists what differs.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/scan"
)

// The names ast-grep's server gives its command and code action kinds.
const (
	// CommandApplyAllFixes applies the fix-all edit of the document given
	// as the command's argument (a TextDocumentItem) through
	// workspace/applyEdit.
	CommandApplyAllFixes = "ast-grep.applyAllFixes"
	// KindQuickFix is the kind of the quick fixes the server advertises.
	KindQuickFix = "quickfix.ast-grep"
	// KindFixAll is the kind of the fix-all source action.
	KindFixAll = "source.fixAll.ast-grep"
)

// Config configures a server.
type Config struct {
	// Project is the ast-grep project whose rules the server runs.
	Project *project.Project
	// Dir is the folder a document must be in to be scanned when the
	// client names no workspace folder (ast-grep: the working directory).
	Dir string
	// Name and Version name the server in its initialize answer.
	Name, Version string
}

// server is one language server session.
type server struct {
	cfg  Config
	conn *jsonrpc2.Conn
	// ready is closed once conn is set: the connection reads, and so
	// calls Handle, from the moment it is made.
	ready chan struct{}

	mu        sync.Mutex
	state     int // uninitialized, running, shutDown
	exitCode  int
	literal   bool   // the client understands code action literals
	workspace string // documents outside it are not scanned
	rules     *ruleSet
	docs      map[string]*document // open documents by URI
	pending   sync.WaitGroup       // requests to the client under way
}

// codeServerNotInitialized is the protocol's error for a request before
// initialize.
const codeServerNotInitialized = -32002

// Session states.
const (
	uninitialized = iota
	running
	shutDown
)

// Serve runs a server session on rw (stdin and stdout for an editor)
// until the client sends exit or closes the stream, and returns the exit
// status the protocol asks for: 0 after a shutdown request, 1 otherwise.
// A message the server cannot take (a bad header, a body that is not a
// JSON-RPC message, one over MaxMessageBytes) is answered with an error
// when it is a request and dropped when not, and the session goes on.
func Serve(ctx context.Context, rw io.ReadWriteCloser, cfg Config) int {
	s := &server{cfg: cfg, docs: map[string]*document{}, exitCode: 1, workspace: cfg.Dir, ready: make(chan struct{})}
	s.conn = jsonrpc2.NewConn(ctx, newStream(rw), s)
	close(s.ready)
	select {
	case <-s.conn.DisconnectNotify():
	case <-ctx.Done():
		s.conn.Close()
	}
	s.pending.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exitCode
}

// Handle answers one message from the client. Messages are handled one
// at a time, in the order they arrive, so a document's changes apply in
// order; only requests the server sends the client run on their own.
func (s *server) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	<-s.ready
	if req.Method == "exit" {
		conn.Close()
		return
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case state == uninitialized && req.Method != "initialize":
		s.fail(ctx, req, codeServerNotInitialized, "Server not initialized")
		return
	case state == shutDown, state == running && req.Method == "initialize":
		s.fail(ctx, req, jsonrpc2.CodeInvalidRequest, "Invalid request")
		return
	}
	var result any
	var err error
	switch req.Method {
	case "initialize":
		result, err = s.initialize(req)
	case "initialized":
		s.initialized(ctx)
	case "shutdown":
		s.mu.Lock()
		s.state, s.exitCode = shutDown, 0
		s.mu.Unlock()
	case "textDocument/didOpen":
		err = s.didOpen(ctx, req)
	case "textDocument/didChange":
		err = s.didChange(ctx, req)
	case "textDocument/didClose":
		err = s.didClose(ctx, req)
	case "workspace/didChangeWatchedFiles":
		s.reload(ctx)
	case "textDocument/codeAction":
		result, err = s.codeAction(req)
	case "codeAction/resolve":
		// The actions come with their edits: resolving one returns it.
		var raw json.RawMessage
		result, err = &raw, decode(req, &raw)
	case "textDocument/hover":
		result, err = s.hover(req)
	case "workspace/executeCommand":
		if err = s.executeCommand(ctx, req); err == nil {
			return // executeCommand answers, once the client has applied any edit
		}
	default:
		if !req.Notif {
			s.fail(ctx, req, jsonrpc2.CodeMethodNotFound, "Method not found")
		}
		return
	}
	switch {
	case req.Notif:
		if err != nil {
			s.log(ctx, messageError, err.Error())
		}
	case err != nil:
		s.fail(ctx, req, jsonrpc2.CodeInvalidParams, err.Error())
	default:
		conn.Reply(ctx, req.ID, result)
	}
}

// fail answers a request with an error; a notification gets no answer.
func (s *server) fail(ctx context.Context, req *jsonrpc2.Request, code int64, msg string) {
	if !req.Notif {
		s.conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: code, Message: msg})
	}
}

// decode reads a message's parameters into v.
func decode(req *jsonrpc2.Request, v any) error {
	if req.Params == nil {
		return fmt.Errorf("%s: no parameters", req.Method)
	}
	if err := json.Unmarshal(*req.Params, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// Go's own words name Go types.
			return fmt.Errorf("%s: invalid params: %s is %s, expected %s", req.Method, paramName(te.Field), article(te.Value), article(jsonKind(te.Type)))
		}
		return fmt.Errorf("%s: invalid params: %s", req.Method, strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// paramName names a parameter by its JSON path ("params" when it is the
// whole of them).
func paramName(field string) string {
	if field == "" {
		return "params"
	}
	return field
}

// jsonKind names the JSON type of a Go type.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array"
	}
	return "object"
}

// article puts "a" or "an" before a JSON type's name.
func article(kind string) string {
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// log sends the client a log message.
func (s *server) log(ctx context.Context, typ int, msg string) {
	s.conn.Notify(ctx, "window/logMessage", MessageParams{Type: typ, Message: msg})
}

func (s *server) initialize(req *jsonrpc2.Request) (any, error) {
	var p InitializeParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state = running
	// ast-grep asks the client for its folders when it says it has any;
	// those of the initialize request are the same.
	if p.Capabilities.Workspace.WorkspaceFolders && len(p.WorkspaceFolders) > 0 {
		if dir, ok := filePath(p.WorkspaceFolders[0].URI); ok {
			s.workspace = dir
		}
	}
	var actions any = true
	if ca := p.Capabilities.TextDocument.CodeAction; ca != nil && len(ca.CodeActionLiteralSupport) > 0 && string(ca.CodeActionLiteralSupport) != "null" {
		actions = CodeActionOptions{CodeActionKinds: []string{KindQuickFix, KindFixAll}, ResolveProvider: true}
	}
	return InitializeResult{
		Capabilities: ServerCapabilities{
			TextDocumentSync:       1,
			CodeActionProvider:     actions,
			ExecuteCommandProvider: ExecuteCommandOptions{Commands: []string{CommandApplyAllFixes}},
			HoverProvider:          true,
		},
		ServerInfo: ServerInfo{Name: s.cfg.Name, Version: s.cfg.Version},
	}, nil
}

// initialized loads the rules and asks the client to report changes to
// YAML files (rules, utilities, sgconfig.yml), which reload them.
func (s *server) initialized(ctx context.Context) {
	s.reload(ctx)
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		params := RegistrationParams{Registrations: []Registration{{
			ID:     "ast-grep-config-watcher",
			Method: "workspace/didChangeWatchedFiles",
			RegisterOptions: map[string]any{"watchers": []FileSystemWatcher{{
				GlobPattern: "**/*.{yml,yaml}",
				Kind:        7, // create, change, delete
			}}},
		}}}
		if err := s.conn.Call(ctx, "client/registerCapability", params, nil); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
			s.log(ctx, messageError, fmt.Sprintf("Failed to register file watchers: %v", err))
		}
	}()
}

// reload loads the project's rules again and republishes the
// diagnostics of every open document. Rules that fail to load are
// reported to the user and the previous ones kept.
func (s *server) reload(ctx context.Context) {
	rs, err := loadRules(ctx, s.cfg.Project)
	s.mu.Lock()
	switch {
	case err == nil:
		s.rules = rs
	case s.rules == nil:
		// No rules yet: documents are still tracked (and their unused
		// suppressions reported), to be scanned once the rules load.
		s.rules = &ruleSet{rules: scan.NewRules(nil, s.cfg.Project.Dir, rule.SeverityHint), notes: map[string]string{}}
	}
	docs := make([]*document, 0, len(s.docs))
	for _, d := range s.docs {
		docs = append(docs, d)
	}
	s.mu.Unlock()
	if err != nil {
		msg := fmt.Sprintf("Failed to load rules: %v", err)
		s.conn.Notify(ctx, "window/showMessage", MessageParams{Type: messageError, Message: msg})
		s.log(ctx, messageError, msg)
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].uri < docs[j].uri })
	for _, d := range docs {
		if err := s.analyze(ctx, d); err != nil {
			s.log(ctx, messageError, err.Error())
		}
		s.publish(ctx, d)
	}
}

// analyze scans d with the current rules.
func (s *server) analyze(ctx context.Context, d *document) error {
	s.mu.Lock()
	rs := s.rules
	s.mu.Unlock()
	return d.analyze(ctx, rs)
}

// publish sends d's diagnostics.
func (s *server) publish(ctx context.Context, d *document) {
	v := d.version
	s.conn.Notify(ctx, "textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: d.uri, Version: &v, Diagnostics: d.diagnostics})
}

// filePath returns the path of a file URI.
func filePath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		p = strings.TrimPrefix(p, "/")
	}
	return filepath.FromSlash(p), p != ""
}

// within reports whether path is dir or under it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// didOpen scans and publishes a document of a language loupe parses that
// is in the workspace; other documents are left alone, as ast-grep does.
func (s *server) didOpen(ctx context.Context, req *jsonrpc2.Request) error {
	var p DidOpenTextDocumentParams
	if err := decode(req, &p); err != nil {
		return err
	}
	path, ok := filePath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	rs, workspace := s.rules, s.workspace
	s.mu.Unlock()
	if !within(path, workspace) {
		return nil
	}
	var d *document
	if rs != nil {
		if lang := rs.language(path); lang != nil {
			d = newDocument(p.TextDocument.URI, path, p.TextDocument.Version, lang, p.TextDocument.Text)
		}
	}
	if d == nil {
		return nil
	}
	err := s.analyze(ctx, d)
	s.publish(ctx, d)
	s.mu.Lock()
	s.docs[d.uri] = d
	s.mu.Unlock()
	return err
}

// didChange rescans an open document with its new text (the server
// asks for whole documents) unless the change is older than what it has.
func (s *server) didChange(ctx context.Context, req *jsonrpc2.Request) error {
	var p DidChangeTextDocumentParams
	if err := decode(req, &p); err != nil {
		return err
	}
	s.mu.Lock()
	old, ok := s.docs[p.TextDocument.URI]
	s.mu.Unlock()
	if !ok || old.version > p.TextDocument.Version || len(p.ContentChanges) == 0 {
		return nil
	}
	d := newDocument(old.uri, old.path, p.TextDocument.Version, old.lang, p.ContentChanges[0].Text)
	err := s.analyze(ctx, d)
	s.mu.Lock()
	s.docs[d.uri] = d
	s.mu.Unlock()
	s.publish(ctx, d)
	return err
}

// didClose forgets a document and clears its diagnostics: only open
// documents are scanned, so nothing keeps them up to date any more.
func (s *server) didClose(ctx context.Context, req *jsonrpc2.Request) error {
	var p DidCloseTextDocumentParams
	if err := decode(req, &p); err != nil {
		return err
	}
	s.mu.Lock()
	_, ok := s.docs[p.TextDocument.URI]
	delete(s.docs, p.TextDocument.URI)
	s.mu.Unlock()
	if ok {
		s.conn.Notify(ctx, "textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []Diagnostic{}})
	}
	return nil
}

// document returns the open document at uri, or nil.
func (s *server) document(uri string) *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[uri]
}

// codeAction answers with the fix-all source action when the client asks
// for source.fixAll, or for the action's own kind, only; else with the
// quick fixes of the given diagnostics that came from this server (each
// fix of a rule one action, the first preferred); null when there is
// nothing to offer.
func (s *server) codeAction(req *jsonrpc2.Request) (any, error) {
	var p CodeActionParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	d := s.document(p.TextDocument.URI)
	for _, k := range p.Context.Only {
		if k == "source.fixAll" || k == KindFixAll {
			if d == nil {
				return nil, nil
			}
			edits := d.fixAll()
			if len(edits) == 0 {
				return nil, nil
			}
			return []CodeAction{{
				Title: "Fix by ast-grep",
				Kind:  KindFixAll,
				Edit:  &WorkspaceEdit{Changes: map[string][]TextEdit{d.uri: edits}},
			}}, nil
		}
	}
	if len(p.Context.Diagnostics) == 0 || d == nil {
		return nil, nil
	}
	actions := []CodeAction{}
	for _, diag := range p.Context.Diagnostics {
		id, ok := diag.Code.(string)
		if !ok || !strings.Contains(diag.Source, source) {
			continue
		}
		for i, f := range d.fixes[fixKey{diag.Range, id}] {
			title := f.title
			if title == "" {
				title = fmt.Sprintf("Fix `%s` with ast-grep", id)
			}
			preferred := i == 0
			actions = append(actions, CodeAction{
				Title:       title,
				Kind:        "quickfix",
				IsPreferred: &preferred,
				Edit:        &WorkspaceEdit{Changes: map[string][]TextEdit{p.TextDocument.URI: {f.edit}}},
			})
		}
	}
	return actions, nil
}

// hover answers with the note of the rule whose diagnostic is under the
// position, or null.
func (s *server) hover(req *jsonrpc2.Request) (any, error) {
	var p HoverParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	d := s.document(p.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	if h := d.hover(p.Position); h != nil {
		return h, nil
	}
	return nil, nil
}

// executeCommand runs ast-grep.applyAllFixes: it sends the client the
// fix-all edit of the document given and answers null once the client
// has answered. Another command, or a document with nothing to fix, is
// logged and answered null at once.
func (s *server) executeCommand(ctx context.Context, req *jsonrpc2.Request) error {
	var p ExecuteCommandParams
	if err := decode(req, &p); err != nil {
		return err
	}
	var edits []TextEdit
	var uri string
	switch {
	case p.Command != CommandApplyAllFixes:
		s.log(ctx, messageInfo, "Unrecognized command: "+p.Command)
	case len(p.Arguments) == 0:
		s.log(ctx, messageError, CommandApplyAllFixes+": no document given")
	default:
		var doc TextDocumentItem
		if err := json.Unmarshal(p.Arguments[0], &doc); err != nil {
			s.log(ctx, messageError, fmt.Sprintf("JSON deserialization error: %v", err))
			break
		}
		uri = doc.URI
		if d := s.document(uri); d == nil {
			s.log(ctx, messageError, "Unsupported file type")
		} else if edits = d.fixAll(); len(edits) == 0 {
			s.log(ctx, messageInfo, "No actionable fix")
		}
	}
	if len(edits) == 0 {
		return s.conn.Reply(ctx, req.ID, nil)
	}
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		edit := ApplyWorkspaceEditParams{Edit: WorkspaceEdit{Changes: map[string][]TextEdit{uri: edits}}}
		if err := s.conn.Call(ctx, "workspace/applyEdit", edit, nil); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
			s.log(ctx, messageError, fmt.Sprintf("workspace/applyEdit: %v", err))
		}
		s.conn.Reply(ctx, req.ID, nil)
	}()
	return nil
}
