// Package treecache keeps parsed syntax trees on disk across processes: a
// content-addressed store of flat node arrays (package host), keyed by the
// grammar module's hash and the source's hash, so that a process searching
// files another process already parsed reads their trees instead of
// parsing them again.
//
// An entry never holds source text: it is the node records alone (kinds,
// fields, flags, byte ranges, child counts), and the caller rebuilds a tree
// over its own copy of the source.
//
// Entries are kept in pack files of many entries each (see pack.go), since
// creating a file costs about what writing 20 KB does. Several processes
// may use one store at once, without locks: a pack is written to a
// temporary file and renamed into place once whole, and is never changed
// after, so a reader sees a whole pack or none; each entry carries its
// key, its source's length and a CRC-32 of its bytes, and each pack's
// index a CRC-32 of its own, so a torn or altered entry or pack is
// refused (the caller parses again and saves the tree anew), never
// trusted. A Store's saves become visible to other processes when their
// pack is finished: once it holds 8 MiB, at Flush, at Close. The store is
// bounded: a process that wrote to it trims it, removing the least
// recently used packs (by modification time, which a use refreshes at most
// once an hour) until it is under nine tenths of its limit; a trim
// tolerates packs another process removes meanwhile, and removes the
// folders of the store's earlier formats.
package treecache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/host"
	"github.com/loupe-dev/loupe/internal/slicepool"
)

// Environment variables that configure the default store.
const (
	// EnvDir names the folder of the default store, instead of loupe/trees
	// in the user's cache folder (os.UserCacheDir).
	EnvDir = "LOUPE_TREE_CACHE_DIR"
	// EnvOff, set to anything but "", "0" or "false", turns the persistent
	// tree cache off.
	EnvOff = "LOUPE_NO_CACHE"
)

// DefaultLimit is the default store's size bound, 1 GiB: the trees of Go's
// standard library (86 MB of source) take about a quarter of it.
const DefaultLimit int64 = 1 << 30

// version is the folder of the store that holds this format's packs;
// oldVersions are earlier formats' folders, which a trim removes (v3
// holds packs of entries without checkpoints, v4 entries checked by
// CRC-32C; no key finds them).
const version = "v5"

var oldVersions = []string{"v1", "v2", "v3", "v4"}

// tempPrefix starts the names of entries being written.
const tempPrefix = ".tmp-"

// staleTemp is the age past which a trim removes a temporary file, left
// by a process that died while writing it.
const staleTemp = time.Hour

// trimEvery is how often, at most, Close trims a store it wrote little to.
const trimEvery = time.Minute

// maxEntry bounds the entry a Load reads: far more than the largest source
// a grammar module accepts can need.
const maxEntry = 16 * host.MaxInput

// Off reports whether the environment (read through getenv) turns the
// persistent tree cache off.
func Off(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv(EnvOff))) {
	case "", "0", "false":
		return false
	}
	return true
}

// DefaultDir returns the default store's folder: $LOUPE_TREE_CACHE_DIR,
// else loupe/trees in the user's cache folder, found as os.UserCacheDir
// finds it but through getenv ($XDG_CACHE_HOME or $HOME/.cache on Linux).
func DefaultDir(getenv func(string) string) (string, error) {
	if d := getenv(EnvDir); d != "" {
		return d, nil
	}
	base, err := userCacheDir(getenv)
	if err != nil {
		return "", fmt.Errorf("tree cache folder: %w", err)
	}
	return filepath.Join(base, "loupe", "trees"), nil
}

// userCacheDir is os.UserCacheDir reading the environment through getenv.
func userCacheDir(getenv func(string) string) (string, error) {
	var dir, from string
	switch runtime.GOOS {
	case "windows":
		dir, from = getenv("LocalAppData"), "%LocalAppData%"
	case "darwin", "ios":
		dir, from = getenv("HOME"), "$HOME"
		if dir != "" {
			dir = filepath.Join(dir, "Library", "Caches")
		}
	case "plan9":
		dir, from = getenv("home"), "$home"
		if dir != "" {
			dir = filepath.Join(dir, "lib", "cache")
		}
	default:
		dir, from = getenv("XDG_CACHE_HOME"), "$XDG_CACHE_HOME"
		if dir == "" || !filepath.IsAbs(dir) {
			dir, from = getenv("HOME"), "$HOME"
			if dir != "" {
				dir = filepath.Join(dir, ".cache")
			}
		}
	}
	if dir == "" {
		return "", fmt.Errorf("%s is not defined", from)
	}
	return dir, nil
}

// OpenDefault opens the default store (DefaultDir, DefaultLimit), or
// returns nil and no error when the environment turns it off.
func OpenDefault(getenv func(string) string) (*Store, error) {
	if Off(getenv) {
		return nil, nil
	}
	dir, err := DefaultDir(getenv)
	if err != nil {
		return nil, err
	}
	return Open(dir, DefaultLimit)
}

// Store is a folder of trees, bounded to a size. It is safe for concurrent
// use, by goroutines and by processes.
type Store struct {
	root  string // the folder given to Open
	dir   string // root/version, which holds the packs
	limit int64
	// touchAfter is how old a pack's time may get before a Load from it
	// refreshes it.
	touchAfter time.Duration

	index index

	wmu sync.Mutex
	w   *packWriter // the pack being filled, nil for none

	written  atomic.Int64 // entry bytes written since the last trim
	wrote    atomic.Bool  // whether this Store wrote any entry
	trimming sync.Mutex

	hits, misses, corrupt, saves, failed atomic.Int64
}

// Open opens (creating it if needed) the store in dir, bounded to limit
// bytes of packs.
func Open(dir string, limit int64) (*Store, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("tree cache %s: limit %d is not positive", dir, limit)
	}
	s := &Store{root: dir, dir: filepath.Join(dir, version), limit: limit, touchAfter: time.Hour, index: newIndex()}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("tree cache: %w", err)
	}
	// The packs' indexes are read meanwhile, while the caller gets its
	// rules ready and lists and reads its files: the first Load waits for
	// the rest. A store of 32 packs, 10,000 entries, takes 3 ms to index.
	go s.index.load(s.dir)
	return s, nil
}

// Dir returns the folder the store was opened on.
func (s *Store) Dir() string { return s.root }

// Limit returns the store's size bound in bytes.
func (s *Store) Limit() int64 { return s.limit }

// Load returns the tree stored under key for src, built over src with
// names, or false when there is no such entry or it does not check out (a
// torn, truncated or altered entry is never trusted).
func (s *Store) Load(key Key, src []byte, names *host.Names) (*tree.Tree, bool) {
	b, ref, ok := s.read(key)
	if !ok {
		return nil, false
	}
	t, err := decode(b, key, src, names)
	entryBufs.Put(b)
	if err != nil {
		s.refused(key, ref)
		return nil, false
	}
	s.used(ref)
	return t, true
}

// read returns the bytes of key's entry in a pooled buffer, counting a
// miss when there is none.
func (s *Store) read(key Key) ([]byte, entryRef, bool) {
	s.index.load(s.dir)
	ref, ok := s.index.find(key)
	if !ok {
		s.misses.Add(1)
		return nil, ref, false
	}
	b, err := ref.read()
	if err != nil {
		s.refused(key, ref)
		return nil, ref, false
	}
	return b, ref, true
}

// refused counts an entry that did not check out and forgets it.
func (s *Store) refused(key Key, ref entryRef) {
	s.corrupt.Add(1)
	s.index.forget(key, ref)
}

// used counts a hit and refreshes the pack's recency for the trim, at
// most once an hour and once a process.
func (s *Store) used(ref entryRef) {
	s.hits.Add(1)
	p := ref.pack
	if now := time.Now(); now.Sub(p.mod) > s.touchAfter && p.touched.CompareAndSwap(false, true) {
		// A pack removed meanwhile is no matter.
		_ = os.Chtimes(p.path, now, now)
	}
}

// Save stores nodes, the tree of a source of srcLen bytes, under key, in
// the pack this Store is filling (other processes find it once the pack
// is finished: see the package documentation). Trees that cannot be
// stored are passed over without error.
func (s *Store) Save(key Key, srcLen int, nodes []host.Node) error {
	b, ok := encode(entryBufs.Get(encodedSize(len(nodes)))[:0], key, srcLen, nodes)
	defer entryBufs.Put(b)
	if !ok {
		return nil
	}
	return s.save(key, b)
}

// save adds the entry b of key to the pack being filled, finishing it when
// it is full, and trims the store when this Store wrote a sixteenth of its
// limit since the last trim.
func (s *Store) save(key Key, b []byte) error {
	s.wmu.Lock()
	err := s.addLocked(key, b)
	if err == nil && s.w.off >= min(maxPack, s.limit/16) {
		err = s.finishLocked()
	}
	s.wmu.Unlock()
	if err != nil {
		s.failed.Add(1)
		return fmt.Errorf("tree cache: %w", err)
	}
	s.saves.Add(1)
	s.wrote.Store(true)
	if s.written.Add(int64(len(b))) >= s.limit/16 && s.trimming.TryLock() {
		defer s.trimming.Unlock()
		return s.trimLocked()
	}
	return nil
}

// addLocked adds an entry to the pack being filled, beginning one if
// there is none; s.wmu is held.
func (s *Store) addLocked(key Key, b []byte) error {
	if s.w == nil {
		f, err := s.createTemp()
		if err != nil {
			return err
		}
		s.w = &packWriter{p: &packFile{path: f.Name(), f: f, mod: time.Now()}}
	}
	ref, err := s.w.add(key, b)
	if err != nil {
		s.w.abandon()
		s.w = nil
		return err
	}
	s.index.add(key, ref)
	return nil
}

// createTemp creates a file under a temporary name in the store's folder,
// making the folder again if it was removed (a Clear, by another process).
func (s *Store) createTemp() (*os.File, error) {
	f, err := os.CreateTemp(s.dir, tempPrefix+"*")
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(s.dir, 0o700); err == nil {
			f, err = os.CreateTemp(s.dir, tempPrefix+"*")
		}
	}
	return f, err
}

// finishLocked finishes the pack being filled, if any; s.wmu is held.
func (s *Store) finishLocked() error {
	w := s.w
	if w == nil {
		return nil
	}
	s.w = nil
	if err := w.finish(s.dir); err != nil {
		w.abandon()
		return err
	}
	return nil
}

// Flush finishes the pack being filled, so that other processes find its
// entries.
func (s *Store) Flush() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if err := s.finishLocked(); err != nil {
		return fmt.Errorf("tree cache: %w", err)
	}
	return nil
}

// Close finishes the pack being filled (Flush) and trims the store if
// this Store wrote to it: always when it wrote a sixty-fourth of the limit
// since the last trim, else when no trim ran for a minute (a mark file in
// the store records the last one). The Store may be used afterwards.
func (s *Store) Close() error {
	if err := s.Flush(); err != nil {
		return err
	}
	if !s.wrote.Load() {
		return nil
	}
	if s.written.Load() < s.limit/64 {
		if fi, err := os.Stat(s.markFile()); err == nil && time.Since(fi.ModTime()) < trimEvery {
			return nil
		}
	}
	s.trimming.Lock()
	defer s.trimming.Unlock()
	return s.trimLocked()
}

// markFile is touched at every trim.
func (s *Store) markFile() string { return filepath.Join(s.dir, "trimmed") }

// entry is a file of the store (a pack, or a temporary file) as a trim
// sees it.
type entry struct {
	path string
	size int64
	mod  time.Time
}

// Trim removes the least recently used packs until the store holds at
// most nine tenths of its limit, temporary files older than an hour (left
// by a process that died writing them) and the folders of earlier
// formats. Packs another process removes meanwhile are skipped.
func (s *Store) Trim() error {
	s.trimming.Lock()
	defer s.trimming.Unlock()
	return s.trimLocked()
}

func (s *Store) trimLocked() error {
	s.written.Store(0)
	for _, v := range oldVersions {
		if err := os.RemoveAll(filepath.Join(s.root, v)); err != nil {
			return fmt.Errorf("tree cache trim: %w", err)
		}
	}
	entries, err := s.list(true)
	if err != nil {
		return err
	}
	var total int64
	for _, e := range entries {
		total += e.size
	}
	if total > s.limit {
		slices.SortFunc(entries, func(a, b entry) int { return a.mod.Compare(b.mod) })
		for _, e := range entries {
			if total <= s.limit/10*9 {
				break
			}
			if !strings.HasSuffix(e.path, packSuffix) {
				continue // being written, or stale (removed by list)
			}
			if err := os.Remove(e.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("tree cache trim: %w", err)
			}
			total -= e.size
		}
	}
	now := time.Now()
	if err := os.Chtimes(s.markFile(), now, now); errors.Is(err, fs.ErrNotExist) {
		if f, err := os.Create(s.markFile()); err == nil {
			f.Close()
		}
	}
	return nil
}

// list returns the store's packs and temporary files; with clean, it
// removes stale temporary files instead of listing them.
func (s *Store) list(clean bool) ([]entry, error) {
	files, err := os.ReadDir(s.dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("tree cache: %w", err)
	}
	var out []entry
	for _, f := range files {
		name := f.Name()
		if !strings.HasPrefix(name, tempPrefix) && !strings.HasSuffix(name, packSuffix) {
			continue
		}
		fi, err := f.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue // removed meanwhile
		}
		path := filepath.Join(s.dir, name)
		if clean && strings.HasPrefix(name, tempPrefix) && time.Since(fi.ModTime()) > staleTemp {
			os.Remove(path)
			continue
		}
		out = append(out, entry{path: path, size: fi.Size(), mod: fi.ModTime()})
	}
	return out, nil
}

// Usage is what a store holds.
type Usage struct {
	Entries int   // entries in packs
	Bytes   int64 // the size of the packs and temporary files
}

// Usage counts the store's entries and bytes.
func (s *Store) Usage() (Usage, error) {
	files, err := s.list(false)
	if err != nil {
		return Usage{}, err
	}
	var u Usage
	for _, e := range files {
		u.Bytes += e.size
		if p, idx, err := readPack(e.path); err == nil {
			u.Entries += len(idx)
			p.f.Close()
		}
	}
	return u, nil
}

// Clear removes every pack, this Store's unfinished one included, and the
// folders of earlier formats. Processes using the store meanwhile lose
// their entries too, and go on parsing.
func (s *Store) Clear() error {
	s.wmu.Lock()
	if s.w != nil {
		s.w.abandon()
		s.w = nil
	}
	s.wmu.Unlock()
	s.index.reset()
	for _, v := range append([]string{version}, oldVersions...) {
		if err := os.RemoveAll(filepath.Join(s.root, v)); err != nil {
			return fmt.Errorf("tree cache clear: %w", err)
		}
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("tree cache: %w", err)
	}
	return nil
}

// Stats counts a Store's traffic in this process.
type Stats struct {
	Hits, Misses int64 // Loads that found a valid entry, and that found none
	Corrupt      int64 // Loads that found an entry that did not check out
	Saves        int64 // entries written (to a pack, finished or not)
	Failed       int64 // entries that could not be written
}

// Stats returns the Store's counters.
func (s *Store) Stats() Stats {
	return Stats{Hits: s.hits.Load(), Misses: s.misses.Load(), Corrupt: s.corrupt.Load(), Saves: s.saves.Load(), Failed: s.failed.Load()}
}

// entryBufs recycles entry buffers between Loads and Saves.
var entryBufs = slicepool.Pool[byte]{Bytes: 512 << 10, Slices: 8, Max: 256 << 10}
