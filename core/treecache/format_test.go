package treecache

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"testing"

	"github.com/loupe-dev/loupe/host"
)

// large returns a synthetic tree of at least n nodes: a root over
// statements of tokens, each statement nested a little deeper than the
// last so that checkpoints fall at every depth and starts go back and
// forth.
func large(n int) (Key, []host.Node) {
	nodes := []host.Node{{Symbol: 1, Flags: host.FlagNamed}}
	off := uint32(0)
	for s := 0; len(nodes) < n; s++ {
		var open []int
		for range s%4 + 1 {
			open = append(open, len(nodes))
			nodes = append(nodes, host.Node{Symbol: 2, Field: 1, Flags: host.FlagNamed, StartByte: off})
		}
		for tok := range s%5 + 1 {
			w := uint32(tok%7 + 1 + s%300)
			nodes = append(nodes, host.Node{Symbol: uint16(3 + tok%9), StartByte: off, EndByte: off + w, SubtreeSize: 1})
			off += w + 1
		}
		for k := len(open) - 1; k >= 0; k-- {
			i := open[k]
			nodes[i].EndByte = off - 1
			nodes[i].SubtreeSize = uint32(len(nodes) - i)
			if k+1 < len(open) {
				nodes[i].ChildCount = uint32(s%5 + 2)
			} else {
				nodes[i].ChildCount = uint32(s%5 + 1)
			}
		}
		// The outer statement's children: its tokens and the next level.
		for k := 0; k+1 < len(open); k++ {
			nodes[open[k]].ChildCount = 1
		}
		nodes[open[len(open)-1]].ChildCount = uint32(s%5 + 1)
		nodes[0].ChildCount++
	}
	nodes[0].EndByte = off
	nodes[0].SubtreeSize = uint32(len(nodes))
	return KeyOf("large", []byte(strconv.Itoa(n))), nodes
}

// TestParts: an entry large enough to be decoded in parts on several
// goroutines gives the tree saved, at sizes around a checkpoint and the
// parallel threshold; one whose checkpoints were altered (checksum fixed)
// is refused where a part starts or ends there, and is never decoded into
// another tree.
func TestParts(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	refused := 0
	for _, n := range []int{parallelNodes - 1, parallelNodes, parallelNodes + checkpointEvery + 1, 9*checkpointEvery + 7} {
		k, nodes := large(n)
		src := make([]byte, srcLenOf(nodes))
		b, ok := encode(nil, k, len(src), nodes)
		if !ok {
			t.Fatal("not encoded")
		}
		tr, err := decode(b, k, src, synthNames)
		if err != nil {
			t.Fatalf("%d nodes: %v", len(nodes), err)
		}
		if !reflect.DeepEqual(tr.Linked(), nodes) {
			t.Fatalf("%d nodes: decoded unlike the tree saved", len(nodes))
		}
		if len(nodes) < parallelNodes {
			continue
		}
		end := len(b) - padding - checkpoints(len(nodes))*checkpointSize
		for c := range checkpoints(len(nodes)) {
			for field := range 2 {
				d := append([]byte(nil), b...)
				at := end + c*checkpointSize + 4*field
				binary.LittleEndian.PutUint32(d[at:], binary.LittleEndian.Uint32(d[at:])+1)
				binary.LittleEndian.PutUint32(d[offCRC:], checksum(d))
				tr, err := decode(d, k, src, synthNames)
				switch {
				case errors.Is(err, errCorrupt):
					refused++
				case err != nil || !reflect.DeepEqual(tr.Linked(), nodes):
					t.Fatalf("%d nodes, checkpoint %d's %s raised: %v, or another tree", len(nodes), c, [2]string{"offset", "start"}[field], err)
				}
			}
		}
	}
	// A checkpoint between two parts is read, and one off is refused;
	// the others are not read at all.
	if refused == 0 {
		t.Fatal("no altered checkpoint was refused")
	}
}

// TestEarlierFormats: a trim removes the folders of the store's earlier
// formats, whose entries no key of this format finds, and keeps this
// format's packs.
func TestEarlierFormats(t *testing.T) {
	dir := t.TempDir()
	for _, v := range oldVersions {
		if err := os.MkdirAll(filepath.Join(dir, v), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, v, "1.pack"), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(dir, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	k, nodes := synthetic(3)
	if err := s.Save(k, srcLenOf(nodes), nodes); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, v := range oldVersions {
		if _, err := os.Stat(filepath.Join(dir, v)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the folder of format %s is still there: %v", v, err)
		}
	}
	next, err := Open(dir, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	if got, ok := loadSynthetic(next, k, nodes); !ok || !reflect.DeepEqual(got, nodes) {
		t.Fatal("this format's entry is gone")
	}
}

// TestSetSum: keys come from the function SetSum sets, which is given the
// bytes a SHA-256 of the key covers, except where it reports failure, and
// from crypto/sha256 again after SetSum(nil).
func TestSetSum(t *testing.T) {
	src := []byte("package p\n")
	want := KeyOf("grammar", src)
	var got Key
	fail := false
	SetSum(func(prefix, s []byte) (Key, bool) {
		got = sha256.Sum256(append(append([]byte{}, prefix...), s...))
		return Key{1}, !fail
	})
	defer SetSum(nil)
	if k := KeyOf("grammar", src); k != (Key{1}) {
		t.Errorf("KeyOf did not use the function set: %x", k)
	}
	if got != want {
		t.Errorf("the SHA-256 of what the function was given is %x, want the key %x", got, want)
	}
	fail = true
	if k := KeyOf("grammar", src); k != want {
		t.Errorf("with the function failing: %x, want %x", k, want)
	}
	SetSum(nil)
	if k := KeyOf("grammar", src); k != want {
		t.Errorf("after SetSum(nil): %x, want %x", k, want)
	}
}
