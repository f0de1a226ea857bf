package main

import (
	"bytes"
	"strings"
	"testing"
)

// arena archive's refusals name what was expected: keys the game itself
// needs cannot be dropped, and a directory without a games log is no run.
func TestArchiveCommandErrors(t *testing.T) {
	empty := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"archive"}, 2, "expected one or more run directories"},
		{[]string{"archive", "--drop", "pv,san", empty}, 2, "expected move keys other than ply, side, engine, uci, san"},
		{[]string{"archive", empty + "/missing"}, 1, "not a directory (expected a run directory of arena run)"},
		{[]string{"archive", empty}, 1, "no games log (games.jsonl, .gz or .cols)"},
	} {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errb.String(), c.code, c.want)
		}
	}
}
