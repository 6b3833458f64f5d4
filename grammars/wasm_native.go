//go:build !js

package grammars

import (
	"embed"
	"fmt"
)

//go:embed wasm/*.wasm
var modules embed.FS

// Wasm returns the language's grammar module.
func (l Language) Wasm() ([]byte, error) {
	b, err := modules.ReadFile("wasm/" + l.Name + ".wasm")
	if err != nil {
		return nil, fmt.Errorf("grammars: %s: %w", l.Name, err)
	}
	return b, nil
}
