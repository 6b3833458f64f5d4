// Package tools assembles loupe's LLM tools — ast_grep and
// structural_analysis — behind one shape that every face uses: the MCP
// server, the GOOS=js module and the CLI. A tool takes its parameters as
// JSON and returns the text an LLM reads plus the structured result.
package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/loupe-dev/loupe/analysis"
	"github.com/loupe-dev/loupe/astgrep"
	"github.com/loupe-dev/loupe/core/search"
)

// Tool is one LLM tool.
type Tool struct {
	Name        string
	Description string
	// Schema is the JSON Schema of the parameters, derived from the Go
	// parameter struct.
	Schema map[string]any
	// Call runs the tool. Invalid parameters and failed calls are errors;
	// a timeout or cancellation is a partial result, not an error.
	Call func(ctx context.Context, params json.RawMessage) (text string, structured any, err error)
}

// Config sets up the tools for one workspace.
type Config struct {
	// Workspace is the root directory no path may leave (required).
	Workspace string
	// AstGrepTimeout bounds one ast_grep call (default 30 s).
	AstGrepTimeout time.Duration
	// AnalysisTimeout bounds one structural_analysis call (default 60 s).
	AnalysisTimeout time.Duration
	// MaxFileSize skips larger files (default 10 MiB).
	MaxFileSize int64
	// Shard makes ast_grep search only one shard of the files (see
	// search.Shard), for a pool of instances that split each call.
	// structural_analysis follows references across files, so it is never
	// sharded.
	Shard search.Shard
}

// New returns the tools for cfg's workspace.
func New(cfg Config) ([]Tool, error) {
	ag, err := astgrep.New(astgrep.Config{Workspace: cfg.Workspace, Timeout: cfg.AstGrepTimeout, MaxFileSize: cfg.MaxFileSize, Shard: cfg.Shard})
	if err != nil {
		return nil, err
	}
	sa, err := analysis.New(analysis.Config{Workspace: cfg.Workspace, Timeout: cfg.AnalysisTimeout, MaxFileSize: cfg.MaxFileSize})
	if err != nil {
		return nil, err
	}
	return []Tool{
		newTool(astgrep.Name, astgrep.Description, astgrep.Schema(), ag.Run),
		newTool(analysis.Name, analysis.Description, analysis.Schema(), sa.Run),
	}, nil
}

// decodeStrict unmarshals tool parameters, refusing unknown fields so a
// misspelt parameter is an error the model sees, not silently ignored.
func decodeStrict(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid parameters: %w", err)
	}
	return nil
}

// textResult is what a tool's Run returns: a result that renders itself
// for an LLM.
type textResult interface{ Text() string }

// newTool adapts a typed Run function: strict JSON decoding of P, the
// result's text for the model and the result itself as structured output.
func newTool[P any, R textResult](name, description string, schema map[string]any, run func(context.Context, P) (R, error)) Tool {
	return Tool{
		Name:        name,
		Description: description,
		Schema:      schema,
		Call: func(ctx context.Context, raw json.RawMessage) (string, any, error) {
			var p P
			if err := decodeStrict(raw, &p); err != nil {
				return "", nil, err
			}
			res, err := run(ctx, p)
			if err != nil {
				return "", nil, err
			}
			return res.Text(), res, nil
		},
	}
}
