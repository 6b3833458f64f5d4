package main

import (
	"context"
	"fmt"

	"github.com/loupe-dev/loupe/core/project"
)

// addCustomLanguagesFlag declares ast-grep's --custom-languages. loupe
// needs no opt-in (a module runs sandboxed), so allow and trust are the
// default and the same; ignore and revoke leave the custom languages out.
func addCustomLanguagesFlag(fs *flagSet) *flagSpec {
	return fs.String(0, "custom-languages", "POLICY",
		"sgconfig.yml's custom languages: allow (the default: their WebAssembly modules run sandboxed, so no opt-in is needed; trust is the same) or ignore (leave them out; revoke is the same)").
		choose("allow", "ignore", "trust", "revoke")
}

// applyCustomLanguages leaves the project's custom languages out when the
// --custom-languages policy says so.
func applyCustomLanguages(policy *flagSpec, p *project.Project) {
	if p != nil && (policy.value == "ignore" || policy.value == "revoke") {
		p.ForgetLanguages()
	}
}

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
