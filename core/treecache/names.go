package treecache

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/loupe-dev/loupe/host"
)

// A grammar's name table is kept in a file of its own, so that a process
// whose trees all come from the store need not load the grammar module to
// build them (see language.SetNameStore), and need not wait for the
// packs' indexes either: a rule's kinds are named before any file is
// read. The file holds a tree entry's header (its own magic, its key, the
// source length and node count 0) and, as payload, the table as a
// module's loupe_names lays it out (decoded by host.DecodeNames).
const namesMagic = "LTN\x01"

// namesTag is hashed into a name table's key, so that it is never the key
// of a tree.
const namesTag = "loupe tree cache names 1\x00"

// namesSuffix ends the name of a name table's file.
const namesSuffix = ".names"

// namesKey returns the key of the name table of the grammar module whose
// hash is grammar.
func namesKey(grammar string) Key {
	return sha256.Sum256([]byte(namesTag + grammar))
}

// namesPath returns the file of the name table whose key is key.
func (s *Store) namesPath(key Key) string {
	return filepath.Join(s.dir, hex.EncodeToString(key[:16])+namesSuffix)
}

// LoadNames returns the name table saved for the grammar module whose hash
// is grammar, or false when there is none or it does not check out.
func (s *Store) LoadNames(grammar string) (*host.Names, bool) {
	key := namesKey(grammar)
	b, err := os.ReadFile(s.namesPath(key))
	if err != nil {
		return nil, false
	}
	names, err := decodeNames(b, key)
	return names, err == nil
}

// SaveNames saves names, the table of the grammar module whose hash is
// grammar: written whole under a temporary name and renamed, as a pack
// is, so that a reader finds the table before, the table after, or none.
func (s *Store) SaveNames(grammar string, names *host.Names) error {
	key := namesKey(grammar)
	b, ok := encodeNames(nil, key, names)
	if !ok {
		return fmt.Errorf("tree cache: a name table of %d symbols does not fit an entry", len(names.Symbols))
	}
	f, err := s.createTemp()
	if err != nil {
		return fmt.Errorf("tree cache: %w", err)
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), s.namesPath(key))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("tree cache: %w", err)
	}
	return nil
}

// encodeNames appends the entry of names under key to buf. It reports
// false for a table the layout cannot hold (a name over 65,535 bytes,
// flags missing).
func encodeNames(buf []byte, key Key, names *host.Names) ([]byte, bool) {
	if len(names.Named) != len(names.Symbols) || len(names.Visible) != len(names.Symbols) || len(names.Fields) == 0 {
		return buf, false
	}
	for _, n := range append(names.Symbols[:len(names.Symbols):len(names.Symbols)], names.Fields...) {
		if len(n) > 0xffff {
			return buf, false
		}
	}
	le := binary.LittleEndian
	buf = append(buf, make([]byte, headerSize)...)
	buf = le.AppendUint32(buf, uint32(len(names.Symbols)))
	buf = le.AppendUint32(buf, uint32(len(names.Fields)-1))
	for i, sym := range names.Symbols {
		var flags byte
		if names.Named[i] {
			flags |= 1
		}
		if names.Visible[i] {
			flags |= 2
		}
		buf = append(buf, flags)
		buf = le.AppendUint16(buf, uint16(len(sym)))
		buf = append(buf, sym...)
	}
	for _, f := range names.Fields[1:] {
		buf = le.AppendUint16(buf, uint16(len(f)))
		buf = append(buf, f...)
	}
	h := buf[:headerSize]
	copy(h, namesMagic)
	copy(h[offKey:], key[:])
	le.PutUint64(h[offPayload:], uint64(len(buf)-headerSize))
	le.PutUint32(h[offCRC:], checksum(buf))
	return buf, true
}

// decodeNames checks that b is a whole, unaltered name table entry of key
// and returns the table.
func decodeNames(b []byte, key Key) (*host.Names, error) {
	if len(b) < headerSize || string(b[:len(namesMagic)]) != namesMagic || Key(b[offKey:offSrcLen]) != key {
		return nil, errCorrupt
	}
	le := binary.LittleEndian
	if le.Uint64(b[offPayload:]) != uint64(len(b)-headerSize) || le.Uint32(b[offCRC:]) != checksum(b) {
		return nil, errCorrupt
	}
	names, err := host.DecodeNames(b[headerSize:])
	if err != nil || len(names.Symbols) == 0 {
		return nil, errCorrupt
	}
	return names, nil
}
