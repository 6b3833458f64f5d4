package main

import (
	"context"
	"fmt"

	"github.com/loupe-dev/loupe/core/project"
)

// checkCustomLanguages loads the project's custom languages' modules (a
// refused one is reported once, naming its file, and the rest goes on)
// and prints the project's warnings.
func checkCustomLanguages(ctx context.Context, e *env, p *project.Project) {
	if p == nil {
		return
	}
	p.CheckLanguages(ctx)
	printProjectWarnings(e, p)
}

// printProjectWarnings prints the project's warnings and forgets them,
// so that a later call prints only newer ones.
func printProjectWarnings(e *env, p *project.Project) {
	if p == nil {
		return
	}
	for _, w := range p.Warnings {
		fmt.Fprintf(e.stderr, "Warning: %v\n", w)
	}
	p.Warnings = nil
}
