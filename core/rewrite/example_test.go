package rewrite_test

import (
	"context"
	"fmt"
	"log"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/search"
)

// Rewrite every match of a pattern with a fix template, as `loupe run
// --rewrite` does: each match's rendering is indented to where the match
// stands, and the edits are applied to the source at once.
func ExampleTemplate_Render() {
	ctx := context.Background()
	lang, err := language.Lookup("javascript")
	if err != nil {
		log.Fatal(err)
	}
	p, err := pattern.Compile(ctx, lang, "if ($COND) { $$$BODY }", pattern.Options{})
	if err != nil {
		log.Fatal(err)
	}
	src := []byte("function f() {\n  if (ready) { start(); log(); }\n}\n")
	t, err := lang.Parse(ctx, src)
	if err != nil {
		log.Fatal(err)
	}
	ms, err := search.FindAll(ctx, t, p)
	if err != nil {
		log.Fatal(err)
	}
	fix := rewrite.Compile("if (!$COND) {\n  return;\n}\n$$$BODY", nil)
	var edits []rewrite.Edit
	for _, m := range ms {
		text := fix.Render(m.Env, m.Node)
		edits = append(edits, rewrite.Edit{Start: m.Node.StartByte(), End: m.Node.EndByte(), Text: []byte(text)})
	}
	out, err := rewrite.Apply(src, edits)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	// Output:
	// function f() {
	//   if (!ready) {
	//     return;
	//   }
	//   start(); log();
	// }
}

// Diff two versions of a text line by line and cut the diff into hunks
// with one line of context, as the CLI shows a rewrite for review.
func ExampleHunks() {
	before := rewrite.SplitLines("a\nb\nc\nd\ne\nf\ng\n")
	after := rewrite.SplitLines("a\nB\nc\nd\ne\nf\ng\nh\n")
	for _, hunk := range rewrite.Hunks(rewrite.DiffLines(before, after), 1) {
		fmt.Println("@@")
		for _, op := range hunk {
			for _, l := range before[op.OldStart : op.OldStart+op.OldLen] {
				if op.Equal {
					fmt.Print("  ", l)
				} else {
					fmt.Print("- ", l)
				}
			}
			if !op.Equal {
				for _, l := range after[op.NewStart : op.NewStart+op.NewLen] {
					fmt.Print("+ ", l)
				}
			}
		}
	}
	// Output:
	// @@
	//   a
	// - b
	// + B
	//   c
	// @@
	//   g
	// + h
}
