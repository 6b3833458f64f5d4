package treecache

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/host"
)

// childEnv makes the test binary act as a child process of a test (see
// TestMain): its value says what to do, childDir in which store.
const (
	childEnv = "LOUPE_TREECACHE_CHILD"
	childDir = "LOUPE_TREECACHE_CHILD_DIR"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		if err := child(mode, os.Getenv(childDir)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// child runs in a child process. "torn" saves one entry and, halfway
// through writing it, says "half" on stdout and waits to be killed;
// "write:N:SEED" saves entries 0..N-1 of the synthetic set and then
// entries SEED*1000+0..N-1, loading each back.
func child(mode, dir string) error {
	s, err := Open(dir, 1<<30)
	if err != nil {
		return err
	}
	if mode == "torn" {
		midWrite = func() {
			fmt.Println("half")
			time.Sleep(time.Hour)
		}
		k, nodes := synthetic(1)
		return s.Save(k, srcLenOf(nodes), nodes)
	}
	var n, seed int
	if _, err := fmt.Sscanf(mode, "write:%d:%d", &n, &seed); err != nil {
		return err
	}
	for _, base := range []int{0, seed * 1000} {
		for i := range n {
			k, nodes := synthetic(base + i)
			if err := s.Save(k, srcLenOf(nodes), nodes); err != nil {
				return err
			}
			got, ok := loadSynthetic(s, k, nodes)
			if !ok || !reflect.DeepEqual(got, nodes) {
				return fmt.Errorf("entry %d does not load back", base+i)
			}
		}
	}
	return s.Close()
}

// synthetic returns a key and a flat tree derived from i: a root over i%7+1
// statements of a few tokens each, sized to differ from entry to entry.
func synthetic(i int) (Key, []host.Node) {
	nodes := []host.Node{{Symbol: 1, Flags: host.FlagNamed}}
	off := uint32(0)
	for s := range i%7 + 1 {
		stmt := len(nodes)
		nodes = append(nodes, host.Node{Symbol: 2, Field: 1, Flags: host.FlagNamed, StartByte: off})
		for tok := range s%3 + 2 + i%5 {
			w := uint32(tok%4 + 1)
			nodes = append(nodes, host.Node{Symbol: uint16(3 + tok%9), StartByte: off, EndByte: off + w, SubtreeSize: 1})
			off += w + 1
		}
		nodes[stmt].EndByte = off - 1
		nodes[stmt].ChildCount = uint32(len(nodes) - stmt - 1)
		nodes[stmt].SubtreeSize = uint32(len(nodes) - stmt)
		nodes[0].ChildCount++
	}
	nodes[0].EndByte = off
	nodes[0].SubtreeSize = uint32(len(nodes))
	return KeyOf("synthetic", []byte(strconv.Itoa(i))), nodes
}

func srcLenOf(nodes []host.Node) int { return int(nodes[0].EndByte) }

// synthNames is the name table of the synthetic trees.
var synthNames = &host.Names{
	Symbols: make([]string, 12),
	Named:   make([]bool, 12),
	Visible: make([]bool, 12),
	Fields:  []string{"", "body"},
}

// entryOf returns the bytes of key's entry in s.
func entryOf(t *testing.T, s *Store, key Key) []byte {
	t.Helper()
	b, _, ok := s.read(key)
	if !ok {
		t.Fatal("no entry to read")
	}
	defer entryBufs.Put(b)
	return append([]byte(nil), b...)
}

// forge writes a pack in dir's store holding b, whatever it is, as the
// entry of key, as a stray write or a hand-made file could.
func forge(t *testing.T, dir string, key Key, b []byte) {
	t.Helper()
	d := filepath.Join(dir, version)
	if err := os.MkdirAll(d, 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(d, tempPrefix+"*")
	if err != nil {
		t.Fatal(err)
	}
	w := &packWriter{p: &packFile{path: f.Name(), f: f}}
	if _, err := w.add(key, b); err != nil {
		t.Fatal(err)
	}
	if err := w.finish(d); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// loadSynthetic loads the entry of a synthetic tree under k and returns its
// nodes.
func loadSynthetic(s *Store, k Key, nodes []host.Node) ([]host.Node, bool) {
	t, ok := s.Load(k, make([]byte, srcLenOf(nodes)), synthNames)
	if !ok {
		return nil, false
	}
	return t.Linked(), true
}

// samples returns every language's sample and broken files from
// testdata/parse with their parsed flat trees.
func samples(t *testing.T) map[string][]sample {
	t.Helper()
	out := map[string][]sample{}
	for _, l := range language.All() {
		files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "parse", l.Name(), "*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := l.Parse(context.Background(), src)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out[l.Name()] = append(out[l.Name()], sample{path: f, lang: l, src: src, nodes: tr.Nodes()})
		}
	}
	return out
}

type sample struct {
	path  string
	lang  *language.Language
	src   []byte
	nodes []host.Node
}

// TestRoundTrip saves and loads every language's sample and broken trees
// (ERROR and MISSING nodes included) and synthetic ones: the nodes come
// back equal, and the entry is a third of the nodes' records or less.
func TestRoundTrip(t *testing.T) {
	s, err := Open(t.TempDir(), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	var raw, stored int64
	saved := map[Key]bool{}
	for name, files := range samples(t) {
		for _, f := range files {
			t.Run(filepath.Join(name, filepath.Base(f.path)), func(t *testing.T) {
				names, err := f.lang.Names(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				k := KeyOf(f.lang.Info().SHA256, f.src)
				if saved[k] {
					t.Skip("the same source under the same grammar (Vue is HTML's) was saved already")
				}
				saved[k] = true
				if _, ok := s.Load(k, f.src, names); ok {
					t.Fatal("found before it was saved")
				}
				if err := s.Save(k, len(f.src), f.nodes); err != nil {
					t.Fatal(err)
				}
				got, ok := s.Load(k, f.src, names)
				if !ok || !reflect.DeepEqual(got.Linked(), f.nodes) {
					t.Fatalf("loaded a tree (ok %v) unlike the %d nodes saved", ok, len(f.nodes))
				}
				raw += int64(len(f.nodes)) * host.NodeSize
				stored += int64(len(entryOf(t, s, k)))
			})
		}
	}
	for i := range 50 {
		k, nodes := synthetic(i)
		if err := s.Save(k, srcLenOf(nodes), nodes); err != nil {
			t.Fatal(err)
		}
		if got, ok := loadSynthetic(s, k, nodes); !ok || !reflect.DeepEqual(got, nodes) {
			t.Fatalf("synthetic %d: loaded %v (ok %v)", i, got, ok)
		}
	}
	if stored*3 > raw {
		t.Errorf("entries take %d bytes for %d bytes of node records: want a third or less", stored, raw)
	}
}

// TestKeys: the key depends on the grammar and on every byte of the
// source, and an entry is found only under its own key and source length.
func TestKeys(t *testing.T) {
	tests := []struct {
		name               string
		grammar1, grammar2 string
		src1, src2         string
		same               bool
	}{
		{"equal", "g", "g", "x = 1", "x = 1", true},
		{"other grammar", "g", "h", "x = 1", "x = 1", false},
		{"one byte", "g", "g", "x = 1", "x = 2", false},
		{"longer", "g", "g", "x = 1", "x = 1\n", false},
		{"grammar and source run together", "ab", "a", "c", "bc", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k1, k2 := KeyOf(tt.grammar1, []byte(tt.src1)), KeyOf(tt.grammar2, []byte(tt.src2))
			if (k1 == k2) != tt.same {
				t.Errorf("keys equal: %v, want %v", k1 == k2, tt.same)
			}
		})
	}
	s, err := Open(t.TempDir(), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	k, nodes := synthetic(3)
	if err := s.Save(k, srcLenOf(nodes), nodes); err != nil {
		t.Fatal(err)
	}
	entry := entryOf(t, s, k)
	if _, ok := s.Load(k, make([]byte, srcLenOf(nodes)+1), synthNames); ok {
		t.Error("an entry loads for a source of another length")
	}
	// An entry filed under another key in a pack is refused.
	other, _ := synthetic(4)
	dir := t.TempDir()
	forge(t, dir, other, entry)
	s2, err := Open(dir, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := loadSynthetic(s2, other, nodes); ok {
		t.Error("an entry loads under another key")
	}
}

// TestCorrupt damages an entry in every way a crash, a full disk or a
// stray write could, in a pack whose index is whole, and checks that Load
// refuses it (never panicking, whatever the bytes) and that saving again
// repairs it, in this process and the next.
func TestCorrupt(t *testing.T) {
	k, nodes := synthetic(6)
	n := srcLenOf(nodes)
	tests := []struct {
		name   string
		damage func([]byte) []byte
	}{
		{"empty", func([]byte) []byte { return nil }},
		{"header only", func(b []byte) []byte { return b[:headerSize] }},
		{"torn in the header", func(b []byte) []byte { return b[:headerSize/2] }},
		{"torn in the nodes", func(b []byte) []byte { return b[:len(b)-3] }},
		{"zeroed tail", func(b []byte) []byte {
			clear(b[len(b)/2:])
			return b
		}},
		{"all zero", func(b []byte) []byte { return make([]byte, len(b)) }},
		{"garbage appended", func(b []byte) []byte { return append(b, 1, 2, 3) }},
		{"bit flipped in the nodes", func(b []byte) []byte {
			b[headerSize+2] ^= 0x10
			return b
		}},
		{"bit flipped in the checksum", func(b []byte) []byte {
			b[offCRC] ^= 1
			return b
		}},
		{"other magic", func(b []byte) []byte {
			b[0] = 'X'
			return b
		}},
		{"node count raised, checksum fixed", func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[offNodes:], uint64(len(nodes)+1))
			binary.LittleEndian.PutUint32(b[offCRC:], checksum(b))
			return b
		}},
		{"child count raised, checksum fixed", func(b []byte) []byte {
			// The root's child count is its fifth number.
			tag := binary.LittleEndian.Uint16(b[headerSize:])
			off := headerSize + 2
			for shift := 5; shift < 13; shift += 2 {
				off += width(uint(tag >> shift))
			}
			b[off]++
			binary.LittleEndian.PutUint32(b[offCRC:], checksum(b))
			return b
		}},
		{"a number widened, checksum fixed", func(b []byte) []byte {
			// The root's length read as 4 bytes misaligns every node after.
			b[headerSize+1] |= 3 << 3
			binary.LittleEndian.PutUint32(b[offCRC:], checksum(b))
			return b
		}},
		{"padding cut, checksum fixed", func(b []byte) []byte {
			b = b[:len(b)-padding]
			binary.LittleEndian.PutUint64(b[offPayload:], uint64(len(b)-headerSize))
			binary.LittleEndian.PutUint32(b[offCRC:], checksum(b))
			return b
		}},
		{"huge node count, checksum fixed", func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[offNodes:], 1<<62)
			binary.LittleEndian.PutUint32(b[offCRC:], checksum(b))
			return b
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			b, _ := encode(nil, k, n, nodes)
			forge(t, dir, k, tt.damage(b))
			s, err := Open(dir, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := loadSynthetic(s, k, nodes); ok {
				t.Fatalf("a damaged entry loads: %d nodes", len(got))
			}
			if err := s.Save(k, n, nodes); err != nil {
				t.Fatal(err)
			}
			if got, ok := loadSynthetic(s, k, nodes); !ok || !reflect.DeepEqual(got, nodes) {
				t.Fatal("saving again does not repair the entry")
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			next, err := Open(dir, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := loadSynthetic(next, k, nodes); !ok || !reflect.DeepEqual(got, nodes) {
				t.Fatal("the next process does not find the repaired entry")
			}
		})
	}
}

// TestKilledMidWrite kills a child process with SIGKILL while it is
// halfway through writing an entry: no entry is left to trust (the half
// written file is a temporary one, which no Load reads), the entry can be
// saved again, and a trim removes the temporary file once it is stale.
func TestKilledMidWrite(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=torn", childDir+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "half\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child said %q, %v", line, err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	s, err := Open(dir, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	k, nodes := synthetic(1)
	if _, ok := loadSynthetic(s, k, nodes); ok {
		t.Fatal("the entry being written when its writer died loads")
	}
	temps := tempFiles(t, s)
	if len(temps) != 1 {
		t.Fatalf("temporary files after the kill: %v, want the torn one", temps)
	}
	if err := s.Save(k, srcLenOf(nodes), nodes); err != nil {
		t.Fatal(err)
	}
	if got, ok := loadSynthetic(s, k, nodes); !ok || !reflect.DeepEqual(got, nodes) {
		t.Fatal("the entry does not save after the kill")
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	// The torn file goes once it is older than any write in progress.
	old := time.Now().Add(-2 * staleTemp)
	if err := os.Chtimes(temps[0], old, old); err != nil {
		t.Fatal(err)
	}
	if err := s.Trim(); err != nil {
		t.Fatal(err)
	}
	if left := tempFiles(t, s); len(left) != 0 {
		t.Errorf("a trim left %v", left)
	}
}

// packFiles returns the packs in s.
func packFiles(t *testing.T, s *Store) []string {
	t.Helper()
	packs, err := filepath.Glob(filepath.Join(s.dir, "*"+packSuffix))
	if err != nil {
		t.Fatal(err)
	}
	return packs
}

// TestDamagedPacks damages a pack's footer and index as a crash or a stray
// write could: the pack is passed over whole (never panicking), and the
// entries of the store's other packs still load.
func TestDamagedPacks(t *testing.T) {
	tests := []struct {
		name   string
		damage func([]byte) []byte
	}{
		{"empty", func([]byte) []byte { return nil }},
		{"footer only", func(b []byte) []byte { return b[len(b)-footerSize:] }},
		{"torn", func(b []byte) []byte { return b[:len(b)-footerSize/2] }},
		{"footer flipped", func(b []byte) []byte {
			b[len(b)-footerSize+5] ^= 1
			return b
		}},
		{"index flipped", func(b []byte) []byte {
			b[len(b)-footerSize-indexRecord+40] ^= 1
			return b
		}},
		{"index offset moved, checksums fixed", func(b []byte) []byte {
			foot := b[len(b)-footerSize:]
			binary.LittleEndian.PutUint64(foot[8:], binary.LittleEndian.Uint64(foot[8:])-1)
			binary.LittleEndian.PutUint32(foot[footerCRCFrom:], crc32.Checksum(foot[:footerCRCFrom], crcTable))
			return b
		}},
		{"an entry's length raised, checksums fixed", func(b []byte) []byte {
			foot := b[len(b)-footerSize:]
			rec := b[len(b)-footerSize-indexRecord:]
			binary.LittleEndian.PutUint64(rec[40:], binary.LittleEndian.Uint64(rec[40:])+1<<40)
			binary.LittleEndian.PutUint32(foot[16:], crc32.Checksum(b[len(b)-footerSize-indexRecord:len(b)-footerSize], crcTable))
			binary.LittleEndian.PutUint32(foot[footerCRCFrom:], crc32.Checksum(foot[:footerCRCFrom], crcTable))
			return b
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			k1, n1 := synthetic(1)
			k2, n2 := synthetic(2)
			for _, e := range []struct {
				k     Key
				nodes []host.Node
			}{{k1, n1}, {k2, n2}} {
				if err := s.Save(e.k, srcLenOf(e.nodes), e.nodes); err != nil {
					t.Fatal(err)
				}
				if err := s.Flush(); err != nil {
					t.Fatal(err)
				}
			}
			packs := packFiles(t, s)
			if len(packs) != 2 {
				t.Fatalf("%d packs, want 2", len(packs))
			}
			// Damage the pack of entry 1.
			for _, p := range packs {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(b, k1[:]) {
					continue
				}
				if err := os.WriteFile(p, tt.damage(b), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			next, err := Open(dir, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := loadSynthetic(next, k1, n1); ok {
				t.Error("an entry of a damaged pack loads")
			}
			if got, ok := loadSynthetic(next, k2, n2); !ok || !reflect.DeepEqual(got, n2) {
				t.Error("the entry of the other pack does not load")
			}
		})
	}
}

func tempFiles(t *testing.T, s *Store) []string {
	t.Helper()
	temps, err := filepath.Glob(filepath.Join(s.dir, tempPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	return temps
}

// TestProcessesAtOnce runs child processes that write the same entries
// and their own at the same time, each loading back what it wrote; then
// every entry checks out.
func TestProcessesAtOnce(t *testing.T) {
	dir := t.TempDir()
	const n, procs = 200, 3
	var wg sync.WaitGroup
	errs := make([]error, procs)
	for p := range procs {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=write:%d:%d", childEnv, n, p+1), childDir+"="+dir)
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[p] = fmt.Errorf("child %d: %v\n%s", p, err, out)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(dir, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	for _, base := range []int{0, 1000, 2000, 3000} {
		for i := range n {
			k, nodes := synthetic(base + i)
			if got, ok := loadSynthetic(s, k, nodes); !ok || !reflect.DeepEqual(got, nodes) {
				t.Fatalf("entry %d does not load", base+i)
			}
		}
	}
	if temps := tempFiles(t, s); len(temps) != 0 {
		t.Errorf("temporary files left: %v", temps)
	}
}

// TestEviction fills stores with limits of a few packs: after Close the
// store is within its limit, the pack used last is kept, and packs
// removed by another process during a trim are no error.
func TestEviction(t *testing.T) {
	tests := []struct {
		name  string
		packs int
		limit int64
	}{
		{"under the limit", 10, 1 << 20},
		{"a few over", 20, 8000},
		{"many over", 200, 20000},
		{"one pack's worth", 50, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			s.touchAfter = 0 // every use counts, for the test
			base := time.Now().Add(-time.Duration(tt.packs+10) * time.Minute)
			for i := range tt.packs {
				// Pack i holds entries 3i..3i+2 and was used at minute i,
				// so pack 0 is the oldest.
				for j := range 3 {
					k, nodes := synthetic(3*i + j)
					if err := s.Save(k, srcLenOf(nodes), nodes); err != nil {
						t.Fatal(err)
					}
				}
				if err := s.Flush(); err != nil {
					t.Fatal(err)
				}
				at := base.Add(time.Duration(i) * time.Minute)
				for _, p := range packFiles(t, s) {
					if fi, err := os.Stat(p); err == nil && fi.ModTime().After(at) {
						os.Chtimes(p, at, at)
					}
				}
			}
			// Pack 0, used now by another process, becomes the most recent.
			k0, n0 := synthetic(0)
			user, err := Open(dir, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			user.touchAfter = 0
			_, used := loadSynthetic(user, k0, n0)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			u, err := s.Usage()
			if err != nil {
				t.Fatal(err)
			}
			if u.Bytes > tt.limit {
				t.Errorf("%d bytes in %d entries after Close, limit %d", u.Bytes, u.Entries, tt.limit)
			}
			if used && u.Entries > 0 {
				next, err := Open(dir, tt.limit)
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := loadSynthetic(next, k0, n0); !ok {
					t.Error("the pack used last was evicted while older ones were kept")
				}
			}
		})
	}
	t.Run("removed meanwhile", func(t *testing.T) {
		s, err := Open(t.TempDir(), 1000)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 20 {
			k, nodes := synthetic(i)
			if err := s.Save(k, srcLenOf(nodes), nodes); err != nil {
				t.Fatal(err)
			}
		}
		entries, err := s.list(false)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries[:len(entries)/2] {
			os.Remove(e.path)
		}
		if err := s.Trim(); err != nil {
			t.Fatal(err)
		}
		if err := s.Clear(); err != nil {
			t.Fatal(err)
		}
		if u, err := s.Usage(); err != nil || u.Entries != 0 {
			t.Errorf("after Clear: %+v, %v", u, err)
		}
		k, nodes := synthetic(1)
		if err := s.Save(k, srcLenOf(nodes), nodes); err != nil {
			t.Errorf("save after Clear: %v", err)
		}
	})
}

// TestEnv: the environment turns the store off and places it.
func TestEnv(t *testing.T) {
	tests := []struct {
		env     map[string]string
		off     bool
		dir     string
		wantErr bool
	}{
		{env: map[string]string{"HOME": "/home/u"}, dir: "/home/u/.cache/loupe/trees"},
		{env: map[string]string{"HOME": "/home/u", "XDG_CACHE_HOME": "/xdg"}, dir: "/xdg/loupe/trees"},
		{env: map[string]string{"HOME": "/home/u", "XDG_CACHE_HOME": "relative"}, dir: "/home/u/.cache/loupe/trees"},
		{env: map[string]string{"HOME": "/home/u", EnvDir: "/elsewhere"}, dir: "/elsewhere"},
		{env: map[string]string{EnvOff: "1", EnvDir: "/elsewhere"}, off: true, dir: "/elsewhere"},
		{env: map[string]string{EnvOff: "0", EnvDir: "/elsewhere"}, dir: "/elsewhere"},
		{env: map[string]string{EnvOff: "false", EnvDir: "/elsewhere"}, dir: "/elsewhere"},
		{env: map[string]string{EnvOff: "yes"}, off: true, wantErr: true},
		{env: map[string]string{}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.env), func(t *testing.T) {
			if runtimeHasXDG() {
				t.Skip("cache folders are placed otherwise on this system")
			}
			getenv := func(k string) string { return tt.env[k] }
			if got := Off(getenv); got != tt.off {
				t.Errorf("Off = %v, want %v", got, tt.off)
			}
			dir, err := DefaultDir(getenv)
			if (err != nil) != tt.wantErr || (err == nil && dir != filepath.FromSlash(tt.dir)) {
				t.Errorf("DefaultDir = %q, %v; want %q", dir, err, tt.dir)
			}
			if tt.off {
				if st, err := OpenDefault(getenv); st != nil || err != nil {
					t.Errorf("OpenDefault when off: %v, %v", st, err)
				}
			}
		})
	}
}

// runtimeHasXDG reports whether this system places cache folders by
// $XDG_CACHE_HOME and $HOME/.cache, as TestEnv expects.
func runtimeHasXDG() bool {
	dir, err := userCacheDir(func(k string) string { return map[string]string{"HOME": "/h"}[k] })
	return err != nil || !strings.HasSuffix(filepath.ToSlash(dir), "/h/.cache")
}

// TestForgedEntries alters entries at random and fixes their checksum, as
// a bug or a hand-made file could: decoding never panics, and a tree it
// returns checks out as a parse's does (tree.New).
func TestForgedEntries(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var loaded int
	for i := range 40 {
		k, nodes := synthetic(i)
		orig, ok := encode(nil, k, srcLenOf(nodes), nodes)
		if !ok {
			t.Fatal("not encoded")
		}
		src := make([]byte, srcLenOf(nodes))
		for range 200 {
			b := append([]byte(nil), orig...)
			for range 1 + rnd.IntN(3) {
				b[headerSize+rnd.IntN(len(b)-headerSize)] ^= byte(1 + rnd.IntN(255))
			}
			binary.LittleEndian.PutUint32(b[offCRC:], checksum(b))
			tr, err := decode(b, k, src, synthNames)
			if err != nil {
				continue
			}
			loaded++
			if _, err := tree.New(src, append([]host.Node(nil), tr.Linked()...), synthNames); err != nil {
				t.Fatalf("a forged entry decodes to a tree New refuses: %v", err)
			}
		}
	}
	t.Logf("%d of 8000 forged entries decode (to other well-formed trees)", loaded)
}
