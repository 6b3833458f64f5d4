// Package mcp serves loupe's tools over the Model Context Protocol, on the
// official Go SDK (github.com/modelcontextprotocol/go-sdk, the one gopls
// uses). Every tool comes from the registry (package tools): its name,
// title, description, input and output schemas, and annotations derived
// from its permissions (readOnlyHint, destructiveHint, idempotentHint).
//
// The SDK gives the protocol: version negotiation (a client gets the
// revision it asks for when the server speaks it, 2024-11-05 to
// 2025-11-25), the initialize handshake (tool calls before it are
// refused), concurrent calls, cancellation by notifications/cancelled,
// logging/setLevel. This package adds what is loupe's: the instructions
// sent at initialize, structuredContent in each tool's compact bounded
// form, progress notifications from the search pipeline when the client
// sends a progressToken, warnings (files skipped, a time limit hit) as
// notifications/message, and a stdio transport (NewTransport) that
// answers a malformed, oversized or over-nested line with a JSON-RPC
// error and keeps serving, never answers a call the client cancelled,
// and answers every request it read before it exits when stdin closes.
package mcp

import (
	"context"
	"fmt"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/tools"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

// ProtocolVersions are the MCP revisions the server negotiates, newest
// first: a client asking for one of them gets it, any other client the
// newest. The SDK's sessionless revision (2026-07-28, no initialize) is
// not offered: a session starts with initialize.
var ProtocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// Instructions are the server's instructions at initialize: only what no
// single tool's description says, how the tools combine. Each tool's own
// description, schema and annotations come with tools/list.
const Instructions = `loupe answers questions about the code of one workspace from its syntax trees. Paths are relative to the workspace root and never leave it. How the tools combine:
- Orient: outline first for the symbols of a directory or a file; list_directory, glob and search find files; with the project index, search_symbols, get_symbol and the package tools answer without reading files.
- Find: grep for text, ast_grep for code by its shape, structural_analysis for how code relates; qualify a symbol (Class.method, module.func) to pick one definition.
- Read: read_file with the line range an outline, a search or an analysis gave.
- Change: replace_in_file (preview_only first) or edit_lines for a few lines, update_file for most of a file. Lines below an edit move, so read again before editing further down.
- Answers come in pages: a capped one says how many items are left and the offset to call again with, or how to narrow the search.`

// NewServer returns a server named loupe at version offering ts.
//
// A tool's error is a tool result with isError, so the model can correct
// its call. Calls run with toolspec.AllowAll as their approver: an MCP
// client asks its user before calling a tool whose annotations say it
// writes, so a call that arrives is approved (serve only the read-only
// tools to a client that does not ask).
func NewServer(version string, ts []*tools.Tool) *sdk.Server {
	infos := make([]toolspec.Info, len(ts))
	for i, t := range ts {
		infos[i] = t.Info
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "loupe", Title: "loupe", Version: version}, &sdk.ServerOptions{
		Instructions:              Instructions,
		SupportedProtocolVersions: ProtocolVersions,
		Capabilities: &sdk.ServerCapabilities{
			Logging: &sdk.LoggingCapabilities{},
			Tools:   &sdk.ToolCapabilities{},
		},
	})
	for _, t := range ts {
		srv.AddTool(describe(t), handler(t))
	}
	return srv
}

// describe is the tool as tools/list shows it. The annotations say only
// what their defaults do not: a read-only tool's destructive and
// idempotent hints mean nothing (the specification reads them only when
// readOnlyHint is false), and the title is the tool's own.
func describe(t *tools.Tool) *sdk.Tool {
	h := t.Hints()
	closed := false
	a := &sdk.ToolAnnotations{
		ReadOnlyHint: h.ReadOnly,
		// Tools act on the workspace only.
		OpenWorldHint: &closed,
	}
	if !h.ReadOnly {
		a.DestructiveHint = &h.Destructive
		a.IdempotentHint = h.Idempotent
	}
	return &sdk.Tool{
		Name:         t.Name,
		Title:        t.Title,
		Description:  t.Description,
		InputSchema:  t.InputSchema,
		OutputSchema: t.OutputSchema,
		Annotations:  a,
	}
}

// handler runs t for a tools/call.
func handler(t *tools.Tool) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		ctx = toolspec.WithApprover(ctx, toolspec.AllowAll)
		if token := req.Params.GetProgressToken(); token != nil {
			p := &progress{ctx: ctx, session: req.Session, token: token, tool: t.Name}
			defer p.finish()
			ctx = search.WithProgress(ctx, p.report)
		}
		out, err := t.Call(ctx, req.Params.Arguments)
		if err != nil {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}, IsError: true}, nil
		}
		for _, w := range out.Warnings {
			// A log message the client cannot take is no reason to fail
			// the call.
			_ = req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "warning", Logger: "loupe", Data: w})
		}
		return &sdk.CallToolResult{
			Content:           []sdk.Content{&sdk.TextContent{Text: out.Text}},
			StructuredContent: out.Structured,
		}, nil
	}
}

// progressSteps is about how many progress notifications a pass over the
// files sends: at its start, then each time another 1/progressSteps of
// its files is done.
const progressSteps = 32

// progress turns the pipeline's passes (search.ProgressFunc, each pass
// counting from 0) into MCP progress notifications, whose progress must
// grow: it counts the files of every pass so far.
type progress struct {
	ctx     context.Context
	session *sdk.ServerSession
	token   any
	tool    string

	mu         sync.Mutex
	base       int // files of the passes before the current one
	total      int // files of the current pass
	step, sent int // the current pass's last step sent; notifications sent
	last       int // progress last sent
}

// finish says the call is done, unless its last pass said so already: a
// tool that does not run the pipeline (the file tools), or whose pass
// had no files, sends this one notification.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.total > 0 && p.last == p.base+p.total {
		return
	}
	p.notify(p.last+1, p.last+1, p.tool+": done")
}

func (p *progress) report(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if done == 0 {
		p.base += p.total
		p.total, p.step = total, -1
	}
	step := 0
	if total > 0 {
		step = done * progressSteps / total
	}
	at := p.base + done
	if step == p.step || (at == p.last && p.sent > 0) {
		return
	}
	p.step = step
	p.notify(at, p.base+total, fmt.Sprintf("%s: %d of %d files", p.tool, at, p.base+total))
}

// notify sends one notification.
func (p *progress) notify(at, total int, msg string) {
	p.last = at
	p.sent++
	// A notification the client cannot take is no reason to fail the call.
	_ = p.session.NotifyProgress(p.ctx, &sdk.ProgressNotificationParams{
		ProgressToken: p.token,
		Progress:      float64(at),
		Total:         float64(total),
		Message:       msg,
	})
}
