package ignore_test

import (
	"fmt"
	"log"

	"github.com/loupe-dev/loupe/core/search/ignore"
)

// Match paths against the lines of a .gitignore, and against a search's
// include and exclude globs (where `!` excludes instead of re-including).
// The last rule that matches decides.
func ExampleParse() {
	rules, err := ignore.Parse([]byte("# build output\n*.log\n/dist\nbuild/\n!keep.log\n"))
	if err != nil {
		log.Fatal(err)
	}
	globs, err := ignore.NewOverride([]string{"*.ts", "!*.test.ts"})
	if err != nil {
		log.Fatal(err)
	}
	verdict := map[ignore.Result]string{ignore.None: "-", ignore.Ignore: "ignore", ignore.Whitelist: "include"}
	for _, c := range []struct {
		path  string
		isDir bool
	}{
		{"debug.log", false}, {"logs/keep.log", false}, {"dist", true}, {"src/dist", true},
		{"build", false}, {"build", true}, {"src/app.ts", false}, {"src/app.test.ts", false},
	} {
		name := c.path
		if c.isDir {
			name += "/"
		}
		fmt.Printf("%-16s gitignore: %-7s globs: %s\n", name, verdict[rules.Match(c.path, c.isDir)], verdict[globs.Match(c.path, c.isDir)])
	}
	// Output:
	// debug.log        gitignore: ignore  globs: ignore
	// logs/keep.log    gitignore: include globs: ignore
	// dist/            gitignore: ignore  globs: -
	// src/dist/        gitignore: -       globs: -
	// build            gitignore: -       globs: ignore
	// build/           gitignore: ignore  globs: -
	// src/app.ts       gitignore: -       globs: include
	// src/app.test.ts  gitignore: -       globs: ignore
}
