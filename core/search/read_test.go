package search

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadAll: whatever size Stat said, the whole content is read, into
// the buffer given when the size was right.
func TestReadAll(t *testing.T) {
	content := strings.Repeat("0123456789", 1000)
	tests := []struct {
		name string
		rd   io.Reader
		size int64
		want string
		err  bool
	}{
		{"exact size", strings.NewReader(content), int64(len(content)), content, false},
		{"grew since Stat", strings.NewReader(content), 10, content, false},
		{"shrank since Stat", strings.NewReader(content[:5]), int64(len(content)), content[:5], false},
		{"empty", strings.NewReader(""), 0, "", false},
		{"a byte at a time", iotest.OneByteReader(strings.NewReader(content)), 3, content, false},
		{"error midway", io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(errors.New("bad disk"))), 10, "abc", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(tt.rd, make([]byte, 0, tt.size+1))
			if (err != nil) != tt.err || !bytes.Equal(got, []byte(tt.want)) {
				t.Errorf("readAll = %d bytes, %v; want %d bytes, error %v", len(got), err, len(tt.want), tt.err)
			}
		})
	}
	rd := strings.NewReader(content)
	buf := make([]byte, 0, len(content)+1)
	if n := testing.AllocsPerRun(10, func() {
		rd.Reset(content)
		readAll(rd, buf)
	}); n > 0 {
		t.Errorf("%v allocations for a file of the size said, want none", n)
	}
}
