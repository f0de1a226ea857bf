package report

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	arep "arena/arena/report"
)

// writeMethod writes the Method section of docs/reproduction.md: the three
// kinds of reproduction, the node budgets of the compute-matched one with
// their derivation, and the wall time each kind took.
func writeMethod(b *bytes.Buffer, runs []*arep.Run) {
	b.WriteString("## Method\n\n")
	b.WriteString("Three reproductions, each a config set under `studies/thesis/configs/` run into `results/thesis/SET/` (`make reproduce`; `make reproduce-fast` runs the compute-matched set alone). In all of them both engines are the thesis's (`preset: thesis`, and for the heuristic engine `pst: thesis`, the listing's mirrored tables), and the judge searches to the depth the thesis's table was judged at: 7 for experiment 1's table, 12 for its reference match and for experiments 2 and 3.\n\n")
	b.WriteString("- **Faithful** (`faithful/`): the thesis's seconds per move and game counts, every game from the start position, so games with the same colours can repeat as they did in the thesis.\n")
	b.WriteString("- **Compute-matched** (`compute/`, more games in `compute-more/`): each engine gets the thesis's nodes per move as a node budget (below), from the openings of `configs/openings/balanced.epd` in game pairs. This is the thesis's contest: at 1 s our heuristic engine searches about 300 times the thesis's nodes.\n")
	b.WriteString("- **Time-matched** (`time/`): the faithful settings from the book in game pairs: what the thesis's seconds buy in Go.\n\n")
	b.WriteString("### Node budgets\n\n")
	b.WriteString("The listing counts a node of its main search at depth 0 twice: `negamax` counts every node it enters (listing line 256) and at depth 0 hands the position to `quiescence` (lines 278-283), which counts it again (line 232). A depth-0 node found in the transposition table (lines 265-276) returns before that and is counted once. Our engine counts every node once, so a search the thesis reports as T nodes visited N = T − L nodes, L being its depth-0 nodes. ")
	fmt.Fprintf(b, "We measured N/T with our heuristic engine (preset thesis, pst thesis), counting the depth-0 nodes of searches of the 8 `arena bench` positions and 60 openings of balanced.epd at budgets near each thesis value: N/T is %s (0.69 at 15-20 k nodes, 0.62-0.65 at 45-125 k, 0.66 at 190 k; the share of depth-0 nodes follows the parity of the last iteration). ", HeurNodesFactorRange)
	b.WriteString("Each budget is the thesis's mean nodes per move times N/T at that budget, to 100 nodes. Our count includes depth-0 nodes the listing would have taken from its table, so the true factor is slightly higher and our budgets are, if anything, slightly low. The thesis's count is a mean over time-limited searches of different sizes; ours is the same number for every move. ")
	b.WriteString("The MCTS engine counts one node per simulation in the listing (line 198) and in ours, so its budget is the thesis's number; the 1-ply engine's nodes are its legal moves (depth 1) and the SL engine searches a fixed 2 plies, so neither has a node budget.\n\n")
	t := &arep.Table{Header: []string{"Experiment", "Thesis time/move", "Thesis heuristic nodes", "Our heuristic budget", "N/T", "Opponent: thesis nodes", "Opponent limit"}, Right: arep.RightFrom(1, 7)}
	for _, e := range Thesis {
		for _, r := range e.Rows {
			opp := fmt.Sprintf("depth %d", r.Budget.Opp.Depth)
			if r.Budget.Opp.Nodes > 0 {
				opp = fmt.Sprintf("%s nodes", thousands(float64(r.Budget.Opp.Nodes)))
			}
			t.Rows = append(t.Rows, []arep.Cell{{Text: e.ID}, {Text: fmtSeconds(r.MoveTime)}, {Text: thousands(r.HeurNodes)},
				{Text: thousands(float64(r.Budget.HeurNodes))}, {Text: fmt.Sprintf("%.2f", float64(r.Budget.HeurNodes)/r.HeurNodes)},
				{Text: thousands(r.OppNodes)}, {Text: opp}})
		}
	}
	arep.WriteMarkdownTable(b, t)
	b.WriteString("\n")
	variants, _ := classify(runs)
	writeModernMethod(b, variants)
	writeWallTimes(b, runs)
	writeProvenance(b, runs)
}

// writeProvenance states what the runs recorded of the machine, the
// software and the seeds, runs with the same record on one row.
func writeProvenance(b *bytes.Buffer, runs []*arep.Run) {
	b.WriteString("### Machine, software, seeds and judge\n\n")
	b.WriteString("As each run's summary.json and config.yaml record them. The runs record the OS and the number of cores, not the CPU model or its flags; the arena's commit is recorded by runs played since commit stamping, older ones say \"(devel)\" (a build without version control information). The judge protocol is how Stockfish scored each move (docs/judge.md): `thesis`, one warm Stockfish over the game's history, two searches a ply, as the thesis's script; `position`, each position once, cold, cached.\n\n")
	type key struct {
		arena, goVersion, os, judge, protocol, seed string
		cores, depth                                int
	}
	count := map[key][]string{}
	var order []key
	for _, r := range runs {
		s := r.Summary
		k := key{arena: s.Versions.Arena, goVersion: s.Versions.Go, os: s.Versions.OS, judge: orDefault(s.Versions.Judge, "–"),
			protocol: orDefault(s.Judge.Protocol, "–"), seed: seedOf(r), cores: s.Cores, depth: s.Judge.Depth}
		if k.arena == "" || k.arena == "(devel)" || k.arena == "unknown" {
			k.arena = "not recorded, predates stamping"
		}
		if count[k] == nil {
			order = append(order, k)
		}
		count[k] = append(count[k], r.Dir)
	}
	t := &arep.Table{Header: []string{"Runs", "Arena commit", "Go", "OS", "Cores", "CPU", "Judge", "Protocol, depth", "Seed"}}
	for _, k := range order {
		dirs := count[k]
		which := "`" + dirs[0] + "`"
		if len(dirs) > 1 {
			which = fmt.Sprintf("%d: `%s`, ...", len(dirs), dirs[0])
		}
		t.Rows = append(t.Rows, []arep.Cell{{Text: which}, {Text: k.arena}, {Text: k.goVersion}, {Text: k.os},
			{Text: fmt.Sprint(k.cores)}, {Text: "not recorded"}, {Text: k.judge}, {Text: fmt.Sprintf("%s, %d", k.protocol, k.depth)}, {Text: k.seed}})
	}
	arep.WriteMarkdownTable(b, t)
	b.WriteString("\n")
}

// seedOf is the run's seed from its config.yaml, "–" without one.
func seedOf(r *arep.Run) string {
	var cfg struct {
		Seed *int64 `yaml:"seed"`
	}
	if err := yaml.Unmarshal([]byte(r.Config), &cfg); err != nil || cfg.Seed == nil {
		return "–"
	}
	return fmt.Sprint(*cfg.Seed)
}

// playTime is how long the run's games took: the sum of their durations
// over the games played at once. A run resumed in a later session spans
// the pause between sessions from its start to its last summary, so that
// difference is not its cost.
func playTime(r *arep.Run) time.Duration {
	var s float64
	for _, g := range r.Summary.Games {
		s += g.Duration
	}
	return time.Duration(s / float64(max(r.Summary.Concurrency, 1)) * float64(time.Second))
}

// writeWallTimes states how long each kind of reproduction ran.
func writeWallTimes(b *bytes.Buffer, runs []*arep.Run) {
	variants, _ := classify(runs)
	wall := map[string]time.Duration{}
	games := map[string]int{}
	for _, v := range variants {
		for _, s := range v.settings {
			for _, r := range s.runs {
				wall[v.kind] += playTime(r)
				games[v.kind] += r.Summary.GamesPlayed
			}
		}
	}
	var parts []string
	for _, k := range kindOrder {
		if games[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d games in %s", k, games[k], wall[k].Round(time.Minute)))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(b, "Games played and the time they took (as above): %s.\n\n", strings.Join(parts, "; "))
	}
}
