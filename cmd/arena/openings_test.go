package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/engines/uci"
)

func TestOpeningsGenerateErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"openings"}, "usage: arena openings generate"},
		{[]string{"openings", "make"}, "usage: arena openings generate"},
		{[]string{"openings", "generate", "--count", "5"}, "--out FILE is required"},
		{[]string{"openings", "generate", "--count", "0", "--out", "x.epd"}, "count 0: expected 1.."},
		{[]string{"openings", "generate", "--count", "5", "--depth", "0", "--plies", "0", "--out", "x.epd"}, "plies 0: expected 1..200; depth 0: expected 1..99"},
		{[]string{"openings", "generate", "--count", "x"}, `invalid value "x" for flag -count`},
		{[]string{"openings", "generate", "--count", "5", "--out", "x.epd", "extra"}, `unexpected argument "extra"`},
	} {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

func TestOpeningsGenerate(t *testing.T) {
	if _, err := uci.LocateEngine("stockfish"); err != nil {
		t.Fatalf("stockfish not found (%v): install it with make test-tools (apt-get install -y stockfish)", err)
	}
	path := filepath.Join(t.TempDir(), "book.epd")
	var out, errb bytes.Buffer
	args := []string{"openings", "generate", "--count", "3", "--plies", "3", "--max-eval", "80", "--depth", "3", "--pick-depth", "2", "--seed", "9", "--out", path}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Position lines only (fastchess and cutechess-cli read each line as
	// a position); the provenance is in the side file.
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 3 || strings.Contains(string(data), "#") || !strings.Contains(lines[2], `id "book 3"`) {
		t.Errorf("book:\n%s", data)
	}
	side, err := os.ReadFile(path + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(strings.TrimSpace(string(side)), "\n")
	if len(lines) != 2 || lines[0] != "# arena openings generate --count 3 --plies 3 --max-eval 80 --depth 3 --seed 9 --margin 25 --pick-depth 2 --out "+path ||
		!strings.HasPrefix(lines[1], "# Stockfish") {
		t.Errorf("side file:\n%s", side)
	}
	if !strings.Contains(out.String(), "wrote 3 positions to "+path+" (provenance in "+path+".txt)") {
		t.Errorf("output %q", out.String())
	}
}
