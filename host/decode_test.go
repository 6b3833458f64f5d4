package host

import (
	"encoding/binary"
	"errors"
	"reflect"
	"testing"
)

// encodeNodes writes nodes in the module's little-endian layout.
func encodeNodes(nodes []Node) []byte {
	le := binary.LittleEndian
	b := make([]byte, len(nodes)*NodeSize)
	for i, n := range nodes {
		r := b[i*NodeSize:]
		le.PutUint16(r[0:], n.Symbol)
		le.PutUint16(r[2:], n.Field)
		le.PutUint32(r[4:], n.Flags)
		le.PutUint32(r[8:], n.StartByte)
		le.PutUint32(r[12:], n.EndByte)
		le.PutUint32(r[16:], n.ChildCount)
		le.PutUint32(r[20:], n.SubtreeSize)
	}
	return b
}

var sampleNodes = []Node{
	{Symbol: 7, Flags: FlagNamed | FlagHasError, StartByte: 0, EndByte: 12, ChildCount: 2, SubtreeSize: 3},
	{Symbol: 3, Field: 2, Flags: FlagNamed, StartByte: 0, EndByte: 5, SubtreeSize: 1},
	{Symbol: 0xFFFF, Flags: FlagError | FlagNamed | FlagHasError, StartByte: 6, EndByte: 12, SubtreeSize: 1},
}

func TestDecodeNodes(t *testing.T) {
	b := encodeNodes(sampleNodes)
	tests := []struct {
		name    string
		b       []byte
		n       int
		want    []Node
		wantErr bool
	}{
		{"all", b, 3, sampleNodes, false},
		{"prefix", b, 2, sampleNodes[:2], false},
		{"extra bytes", append(append([]byte{}, b...), 1, 2, 3), 3, sampleNodes, false},
		{"none", nil, 0, []Node{}, false},
		{"short", b[:len(b)-1], 3, nil, true},
		{"negative", b, -1, nil, true},
		{"too many", b, 4, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeNodes(tt.b, tt.n)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestDecodeNodesPortable checks the byte-by-byte decoder, which big-endian
// hosts use, against the same records.
func TestDecodeNodesPortable(t *testing.T) {
	got := make([]Node, len(sampleNodes))
	decodePortable(encodeNodes(sampleNodes), got)
	if !reflect.DeepEqual(got, sampleNodes) {
		t.Errorf("got %+v\nwant %+v", got, sampleNodes)
	}
}

// nameTable builds a name table as loupe_names does.
func nameTable(symbols []string, flags []byte, fields []string) []byte {
	le := binary.LittleEndian
	b := le.AppendUint32(nil, uint32(len(symbols)))
	b = le.AppendUint32(b, uint32(len(fields)))
	for i, s := range symbols {
		b = append(b, flags[i])
		b = le.AppendUint16(b, uint16(len(s)))
		b = append(b, s...)
	}
	for _, f := range fields {
		b = le.AppendUint16(b, uint16(len(f)))
		b = append(b, f...)
	}
	return b
}

func TestDecodeNames(t *testing.T) {
	table := nameTable(
		[]string{"end", "identifier", "(", "_hidden", "größe"},
		[]byte{0, 3, 2, 0, 3},
		[]string{"name", "body"},
	)
	want := &Names{
		Symbols: []string{"end", "identifier", "(", "_hidden", "größe"},
		Named:   []bool{false, true, false, false, true},
		Visible: []bool{false, true, true, false, true},
		Fields:  []string{"", "name", "body"},
	}
	got, err := DecodeNames(append(table, 0xde, 0xad)) // module memory goes on
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}

	// Every truncation of the table is an error, never a panic.
	for i := range table {
		if _, err := DecodeNames(table[:i]); !errors.Is(err, errNames) {
			t.Errorf("truncated at %d: err = %v", i, err)
		}
	}

	empty, err := DecodeNames(nameTable(nil, nil, nil))
	if err != nil || len(empty.Symbols) != 0 || !reflect.DeepEqual(empty.Fields, []string{""}) {
		t.Errorf("empty table: %+v, %v", empty, err)
	}
}

func TestDecodeNamesMalformed(t *testing.T) {
	le := binary.LittleEndian
	huge := func(nsym, nfield uint32) []byte {
		return le.AppendUint32(le.AppendUint32(nil, nsym), nfield)
	}
	tests := []struct {
		name string
		b    []byte
	}{
		{"too many symbols", huge(1<<16+1, 0)},
		{"too many fields", huge(1, 1<<16)},
		{"symbols promised, none there", huge(1000, 0)},
		{"length past the end", append(huge(1, 0), 3, 0xff, 0xff, 'a')},
		{"field length past the end", append(huge(0, 1), 5, 0, 'a')},
	}
	for _, tt := range tests {
		if _, err := DecodeNames(tt.b); !errors.Is(err, errNames) {
			t.Errorf("%s: err = %v, want a malformed-table error", tt.name, err)
		}
	}
}

func TestCodeError(t *testing.T) {
	tests := []struct {
		code int32
		want error
	}{
		{-1, ErrOutOfMemory},
		{-2, ErrBadModule},
	}
	for _, tt := range tests {
		if err := CodeError(tt.code); !errors.Is(err, tt.want) {
			t.Errorf("CodeError(%d) = %v, want %v", tt.code, err, tt.want)
		}
	}
	for _, code := range []int32{-3, -99} {
		err := CodeError(code)
		if err == nil || errors.Is(err, ErrOutOfMemory) || errors.Is(err, ErrBadModule) {
			t.Errorf("CodeError(%d) = %v", code, err)
		}
	}
}
