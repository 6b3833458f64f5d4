// Package registry holds tools.
package registry

// Registry registers tools.
type Registry interface {
	Register(tool string)
}

// Named has a name.
type Named interface{ Name() string }

// BaseRegistry stores items.
type BaseRegistry struct {
	items []string
}

// ToolRegistry is the registry of tools.
type ToolRegistry struct {
	BaseRegistry
	name string
}

// Register adds a tool.
func (r *ToolRegistry) Register(tool string) { r.items = append(r.items, tool) }

// SpecialRegistry is a special one.
type SpecialRegistry struct{ *ToolRegistry }

// NamedRegistry is a named registry.
type NamedRegistry interface {
	Registry
	Named
}

// New makes a registry.
func New() *ToolRegistry { return &ToolRegistry{} }

var Default, fallback = New(), New()

const Version = "1.0"

type alias = ToolRegistry
