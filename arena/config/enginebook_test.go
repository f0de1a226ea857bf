package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An engine's book: ponder and book load, the file is made absolute, and
// every mistake names the key and the file.
func TestEngineBookAndPonder(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.bin"), filepath.Join(dir, "odd.bin")
	if err := os.WriteFile(good, make([]byte, 32), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, make([]byte, 17), 0o644); err != nil {
		t.Fatal(err)
	}
	parse := func(engine string) (*Config, error) {
		return Parse(filepath.Join(dir, "x.yaml"), []byte("limits: {depth: 1}\nengines:\n  - {name: A, engine: heuristic, "+engine+"}\n  - {name: B, engine: heuristic}\n"))
	}
	cfg, err := parse("ponder: true, book: {file: good.bin, depth: 4}")
	if err != nil {
		t.Fatal(err)
	}
	if e := cfg.Engines[0]; !e.Ponder || e.Book == nil || e.Book.File != good || e.Book.Depth != 4 {
		t.Errorf("engine A: ponder %v, book %+v", e.Ponder, e.Book)
	}
	if cfg.Engines[1].Ponder || cfg.Engines[1].Book != nil {
		t.Errorf("engine B: %+v", cfg.Engines[1])
	}
	for _, c := range []struct{ engine, want string }{
		{"book: {file: missing.bin}", `x.yaml:3: engines[0].book.file: file "missing.bin" not found`},
		{"book: {file: odd.bin}", `engines[0].book.file: ` + bad + `: 17 bytes is not a whole number of 16-byte Polyglot entries`},
		{"book: {depth: 2}", `engines[0].book.file: missing (the engine's Polyglot book`},
		{"book: {file: good.bin, depth: -1}", `engines[0].book.depth: -1 is too small`},
		{"book: {file: good.bin, plies: 2}", `engines[0].book.plies: unknown key "plies" (valid keys: file, depth)`},
		{"book: good.bin", `engines[0].book: expected a mapping`},
		{"ponder: sometimes", `engines[0].ponder: "sometimes" is not a boolean`},
	} {
		if _, err := parse(c.engine); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.engine, err, c.want)
		}
	}
}
