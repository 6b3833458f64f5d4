package host

import (
	"fmt"
	"time"
)

// FuelExport is the name under which a metered module (MeterModule)
// exports its fuel: a mutable i64 global. A module that exports the name
// itself is refused.
const FuelExport = "loupe_fuel"

// Fuel budgets, in units of about one WebAssembly instruction (see
// MeterModule), measured under V8 (Node 20, x86-64): parsing spends 17-51
// million units a millisecond (up to 85 million on garbage input), and a
// module's tightest loop 20-32 million; a real file parsed by its own
// language's grammar takes at most about 15,000 units a byte (markdown,
// HTML; TOML 4,500, JSON 3,500-7,000), one parsed by another language's
// up to 120,000 (markdown as bash), and a small file's fixed cost is at
// most about 12 million.
const (
	// FuelPerMs converts a time limit to fuel: more than V8 parses in a
	// millisecond, so that no parse is stopped before its time limit; a
	// loop of a module's own then stops within two or three times it.
	FuelPerMs = 1 << 26
	// FuelBase is the fuel of any call into a module, its start, its name
	// table or the parse of an empty file: some 300 times a small file's
	// cost, a loop's 150-200 ms.
	FuelBase = 1 << 32
	// FuelPerByte is what a parse gets per byte of source on top of
	// FuelBase: 17 times what a real file takes, twice what one in the
	// wrong language does. A loop stops within one or two seconds per
	// 100 KB of source.
	FuelPerByte = 1 << 18
	// growFuel is what memory.grow costs, whatever it asks for: V8 takes
	// about half a millisecond for one once a memory is large (it counts
	// the whole memory again), so a module that grows a page at a time
	// towards its cap is stopped on the way.
	growFuel = 1 << 24
)

// ParseFuel is the fuel of one call that parses size bytes (0 for a
// module's start or name table) with a time limit: FuelBase and
// FuelPerByte a byte, but no more than the limit's worth at FuelPerMs.
// A count, not a clock, it stops the same parse on every machine; real
// files of up to megabytes need a few hundredths of it.
func ParseFuel(limit time.Duration, size int) int64 {
	return min(max(limit.Milliseconds(), 1)*FuelPerMs, FuelBase+FuelPerByte*int64(max(size, 0)))
}

// MeterModule returns a copy of wasm that counts its own work and traps
// (unreachable) once the count runs out, so that a host whose
// WebAssembly engine cannot stop a call can still bound one. It is for a
// custom language's module (untrusted) on the JavaScript engine, after
// SandboxModule: host/jshost sets the fuel (ParseFuel) before each call
// and reports a call that trapped with its fuel below zero as stopped at
// its limit (ErrTimeLimit). Natively the limit is wazero's, which closes
// a sandboxed module when its context ends, checking at the same places
// (host/wazhost's Sandbox), so modules are not metered there; nor are the
// built-in modules anywhere.
//
// The copy has one more global, a mutable i64 starting at fuel (the
// budget of a start function) and exported as FuelExport, and its code
// takes from it:
//
//   - on entering a function, the most instructions one pass through the
//     function's code outside its loops can run, plus the check's own;
//   - right after each loop instruction, so at every iteration, the most
//     one pass through the loop's code outside the loops inside it can
//     run, plus the check's own;
//   - before a bulk memory instruction (memory.copy, memory.fill,
//     memory.init), one unit per 8 bytes it moves, and before a bulk
//     table instruction (table.copy, table.fill, table.init, table.grow),
//     one per element;
//   - before memory.grow, growFuel.
//
// Control goes back only to a loop's start, and into a function only
// through its entry, so no instruction runs twice between two charges of
// its function or loop: the fuel spent bounds the instructions run. The
// checks add no function, and a local only to functions with a bulk
// instruction (one i32, declared last), so every index in the module
// stays as it was; code that names the fuel's global (to fill it up) is
// refused.
//
// The code is decoded instruction by instruction, for what C compiled to
// wasm32 contains: the MVP, sign extension, saturating truncation, bulk
// memory and reference types (block types with a type index, typed
// select, ref.null, ref.is_null, ref.func, table.get, table.set and the
// 0xFC table instructions). A module using anything else (SIMD, threads,
// exceptions, tail calls, GC) is refused, naming the opcode and the
// function.
func MeterModule(wasm []byte, fuel int64) ([]byte, error) {
	if fuel < 0 {
		return nil, fmt.Errorf("meter: negative fuel %d", fuel)
	}
	sections, err := readSections(wasm)
	if err != nil {
		return nil, err
	}
	// The fuel global and its export go at the end of their sections,
	// which are made when missing.
	for _, id := range []byte{6, 7} {
		if sectionByID(sections, id) == nil {
			sections = insertSection(sections, section{id: id, body: []byte{0}})
		}
	}
	m := &meter{}
	for _, s := range sections {
		switch s.id {
		case 1:
			err = m.readTypes(s.body)
		case 2:
			err = m.readImports(s.body)
		case 3:
			err = m.readFunctions(s.body)
		case 6:
			m.definedGlobals, _, err = uleb(s.body, 0)
		case 7:
			err = refuseExport(s.body, FuelExport)
		}
		if err != nil {
			return nil, fmt.Errorf("meter: section %d: %w", s.id, err)
		}
	}
	m.global = m.importedGlobals + m.definedGlobals
	global := appendSLEB([]byte{0x7e, 0x01, 0x42}, fuel) // mutable i64 = fuel
	global = append(global, 0x0b)
	export := append(appendULEB(nil, uint32(len(FuelExport))), FuelExport...)
	export = appendULEB(append(export, 0x03), m.global) // a global
	for id, item := range map[byte][]byte{6: global, 7: export} {
		s := sectionByID(sections, id)
		if s.body, err = appendToVector(s.body, item); err != nil {
			return nil, fmt.Errorf("meter: section %d: %w", id, err)
		}
	}
	if code := sectionByID(sections, 10); code != nil {
		if code.body, err = m.rewriteCode(code.body); err != nil {
			return nil, fmt.Errorf("meter: %w", err)
		}
	} else if len(m.funcTypes) > 0 {
		return nil, fmt.Errorf("meter: %d functions and no code: %w", len(m.funcTypes), ErrBadModule)
	}
	out := append([]byte(nil), wasm[:8]...)
	for _, s := range sections {
		out = append(out, s.id)
		out = appendULEB(out, uint32(len(s.body)))
		out = append(out, s.body...)
	}
	return out, nil
}

// section is one section of a module.
type section struct {
	id   byte
	body []byte
}

// readSections splits a module into its sections.
func readSections(wasm []byte) ([]section, error) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" || wasm[4] != 1 || wasm[5] != 0 || wasm[6] != 0 || wasm[7] != 0 {
		return nil, fmt.Errorf("not a WebAssembly module (version 1): %w", ErrBadModule)
	}
	var out []section
	for p := 8; p < len(wasm); {
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
		out = append(out, section{id: id, body: wasm[start:end]})
		p = end
	}
	return out, nil
}

// sectionOrder is where each known section goes among the others: the
// tag section (13) between memories and globals, data count (12) before
// code. Custom sections (0) may go anywhere.
var sectionOrder = map[byte]int{1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 13: 6, 6: 7, 7: 8, 8: 9, 9: 10, 12: 11, 10: 12, 11: 13}

// insertSection inserts s before the first section that must follow it.
func insertSection(sections []section, s section) []section {
	at := len(sections)
	for i, t := range sections {
		if o, ok := sectionOrder[t.id]; ok && o > sectionOrder[s.id] {
			at = i
			break
		}
	}
	return append(sections[:at], append([]section{s}, sections[at:]...)...)
}

// sectionByID returns the first section with that id, or nil.
func sectionByID(sections []section, id byte) *section {
	for i := range sections {
		if sections[i].id == id {
			return &sections[i]
		}
	}
	return nil
}

// appendToVector returns a copy of a vector's encoding (its count, then
// its items) with item added at its end.
func appendToVector(vec, item []byte) ([]byte, error) {
	count, n, err := uleb(vec, 0)
	if err != nil {
		return nil, err
	}
	out := appendULEB(nil, count+1)
	out = append(out, vec[n:]...)
	return append(out, item...), nil
}

// refuseExport fails when the export section lists the name.
func refuseExport(body []byte, reserved string) error {
	count, p, err := uleb(body, 0)
	if err != nil {
		return err
	}
	for range count {
		var field string
		if field, p, err = name(body, p); err != nil {
			return err
		}
		if field == reserved {
			return fmt.Errorf("exports %s, a name loupe keeps for itself: %w", reserved, ErrBadModule)
		}
		if _, p, err = readULEB(body, p+1); err != nil { // the kind, then the index
			return err
		}
	}
	return nil
}

// meter holds what rewriting a module's code needs from its other
// sections.
type meter struct {
	params          []uint32 // the parameter count of each type
	funcTypes       []uint32 // the type of each function the module defines
	importedFuncs   uint32
	importedGlobals uint32
	definedGlobals  uint32
	global          uint32 // the fuel global's index
}

// readTypes reads each function type's parameter count.
func (m *meter) readTypes(body []byte) error {
	count, p, err := uleb(body, 0)
	if err != nil {
		return err
	}
	for range count {
		if p >= len(body) || body[p] != 0x60 {
			return fmt.Errorf("not a function type: %w", ErrBadModule)
		}
		params, n, err := uleb(body, p+1)
		if err != nil {
			return err
		}
		p += 1 + n + int(params) // one byte a value type
		results, n, err := uleb(body, p)
		if err != nil {
			return err
		}
		p += n + int(results)
		if p > len(body) {
			return fmt.Errorf("type section truncated: %w", ErrBadModule)
		}
		m.params = append(m.params, params)
	}
	return nil
}

// readImports counts the imported functions and globals, which come
// first in their index spaces.
func (m *meter) readImports(body []byte) error {
	count, p, err := uleb(body, 0)
	if err != nil {
		return err
	}
	for range count {
		for range 2 { // module and field names
			if _, p, err = name(body, p); err != nil {
				return err
			}
		}
		if p >= len(body) {
			return fmt.Errorf("import section truncated: %w", ErrBadModule)
		}
		kind := body[p]
		switch kind {
		case 0x00: // a function: its type
			m.importedFuncs++
			_, p, err = readULEB(body, p+1)
		case 0x01: // a table: its element type, then limits
			p, err = skipLimits(body, p+2)
		case 0x02: // a memory: limits
			p, err = skipLimits(body, p+1)
		case 0x03: // a global: its type and mutability
			m.importedGlobals++
			p += 3
		default:
			err = fmt.Errorf("an import of kind %#x: %w", kind, ErrBadModule)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// skipLimits skips a table's or memory's limits.
func skipLimits(b []byte, p int) (int, error) {
	if p >= len(b) {
		return 0, fmt.Errorf("limits truncated: %w", ErrBadModule)
	}
	flags := b[p]
	_, p, err := readULEB(b, p+1)
	if err == nil && flags&1 != 0 {
		_, p, err = readULEB(b, p)
	}
	return p, err
}

// readFunctions reads the type of each function the module defines.
func (m *meter) readFunctions(body []byte) error {
	count, p, err := uleb(body, 0)
	if err != nil {
		return err
	}
	for range count {
		var t uint32
		if t, p, err = readULEB(body, p); err != nil {
			return err
		}
		if int(t) >= len(m.params) {
			return fmt.Errorf("a function of type %d, which is not defined: %w", t, ErrBadModule)
		}
		m.funcTypes = append(m.funcTypes, t)
	}
	return nil
}

// rewriteCode meters every function body of the code section.
func (m *meter) rewriteCode(body []byte) ([]byte, error) {
	count, p, err := uleb(body, 0)
	if err != nil {
		return nil, err
	}
	if int(count) != len(m.funcTypes) {
		return nil, fmt.Errorf("%d function bodies for %d functions: %w", count, len(m.funcTypes), ErrBadModule)
	}
	out := appendULEB(make([]byte, 0, len(body)+len(body)/16), count)
	for i := range count {
		var size uint32
		if size, p, err = readULEB(body, p); err != nil {
			return nil, err
		}
		if p+int(size) > len(body) {
			return nil, fmt.Errorf("function %d runs past the code section: %w", m.importedFuncs+i, ErrBadModule)
		}
		fn, err := m.rewriteBody(body[p:p+int(size)], m.params[m.funcTypes[i]])
		if err != nil {
			return nil, fmt.Errorf("function %d: %w", m.importedFuncs+i, err)
		}
		out = appendULEB(out, uint32(len(fn)))
		out = append(out, fn...)
		p += int(size)
	}
	if p != len(body) {
		return nil, fmt.Errorf("code section has trailing bytes: %w", ErrBadModule)
	}
	return out, nil
}

// The instructions of the code a charge adds: chargeCode's (trapCode's
// unreachable included) and bulkCode's.
const (
	checkFuel = 10
	bulkFuel  = 14
)

// body is one function's code, decoded for metering.
type body struct {
	code []byte
	// Per instruction: its offset in code, its fuel (1, plus that of the
	// charge before it, if any), the innermost loop it is in (an index
	// into loops, -1 for none), and its successors,
	// next[nextAt[k]:nextAt[k+1]]: where control goes from it without
	// going back (branches to a loop's start and out of the function are
	// left out).
	at, weight, loop, nextAt []int32
	next                     []int32
	loops                    []loopSpan
	charges                  []charge // in the code's order
}

// loopSpan is a loop's instructions: from its first (after loop) to its
// end.
type loopSpan struct{ first, end int32 }

// charge is a charge before one instruction (not a function's or a
// loop's): the length on top of the stack shifted right by shift, or,
// when shift is noBulk, fuel.
type charge struct {
	at    int32
	shift byte
	fuel  int64
}

// frame is a block, loop or if open while decoding, or the function.
type frame struct {
	op      byte  // block, loop or if; 0 for the function
	loop    int32 // the loop it is (an index into loops), -1 for another block
	region  int32 // the innermost loop it is in, -1 for none
	pending []int // slots of next waiting for the index of its end
}

// rewriteBody meters one function's body: its local declarations, then
// its code.
func (m *meter) rewriteBody(b []byte, params uint32) ([]byte, error) {
	groups, p, err := uleb(b, 0)
	if err != nil {
		return nil, err
	}
	declared := p // where the local declarations start
	locals := uint64(params)
	for range groups {
		var n uint32
		if n, p, err = readULEB(b, p); err != nil {
			return nil, err
		}
		p++ // the value type
		locals += uint64(n)
	}
	if p > len(b) {
		return nil, fmt.Errorf("locals truncated: %w", ErrBadModule)
	}
	f, err := decodeBody(b[p:], m.global)
	if err != nil {
		return nil, err
	}
	bulk := false
	for _, c := range f.charges {
		bulk = bulk || c.shift != noBulk
	}
	scratch := uint32(locals) // a bulk instruction's length
	if bulk {
		if locals >= 1<<32-1 {
			return nil, fmt.Errorf("too many locals: %w", ErrBadModule)
		}
		groups++
	}
	out := make([]byte, 0, len(b)+(len(f.loops)+len(f.charges)+1)*24)
	out = appendULEB(out, groups)
	out = append(out, b[declared:p]...)
	if bulk {
		out = append(out, 1, 0x7f) // one i32
	}
	// The function's charge at its start, then the loops' and the other
	// charges in the code's order.
	last := int32(0)
	copyTo := func(at int32) {
		out = append(out, f.code[last:at]...)
		last = at
	}
	out = m.chargeCode(out, f.longest(-1, 0, int32(len(f.at)-1))+checkFuel)
	li, ci := 0, 0
	for li < len(f.loops) || ci < len(f.charges) {
		if ci == len(f.charges) || li < len(f.loops) && f.loops[li].first <= f.charges[ci].at {
			l := f.loops[li]
			copyTo(f.at[l.first])
			out = m.chargeCode(out, f.longest(int32(li), l.first, l.end)+checkFuel)
			li++
			continue
		}
		c := f.charges[ci]
		copyTo(f.at[c.at])
		if c.shift == noBulk {
			out = m.chargeCode(out, c.fuel)
		} else {
			out = m.bulkCode(out, scratch, c.shift)
		}
		ci++
	}
	copyTo(int32(len(f.code)))
	return out, nil
}

// decodeBody decodes a function's code (after its locals). The module's
// globals are those below fuel, the fuel global: code that names it (to
// fill it up, say) is refused.
func decodeBody(code []byte, fuel uint32) (*body, error) {
	if len(code) > 1<<30 {
		return nil, fmt.Errorf("a function of %d bytes: %w", len(code), ErrBadModule)
	}
	f := &body{code: code}
	frames := []frame{{op: 0, loop: -1, region: -1}}
	for q := 0; len(frames) > 0; {
		if q >= len(code) {
			return nil, fmt.Errorf("the code ends inside a block: %w", ErrBadModule)
		}
		k := int32(len(f.at))
		top := &frames[len(frames)-1]
		region := top.region
		end, shift, err := skipInstruction(code, q)
		if err != nil {
			return nil, fmt.Errorf("byte %d: %w", q, err)
		}
		f.at = append(f.at, int32(q))
		f.loop = append(f.loop, region)
		f.nextAt = append(f.nextAt, int32(len(f.next)))
		weight := int32(1)
		switch {
		case shift != noBulk:
			weight += bulkFuel
			f.charges = append(f.charges, charge{at: k, shift: shift})
		case code[q] == 0x40: // memory.grow
			weight += checkFuel
			f.charges = append(f.charges, charge{at: k, shift: noBulk, fuel: growFuel})
		}
		f.weight = append(f.weight, weight)
		// branch adds where a branch to label depth d goes: the end of a
		// block or if (nothing for a loop's start or the function's end).
		branch := func(d uint32) error {
			if int(d) >= len(frames) {
				return fmt.Errorf("byte %d: a branch to label %d of %d: %w", q, d, len(frames), ErrBadModule)
			}
			if i := len(frames) - 1 - int(d); i > 0 && frames[i].loop < 0 {
				frames[i].pending = append(frames[i].pending, len(f.next))
				f.next = append(f.next, 0)
			}
			return nil
		}
		falls := true // control may go on to the next instruction
		switch op := code[q]; op {
		case 0x02: // block
			frames = append(frames, frame{op: 0x02, loop: -1, region: region})
		case 0x03: // loop
			f.loops = append(f.loops, loopSpan{first: k + 1})
			l := int32(len(f.loops) - 1)
			frames = append(frames, frame{op: 0x03, loop: l, region: l})
		case 0x04: // if: its first slot waits for its else, or its end
			frames = append(frames, frame{op: 0x04, loop: -1, region: region, pending: []int{len(f.next)}})
			f.next = append(f.next, 0)
		case 0x05: // else: the if's first slot goes here, and this one to the end
			if top.op != 0x04 {
				return nil, fmt.Errorf("byte %d: else outside an if: %w", q, ErrBadModule)
			}
			f.next[top.pending[0]] = k + 1
			top.pending[0] = len(f.next)
			f.next = append(f.next, 0)
			falls = false
		case 0x0b: // end
			for _, slot := range top.pending {
				f.next[slot] = k
			}
			if top.loop >= 0 {
				f.loops[top.loop].end = k
			}
			frames = frames[:len(frames)-1]
		case 0x0c, 0x0d: // br, br_if
			d, _, _ := readULEB(code, q+1)
			if err := branch(d); err != nil {
				return nil, err
			}
			falls = op == 0x0d
		case 0x0e: // br_table: its labels, then its default
			n, p, _ := readULEB(code, q+1)
			for range n + 1 {
				var d uint32
				d, p, _ = readULEB(code, p)
				if err := branch(d); err != nil {
					return nil, err
				}
			}
			falls = false
		case 0x00, 0x0f: // unreachable, return
			falls = false
		case 0x23, 0x24: // global.get, global.set
			if g, _, _ := readULEB(code, q+1); g >= fuel {
				return nil, fmt.Errorf("byte %d: global %d, which the module does not define: %w", q, g, ErrBadModule)
			}
		}
		if falls && len(frames) > 0 {
			f.next = append(f.next, k+1)
		}
		q = end
		if len(frames) == 0 && q != len(code) {
			return nil, fmt.Errorf("%d bytes after the code's end: %w", len(code)-q, ErrBadModule)
		}
	}
	f.nextAt = append(f.nextAt, int32(len(f.next)))
	return f, nil
}

// longest is the most fuel one pass through a region can take: over the
// instructions first to end of a loop (region, an index into loops; -1
// for the function's code outside its loops, first to end all of it),
// the largest sum of the weights of the region's own instructions along
// a path from first that never goes back. The loops inside are charged
// by themselves and the functions it calls on their entry.
func (f *body) longest(region, first, end int32) int64 {
	best := make([]int64, end-first+1) // the best path to each instruction, plus one; 0: unreached
	best[0] = 1
	var most int64
	for k := first; k <= end; k++ {
		v := best[k-first]
		if v == 0 {
			continue
		}
		if f.loop[k] == region {
			v += int64(f.weight[k])
		}
		most = max(most, v-1)
		for _, t := range f.next[f.nextAt[k]:f.nextAt[k+1]] {
			if t > k && t <= end {
				best[t-first] = max(best[t-first], v)
			}
		}
	}
	return most
}

// chargeCode appends code that takes n from the fuel (checkFuel
// instructions, with trapCode).
func (m *meter) chargeCode(out []byte, n int64) []byte {
	out = appendULEB(append(out, 0x23), m.global) // global.get
	out = appendSLEB(append(out, 0x42), n)        // i64.const n
	out = append(out, 0x7d)                       // i64.sub
	out = appendULEB(append(out, 0x24), m.global) // global.set
	return m.trapCode(out)
}

// bulkCode appends code that takes the length on top of the stack,
// shifted right by shift, from the fuel, leaving the length where it was
// (bulkFuel instructions, with trapCode).
func (m *meter) bulkCode(out []byte, scratch uint32, shift byte) []byte {
	out = appendULEB(append(out, 0x22), scratch)  // local.tee
	out = appendULEB(append(out, 0x23), m.global) // global.get
	out = appendULEB(append(out, 0x20), scratch)  // local.get
	out = append(out, 0xad, 0x42, shift, 0x88)    // i64.extend_i32_u, i64.const shift, i64.shr_u
	out = append(out, 0x7d)                       // i64.sub
	out = appendULEB(append(out, 0x24), m.global) // global.set
	return m.trapCode(out)
}

// trapCode appends: if the fuel is below zero, unreachable.
func (m *meter) trapCode(out []byte) []byte {
	out = appendULEB(append(out, 0x23), m.global)                // global.get
	return append(out, 0x42, 0x00, 0x53, 0x04, 0x40, 0x00, 0x0b) // i64.const 0, i64.lt_s, if, unreachable, end
}

// noBulk is skipInstruction's shift for an instruction that is not a
// bulk one.
const noBulk = 0xff

// Shifts of bulk instructions' lengths: bytes of memory (8 a unit, about
// a unit's time at a few GB/s), elements of a table (one each).
const (
	memShift   = 3
	tableShift = 0
)

// Immediates of an opcode, for skipInstruction.
const (
	immUnknown  = iota
	immNone     // no immediate
	immIndex    // one u32: a label, function, local, global, table or memory index
	immBlock    // a block type
	immBrTable  // a vector of labels and a default
	immTwo      // two u32s (call_indirect's type and table)
	immMemarg   // alignment (with a memory index when its bit 6 is set) and offset
	immI32      // a signed LEB128, at most 5 bytes
	immI64      // a signed LEB128, at most 10 bytes
	immF32      // 4 bytes
	immF64      // 8 bytes
	immSelect   // a vector of value types
	immRefType  // one reference type
	immPrefixFC // a sub-opcode, then its immediates
)

// opcodes gives each single-byte opcode's immediates (immUnknown for an
// opcode MeterModule refuses).
var opcodes = func() (t [256]byte) {
	for _, op := range []byte{0x00, 0x01, 0x05, 0x0b, 0x0f, 0x1a, 0x1b, 0xd1} {
		t[op] = immNone
	}
	for op := 0x45; op <= 0xc4; op++ { // numeric instructions and sign extension
		t[op] = immNone
	}
	for _, op := range []byte{0x0c, 0x0d, 0x10, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x3f, 0x40, 0xd2} {
		t[op] = immIndex
	}
	for op := 0x28; op <= 0x3e; op++ { // loads and stores
		t[op] = immMemarg
	}
	t[0x02], t[0x03], t[0x04] = immBlock, immBlock, immBlock
	t[0x0e] = immBrTable
	t[0x11] = immTwo
	t[0x41], t[0x42], t[0x43], t[0x44] = immI32, immI64, immF32, immF64
	t[0x1c] = immSelect
	t[0xd0] = immRefType
	t[0xfc] = immPrefixFC
	return t
}()

// prefixFC gives each 0xFC sub-opcode's number of u32 immediates and its
// bulk shift (noBulk for one that is not a bulk instruction). 0-7 are
// the saturating truncations.
var prefixFC = [18]struct{ indices, shift byte }{
	0: {0, noBulk}, 1: {0, noBulk}, 2: {0, noBulk}, 3: {0, noBulk},
	4: {0, noBulk}, 5: {0, noBulk}, 6: {0, noBulk}, 7: {0, noBulk},
	8:  {2, memShift},   // memory.init data memory
	9:  {1, noBulk},     // data.drop data
	10: {2, memShift},   // memory.copy memory memory
	11: {1, memShift},   // memory.fill memory
	12: {2, tableShift}, // table.init element table
	13: {1, noBulk},     // elem.drop element
	14: {2, tableShift}, // table.copy table table
	15: {1, tableShift}, // table.grow table
	16: {1, noBulk},     // table.size table
	17: {1, tableShift}, // table.fill table
}

// skipInstruction decodes the instruction at code[p:], returning the
// offset after it and, for a bulk instruction, the shift of its length
// (else noBulk).
func skipInstruction(code []byte, p int) (int, byte, error) {
	op := code[p]
	p++
	var err error
	switch opcodes[op] {
	case immNone:
	case immIndex:
		_, p, err = readULEB(code, p)
	case immBlock:
		p, err = skipBlockType(code, p)
	case immBrTable:
		var n uint32
		if n, p, err = readULEB(code, p); err == nil {
			for i := uint32(0); i <= n && err == nil; i++ {
				_, p, err = readULEB(code, p)
			}
		}
	case immTwo:
		if _, p, err = readULEB(code, p); err == nil {
			_, p, err = readULEB(code, p)
		}
	case immMemarg:
		var align uint32
		if align, p, err = readULEB(code, p); err == nil && align&0x40 != 0 {
			_, p, err = readULEB(code, p) // a memory index (multiple memories)
		}
		if err == nil {
			p, err = skipLEB(code, p, 10) // the offset, 64-bit for a 64-bit memory
		}
	case immI32:
		p, err = skipLEB(code, p, 5)
	case immI64:
		p, err = skipLEB(code, p, 10)
	case immF32:
		p += 4
	case immF64:
		p += 8
	case immSelect:
		var n uint32
		if n, p, err = readULEB(code, p); err == nil {
			for range n {
				if p >= len(code) || !valueType(code[p]) {
					return 0, 0, fmt.Errorf("select of an unknown value type: %w", ErrBadModule)
				}
				p++
			}
		}
	case immRefType:
		if p >= len(code) || code[p] != 0x70 && code[p] != 0x6f {
			return 0, 0, fmt.Errorf("ref.null of an unknown type: %w", ErrBadModule)
		}
		p++
	case immPrefixFC:
		var sub uint32
		if sub, p, err = readULEB(code, p); err != nil {
			return 0, 0, err
		}
		if sub >= uint32(len(prefixFC)) {
			return 0, 0, fmt.Errorf("unknown opcode 0xfc %d: %w", sub, ErrBadModule)
		}
		for range prefixFC[sub].indices {
			if _, p, err = readULEB(code, p); err != nil {
				return 0, 0, err
			}
		}
		return p, prefixFC[sub].shift, nil
	default:
		if op == 0xfd {
			return 0, 0, fmt.Errorf("a SIMD instruction (opcode 0xfd), which loupe does not meter: %w", ErrBadModule)
		}
		return 0, 0, fmt.Errorf("unknown opcode %#02x: %w", op, ErrBadModule)
	}
	if err == nil && p > len(code) {
		err = fmt.Errorf("instruction %#02x truncated: %w", op, ErrBadModule)
	}
	return p, noBulk, err
}

// valueType reports whether b is a value type: i32, i64, f32, f64, v128,
// funcref or externref.
func valueType(b byte) bool { return b >= 0x7b && b <= 0x7f || b == 0x70 || b == 0x6f }

// skipBlockType skips a block type: empty (0x40), a value type, or a
// type index as a non-negative signed 33-bit LEB128.
func skipBlockType(code []byte, p int) (int, error) {
	if p >= len(code) {
		return 0, fmt.Errorf("block type truncated: %w", ErrBadModule)
	}
	if code[p] == 0x40 || valueType(code[p]) {
		return p + 1, nil
	}
	end, err := skipLEB(code, p, 5)
	if err != nil {
		return 0, err
	}
	if code[end-1]&0x40 != 0 {
		return 0, fmt.Errorf("unknown block type %#02x: %w", code[p], ErrBadModule)
	}
	return end, nil
}

// readULEB reads a u32 at b[p:], returning it and the offset after it.
func readULEB(b []byte, p int) (uint32, int, error) {
	v, n, err := uleb(b, p)
	return v, p + n, err
}

// skipLEB skips a LEB128 number of at most max bytes at b[p:], returning
// the offset after it.
func skipLEB(b []byte, p, max int) (int, error) {
	for i := 0; i < max; i++ {
		if p+i >= len(b) {
			return 0, errLEB
		}
		if b[p+i]&0x80 == 0 {
			return p + i + 1, nil
		}
	}
	return 0, errLEB
}

// appendSLEB appends v as a signed LEB128 number.
func appendSLEB(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
