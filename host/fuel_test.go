package host

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/host/hostile"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// Function types of the test modules.
const (
	tVoid    = 0 // () -> ()
	tUnary   = 1 // (i32) -> i32
	tConst   = 2 // () -> i32
	tTwoRets = 3 // (i32 i32) -> (i32 i32), a multi-value block type
)

// fn is a function of a test module: its type, local declarations
// (count, type pairs) and code, up to and with its end.
type fn struct {
	typ    byte
	locals []byte
	code   []byte
}

// testModule assembles a module of the given functions (exported as f0,
// f1, …) with everything their code may refer to: the four types, a
// table of 4 funcrefs (index 0), a memory of one page, an i32 global
// (index 0), a passive element segment of function 1 and a passive data
// segment "abcd", and custom sections around them.
func testModule(fns ...fn) []byte {
	out := []byte("\x00asm\x01\x00\x00\x00")
	sec := func(id byte, items ...[]byte) {
		body := appendULEB(nil, uint32(len(items)))
		for _, it := range items {
			body = append(body, it...)
		}
		out = append(appendULEB(append(out, id), uint32(len(body))), body...)
	}
	custom := func(n string) {
		body := append(append(appendULEB(nil, uint32(len(n))), n...), "payload"...)
		out = append(appendULEB(append(out, 0), uint32(len(body))), body...)
	}
	custom("first")
	sec(1, []byte{0x60, 0, 0}, []byte{0x60, 1, 0x7f, 1, 0x7f}, []byte{0x60, 0, 1, 0x7f}, []byte{0x60, 2, 0x7f, 0x7f, 2, 0x7f, 0x7f})
	var types, exports, codes [][]byte
	for i, f := range fns {
		types = append(types, []byte{f.typ})
		name := "f" + string(rune('0'+i))
		exports = append(exports, append(append(appendULEB(nil, uint32(len(name))), name...), 0, byte(i)))
		body := append(appendULEB(nil, uint32(len(f.locals)/2)), f.locals...)
		body = append(body, f.code...)
		codes = append(codes, append(appendULEB(nil, uint32(len(body))), body...))
	}
	sec(3, types...)
	sec(4, []byte{0x70, 0x00, 4})
	sec(5, []byte{0x00, 1})
	sec(6, []byte{0x7f, 0x01, 0x41, 0x00, 0x0b})
	custom("middle")
	sec(7, exports...)
	sec(9, []byte{0x01, 0x00, 1, 1}) // passive, funcref, function 1
	out = append(out, 12, 1, 1)      // data count: one
	sec(10, codes...)
	sec(11, []byte{0x01, 4, 'a', 'b', 'c', 'd'}) // passive
	custom("last")
	return out
}

// code concatenates instructions.
func code(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func i32c(v int32) []byte { return appendSLEB([]byte{0x41}, int64(v)) }

// A function that uses every kind of immediate MeterModule decodes.
var everyImmediate = fn{typ: tVoid, locals: []byte{1, 0x7f, 1, 0x7e}, code: code(
	[]byte{0x01},                // nop
	[]byte{0x02, 0x40, 0x0b},    // block end
	[]byte{0x03, 0x7f}, i32c(1), // loop (result i32)
	[]byte{0x0b, 0x1a},                                  // end drop
	i32c(0), []byte{0x04, 0x40, 0x00, 0x05, 0x01, 0x0b}, // if unreachable else nop end
	i32c(1), i32c(2), []byte{0x02, tTwoRets, 0x6a, 0x41, 0x04, 0x0b, 0x1a, 0x1a}, // block (type 3) i32.add i32.const 4 end drop drop
	[]byte{0x02, 0x40, 0x02, 0x40}, i32c(1), []byte{0x0e, 2, 0, 1, 0, 0x0b, 0x0b}, // br_table
	[]byte{0x02, 0x40}, i32c(0), []byte{0x0d, 0, 0x0c, 0, 0x0b}, // br_if br
	[]byte{0x10, 1, 0x1a},             // call f1 drop
	i32c(0), []byte{0xd2, 1, 0x26, 0}, // ref.func 1, table.set 0
	i32c(0), []byte{0x11, tConst, 0, 0x1a}, // call_indirect (type 2) table 0 drop
	i32c(1), i32c(2), i32c(0), []byte{0x1b, 0x1a}, // select
	i32c(1), i32c(2), i32c(0), []byte{0x1c, 1, 0x7f, 0x1a}, // select (result i32)
	i32c(-200000), []byte{0x21, 0, 0x20, 0, 0x22, 0, 0x1a}, // local.set .get .tee
	appendSLEB([]byte{0x42}, -1<<40), []byte{0x21, 1}, // i64.const
	[]byte{0x23, 0, 0x24, 0},                         // global.get global.set
	[]byte{0x43, 0, 0, 0x80, 0x3f, 0x1a},             // f32.const 1
	[]byte{0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0x1a}, // f64.const 1
	i32c(0), []byte{0x28, 0x02, 0x80, 0x01, 0x1a}, // i32.load offset=128
	i32c(0), []byte{0x31, 0x00, 0x04, 0x1a}, // i64.load8_u offset=4
	i32c(0), []byte{0x20, 1, 0x37, 0x03, 0x00}, // i64.store
	i32c(0), i32c(7), []byte{0x3b, 0x01, 0x02}, // i32.store16 offset=2
	[]byte{0x3f, 0x00, 0x1a},          // memory.size
	i32c(0), []byte{0x40, 0x00, 0x1a}, // memory.grow
	i32c(1), []byte{0x67, 0xc0, 0xad, 0xc4, 0xba, 0x9f, 0xb0, 0x1a}, // clz extend8_s extend_i32_u extend32_s convert trunc... drop
	[]byte{0x43, 0, 0, 0, 0, 0xfc, 0x00, 0x1a},             // i32.trunc_sat_f32_s
	[]byte{0x44, 0, 0, 0, 0, 0, 0, 0, 0, 0xfc, 0x07, 0x1a}, // i64.trunc_sat_f64_u
	[]byte{0xd0, 0x70, 0xd1, 0x1a},                         // ref.null func, ref.is_null
	i32c(0), []byte{0x25, 0, 0x1a},                         // table.get 0
	i32c(0), i32c(0), i32c(4), []byte{0xfc, 8, 0, 0}, // memory.init data 0
	[]byte{0xfc, 9, 0},                                // data.drop 0
	i32c(8), i32c(0), i32c(4), []byte{0xfc, 10, 0, 0}, // memory.copy
	i32c(0), i32c(0), i32c(4), []byte{0xfc, 11, 0}, // memory.fill
	i32c(0), i32c(0), i32c(1), []byte{0xfc, 12, 0, 0}, // table.init elem 0 table 0
	[]byte{0xfc, 13, 0},                               // elem.drop 0
	i32c(1), i32c(0), i32c(1), []byte{0xfc, 14, 0, 0}, // table.copy
	[]byte{0xd0, 0x70}, i32c(1), []byte{0xfc, 15, 0, 0x1a}, // table.grow
	[]byte{0xfc, 16, 0, 0x1a},                                 // table.size
	i32c(0), []byte{0xd0, 0x70}, i32c(1), []byte{0xfc, 17, 0}, // table.fill
	[]byte{0x0f, 0x0b}, // return end
)}

// constFn is () -> i32 returning 7.
var constFn = fn{typ: tConst, code: code(i32c(7), []byte{0x0b})}

// meterRun meters the module, instantiates it on wazero and returns it.
func meterRun(t *testing.T, wasm []byte) api.Module {
	t.Helper()
	metered, err := MeterModule(wasm, 1<<40)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	t.Cleanup(func() { _ = rt.Close(ctx) })
	m, err := rt.Instantiate(ctx, metered)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// spent calls f with args after setting the fuel, and returns the fuel
// spent, or the call's error and the fuel left.
func spent(t *testing.T, m api.Module, fuel int64, f string, args ...uint64) (int64, error) {
	t.Helper()
	g := m.ExportedGlobal(FuelExport).(api.MutableGlobal)
	g.Set(uint64(fuel))
	_, err := m.ExportedFunction(f).Call(context.Background(), args...)
	left := int64(g.Get())
	if err != nil {
		return left, err
	}
	return fuel - left, nil
}

// TestMeterModuleDecodes: a function using every kind of immediate
// (block types by value and by type index, br_table, call_indirect,
// memargs, LEB and float constants, typed select, the reference and
// table instructions, and every 0xFC instruction) is metered into a
// module wazero accepts and runs; the fuel global is the last and
// exported, and the custom sections are kept.
func TestMeterModuleDecodes(t *testing.T) {
	wasm := testModule(everyImmediate, constFn)
	m := meterRun(t, wasm)
	if used, err := spent(t, m, 1<<30, "f0"); err != nil || used <= 0 {
		t.Fatalf("f0: spent %d, %v", used, err)
	}
	metered, _ := MeterModule(wasm, 5)
	secs, err := readSections(metered)
	if err != nil {
		t.Fatal(err)
	}
	var customs []string
	for _, s := range secs {
		if s.id == 0 {
			n, _, _ := name(s.body, 0)
			customs = append(customs, n)
		}
	}
	if strings.Join(customs, ",") != "first,middle,last" {
		t.Errorf("custom sections %v", customs)
	}
	if got := int64(m.ExportedGlobal(FuelExport).Get()); got >= 1<<30 {
		t.Errorf("fuel %d after a call", got)
	}
}

// TestMeterModuleSections: a module without globals or exports gets both
// sections, in their place; a module that exports the reserved name is
// refused; an imported global comes before the fuel in the index space.
func TestMeterModuleSections(t *testing.T) {
	bare := []byte("\x00asm\x01\x00\x00\x00" +
		"\x01\x04\x01\x60\x00\x00" + // types
		"\x03\x02\x01\x00" + // one function
		"\x08\x01\x00" + // start: function 0
		"\x0a\x04\x01\x02\x00\x0b") // code
	metered, err := MeterModule(bare, 1000)
	if err != nil {
		t.Fatal(err)
	}
	secs, err := readSections(metered)
	if err != nil {
		t.Fatal(err)
	}
	var ids []byte
	for _, s := range secs {
		ids = append(ids, s.id)
	}
	if string(ids) != "\x01\x03\x06\x07\x08\x0a" {
		t.Fatalf("sections %v", ids)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	m, err := rt.Instantiate(ctx, metered)
	if err != nil {
		t.Fatal(err)
	}
	if left := m.ExportedGlobal(FuelExport).Get(); left != 1000-11 { // the start: its end and the check
		t.Errorf("fuel after the start %d, want %d", left, 1000-11)
	}

	withExport := []byte("\x00asm\x01\x00\x00\x00" +
		"\x01\x04\x01\x60\x00\x00" +
		"\x03\x02\x01\x00" +
		"\x07\x0e\x01\x0aloupe_fuel\x00\x00" +
		"\x0a\x04\x01\x02\x00\x0b")
	if _, err := MeterModule(withExport, 1); !errors.Is(err, ErrBadModule) || !strings.Contains(err.Error(), "exports loupe_fuel") {
		t.Errorf("an export of the reserved name: %v", err)
	}

	// An imported i32 global (index 0) and a defined one (1): the fuel
	// is global 2, or the metered code would not validate.
	imported := []byte("\x00asm\x01\x00\x00\x00" +
		"\x01\x04\x01\x60\x00\x00" +
		"\x02\x08\x01\x01m\x01g\x03\x7f\x00" +
		"\x03\x02\x01\x00" +
		"\x06\x06\x01\x7f\x00\x41\x00\x0b" +
		"\x0a\x04\x01\x02\x00\x0b")
	metered, err = MeterModule(imported, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rt.CompileModule(ctx, metered); err != nil {
		t.Fatalf("with an imported global: %v", err)
	}
}

// TestMeterModuleCharges: what a call spends, exactly: a function's
// longest pass outside its loops, each loop's longest pass per iteration,
// each charge's own instructions, a bulk instruction's length and
// memory.grow's fixed cost; the if or br_table case not taken costs as
// much as the longest.
func TestMeterModuleCharges(t *testing.T) {
	param := []byte{0x20, 0}
	for _, c := range []struct {
		name string
		fn   fn
		arg  uint64
		want int64
	}{
		{"straight", fn{tUnary, nil, code(i32c(1), []byte{0x1a}, param, []byte{0x0b})}, 0, 4 + checkFuel},
		// loop: param; 1; sub; tee; br_if 0; end — 6 a pass; then param, end.
		{"loop 5 times", fn{tUnary, nil, code([]byte{0x03, 0x40}, param, i32c(1), []byte{0x6b, 0x22, 0, 0x0d, 0, 0x0b}, param, []byte{0x0b})}, 5, 3 + checkFuel + 5*(6+checkFuel)},
		// if (result i32): 3 instructions then, 1 else.
		{"if then", fn{tUnary, nil, code(param, []byte{0x04, 0x7f}, i32c(1), i32c(2), []byte{0x6a, 0x05}, i32c(7), []byte{0x0b, 0x0b})}, 1, 8 + checkFuel},
		{"if else", fn{tUnary, nil, code(param, []byte{0x04, 0x7f}, i32c(1), i32c(2), []byte{0x6a, 0x05}, i32c(7), []byte{0x0b, 0x0b})}, 0, 8 + checkFuel},
		// br_table to three cases of 1, 4 and 2 instructions, each
		// leaving through br 2 (to the outer block's end).
		{"br_table", fn{tUnary, nil, code(
			[]byte{0x02, 0x40, 0x02, 0x40, 0x02, 0x40, 0x02, 0x40}, param, []byte{0x0e, 2, 0, 1, 2, 0x0b}, // 4 blocks, param, br_table, end
			[]byte{0x01, 0x0c, 2, 0x0b},                   // case 0: nop br; end
			[]byte{0x01, 0x01, 0x01, 0x01, 0x0c, 1, 0x0b}, // case 1: 4 nops br; end
			[]byte{0x01, 0x01, 0x0b},                      // case 2 (default): 2 nops; end
			i32c(9), []byte{0x0b})}, 0, 15 + checkFuel},   // case 1: 4 blocks, param, br_table, 2 ends, 4 nops, br, const, end
		// A branch out of a loop goes on in the function: block, loop,
		// end of block, const, end; the loop: param, br_if 1, br 0.
		{"branch out of a loop", fn{tUnary, nil, code([]byte{0x02, 0x40, 0x03, 0x40}, param, []byte{0x0d, 1, 0x0c, 0, 0x0b, 0x0b}, i32c(5), []byte{0x0b})}, 1, 5 + checkFuel + 3 + checkFuel},
		{"memory.fill", fn{tUnary, nil, code(i32c(0), i32c(0), param, []byte{0xfc, 11, 0}, i32c(0), []byte{0x0b})}, 800, 6 + bulkFuel + checkFuel + 800/8},
		{"memory.grow", fn{tUnary, nil, code(param, []byte{0x40, 0}, []byte{0x0b})}, 0, 3 + checkFuel + checkFuel + growFuel},
		{"call", fn{tUnary, nil, code([]byte{0x10, 1}, []byte{0x0b})}, 0, 2 + checkFuel + 2 + checkFuel},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := meterRun(t, testModule(c.fn, constFn))
			got, err := spent(t, m, 1<<40, "f0", c.arg)
			if err != nil || got != c.want {
				t.Errorf("spent %d, %v; want %d", got, err, c.want)
			}
			// One unit short traps, and leaves the fuel below zero.
			left, err := spent(t, m, c.want-1, "f0", c.arg)
			if err == nil || left >= 0 {
				t.Errorf("with one unit short: fuel %d, %v", left, err)
			}
		})
	}
}

// TestMeterModuleRefuses: instructions beyond what C compiles to (SIMD,
// tail calls, exceptions, atomics, GC types, unknown 0xFC ones), code
// that names the fuel's global and malformed code are refused, naming
// the opcode and the function.
func TestMeterModuleRefuses(t *testing.T) {
	for _, c := range []struct {
		code []byte
		want string
	}{
		{[]byte{0xfd, 0x0c}, "function 1: byte 0: a SIMD instruction (opcode 0xfd)"},
		{[]byte{0x12, 0}, "function 1: byte 0: unknown opcode 0x12"},
		{[]byte{0x06, 0x40}, "unknown opcode 0x06"},
		{code(i32c(0), []byte{0xfe, 0x10}), "function 1: byte 2: unknown opcode 0xfe"},
		{[]byte{0xfc, 18, 0}, "unknown opcode 0xfc 18"},
		{[]byte{0xd0, 0x63}, "ref.null of an unknown type"},
		{[]byte{0x1c, 1, 0x63}, "select of an unknown value type"},
		{[]byte{0x02, 0x63, 0x0b}, "unknown block type 0x63"},
		{[]byte{0x01}, "the code ends inside a block"},
		{[]byte{0x0b, 0x01}, "1 bytes after the code's end"},
		{[]byte{0x0c, 1, 0x0b}, "a branch to label 1 of 1"},
		{[]byte{0x02, 0x40, 0x05, 0x0b, 0x0b}, "else outside an if"},
		{[]byte{0x41}, "malformed LEB128"},
		// The fuel is global 1: a module may not fill it up.
		{code(appendSLEB([]byte{0x42}, 1<<40), []byte{0x24, 1, 0x0b}), "function 1: byte 7: global 1, which the module does not define"},
	} {
		_, err := MeterModule(testModule(constFn, fn{tVoid, nil, c.code}), 1)
		if !errors.Is(err, ErrBadModule) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("% x: %v, want %q", c.code, err, c.want)
		}
	}
	if _, err := MeterModule([]byte("\x00asm\x02\x00\x00\x00"), 1); !errors.Is(err, ErrBadModule) {
		t.Errorf("version 2: %v", err)
	}
}

// TestMeterModuleHostile: host/hostile's modules, sandboxed and metered:
// one that loops is stopped with its fuel below zero, one that grows its
// memory a page at a time is stopped long before its cap, and one that
// traps or reads out of bounds fails with fuel left.
func TestMeterModuleHostile(t *testing.T) {
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	for _, c := range []struct {
		name  string
		parse hostile.Behaviour
		out   bool // whether the fuel runs out
		trap  string
	}{
		{"loop", hostile.Loop, true, "unreachable"},
		{"grow", hostile.GrowForever, true, "unreachable"},
		{"trap", hostile.Trap, false, "unreachable"},
		{"out of bounds", hostile.OutOfBounds, false, "out of bounds"},
	} {
		t.Run(c.name, func(t *testing.T) {
			wasm, err := SandboxModule(hostile.Module(hostile.Spec{Parse: c.parse}), 1<<14)
			if err != nil {
				t.Fatal(err)
			}
			if wasm, err = MeterModule(wasm, FuelBase); err != nil {
				t.Fatal(err)
			}
			m, err := rt.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().WithName(c.name))
			if err != nil {
				t.Fatal(err)
			}
			left, err := spent(t, m, ParseFuel(30*time.Second, 2), "loupe_parse", 2)
			if err == nil || !strings.Contains(err.Error(), c.trap) || (left < 0) != c.out {
				t.Errorf("fuel %d, %v", left, err)
			}
			if pages := m.Memory().Size() >> 16; pages > 1+FuelBase/growFuel {
				t.Errorf("memory grew to %d pages", pages)
			}
		})
	}
}

// TestParseFuel: a parse gets FuelBase and FuelPerByte a byte, within
// its time limit's worth.
func TestParseFuel(t *testing.T) {
	for _, c := range []struct {
		limit time.Duration
		size  int
		want  int64
	}{
		{30 * time.Second, 0, FuelBase},
		{30 * time.Second, 1000, FuelBase + 1000*FuelPerByte},
		{30 * time.Second, 100 << 20, 30000 * FuelPerMs},
		{10 * time.Millisecond, 0, 10 * FuelPerMs},
		{0, 0, FuelPerMs},
	} {
		if got := ParseFuel(c.limit, c.size); got != c.want {
			t.Errorf("ParseFuel(%v, %d) = %d, want %d", c.limit, c.size, got, c.want)
		}
	}
}

// FuzzMeterModule: MeterModule never panics on any bytes (it reads
// untrusted modules), and what it makes of a module wazero accepts,
// wazero accepts too.
func FuzzMeterModule(f *testing.F) {
	f.Add(testModule(everyImmediate, constFn))
	for _, b := range []hostile.Behaviour{hostile.Honest, hostile.Loop, hostile.GrowForever, hostile.OutOfBounds} {
		f.Add(hostile.Module(hostile.Spec{Start: b, Parse: b}))
	}
	f.Add(hostile.Module(hostile.Spec{Import: true}))
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	f.Fuzz(func(t *testing.T, wasm []byte) {
		metered, err := MeterModule(wasm, 1)
		if err != nil {
			return
		}
		if _, err := rt.CompileModule(ctx, wasm); err != nil {
			return
		}
		if _, err := rt.CompileModule(ctx, metered); err != nil {
			t.Fatalf("the metered module is refused: %v", err)
		}
	})
}
