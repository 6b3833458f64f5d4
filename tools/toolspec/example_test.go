package toolspec_test

import (
	"context"
	"fmt"

	"github.com/loupe-dev/loupe/tools/toolspec"
)

// A tool that writes asks its context's approver just before the write;
// the host decides.
func ExampleApprove() {
	host := func(_ context.Context, r toolspec.Request) (bool, error) {
		fmt.Printf("approve? %s (%s)\n", r.Summary, r.Permission)
		return r.Path != "go.mod", nil
	}
	ctx := toolspec.WithApprover(context.Background(), host)
	for _, path := range []string{"notes.md", "go.mod"} {
		err := toolspec.Approve(ctx, toolspec.Request{Tool: "delete_file", Permission: toolspec.DeleteFiles, Path: path, Summary: "delete " + path})
		fmt.Println("error:", err)
	}
	// Output:
	// approve? delete notes.md (DeleteFiles)
	// error: <nil>
	// approve? delete go.mod (DeleteFiles)
	// error: delete_file: delete go.mod: the user did not approve this change; nothing was written
}
