package report

import (
	"fmt"
	"path/filepath"
	"testing"

	"arena/arena/config"
	// The built-in engines register themselves; configs name them.
	_ "arena/engines/heuristic"
	_ "arena/engines/mcts"
	_ "arena/engines/neural"
	_ "arena/engines/nnue"
	_ "arena/engines/supervised"
)

// The thesis configs (studies/thesis/configs/SET/*.yaml) carry THESIS.md 1.6's
// settings: every row of every experiment exactly once per set, the
// experiment's move limit and judge depth, the thesis's heuristic engine
// against the experiment's engine; faithful and time-matched at the row's
// seconds per move and game count (time-matched from a book in game
// pairs), compute-matched at the row's node budgets from a book in pairs.
// The modern experiments (Modern: experiment 1 against nnue and its control
// against preset strong, both engines at the heuristic's budget) are
// compute-matched only: every row exactly once
// in compute/, at most once in compute-more/.
func TestThesisConfigs(t *testing.T) {
	t.Chdir("../../..")
	for _, set := range []string{"faithful", "time", "compute", "compute-more"} {
		files, err := filepath.Glob(filepath.Join(ConfigsDir, set, "*.yaml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no configs (%v)", set, err)
		}
		covered := map[string]int{} // experiment ID and row index
		for _, path := range files {
			cfg, err := config.Load(path)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			settings := []*config.Config{cfg}
			if cfg.Sweep != nil {
				settings = cfg.Sweep.Configs
			}
			for _, c := range settings {
				exp, row, msg := thesisRowOf(set, c)
				if msg != "" {
					t.Errorf("%s (%s): %s", path, c.Name, msg)
					continue
				}
				covered[fmt.Sprintf("%s row %d", exp.ID, row)]++
			}
		}
		for _, exp := range experiments() {
			for i := range exp.Rows {
				k := fmt.Sprintf("%s row %d", exp.ID, i)
				switch {
				case exp.Of == "" || set == "compute":
					if covered[k] != 1 {
						t.Errorf("%s: %s played by %d settings, want 1", set, k, covered[k])
					}
				case covered[k] > 1:
					t.Errorf("%s: %s played by %d settings, want at most 1", set, k, covered[k])
				}
			}
		}
	}
}

// thesisRowOf finds the experiment and row a config setting of the set
// reproduces, or says what is wrong with it.
func thesisRowOf(set string, c *config.Config) (*ThesisExperiment, int, string) {
	if len(c.Engines) != 2 || c.Engines[0].Engine != HeuristicEngine ||
		c.Engines[0].Options["preset"] != "thesis" || c.Engines[0].Options["pst"] != "thesis" {
		return nil, 0, "want the heuristic engine (preset thesis, pst thesis) first and one opponent"
	}
	var exp *ThesisExperiment
	for _, e := range experiments() {
		if e.Opponent == c.Engines[1].Engine && e.MaxMoves == c.MaxMoves &&
			(e.OppPreset == "" || c.Engines[1].Options["preset"] == e.OppPreset) {
			exp = e
		}
	}
	if exp == nil {
		return nil, 0, fmt.Sprintf("no thesis experiment of the heuristic engine against %s at %d plies", c.Engines[1].Engine, c.MaxMoves)
	}
	if exp.Of != "" && (set == "faithful" || set == "time") {
		return nil, 0, fmt.Sprintf("%s is compute-matched only (both engines at the heuristic's node budget), not in %s/", exp.ID, set)
	}
	if c.Judge.Off || c.Judge.Depth != exp.JudgeDepth {
		return nil, 0, fmt.Sprintf("judge depth %d, want %d", c.Judge.Depth, exp.JudgeDepth)
	}
	book := c.Openings != nil && c.Pairs
	heur, opp := c.Engines[0].Limits, c.Engines[1].Limits
	for i, r := range exp.Rows {
		switch set {
		case "faithful", "time":
			if heur.MoveTime.D() != r.MoveTime || opp.MoveTime.D() != r.MoveTime {
				continue
			}
			if c.Games != r.Games {
				return nil, 0, fmt.Sprintf("%d games, want the thesis's %d", c.Games, r.Games)
			}
			// The thesis's arena waited for every move: none was lost on time.
			if c.TimeForfeit.On() {
				return nil, 0, "time_forfeit on, want off (the thesis's games had no loss on time)"
			}
			if book != (set == "time") {
				return nil, 0, fmt.Sprintf("openings %+v pairs %v: faithful from the start position, time-matched from a book in pairs", c.Openings, c.Pairs)
			}
		default:
			if heur.Nodes != r.Budget.HeurNodes || heur.MoveTime != 0 || opp.Nodes != r.Budget.Opp.Nodes ||
				opp.Depth != r.Budget.Opp.Depth || opp.MoveTime != 0 {
				continue
			}
			if !book || c.Games%2 != 0 || (set == "compute-more") != (c.Openings.Start > 1) {
				return nil, 0, fmt.Sprintf("openings %+v, pairs %v, %d games: want a book in pairs, even games, compute-more past the first openings", c.Openings, c.Pairs, c.Games)
			}
		}
		return exp, i, ""
	}
	return nil, 0, fmt.Sprintf("limits %v / %v match no row of %s", heur, opp, exp.ID)
}
