//go:build js

package language

import (
	"context"
	"errors"

	"github.com/loupe-dev/loupe/host"
)

// defaultEngine fails under js: the entry point (package wasm) must call
// SetEngine with a host/jshost engine wired to the JavaScript loader.
func defaultEngine(ctx context.Context) (host.Engine, error) {
	return nil, errors.New("language: no grammar engine: the JavaScript loader was not installed")
}

// defaultSandbox runs custom languages' modules on the JavaScript engine
// too, through the engine SetEngine installed, each made safe first: a
// module that imports anything is refused, its memory may not grow past
// SandboxMemory (host.SandboxModule), and it counts its work in fuel and
// traps when that runs out (host.MeterModule), since the JavaScript
// engine cannot stop a module inside a call: the engine gives each call
// its fuel (host/jshost), and reports one that ran out as over its time
// limit.
func defaultSandbox(ctx context.Context) (host.Engine, error) {
	return jsSandbox{}, nil
}

// SandboxMemory is the most memory a custom language's module may have
// under js, as natively (wazhost.SandboxMemory).
const SandboxMemory = 1 << 30

// jsSandbox loads modules, sandboxed and metered, on the engine SetEngine
// installed last (each session of the npm package installs its own).
type jsSandbox struct{}

// Load checks, caps and meters wasm (host.SandboxModule,
// host.MeterModule), then loads it on the current engine.
func (jsSandbox) Load(ctx context.Context, name string, wasm []byte) (host.Grammar, error) {
	safe, err := host.SandboxModule(wasm, SandboxMemory>>16)
	if err != nil {
		return nil, err
	}
	if safe, err = host.MeterModule(safe, host.FuelBase); err != nil {
		return nil, err
	}
	e, err := currentEngine(ctx)
	if err != nil {
		return nil, err
	}
	return e.Load(ctx, name, safe)
}

// Close leaves the engine to its owner, who closes it.
func (jsSandbox) Close(context.Context) error { return nil }
