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
// Several processes may use one store at once, without locks: an entry is
// written to a temporary file and renamed into place, so a reader sees a
// whole entry or none, and each entry carries its key, its source's length
// and a CRC-32C of its bytes, so a torn or altered entry is refused (the
// caller parses again and overwrites it), never trusted. The store is
// bounded: a process that wrote to it trims it, removing the least recently
// used entries (by modification time, which a use refreshes at most once an
// hour) until it is under nine tenths of its limit; a trim tolerates
// entries another process removes meanwhile.
package treecache

import (
	"encoding/hex"
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

// version is the folder of the store that holds this format's entries.
const version = "v2"

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
	dir   string // root/version, which holds the shard folders
	limit int64
	// touchAfter is how old an entry's time may get before a Load
	// refreshes it.
	touchAfter time.Duration

	written  atomic.Int64 // entry bytes written since the last trim
	wrote    atomic.Bool  // whether this Store wrote any entry
	trimming sync.Mutex
	shards   sync.Map // shard folders known to exist

	hits, misses, corrupt, saves, failed atomic.Int64
}

// Open opens (creating it if needed) the store in dir, bounded to limit
// bytes of entries.
func Open(dir string, limit int64) (*Store, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("tree cache %s: limit %d is not positive", dir, limit)
	}
	s := &Store{root: dir, dir: filepath.Join(dir, version), limit: limit, touchAfter: time.Hour}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("tree cache: %w", err)
	}
	return s, nil
}

// Dir returns the folder the store was opened on.
func (s *Store) Dir() string { return s.root }

// Limit returns the store's size bound in bytes.
func (s *Store) Limit() int64 { return s.limit }

// path returns the file of key's entry: a folder per first byte keeps
// folders small.
func (s *Store) path(key Key) (shard, file string) {
	h := hex.EncodeToString(key[:])
	shard = filepath.Join(s.dir, h[:2])
	return shard, filepath.Join(shard, h[2:])
}

// Load returns the tree stored under key for src, built over src with
// names, or false when there is no such entry or it does not check out (a
// torn, truncated or altered file is never trusted).
func (s *Store) Load(key Key, src []byte, names *host.Names) (*tree.Tree, bool) {
	_, file := s.path(key)
	b, mod, err := readEntry(file)
	if err != nil {
		s.misses.Add(1)
		return nil, false
	}
	t, err := decode(b, key, src, names)
	entryBufs.Put(b)
	if err != nil {
		s.corrupt.Add(1)
		return nil, false
	}
	if now := time.Now(); now.Sub(mod) > s.touchAfter {
		// Recency for the trim; an entry removed meanwhile is no matter.
		_ = os.Chtimes(file, now, now)
	}
	s.hits.Add(1)
	return t, true
}

// midWrite, when set (by tests only), is called once half of an entry is
// written, before the rest is.
var midWrite func()

// Save stores nodes, the tree of a source of srcLen bytes, under key. The
// entry is written whole to a temporary file and renamed into place, so
// concurrent readers see the old entry, the new one or none. Trees that
// cannot be stored are passed over without error.
func (s *Store) Save(key Key, srcLen int, nodes []host.Node) error {
	b, ok := encode(entryBufs.Get(encodedSize(len(nodes)))[:0], key, srcLen, nodes)
	defer entryBufs.Put(b)
	if !ok {
		return nil
	}
	shard, file := s.path(key)
	if err := s.write(shard, file, b); err != nil {
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

// write writes b to a temporary file in shard and renames it to file.
func (s *Store) write(shard, file string, b []byte) error {
	f, err := s.createTemp(shard)
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = writeAll(f, b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, file)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// createTemp creates a temporary file in shard, making the folder first
// if it was not seen yet (or was removed by a Clear since).
func (s *Store) createTemp(shard string) (*os.File, error) {
	if _, ok := s.shards.Load(shard); ok {
		if f, err := os.CreateTemp(shard, tempPrefix+"*"); err == nil || !errors.Is(err, fs.ErrNotExist) {
			return f, err
		}
	}
	if err := os.MkdirAll(shard, 0o700); err != nil {
		return nil, err
	}
	s.shards.Store(shard, true)
	return os.CreateTemp(shard, tempPrefix+"*")
}

// writeAll writes b to f, calling midWrite halfway when it is set.
func writeAll(f *os.File, b []byte) error {
	if midWrite != nil {
		if _, err := f.Write(b[:len(b)/2]); err != nil {
			return err
		}
		midWrite()
		b = b[len(b)/2:]
	}
	_, err := f.Write(b)
	return err
}

// Close trims the store if this Store wrote to it: always when it wrote a
// sixty-fourth of the limit since the last trim, else when no trim ran
// for a minute (a mark file in the store records the last one). It does
// not stop the Store from being used.
func (s *Store) Close() error {
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

// entry is a file of the store as a trim sees it.
type entry struct {
	path string
	size int64
	mod  time.Time
}

// Trim removes the least recently used entries until the store holds at
// most nine tenths of its limit, and temporary files older than an hour
// (left by a process that died writing them). Entries another process
// removes meanwhile are skipped.
func (s *Store) Trim() error {
	s.trimming.Lock()
	defer s.trimming.Unlock()
	return s.trimLocked()
}

func (s *Store) trimLocked() error {
	s.written.Store(0)
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

// list returns the store's entries and temporary files; with clean, it
// removes stale temporary files instead of listing them.
func (s *Store) list(clean bool) ([]entry, error) {
	shards, err := os.ReadDir(s.dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("tree cache: %w", err)
	}
	var out []entry
	for _, sh := range shards {
		if !sh.IsDir() {
			continue
		}
		dir := filepath.Join(s.dir, sh.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			continue // removed meanwhile
		}
		for _, f := range files {
			fi, err := f.Info()
			if err != nil || !fi.Mode().IsRegular() {
				continue // removed meanwhile
			}
			path := filepath.Join(dir, f.Name())
			if clean && strings.HasPrefix(f.Name(), tempPrefix) && time.Since(fi.ModTime()) > staleTemp {
				os.Remove(path)
				continue
			}
			out = append(out, entry{path: path, size: fi.Size(), mod: fi.ModTime()})
		}
	}
	return out, nil
}

// Usage is what a store holds.
type Usage struct {
	Entries int   // entries, temporary files included
	Bytes   int64 // their size
}

// Usage counts the store's entries and bytes.
func (s *Store) Usage() (Usage, error) {
	entries, err := s.list(false)
	if err != nil {
		return Usage{}, err
	}
	u := Usage{Entries: len(entries)}
	for _, e := range entries {
		u.Bytes += e.size
	}
	return u, nil
}

// Clear removes every entry. Processes using the store meanwhile lose
// their entries too, and go on parsing.
func (s *Store) Clear() error {
	shards, err := os.ReadDir(s.dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("tree cache: %w", err)
	}
	for _, sh := range shards {
		if err := os.RemoveAll(filepath.Join(s.dir, sh.Name())); err != nil {
			return fmt.Errorf("tree cache clear: %w", err)
		}
	}
	s.shards.Clear()
	return nil
}

// Stats counts a Store's traffic in this process.
type Stats struct {
	Hits, Misses int64 // Loads that found a valid entry, and that found none
	Corrupt      int64 // Loads that found an entry that did not check out
	Saves        int64 // entries written
	Failed       int64 // entries that could not be written
}

// Stats returns the Store's counters.
func (s *Store) Stats() Stats {
	return Stats{Hits: s.hits.Load(), Misses: s.misses.Load(), Corrupt: s.corrupt.Load(), Saves: s.saves.Load(), Failed: s.failed.Load()}
}

// entryBufs recycles entry buffers between Loads and Saves.
var entryBufs = slicepool.Pool[byte]{Bytes: 512 << 10, Slices: 8, Max: 256 << 10}
