package main

import (
	"bytes"
	"strings"
	"testing"

	"arena/engines"
)

func TestEnginesCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"engines"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	text := out.String()
	for _, s := range engines.List() {
		if !strings.Contains(text, s.Name+": "+s.Description) {
			t.Errorf("output lacks %s and its description", s.Name)
		}
		for _, o := range s.Options {
			if !strings.Contains(text, o.Name) || !strings.Contains(text, o.Help) {
				t.Errorf("output lacks option %s of %s or its help", o.Name, s.Name)
			}
		}
	}
	for _, want := range []string{"OPTION", "max_depth", "1..64", "default|strong|thesis", "true|false"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	errb.Reset()
	if code := run([]string{"engines", "nosuch"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "heuristic") {
		t.Errorf("unknown engine: exit %d, stderr %q; want 2 and the list of engines", code, errb.String())
	}
}
