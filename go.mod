module github.com/loupe-dev/loupe

go 1.26

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/tetratelabs/wazero v1.12.0
	github.com/tree-sitter/go-tree-sitter v0.25.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sys v0.44.0
)

require github.com/mattn/go-pointer v0.0.1 // indirect
