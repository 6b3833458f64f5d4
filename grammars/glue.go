package grammars

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
)

// glue is the C glue every grammar module is built with: glue.c (the
// module's exports, see host.Exports) and runtime.c (tree-sitter's runtime
// with the lexer's direct entry points).
//
//go:embed glue/glue.c glue/runtime.c
var glue embed.FS

// WriteGlue writes glue.c and runtime.c, the files the built-in modules
// were compiled with, into dir, so that `loupe grammar build` compiles a
// user's grammar with exactly them.
func WriteGlue(dir string) error {
	for _, name := range []string{"glue.c", "runtime.c"} {
		data, err := glue.ReadFile("glue/" + name)
		if err != nil {
			return fmt.Errorf("grammars: glue: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("grammars: glue: %w", err)
		}
	}
	return nil
}
