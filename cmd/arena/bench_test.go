package main

import (
	"bytes"
	"strings"
	"testing"

	"arena/engines"
)

func TestBenchCommand(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"bench", "heuristic", "--depth", "2", "--option", "preset=strong"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{"engine heuristic (pvs,null_move", "depth 2", "position", "total"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	for _, bp := range engines.BenchPositions {
		if !strings.Contains(text, bp.Name) {
			t.Errorf("output lacks position %s", bp.Name)
		}
	}
	// The engine name may also follow the flags.
	out.Reset()
	if code := run([]string{"bench", "--nodes", "500", "heuristic"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "500 nodes") {
		t.Errorf("flags before the engine: exit %d, output %q", code, out.String())
	}
}

func TestBenchCommandErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--depth", "2", "--movetime", "1s"}, "only one of"},
		{[]string{"bench", "--depth", "-1"}, "must be positive"},
		{[]string{"bench", "nosuch", "--depth", "1"}, `unknown engine "nosuch"`},
		{[]string{"bench", "--option", "bogus=1", "--depth", "1"}, "valid options: max_depth"},
		{[]string{"bench", "--option", "max_depth", "--depth", "1"}, "expected NAME=VALUE"},
		{[]string{"bench", "heuristic", "extra"}, "unexpected arguments"},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		if code := run(tc.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errb.String(), tc.want)
		}
	}
}
