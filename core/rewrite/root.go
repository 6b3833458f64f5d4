package rewrite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/internal/safefs"
)

// tempMarker sits between a file's name and the random digits of the
// temporary file that WriteFile, ReplaceFileIn and CreateFileIn write
// before renaming it into place: ".NAME.loupe-DIGITS".
const tempMarker = ".loupe-"

// StaleTemp is the age past which a temporary file of an atomic write is
// taken for one left by a killed writer (a write renames its temporary
// file within moments of making it) and removed by the next write into
// its directory.
const StaleTemp = time.Minute

// IsTempName reports whether name (a base name) is one of the temporary
// files an atomic write creates next to its target, ".NAME.loupe-DIGITS".
// Such a file outlives its write only when the writing process is killed
// between creating and renaming it; tools that list files skip it, and
// the next write into its directory removes it once it is StaleTemp old.
func IsTempName(name string) bool {
	if !strings.HasPrefix(name, ".") {
		return false
	}
	i := strings.LastIndex(name, tempMarker)
	if i < 2 {
		return false
	}
	digits := name[i+len(tempMarker):]
	if digits == "" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ErrChanged is returned (wrapped) by ReplaceFileIn when the file no
// longer holds the content the new one was made from, other than by
// growing at its end: nothing is written.
var ErrChanged = errors.New("the file changed while it was written")

// ErrHardLinked is returned (wrapped) by ReplaceFileIn for a file with
// more than one hard link: replacing it would split it from the others,
// writing it in place would change them all and could be torn by a
// kill. Nothing is written.
var ErrHardLinked = errors.New("the file has other hard links")

// ErrOwner is returned (wrapped) by ReplaceFileIn when the new file
// cannot be given the old one's owner and group (another user's file,
// written by a user who may not give files away): nothing is written.
var ErrOwner = errors.New("the file's owner and group cannot be kept")

// Replaced tells what else happened to a file ReplaceFileIn replaced.
type Replaced struct {
	// Carried counts the bytes another process appended to the file while
	// it was written; they were moved to the end of the new file.
	Carried int64
	// StillOpen is set when another process still had the old file open
	// for writing when the write ended: what it writes to it from then on
	// is not in the file.
	StillOpen bool
	// Lost is set when another process changed the old file other than by
	// appending once the write had checked it: that change is not in the
	// new file.
	Lost bool
}

// leaseRounds bounds how many times ReplaceFileIn waits (a millisecond
// each) for another process to close the old file before it reports
// StillOpen.
const leaseRounds = 100

// ReplaceFileIn replaces the existing regular file name (relative to
// root) with data atomically, as WriteFile does, with every path opened
// through root so that nothing outside it is touched whatever is swapped
// in under it meanwhile: data goes to a temporary file in the same
// directory with the original's mode (special bits included), owner and
// group, is synced, then renamed over the original. A reader, or a kill
// at any moment, sees the old content or the new, never a mix. A
// symbolic link at name is refused (resolve it first), so a link swapped
// in is never followed; so is a file with other hard links
// (ErrHardLinked) and one whose owner cannot be kept (ErrOwner).
//
// old is the content data was made from. The file must still hold it
// just before the rename (ErrChanged otherwise); what another process
// appended to it meanwhile, or appends to the old file until it closes
// it, is moved to the end of the new file and counted in the Replaced.
func ReplaceFileIn(root *safefs.Root, name string, old, data []byte) (Replaced, error) {
	var rep Replaced
	fi, err := root.Lstat(name)
	if err != nil {
		return rep, fmt.Errorf("update %s: %w", name, err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return rep, fmt.Errorf("update %s: is a symbolic link", name)
	case !fi.Mode().IsRegular():
		return rep, fmt.Errorf("update %s: %w", name, safefs.ErrNotRegular)
	}
	orig, ofi, err := root.OpenRegular(name)
	if err != nil {
		return rep, fmt.Errorf("update %s: %w", name, err)
	}
	defer orig.Close()
	if !os.SameFile(fi, ofi) {
		return rep, fmt.Errorf("update %s: %w", name, ErrChanged)
	}
	if n := links(ofi); n > 1 {
		return rep, fmt.Errorf("update %s: %w (%d links)", name, ErrHardLinked, n)
	}
	if err := writable(func(flag int) (*os.File, error) { return root.OpenFile(name, flag, 0) }, name); err != nil {
		return rep, err
	}
	if _, err := grown(orig, old, int64(len(old))); err != nil {
		return rep, fmt.Errorf("update %s: %w", name, err)
	}
	mode := ofi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	tmp, f, err := createTemp(root, name, 0o600)
	if err != nil {
		return rep, fmt.Errorf("update %s: %w", name, err)
	}
	fail := func(err error) (Replaced, error) {
		f.Close()
		root.Remove(tmp)
		return rep, fmt.Errorf("update %s: %w", name, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	// The owner first: giving a file away clears its set-id bits.
	if err := keepOwner(f, ofi); err != nil {
		return fail(err)
	}
	if err := f.Chmod(mode); err != nil {
		return fail(err)
	}
	// The last look before the rename: the old content still there, and
	// what was appended to it since carried over.
	extra, err := grown(orig, old, int64(len(old)))
	if err != nil {
		return fail(err)
	}
	if len(extra) > 0 {
		if _, err := f.Write(extra); err != nil {
			return fail(err)
		}
		rep.Carried += int64(len(extra))
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	// Once renamed, the new file takes other processes' appends too: what
	// is carried after the rename is appended (O_APPEND), never written
	// over theirs.
	app, err := root.OpenFile(tmp, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fail(err)
	}
	defer app.Close()
	if now, err := root.Lstat(name); err != nil || !os.SameFile(now, ofi) {
		return fail(ErrChanged)
	}
	if err := root.Rename(tmp, name); err != nil {
		return fail(err)
	}
	f.Close()
	err = carry(orig, app, old, &rep)
	if cerr := app.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return rep, fmt.Errorf("update %s: the file was replaced, but what another process appended to it meanwhile could not be kept: %w", name, err)
	}
	return rep, nil
}

// grown reads the open file f, which must start with old: it returns
// what follows from offset from on, or ErrChanged when f no longer
// starts with old.
func grown(f *os.File, old []byte, from int64) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if size < int64(len(old)) {
		return nil, ErrChanged
	}
	now := make([]byte, len(old))
	if _, err := f.ReadAt(now, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if !bytes.Equal(now, old) {
		return nil, ErrChanged
	}
	if size <= from {
		return nil, nil
	}
	extra := make([]byte, size-from)
	n, err := f.ReadAt(extra, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return extra[:n], nil
}

// carry appends to the new file f (open with O_APPEND) what another process appends
// to the replaced file orig until nobody has orig open for writing any
// more (a read lease on it is granted, Linux), or leaseRounds have
// passed (rep.StillOpen). Where no lease can be taken, what was appended
// by the time of the rename is carried.
func carry(orig, f *os.File, old []byte, rep *Replaced) error {
	known := int64(len(old)) + rep.Carried
	for round := 0; ; round++ {
		leased, supported := readLease(orig)
		extra, err := grown(orig, old, known)
		if errors.Is(err, ErrChanged) {
			rep.Lost = true
			extra, err = nil, nil
		}
		if err == nil && len(extra) > 0 {
			_, err = f.Write(extra)
			rep.Carried += int64(len(extra))
			known += int64(len(extra))
		}
		if leased {
			dropLease(orig)
		}
		switch {
		case err != nil:
			return err
		case leased || !supported:
			return f.Sync()
		case round == leaseRounds:
			rep.StillOpen = true
			return f.Sync()
		}
		time.Sleep(time.Millisecond)
	}
}

// CreateFileIn creates the file name (relative to root, its directory
// existing) holding data, atomically: the file appears complete or not at
// all. perm is filtered by the umask as for any new file. If name exists
// the error wraps fs.ErrExist and nothing is changed, also when it is
// created concurrently (the temporary file is hard-linked into place,
// which fails on an existing name; where hard links are unsupported it is
// renamed after a check).
func CreateFileIn(root *safefs.Root, name string, data []byte, perm fs.FileMode) error {
	if _, err := root.Lstat(name); err == nil {
		return fmt.Errorf("create %s: %w", name, fs.ErrExist)
	}
	tmp, f, err := createTemp(root, name, perm)
	if err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	defer root.Remove(tmp)
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	err = root.Link(tmp, name)
	if err == nil {
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create %s: %w", name, fs.ErrExist)
	}
	// No hard links here: check, then rename.
	if _, err := root.Lstat(name); err == nil {
		return fmt.Errorf("create %s: %w", name, fs.ErrExist)
	}
	if err := root.Rename(tmp, name); err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	return nil
}

// createTemp makes a new temporary file next to name, open for writing,
// after removing the stale ones a killed writer left in that directory.
func createTemp(root *safefs.Root, name string, perm fs.FileMode) (string, *os.File, error) {
	dir, base := filepath.Split(name)
	cleanStale(root, filepath.Clean(dir))
	var (
		f   *os.File
		tmp string
		err error
	)
	for range 10000 {
		tmp = dir + "." + base + tempMarker + strconv.FormatUint(uint64(rand.Uint32()), 10)
		f, err = root.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", nil, err
	}
	return tmp, f, nil
}

// cleanStale removes from dir the temporary files of atomic writes older
// than StaleTemp: a write renames its own within moments, so these were
// left by a writer killed in between. Only their names are listed; each
// is described, and removed, relative to the directory's handle.
func cleanStale(root *safefs.Root, dir string) {
	names, err := root.ReadDirNames(dir)
	if err != nil {
		return
	}
	for _, n := range names {
		if !IsTempName(n) {
			continue
		}
		p := filepath.Join(dir, n)
		fi, err := root.Lstat(p)
		if err == nil && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > StaleTemp {
			root.Remove(p)
		}
	}
}
