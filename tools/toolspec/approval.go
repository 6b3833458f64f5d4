package toolspec

import (
	"context"
	"errors"
	"fmt"
)

// Request is one write a tool is about to make, as the host sees it when
// asked to approve it.
type Request struct {
	// Tool is the tool's name.
	Tool string `json:"tool"`
	// Permission is what the write needs: WriteFiles, CreateFiles or
	// DeleteFiles.
	Permission Permission `json:"permission"`
	// Path is the file written, relative to the workspace root.
	Path string `json:"path"`
	// Summary says in one sentence what will change.
	Summary string `json:"summary"`
	// Diff, when the tool can tell it, is the change as a unified diff.
	Diff string `json:"diff,omitempty"`
}

// Approver asks the host (a person, a policy) whether a write may go
// ahead: true allows it, false refuses it, and an error means the host
// could not answer (the write does not happen either).
type Approver func(ctx context.Context, r Request) (bool, error)

// AllowAll approves every write. It is the approver of a face whose client
// approves before it calls: an MCP client asks its user according to the
// tool's annotations (readOnlyHint false, destructiveHint), so a call that
// arrives is approved.
func AllowAll(context.Context, Request) (bool, error) { return true, nil }

// ErrNoApprover is the refusal of a write under a context without an
// Approver: the face gave its host no way to approve.
var ErrNoApprover = errors.New("this host has not given loupe a way to ask for approval, so tools that write refuse to (read-only tools and previews still work)")

// ErrDenied is the refusal of a write the host did not approve.
var ErrDenied = errors.New("the user did not approve this change; nothing was written")

type approverKey struct{}

// WithApprover returns a context under which Approve asks a.
func WithApprover(ctx context.Context, a Approver) context.Context {
	return context.WithValue(ctx, approverKey{}, a)
}

// Approve asks ctx's Approver to allow r and returns nil when the write
// may go ahead. A tool calls it just before it writes, and only when it
// will write: never for a preview or for a change that changes nothing.
// Without an Approver in ctx every write is refused with ErrNoApprover;
// an Approver's false is ErrDenied. Both are wrapped in an error that
// names the tool and what it would have written.
func Approve(ctx context.Context, r Request) error {
	a, _ := ctx.Value(approverKey{}).(Approver)
	if a == nil {
		return fmt.Errorf("%s: %s: %w", r.Tool, r.Summary, ErrNoApprover)
	}
	ok, err := a(ctx, r)
	switch {
	case err != nil:
		return fmt.Errorf("%s: asking approval to %s: %w", r.Tool, r.Summary, err)
	case !ok:
		return fmt.Errorf("%s: %s: %w", r.Tool, r.Summary, ErrDenied)
	}
	return nil
}

// HasApprover reports whether ctx carries an Approver.
func HasApprover(ctx context.Context) bool {
	a, _ := ctx.Value(approverKey{}).(Approver)
	return a != nil
}
