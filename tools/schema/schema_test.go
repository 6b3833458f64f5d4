package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

type sample struct {
	Mode    string   `json:"mode" desc:"what to do" enum:"a,b"`
	Depth   int      `json:"depth,omitempty" min:"1" max:"5" default:"1"`
	Globs   []string `json:"globs,omitempty"`
	Rule    any      `json:"rule,omitempty"`
	Reverse bool     `json:"reverse,omitempty"`
	Skip    string   `json:"-"`
	hidden  int
}

func TestFor(t *testing.T) {
	got, err := json.Marshal(For(&sample{}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"additionalProperties":false,"properties":{"depth":{"default":1,"maximum":5,"minimum":1,"type":"integer"},"globs":{"items":{"type":"string"},"type":"array"},"mode":{"description":"what to do","enum":["a","b"],"type":"string"},"reverse":{"type":"boolean"},"rule":{"anyOf":[{"type":"object"},{"type":"string"}]}},"required":["mode"],"type":"object"}`
	if string(got) != want {
		t.Errorf("schema:\n got %s\nwant %s", got, want)
	}
}

func TestForRejectsNonStruct(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("For(int) did not panic")
		}
	}()
	For(3)
}

func TestPointerFieldDefault(t *testing.T) {
	type params struct {
		Exact *bool `json:"exact,omitempty" default:"true"`
		Lines *int  `json:"lines,omitempty" default:"2"`
	}
	got, err := json.Marshal(For(params{}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"additionalProperties":false,"properties":{"exact":{"default":true,"type":"boolean"},"lines":{"default":2,"type":"integer"}},"type":"object"}`
	if string(got) != want {
		t.Errorf("schema:\n got %s\nwant %s", got, want)
	}
}

func TestTerse(t *testing.T) {
	type Item struct {
		Kind string `json:"kind" enum:"a,b" desc:"what it is"`
	}
	type Out struct {
		Items []Item `json:"items" desc:"the answer"`
		Total int    `json:"total,omitempty" min:"0" desc:"how many"`
	}
	full := For(Out{})
	terse := Terse(full)
	b, err := json.Marshal(terse)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, gone := range []string{"description", "required", "additionalProperties"} {
		if strings.Contains(got, gone) {
			t.Errorf("%s is left: %s", gone, got)
		}
	}
	for _, want := range []string{`"enum":["a","b"]`, `"minimum":0`, `"items":{"properties":{"kind"`} {
		if !strings.Contains(got, want) {
			t.Errorf("terse schema lacks %s: %s", want, got)
		}
	}
	if b, _ := json.Marshal(full); !strings.Contains(string(b), "the answer") {
		t.Errorf("Terse changed the schema it was given: %s", b)
	}
}

func TestEmbedded(t *testing.T) {
	type paging struct {
		Offset int `json:"offset,omitempty" min:"0" desc:"skip"`
		Limit  int `json:"limit" desc:"how many"`
	}
	type Params struct {
		Name string `json:"name"`
		paging
	}
	b, err := json.Marshal(For(Params{}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"additionalProperties":false,"properties":{"limit":{"description":"how many","type":"integer"},"name":{"type":"string"},"offset":{"description":"skip","minimum":0,"type":"integer"}},"required":["name","limit"],"type":"object"}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	// encoding/json reads the same names into the embedded fields.
	var p Params
	if err := json.Unmarshal([]byte(`{"name":"a","offset":3,"limit":2}`), &p); err != nil || p.Offset != 3 || p.Limit != 2 {
		t.Errorf("decoded %+v, %v", p, err)
	}
}
