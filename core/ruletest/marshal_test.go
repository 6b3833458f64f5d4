package ruletest

import (
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestMarshalRoundTrip: a snapshot file reads back as it was written, and
// as ast-grep reads it. A label's source that starts with a line break or
// spaces needs a block scalar's indentation indicator; in the value of a
// multi-line snippet (a complex key) the encoder used to indent such a
// source two spaces short of what the indicator says, so the source read
// back two spaces short on every line and the test failed on the
// snapshots `test -U` had just written (seen on the CMake rules of
// assignUser/ast-grep-cmake-precommit).
func TestMarshalRoundTrip(t *testing.T) {
	fixed := "  f(\n    x)\n"
	msg := " note"
	for _, key := range []string{"f(x)", "add_custom_command(\n    OUTPUT generated.h\n)\n", "a\n  b", " lead\n"} {
		for _, src := range []string{"\n    OUTPUT generated.h\n    DEPENDS input.txt\n", "  two\nlines", "\n  a\n", " x", "plain", "a\n\n  b\n", "123", "true", "~", "", "- x", "a: b", "\ttab\n"} {
			sf := SnapshotFile{ID: "r", Snapshots: map[string]Snapshot{key: {
				Fixed: &fixed,
				Labels: []Label{
					{Source: key, Style: "primary", Start: 0, End: len(key)},
					{Source: src, Message: &msg, Style: "secondary", Start: 1, End: 2},
				},
			}}}
			data, err := Marshal(sf)
			if err != nil {
				t.Errorf("key %q, source %q: %v", key, src, err)
				continue
			}
			var back SnapshotFile
			if err := yaml.Unmarshal(data, &back); err != nil {
				t.Errorf("key %q, source %q: %v\n%s", key, src, err, data)
				continue
			}
			got, ok := back.Snapshots[key]
			if !ok || !got.Equal(sf.Snapshots[key]) {
				t.Errorf("key %q, source %q: read back as %+v\n%s", key, src, back.Snapshots, data)
			}
		}
	}
}
