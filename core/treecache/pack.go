package treecache

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A store's entries are kept in pack files, each many entries back to
// back, written once and then only read: a file system creates a file in
// about the time it writes 20 KB of one (0.3-0.6 ms each on the project's
// machine, where a search of Go's 7,700 files spent 4 s writing one file an
// entry), so a search that parses many files writes a few packs.
//
// A pack is its entries (each a whole entry, as encode makes it), then an
// index of them sorted by key, then a footer:
//
//	entries
//	index:  count × (key [32]byte, offset uint64, length uint64)
//	footer: magic [4]byte, count uint32, index offset uint64,
//	        CRC-32C of the index uint32, 8 zero bytes, CRC-32C of the
//	        footer's first 28 bytes uint32
//
// all little-endian. A pack is written to a temporary file and renamed
// into place once whole, so no reader sees one half written.
const (
	packMagic     = "LTP\x01"
	packSuffix    = ".pack"
	indexRecord   = len(Key{}) + 16
	footerSize    = 32
	footerCRCFrom = footerSize - 4
)

// maxPack is the size past which a pack is finished and another begun.
const maxPack = 8 << 20

// packFile is a pack found in the store or written by this Store.
type packFile struct {
	path    string
	f       *os.File // open for reading, or nil when it could not be
	mod     time.Time
	touched atomic.Bool // recency refreshed by this process
}

// entryRef locates an entry in a pack.
type entryRef struct {
	pack     *packFile
	off, len int64
}

// prefix is the first 8 bytes of a key, by which the index finds an entry
// (the entry's own header holds the whole key, which decode checks).
func prefix(k Key) uint64 { return binary.LittleEndian.Uint64(k[:8]) }

// readPack returns the index of the pack in path, opening it for reading.
// A pack that does not check out (torn, altered, not a pack) is an error.
func readPack(path string) (*packFile, []indexEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	p, idx, err := readPackIndex(f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	p.path = path
	return p, idx, nil
}

// indexEntry is one record of a pack's index.
type indexEntry struct {
	key      Key
	off, len int64
}

func readPackIndex(f *os.File) (*packFile, []indexEntry, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := fi.Size()
	if size < footerSize {
		return nil, nil, errCorrupt
	}
	var foot [footerSize]byte
	if _, err := f.ReadAt(foot[:], size-footerSize); err != nil {
		return nil, nil, err
	}
	le := binary.LittleEndian
	count, indexOff := int64(le.Uint32(foot[4:])), int64(le.Uint64(foot[8:]))
	if string(foot[:len(packMagic)]) != packMagic || le.Uint32(foot[footerCRCFrom:]) != crc32.Checksum(foot[:footerCRCFrom], crcTable) ||
		indexOff < 0 || indexOff+count*int64(indexRecord)+footerSize != size {
		return nil, nil, errCorrupt
	}
	raw := make([]byte, count*int64(indexRecord))
	if _, err := f.ReadAt(raw, indexOff); err != nil {
		return nil, nil, err
	}
	if le.Uint32(foot[16:]) != crc32.Checksum(raw, crcTable) {
		return nil, nil, errCorrupt
	}
	idx := make([]indexEntry, count)
	for i := range idx {
		r := raw[i*indexRecord:]
		e := &idx[i]
		copy(e.key[:], r)
		e.off, e.len = int64(le.Uint64(r[32:])), int64(le.Uint64(r[40:]))
		if e.len < headerSize || e.len > maxEntry || e.off < 0 || e.off > indexOff-e.len {
			return nil, nil, errCorrupt
		}
	}
	return &packFile{f: f, mod: fi.ModTime()}, idx, nil
}

// packWriter writes the pack a Store is filling. Its entries are found by
// this Store's Loads as they are written (through the same file, which
// stays open for reading once the pack is finished).
type packWriter struct {
	p   *packFile // its file, open for reading and writing
	off int64
	idx []indexEntry
}

// midWrite, when set (by tests only), is called once half of an entry is
// written, before the rest is.
var midWrite func()

// add appends the entry b of key to the pack and returns where it is.
func (w *packWriter) add(key Key, b []byte) (entryRef, error) {
	n := int64(len(b))
	if midWrite != nil {
		if _, err := w.p.f.Write(b[:len(b)/2]); err != nil {
			return entryRef{}, err
		}
		midWrite()
		b = b[len(b)/2:]
	}
	if _, err := w.p.f.Write(b); err != nil {
		return entryRef{}, err
	}
	ref := entryRef{pack: w.p, off: w.off, len: n}
	w.idx = append(w.idx, indexEntry{key: key, off: w.off, len: n})
	w.off += n
	return ref, nil
}

// finish writes the pack's index and footer and renames it into the
// store's folder dir under the temporary name's random part.
func (w *packWriter) finish(dir string) error {
	slices.SortFunc(w.idx, func(a, b indexEntry) int { return strings.Compare(string(a.key[:]), string(b.key[:])) })
	le := binary.LittleEndian
	tail := make([]byte, 0, len(w.idx)*indexRecord+footerSize)
	for _, e := range w.idx {
		tail = append(tail, e.key[:]...)
		tail = le.AppendUint64(tail, uint64(e.off))
		tail = le.AppendUint64(tail, uint64(e.len))
	}
	indexCRC := crc32.Checksum(tail, crcTable)
	foot := len(tail)
	tail = append(tail, packMagic...)
	tail = le.AppendUint32(tail, uint32(len(w.idx)))
	tail = le.AppendUint64(tail, uint64(w.off))
	tail = le.AppendUint32(tail, indexCRC)
	tail = append(tail, make([]byte, 8)...)
	tail = le.AppendUint32(tail, crc32.Checksum(tail[foot:], crcTable))
	if _, err := w.p.f.Write(tail); err != nil {
		return err
	}
	path := dir + string(os.PathSeparator) + strings.TrimPrefix(baseName(w.p.path), tempPrefix) + packSuffix
	if err := os.Rename(w.p.path, path); err != nil {
		return err
	}
	w.p.path = path
	return nil
}

// abandon closes and removes the pack, which failed to be written.
func (w *packWriter) abandon() {
	w.p.f.Close()
	os.Remove(w.p.path)
}

// baseName is filepath.Base for the store's own names.
func baseName(p string) string {
	return p[strings.LastIndexByte(p, os.PathSeparator)+1:]
}

// index maps key prefixes to the entries of the store's packs: the packs
// found on disk, read on first use (a process that only writes never
// reads them), and the entries this Store writes, as it writes them.
type index struct {
	once  sync.Once
	mu    sync.RWMutex
	refs  map[uint64]entryRef
	packs []*packFile
}

func newIndex() index { return index{refs: map[uint64]entryRef{}} }

// load reads the index of every pack in dir, oldest first, so that of two
// entries of one key (saved again after the first was refused) the newer
// is found. A pack that does not check out is passed over (a trim removes
// it in time, as no use refreshes it).
func (x *index) load(dir string) {
	x.once.Do(func() {
		files, _ := os.ReadDir(dir)
		type found struct {
			p   *packFile
			idx []indexEntry
		}
		var names []string
		for _, f := range files {
			if strings.HasSuffix(f.Name(), packSuffix) {
				names = append(names, f.Name())
			}
		}
		// The packs' indexes are read on every processor at once.
		read := make([]found, len(names))
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		var wg sync.WaitGroup
		for i, name := range names {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				if p, idx, err := readPack(dir + string(os.PathSeparator) + name); err == nil {
					read[i] = found{p, idx}
				}
			})
		}
		wg.Wait()
		packs := slices.DeleteFunc(read, func(f found) bool { return f.p == nil })
		slices.SortStableFunc(packs, func(a, b found) int { return a.p.mod.Compare(b.p.mod) })
		x.mu.Lock()
		defer x.mu.Unlock()
		// Entries this Store wrote before are newer than any pack found.
		mine := x.refs
		n := len(mine)
		for _, f := range packs {
			n += len(f.idx)
		}
		x.refs = make(map[uint64]entryRef, n)
		for _, f := range packs {
			x.packs = append(x.packs, f.p)
			for _, e := range f.idx {
				x.refs[prefix(e.key)] = entryRef{pack: f.p, off: e.off, len: e.len}
			}
		}
		maps.Copy(x.refs, mine)
	})
}

// add records an entry this Store wrote.
func (x *index) add(key Key, ref entryRef) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.refs[prefix(key)] = ref
}

// find returns the entry whose key has key's prefix.
func (x *index) find(key Key) (entryRef, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	r, ok := x.refs[prefix(key)]
	return r, ok
}

// forget drops ref, an entry that did not check out, so that the entry
// saved again in its place is found instead.
func (x *index) forget(key Key, ref entryRef) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.refs[prefix(key)] == ref {
		delete(x.refs, prefix(key))
	}
}

// reset forgets every pack, closing the ones found on disk (a Clear).
func (x *index) reset() {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, p := range x.packs {
		p.f.Close()
	}
	x.packs, x.refs = nil, map[uint64]entryRef{}
}

// read reads ref's entry into a pooled buffer.
func (r entryRef) read() ([]byte, error) {
	b := entryBufs.Get(int(r.len))
	if _, err := r.pack.f.ReadAt(b, r.off); err != nil {
		entryBufs.Put(b)
		if errors.Is(err, io.EOF) {
			err = errCorrupt
		}
		return nil, fmt.Errorf("tree cache: %w", err)
	}
	return b, nil
}
