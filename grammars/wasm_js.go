//go:build js

package grammars

// Wasm returns nil under GOOS=js: the modules are not embedded in the Go
// module there (they would double its size); the JavaScript side ships
// them as separate files and instantiates them itself (see host/jshost).
func (l Language) Wasm() ([]byte, error) { return nil, nil }
