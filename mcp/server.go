// Package mcp is a Model Context Protocol server over stdio (JSON-RPC 2.0,
// one message per line) exposing loupe's tools. It implements the parts of
// the protocol a tool server needs: initialize, ping, tools/list,
// tools/call (run concurrently, each cancellable by
// notifications/cancelled) and the initialized notification.
package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/loupe-dev/loupe/tools"
)

// ProtocolVersion is the MCP revision the server speaks.
const ProtocolVersion = "2025-06-18"

// Server serves tools over one connection.
type Server struct {
	name, version string
	tools         []tools.Tool

	out    *json.Encoder
	outMu  sync.Mutex
	mu     sync.Mutex
	active map[string]context.CancelCauseFunc
	wg     sync.WaitGroup
}

// NewServer returns a server named name/version offering ts. A tool's
// error is reported to the client as a tool error (isError), not a
// protocol error, so the model can correct its call.
func NewServer(name, version string, ts []tools.Tool) *Server {
	return &Server{name: name, version: version, tools: ts, active: map[string]context.CancelCauseFunc{}}
}

type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// JSON-RPC error codes.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
)

// Serve reads requests from r and writes responses to w until r ends (then
// it lets the calls in flight finish and answer) or ctx is done (then it
// cancels them and waits for them).
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	s.out = json.NewEncoder(w)
	defer s.wg.Wait()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			s.send(response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{codeParse, "parse error: " + err.Error()}})
			continue
		}
		s.handle(ctx, req)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return sc.Err()
}

func (s *Server) send(v any) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	_ = s.out.Encode(v) // a broken stdout ends the session when stdin closes
}

func (s *Server) reply(id json.RawMessage, result any, err *rpcError) {
	if id == nil {
		return // a notification gets no answer
	}
	s.send(response{JSONRPC: "2.0", ID: id, Result: result, Error: err})
}

func (s *Server) handle(ctx context.Context, req request) {
	if req.JSONRPC != "2.0" {
		s.reply(req.ID, nil, &rpcError{codeInvalidRequest, `jsonrpc must be "2.0"`})
		return
	}
	switch req.Method {
	case "initialize":
		s.reply(req.ID, map[string]any{
			"protocolVersion": ProtocolVersion,
			"capabilities":    map[string]any{"tools": map[string]any{"listChanged": false}},
			"serverInfo":      map[string]any{"name": s.name, "version": s.version},
		}, nil)
	case "notifications/initialized", "notifications/roots/list_changed":
	case "ping":
		s.reply(req.ID, map[string]any{}, nil)
	case "tools/list":
		list := make([]map[string]any, 0, len(s.tools))
		for _, t := range s.tools {
			list = append(list, map[string]any{"name": t.Name, "description": t.Description, "inputSchema": t.Schema})
		}
		s.reply(req.ID, map[string]any{"tools": list}, nil)
	case "tools/call":
		s.call(ctx, req)
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			s.mu.Lock()
			if c := s.active[string(p.RequestID)]; c != nil {
				c(errClientCancelled)
			}
			s.mu.Unlock()
		}
	default:
		s.reply(req.ID, nil, &rpcError{codeMethodNotFound, "method not found: " + req.Method})
	}
}

// errClientCancelled is the cause of a call's cancellation by the
// client's notifications/cancelled.
var errClientCancelled = errors.New("cancelled by the client")

func (s *Server) call(ctx context.Context, req request) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(req.Params, &p); err != nil {
		s.reply(req.ID, nil, &rpcError{codeInvalidParams, "tools/call: " + err.Error()})
		return
	}
	var tool *tools.Tool
	for i := range s.tools {
		if s.tools[i].Name == p.Name {
			tool = &s.tools[i]
		}
	}
	if tool == nil {
		s.reply(req.ID, nil, &rpcError{codeInvalidParams, fmt.Sprintf("unknown tool %q", p.Name)})
		return
	}
	if len(p.Arguments) == 0 {
		p.Arguments = json.RawMessage("{}")
	}
	cctx, cancel := context.WithCancelCause(ctx)
	key := string(req.ID)
	s.mu.Lock()
	s.active[key] = cancel
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer func() {
			s.mu.Lock()
			delete(s.active, key)
			s.mu.Unlock()
			cancel(nil)
		}()
		text, structured, err := tool.Call(cctx, p.Arguments)
		if errors.Is(context.Cause(cctx), errClientCancelled) {
			// The client cancelled: it expects no answer, however late
			// the call noticed (the session may be ending meanwhile).
			return
		}
		result := map[string]any{}
		if err != nil {
			result["content"] = []map[string]any{{"type": "text", "text": err.Error()}}
			result["isError"] = true
		} else {
			result["content"] = []map[string]any{{"type": "text", "text": text}}
			if structured != nil {
				result["structuredContent"] = structured
			}
		}
		s.reply(req.ID, result, nil)
	}()
}
