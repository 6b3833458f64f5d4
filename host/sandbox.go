package host

import (
	"errors"
	"fmt"
)

// SandboxModule prepares an untrusted grammar module (a custom language's)
// for a host whose WebAssembly engine has no memory limit of its own (the
// JavaScript engine's): it refuses a module that imports anything, and
// returns a copy whose memories may grow to maxPages 64 KiB pages and no
// further (a module asking for more at start is refused). The rest of the
// module is left as it is; the engine validates it when compiling.
func SandboxModule(wasm []byte, maxPages uint32) ([]byte, error) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" || wasm[4] != 1 || wasm[5] != 0 || wasm[6] != 0 || wasm[7] != 0 {
		return nil, fmt.Errorf("not a WebAssembly module (version 1): %w", ErrBadModule)
	}
	out := append([]byte(nil), wasm[:8]...)
	p := 8
	for p < len(wasm) {
		id := wasm[p]
		size, n, err := uleb(wasm, p+1)
		if err != nil {
			return nil, err
		}
		start := p + 1 + n
		end := start + int(size)
		if end > len(wasm) || end < start {
			return nil, fmt.Errorf("section %d runs past the module's end: %w", id, ErrBadModule)
		}
		body := wasm[start:end]
		switch id {
		case 2: // imports
			if err := refuseImports(body); err != nil {
				return nil, err
			}
		case 5: // memories
			if body, err = capMemories(body, maxPages); err != nil {
				return nil, err
			}
		}
		out = append(out, id)
		out = appendULEB(out, uint32(len(body)))
		out = append(out, body...)
		p = end
	}
	return out, nil
}

// refuseImports fails when the import section lists anything, naming the
// first import.
func refuseImports(body []byte) error {
	count, n, err := uleb(body, 0)
	if err != nil || count == 0 {
		return err
	}
	mod, p, err := name(body, n)
	if err != nil {
		return err
	}
	field, _, err := name(body, p)
	if err != nil {
		return err
	}
	return fmt.Errorf("imports %s.%s, and a grammar module may import nothing: %w", mod, field, ErrBadModule)
}

// capMemories rewrites the memory section so that every memory's maximum
// is at most maxPages.
func capMemories(body []byte, maxPages uint32) ([]byte, error) {
	count, p, err := uleb(body, 0)
	if err != nil {
		return nil, err
	}
	out := appendULEB(nil, count)
	for range count {
		if p >= len(body) {
			return nil, fmt.Errorf("memory section truncated: %w", ErrBadModule)
		}
		flags := body[p]
		if flags > 1 {
			return nil, fmt.Errorf("a shared or 64-bit memory (flags %#x) is not a grammar module's: %w", flags, ErrBadModule)
		}
		minPages, n, err := uleb(body, p+1)
		if err != nil {
			return nil, err
		}
		p += 1 + n
		limit := maxPages
		if flags == 1 {
			declared, n, err := uleb(body, p)
			if err != nil {
				return nil, err
			}
			p += n
			limit = min(limit, declared)
		}
		if minPages > limit {
			return nil, fmt.Errorf("starts with %d pages of memory, over the %d allowed: %w", minPages, limit, ErrBadModule)
		}
		out = append(out, 1)
		out = appendULEB(appendULEB(out, minPages), limit)
	}
	if p != len(body) {
		return nil, fmt.Errorf("memory section has trailing bytes: %w", ErrBadModule)
	}
	return out, nil
}

var errLEB = fmt.Errorf("malformed LEB128 number: %w", ErrBadModule)

// uleb reads an unsigned 32-bit LEB128 number at b[p:], returning it and
// its length.
func uleb(b []byte, p int) (uint32, int, error) {
	var v uint64
	for i := 0; i < 5; i++ {
		if p+i >= len(b) {
			return 0, 0, errLEB
		}
		c := b[p+i]
		v |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			if v > 1<<32-1 {
				return 0, 0, errLEB
			}
			return uint32(v), i + 1, nil
		}
	}
	return 0, 0, errLEB
}

// name reads a length-prefixed name at b[p:], returning it and the
// offset after it.
func name(b []byte, p int) (string, int, error) {
	l, n, err := uleb(b, p)
	if err != nil {
		return "", 0, err
	}
	p += n
	if p+int(l) > len(b) {
		return "", 0, errors.Join(errors.New("name runs past its section"), ErrBadModule)
	}
	return string(b[p : p+int(l)]), p + int(l), nil
}

func appendULEB(b []byte, v uint32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
