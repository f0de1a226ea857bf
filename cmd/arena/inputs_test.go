package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/internal/fixture"
)

// Empty inputs are errors, not a run over nothing that exits 0 (analyze
// says so before starting Stockfish).
func TestEmptyInputs(t *testing.T) {
	dir := t.TempDir()
	empty := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	epd, pgn := empty("e.epd", "# only a comment\n\n"), empty("e.pgn", "; only a comment\n\n")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"perft", "--epd", epd}, 2, epd + ": no positions"},
		{[]string{"eval", "--model", fixture.Gunzip(t, nnTestdata+"valuenet_state.pt.gz"), "--epd", epd}, 2, epd + ": no positions"},
		{[]string{"analyze", "--depth", "1", pgn}, 1, pgn + ": no games"},
	}
	for _, c := range cases {
		t.Run(c.args[0], func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(c.args, &out, &errb)
			if code != c.code || !strings.Contains(errb.String(), c.want) {
				t.Errorf("arena %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, errb.String(), c.code, c.want)
			}
		})
	}
}
