package service

import (
	"fmt"

	_ "example.com/fixture/internal/side"
	reg "example.com/fixture/registry"
)

// CreateRegistry makes a registry.
func CreateRegistry() *reg.ToolRegistry {
	return &reg.ToolRegistry{}
}

// Service uses a registry.
type Service struct {
	toolRegistry *reg.ToolRegistry
}

// Init sets the service up.
func (s *Service) Init(tool string) {
	s.toolRegistry = CreateRegistry()
	s.toolRegistry.Register(tool)
	fmt.Println("ready")
}

// Reset starts again.
func (s *Service) Reset() {
	reset := func() { CreateRegistry() }
	reset()
}
