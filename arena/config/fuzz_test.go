package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseConfig: any file either loads or fails with an error that names
// the file and stays short (values are cut), and a loaded config marshals.
func FuzzParseConfig(f *testing.F) {
	seeds, err := filepath.Glob("../../configs/*.yaml")
	if err != nil || len(seeds) == 0 {
		f.Fatalf("no seed configs: %v", err)
	}
	for _, p := range seeds {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("limits: {depth: 1}\n" + twoEngines + "---\ngames: 4\n")
	f.Add("sweep: {limits.movetime: [1s, 2s]}\n" + twoEngines)
	f.Add("games: &a 2\nmax_moves: *a\nlimits: {tc: \"40/60+0.6\"}\n" + twoEngines)
	f.Fuzz(func(t *testing.T, text string) {
		cfg, err := Parse("f.yaml", []byte(text))
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "f.yaml") || len(msg) > 4096 {
				t.Fatalf("error not naming the file, or %d bytes long: %.300s", len(msg), msg)
			}
			return
		}
		if _, err := cfg.Marshal(); err != nil {
			t.Fatalf("a loaded config does not marshal: %v", err)
		}
	})
}
