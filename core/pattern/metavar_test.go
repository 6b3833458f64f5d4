package pattern

import "testing"

func TestPreprocess(t *testing.T) {
	tests := []struct {
		src     string
		expando rune
		want    string
	}{
		{"$A", 'µ', "µA"},
		{"$$A", 'µ', "µµA"},
		{"$$$A", 'µ', "µµµA"},
		{"$$$", 'µ', "µµµ"},
		{"f($$$)", 'µ', "f(µµµ)"},
		{"$_", 'µ', "µ_"},
		{"$$$_X", 'µ', "µµµ_X"},
		{"$a", 'µ', "$a"},               // lower case: not a metavariable
		{"$1", 'µ', "$1"},               // digit first: not a metavariable
		{"$this->$M", 'µ', "$this->µM"}, // PHP variables keep their $
		{"$$", 'µ', "$$"},               // a trailing run replaced only when it is $$$
		{"$$$$", 'µ', "$$$$"},
		{"a $$$$A", 'µ', "a µµµµA"}, // every $ of a run before a capital
		{"$A", '$', "$A"},           // languages whose expando is $ keep the source
		{"x = $A", '𐀀', "x = 𐀀A"},
		{"no dollars", 'µ', "no dollars"},
	}
	for _, tt := range tests {
		if got := preprocess(tt.src, tt.expando); got != tt.want {
			t.Errorf("preprocess(%q, %q) = %q, want %q", tt.src, tt.expando, got, tt.want)
		}
	}
}

func TestParseMetaVar(t *testing.T) {
	tests := []struct {
		text  string
		kind  metaVar
		name  string
		named bool
	}{
		{"$A", capture, "A", true},
		{"$ABC_1", capture, "ABC_1", true},
		{"$$A", capture, "A", false},
		{"$_", dropped, "", true},
		{"$_X", dropped, "", true},
		{"$$_X", dropped, "", false},
		{"$$$", multiple, "", false},
		{"$$$_", multiple, "", false},
		{"$$$_REST", multiple, "", false},
		{"$$$ARGS", multiCapture, "ARGS", false},
		{"$$$1", multiCapture, "1", false},
		{"$1", notMetaVar, "", false},
		{"$", notMetaVar, "", false},
		{"$$", notMetaVar, "", false},
		{"$a", notMetaVar, "", false},
		{"$A.b", notMetaVar, "", false},
		{"$$$a", notMetaVar, "", false},
		{"$$$$A", notMetaVar, "", false},
		{"A", notMetaVar, "", false},
		{"", notMetaVar, "", false},
	}
	for _, tt := range tests {
		kind, name, named := parseMetaVar(tt.text, '$')
		if kind != tt.kind || name != tt.name || (kind == capture || kind == dropped) && named != tt.named {
			t.Errorf("parseMetaVar(%q) = %v %q %v, want %v %q %v", tt.text, kind, name, named, tt.kind, tt.name, tt.named)
		}
	}
	// The expando character spells metavariables in its languages.
	if kind, name, _ := parseMetaVar("µµµARGS", 'µ'); kind != multiCapture || name != "ARGS" {
		t.Errorf("parseMetaVar(µµµARGS, µ) = %v %q", kind, name)
	}
	if kind, _, _ := parseMetaVar("$A", 'µ'); kind != notMetaVar {
		t.Errorf("parseMetaVar($A, µ) = %v, want no metavariable", kind)
	}
}

func TestStrictnessNames(t *testing.T) {
	for _, name := range []string{"cst", "smart", "ast", "relaxed", "signature", "template"} {
		s, err := ParseStrictness(name)
		if err != nil || s.String() != name {
			t.Errorf("ParseStrictness(%q) = %v, %v", name, s, err)
		}
	}
	if _, err := ParseStrictness("strict"); err == nil {
		t.Error("ParseStrictness(strict) succeeded")
	}
	var zero Strictness
	if zero != Smart {
		t.Errorf("zero Strictness is %v, want smart", zero)
	}
}
