package report

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/arena"
	// The built-in engines register themselves; configs name them.
	_ "arena/engines/heuristic"
	_ "arena/engines/mcts"
	_ "arena/engines/neural"
	_ "arena/engines/supervised"
)

// configsDir is the repository's configs/ directory, from its root: the
// tests change there, as configs name files relative to it (make runs
// from there).
const configsDir = "configs"

// Every shipped config loads: names, options and openings resolve.
func TestShippedConfigsLoad(t *testing.T) {
	t.Chdir("../..")
	n := 0
	err := filepath.WalkDir(configsDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		n++
		if _, err := arena.Load(path); err != nil {
			t.Errorf("%v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 7 {
		t.Errorf("%d configs under %s, want at least the demo and the 6 thesis configs", n, configsDir)
	}
}

// The thesis configs carry THESIS.md 1.6's settings: the time-per-move
// series of each experiment, its move limit, Stockfish at depth 12, the
// heuristic engine against the experiment's engine; the -book versions add
// an opening book in game pairs.
func TestThesisConfigs(t *testing.T) {
	t.Chdir("../..")
	files := map[string]string{"exp1": "exp1-nn-vs-heuristic", "exp2": "exp2-mcts-vs-heuristic", "exp3": "exp3-supervised-vs-heuristic"}
	for _, exp := range Thesis {
		for _, book := range []bool{false, true} {
			name := files[exp.ID]
			if book {
				name += "-book"
			}
			path := filepath.Join(configsDir, "thesis", name+".yaml")
			cfg, err := arena.Load(path)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			if cfg.Sweep == nil || cfg.Sweep.Key != "limits.movetime" {
				t.Errorf("%s: not a sweep over limits.movetime", path)
				continue
			}
			var got []time.Duration
			for _, c := range cfg.Sweep.Configs {
				got = append(got, c.Limits.MoveTime.D())
				if c.MaxMoves != exp.MaxMoves || c.Judge.Off || c.Judge.Depth != 12 || c.Games%2 != 0 {
					t.Errorf("%s: max_moves %d (want %d), judge depth %d (want 12), games %d (want even)", path, c.MaxMoves, exp.MaxMoves, c.Judge.Depth, c.Games)
				}
			}
			var thesis []time.Duration
			for _, r := range exp.Rows {
				thesis = append(thesis, r.MoveTime)
			}
			if !slices.Equal(got, thesis) {
				t.Errorf("%s: movetimes %v, want the thesis's %v", path, got, thesis)
			}
			var engines []string
			for _, e := range cfg.Engines {
				engines = append(engines, e.Engine)
			}
			if !slices.Equal(engines, []string{HeuristicEngine, exp.Opponent}) || cfg.Engines[0].Options["pst"] != "thesis" {
				t.Errorf("%s: engines %v (pst %q), want heuristic (pst thesis) and %s", path, engines, cfg.Engines[0].Options["pst"], exp.Opponent)
			}
			if book != (cfg.Openings != nil) || (book && !cfg.Pairs) {
				t.Errorf("%s: openings %+v, pairs %v", path, cfg.Openings, cfg.Pairs)
			}
		}
	}
}
