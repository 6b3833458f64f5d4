// Package hostile assembles small WebAssembly modules that pose as loupe
// grammar modules and misbehave: one loops forever, traps, reads outside
// its memory, grows its memory without end, imports a function or
// exports the wrong signature. The sandbox's tests (host/wazhost,
// core/language, core/project) run them; they are assembled here from
// the binary format, so no toolchain is needed.
package hostile

// Behaviour is what one of a module's functions does.
type Behaviour int

// Behaviours of a module's functions.
const (
	// Honest returns what a working module returns: 0 from loupe_init, a
	// valid (empty) name table from loupe_names, a buffer from
	// loupe_input, no nodes from loupe_parse.
	Honest Behaviour = iota
	// Loop never returns.
	Loop
	// Trap executes unreachable.
	Trap
	// OutOfBounds loads from far outside the module's one page of memory.
	OutOfBounds
	// GrowForever grows memory 64 KiB at a time until it cannot, then
	// returns the memory's size in pages (as loupe_parse: that many nodes).
	GrowForever
)

// Spec describes a module: what its start function (_initialize),
// loupe_init, loupe_names and loupe_parse do, and how its ABI is wrong.
type Spec struct {
	Start, Init, Names, Parse Behaviour
	// Import makes the module import wasi_snapshot_preview1.fd_write.
	Import bool
	// Omit leaves out the export of this name ("memory" or a function's).
	Omit string
	// WrongParse gives loupe_parse no parameter.
	WrongParse bool
}

// Module memory layout.
const (
	namesAt  = 16   // an empty name table: two zero u32s
	flagAt   = 64   // the cancel flag
	inputAt  = 1024 // the source buffer (sources up to 63 KiB)
	outputAt = 0
)

// Module assembles s.
func Module(s Spec) []byte {
	type fn struct {
		name string
		typ  byte // 0: () -> i32, 1: (i32) -> i32, 2: () -> ()
		body []byte
	}
	parseType := byte(1)
	if s.WrongParse {
		parseType = 0
	}
	fns := []fn{
		{"_initialize", 2, body(s.Start, nil, false)},
		{"loupe_init", 0, body(s.Init, i32(0), true)},
		{"loupe_names", 0, body(s.Names, i32(namesAt), true)},
		{"loupe_input", 1, i32(inputAt)},
		{"loupe_parse", parseType, body(s.Parse, i32(0), true)},
		{"loupe_output", 0, i32(outputAt)},
		{"loupe_cancel_flag", 0, i32(flagAt)},
	}
	var out []byte
	out = append(out, 0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00)
	// Types: () -> i32, (i32) -> i32, () -> (), (i32 i32 i32 i32) -> i32.
	out = append(out, section(1, vec(
		[]byte{0x60, 0x00, 0x01, 0x7f},
		[]byte{0x60, 0x01, 0x7f, 0x01, 0x7f},
		[]byte{0x60, 0x00, 0x00},
		[]byte{0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x01, 0x7f},
	))...)
	imported := 0
	if s.Import {
		imported = 1
		out = append(out, section(2, vec(cat(name("wasi_snapshot_preview1"), name("fd_write"), []byte{0x00, 0x03})))...)
	}
	var types [][]byte
	for _, f := range fns {
		types = append(types, []byte{f.typ})
	}
	out = append(out, section(3, vec(types...))...)
	out = append(out, section(5, vec([]byte{0x00, 0x01}))...) // one page, no maximum
	var exports [][]byte
	if s.Omit != "memory" {
		exports = append(exports, cat(name("memory"), []byte{0x02, 0x00}))
	}
	for i, f := range fns {
		if f.name == s.Omit {
			continue
		}
		exports = append(exports, cat(name(f.name), []byte{0x00}, uleb(uint32(imported+i))))
	}
	out = append(out, section(7, vec(exports...))...)
	var codes [][]byte
	for _, f := range fns {
		code := cat([]byte{0x00}, f.body, []byte{0x0b}) // no locals
		codes = append(codes, cat(uleb(uint32(len(code))), code))
	}
	out = append(out, section(10, vec(codes...))...)
	return out
}

// body is the code of a function behaving as b; honest is its code when
// honest, and result whether the function returns an i32.
func body(b Behaviour, honest []byte, result bool) []byte {
	var code []byte
	switch b {
	case Honest:
		return honest
	case Loop:
		code = []byte{0x03, 0x40, 0x0c, 0x00, 0x0b} // loop br 0 end
	case Trap:
		return []byte{0x00} // unreachable
	case OutOfBounds:
		code = cat(i32(0x7ffffff0), []byte{0x28, 0x02, 0x00}) // i32.load
		if !result {
			code = append(code, 0x1a) // drop
		}
		return code
	case GrowForever:
		// loop: memory.grow(1) != -1 -> again; then memory.size
		code = cat([]byte{0x03, 0x40}, i32(1), []byte{0x40, 0x00}, i32(-1), []byte{0x47, 0x0d, 0x00, 0x0b})
		if result {
			return append(code, 0x3f, 0x00)
		}
		return code
	}
	if result {
		code = append(code, i32(0)...)
	}
	return code
}

func i32(v int32) []byte { return append([]byte{0x41}, sleb(v)...) }

func section(id byte, content []byte) []byte {
	return cat([]byte{id}, uleb(uint32(len(content))), content)
}

func vec(items ...[]byte) []byte { return cat(append([][]byte{uleb(uint32(len(items)))}, items...)...) }

func name(s string) []byte { return cat(uleb(uint32(len(s))), []byte(s)) }

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func uleb(v uint32) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			out = append(out, b|0x80)
			continue
		}
		return append(out, b)
	}
}

func sleb(v int32) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && b&0x40 == 0) || (v == -1 && b&0x40 != 0) {
			return append(out, b)
		}
		out = append(out, b|0x80)
	}
}
