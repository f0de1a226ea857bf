package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
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

// FuzzEngineOptions gives an external engine an option of any name and
// value (the YAML written by the yaml package, so that every string can be
// expressed) and a sweep over that option: whatever loads must reach the
// engine as exactly one "setoption name NAME value VALUE" line with that
// name, and what is refused must name the file, line and option.
func FuzzEngineOptions(f *testing.F) {
	for _, s := range [][2]string{
		{"Hash", "64"}, {"SyzygyPath", "x\nquit"}, {"Threads", "1\r\nuci"}, {"Skill value Level", "3"},
		{"Name", "a\x00b"}, {"Debug Log File", "/tmp/x\x7f"}, {"UCI_Elo", "1500\tx"}, {"value", ""},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, name, value string) {
		opt, err := yaml.Marshal(map[string]string{name: value})
		if err != nil {
			return
		}
		sweep, err := yaml.Marshal(map[string][]string{"engines[0].options." + name: {"1", value}})
		if err != nil {
			return
		}
		indent := func(b []byte, by string) string {
			return by + strings.ReplaceAll(strings.TrimRight(string(b), "\n"), "\n", "\n"+by)
		}
		engines := "limits: {depth: 1}\nengines:\n  - name: A\n    command: stockfish\n    options:\n" + indent(opt, "      ") + "\n  - name: B\n    command: stockfish\n"
		for _, text := range []string{engines, "sweep:\n" + indent(sweep, "  ") + "\n" + engines} {
			cfg, err := Parse("f.yaml", []byte(text))
			if err != nil {
				if msg := err.Error(); !strings.HasPrefix(msg, "f.yaml:") {
					t.Fatalf("error not naming the file and line: %.300s", msg)
				}
				continue
			}
			configs := []*Config{cfg}
			if cfg.Sweep != nil {
				configs = cfg.Sweep.Configs
			}
			for _, c := range configs {
				for n, v := range c.Engines[0].Options {
					line := "setoption name " + n + " value " + v
					if strings.ContainsAny(line, "\r\n") || strings.IndexFunc(line, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) >= 0 {
						t.Fatalf("option %q = %q loaded, but its line %q holds a control character", n, v, line)
					}
					if f := strings.Fields(line); slices.Index(f, "value") != len(strings.Fields("setoption name "+n)) {
						t.Fatalf("option %q loaded, but an engine reads its name as ending before %q", n, line)
					}
				}
			}
		}
	})
}
