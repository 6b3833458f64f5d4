package main

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

func TestFlagSet(t *testing.T) {
	fs := newFlagSet("t")
	p := fs.String('p', "pattern", "P", "")
	u := fs.Bool('U', "update-all", "")
	i := fs.Bool('i', "interactive", "")
	j := fs.Optional("json", "STYLE", "pretty", "")
	g := fs.List(0, "globs", "G", "")
	n := fs.String('j', "threads", "N", "")
	err := fs.Parse([]string{"-Ui", "-pfoo($A)", "a", "--json", "--globs", "*.ts", "--globs=!x", "-j", "3", "b", "--", "--c"})
	if err != nil {
		t.Fatal(err)
	}
	if p.value != "foo($A)" || !u.set || !i.set || j.value != "pretty" || n.value != "3" {
		t.Errorf("values: p=%q U=%v i=%v json=%q j=%q", p.value, u.set, i.set, j.value, n.value)
	}
	if !reflect.DeepEqual(g.values, []string{"*.ts", "!x"}) || !reflect.DeepEqual(fs.args, []string{"a", "b", "--c"}) {
		t.Errorf("globs %q args %q", g.values, fs.args)
	}
	fs2 := newFlagSet("t")
	j2 := fs2.Optional("json", "STYLE", "pretty", "")
	p2 := fs2.String('p', "pattern", "P", "")
	if err := fs2.Parse([]string{"--json=stream", "--pattern=x=y", "-p=z"}); err != nil {
		t.Fatal(err)
	}
	if j2.value != "stream" || p2.value != "z" {
		t.Errorf("json=%q pattern=%q", j2.value, p2.value)
	}
	for _, bad := range [][]string{{"--nope"}, {"-x"}, {"-p"}, {"--update-all=1"}} {
		fs := newFlagSet("t")
		fs.String('p', "pattern", "P", "")
		fs.Bool('U', "update-all", "")
		if err := fs.Parse(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
	fs3 := newFlagSet("t")
	fs3.String(0, "color", "WHEN", "").choose("auto", "never")
	if err := fs3.Parse([]string{"--color", "purple"}); err == nil {
		t.Error("choices must refuse purple")
	}
}

// TestHelpCommand: `help COMMAND` prints COMMAND's --help, as in ast-grep;
// an unknown command is an error.
func TestHelpCommand(t *testing.T) {
	run := func(args ...string) (string, int) {
		var out, errb strings.Builder
		code := dispatch(context.Background(), &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}, args)
		return out.String() + errb.String(), code
	}
	for _, cmd := range []string{"run", "scan", "test", "parse"} {
		help, code := run("help", cmd)
		direct, _ := run(cmd, "--help")
		if code != exitMatch || help != direct || !strings.Contains(help, "Usage: loupe "+cmd) {
			t.Errorf("help %s (exit %d):\n%s\nwant %s --help:\n%s", cmd, code, help, cmd, direct)
		}
	}
	if out, code := run("help", "nope"); code != exitError || !strings.Contains(out, `unknown command "nope"`) {
		t.Errorf("help nope: exit %d\n%s", code, out)
	}
	if out, code := run("--version"); code != exitMatch || !strings.HasPrefix(out, "loupe ") {
		t.Errorf("--version: exit %d %q", code, out)
	}
}
