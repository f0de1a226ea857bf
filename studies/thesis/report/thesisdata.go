package report

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"arena/studies/thesis"
)

// ThesisExperiment is one of the thesis's experiments as its section 1.6
// reports it (THESIS.md): the built-in heuristic engine against a network
// engine at a series of times per move. The numbers are
// studies/thesis/thesis-tables.yaml's.
type ThesisExperiment struct {
	ID         string `yaml:"id"` // "exp1": also the prefix of the configs in studies/thesis/configs/*/
	Title      string `yaml:"title"`
	Opponent   string `yaml:"opponent"` // the built-in engine playing the thesis's network engine: nn, mcts, supervised
	Label      string `yaml:"label"`    // the thesis's name for that engine
	MaxMoves   int    `yaml:"max_moves"`
	JudgeDepth int    `yaml:"judge_depth"` // Stockfish depth of the thesis's ACPL
	// Where says in which part of THESIS.md 1.6 each column is: keys are
	// comma-separated column names (the rows' YAML keys).
	Where   map[string]string `yaml:"where"`
	Rows    []ThesisRow       `yaml:"rows"`
	Remarks []string          `yaml:"remarks"` // what the thesis says beside the table
	// Of is set on an experiment the thesis did not run (Modern): the ID
	// of the thesis's experiment it asks again with another opponent,
	// whose rows (the thesis's numbers, its own opponent's) it shows
	// beside ours. Column then names the opponent's columns, the
	// thesis's and ours ("NN/NNUE").
	Of     string `yaml:"-"`
	Column string `yaml:"-"`
	// OppPreset, on a modern experiment whose opponent is the heuristic
	// engine itself, is the opponent's preset: of the run's two heuristic
	// engines the thesis's is the one with preset thesis, the opponent
	// the one with this preset.
	OppPreset string `yaml:"-"`
	// ControlOf is set on a control (Modern): the ID of the modern
	// experiment whose opponent it replaces by one with the same search
	// and another evaluation. Its runs are filed like any (classify), and
	// shown in that experiment's section, not in one of their own.
	ControlOf string `yaml:"-"`
}

// ThesisRow is one time-per-move setting of a thesis table. Nil pointers
// are numbers the thesis does not give.
type ThesisRow struct {
	MoveTime  time.Duration `yaml:"movetime"`
	Figure    string        `yaml:"figure"` // the thesis's figure showing the match
	Games     int           `yaml:"games"`
	HeurWins  int           `yaml:"heur_wins"`
	OppWins   *int          `yaml:"opp_wins"`
	HeurTime  *float64      `yaml:"heur_time"` // s per move
	OppTime   *float64      `yaml:"opp_time"`
	HeurNodes float64       `yaml:"heur_nodes"` // per move, as the listing counted them
	OppNodes  float64       `yaml:"opp_nodes"`
	HeurACPL  float64       `yaml:"heur_acpl"`
	OppACPL   float64       `yaml:"opp_acpl"`
	// Budget is ours, not the thesis's: the compute-matched limits of the
	// row. The heuristic's node budget is HeurNodes converted to nodes
	// counted once (HeurNodesFactorRange), the opponent's the thesis's own
	// count (MCTS simulations) or its fixed depth (the 1-ply and 2-ply
	// engines).
	Budget struct {
		HeurNodes int64 `yaml:"heur_nodes"`
		Opp       struct {
			Depth int   `yaml:"depth"`
			Nodes int64 `yaml:"nodes"`
		} `yaml:"opp"`
	} `yaml:"budget"`
}

// The thesis's listing counts a node of the main search at depth 0 twice:
// negamax counts it, then hands it to quiescence, which counts it again.
// Our engine counts every node once, so the thesis's count T of a search
// is ours plus the depth-0 nodes L: T = N + L. HeurNodesFactor is N/T as
// measured with our heuristic engine (preset thesis, pst thesis) on the 8
// bench positions and 60 openings of balanced.epd at node budgets near each
// thesis value: 0.69 at 15-20 k nodes, 0.62-0.65 at 45-125 k, 0.66 at
// 190 k (it follows the parity of the last iteration). The rows' budgets
// are HeurNodes times the factor measured at that budget, to 100 nodes.
const HeurNodesFactorRange = "0.62-0.69"

// Thesis is studies/thesis/thesis-tables.yaml. Experiment 1's table gives
// no time per move; its heuristic engine's mean times (1.25 ... 15.24 s)
// put the settings at 1, 3, 5, 10 and 15 s. Its table was judged at depth
// 7 (the thesis raised the depth to 12 before experiment 2); its reference
// match, at depth 12 and 100 plies, is an experiment of its own here so
// that it is not pooled with the table's 1 s row.
var Thesis = mustParseTables(thesis.TablesYAML)

// mustParseTables reads the embedded tables; an error there is the
// repository's, caught by every test of the package.
func mustParseTables(data []byte) []ThesisExperiment {
	exps, err := parseTables(data)
	if err != nil {
		panic(err)
	}
	return exps
}

// parseTables decodes the tables strictly: an unknown key, a row without its
// figure or a column without the place THESIS.md shows it is an error.
func parseTables(data []byte) ([]ThesisExperiment, error) {
	var doc struct {
		Experiments []ThesisExperiment `yaml:"experiments"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("thesis-tables.yaml: %w", err)
	}
	for _, e := range doc.Experiments {
		where := map[string]bool{}
		for cols := range e.Where {
			for _, c := range strings.Split(cols, ",") {
				where[strings.TrimSpace(c)] = true
			}
		}
		for i, r := range e.Rows {
			if r.Figure == "" || r.MoveTime <= 0 || r.Games <= 0 {
				return nil, fmt.Errorf("thesis-tables.yaml: %s row %d: want movetime, figure and games", e.ID, i+1)
			}
			for col, given := range map[string]bool{"games": true, "heur_wins": true, "opp_wins": r.OppWins != nil,
				"heur_time": r.HeurTime != nil, "opp_time": r.OppTime != nil, "heur_nodes": r.HeurNodes > 0,
				"opp_nodes": r.OppNodes > 0, "heur_acpl": r.HeurACPL > 0, "opp_acpl": r.OppACPL > 0} {
				if given && !where[col] {
					return nil, fmt.Errorf("thesis-tables.yaml: %s: column %s has no place in THESIS.md (where)", e.ID, col)
				}
			}
		}
	}
	return doc.Experiments, nil
}

// thesisGames is the range of the thesis's games per setting, "2-6".
func thesisGames() string {
	lo, hi := 0, 0
	for _, e := range Thesis {
		for _, r := range e.Rows {
			if lo == 0 || r.Games < lo {
				lo = r.Games
			}
			hi = max(hi, r.Games)
		}
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

// halfWins counts the thesis's series in which the heuristic engine won
// exactly half its games and its opponent none, and all its series.
func halfWins() (half, series int) {
	for _, e := range Thesis {
		for _, r := range e.Rows {
			series++
			if 2*r.HeurWins == r.Games && r.OppWins != nil && *r.OppWins == 0 {
				half++
			}
		}
	}
	return half, series
}

// thesisOverruns is the heuristic's mean time against the limit at the
// first and the last setting of the first experiment: "1.25 s at 1 s,
// 15.24 s at 15 s".
func thesisOverruns() string {
	var parts []string
	if len(Thesis) > 0 {
		rows := Thesis[0].Rows
		for _, r := range []ThesisRow{rows[0], rows[len(rows)-1]} {
			if r.HeurTime != nil {
				parts = append(parts, fmt.Sprintf("%.2f s at %s", *r.HeurTime, fmtSeconds(r.MoveTime)))
			}
		}
	}
	return strings.Join(parts, ", ")
}
