package report

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"arena/arena/record"
	arep "arena/arena/report"
)

// Filing runs under the thesis's experiments: which experiment, which kind
// of reproduction and which row each run is, and the pooled summaries the
// comparison tables in thesis.go are built from.

// setting is our side of one row: the runs of an experiment at one time
// per move (or at the node budgets of that row), pooled.
type setting struct {
	moveTime  time.Duration
	runs      []*arep.Run
	heur, opp record.EngineSummary // pooled over the runs
	distinct  int                  // distinct games (by their moves)
	// first marks the first of each set of games repeated move for move,
	// over all the setting's runs: the units of every interval, so that a
	// game replayed by deterministic engines counts once.
	first map[gameRef]bool
}

// gameRef names one game of one of a setting's runs.
type gameRef struct {
	run  *arep.Run
	game int
}

// The kinds of reproduction (docs/reproduction.md): how a run's limits and
// start position relate to the thesis's.
const (
	kindFaithful = "faithful" // the thesis's seconds per move from the start position
	kindCompute  = "compute"  // the rows' node budgets (ThesisRow.Budget)
	kindTime     = "time"     // the thesis's seconds per move from a book
)

var kindOrder = []string{kindFaithful, kindCompute, kindTime}

// variant is an experiment's runs of one kind from one kind of start: the
// standard position (Book "") or an opening book.
type variant struct {
	exp      *ThesisExperiment
	kind     string
	book     string
	settings []*setting
}

// classify files each run under its experiment and variant: a run of two
// engines, the built-in heuristic and the experiment's opponent, whose
// heuristic engine has a movetime or one of the experiment's node budgets.
// Other runs are returned as unused.
func classify(runs []*arep.Run) (variants []*variant, unused []*arep.Run) {
	byKey := map[string]*variant{}
	for _, r := range runs {
		exp, heur, opp := experimentOf(r)
		if exp == nil {
			unused = append(unused, r)
			continue
		}
		d, kind, ok := rowOf(exp, heur, opp, r.Summary.Openings != "")
		if !ok {
			unused = append(unused, r)
			continue
		}
		book := filepath.Base(r.Summary.Openings)
		if r.Summary.Openings == "" {
			book = ""
		}
		key := exp.ID + "\x00" + kind + "\x00" + book
		v := byKey[key]
		if v == nil {
			v = &variant{exp: exp, kind: kind, book: book}
			byKey[key] = v
			variants = append(variants, v)
		}
		var s *setting
		for _, c := range v.settings {
			if c.moveTime == d {
				s = c
			}
		}
		if s == nil {
			s = &setting{moveTime: d}
			v.settings = append(v.settings, s)
		}
		s.runs = append(s.runs, r)
		s.heur = pool(s.heur, heur)
		s.opp = pool(s.opp, opp)
	}
	for _, v := range variants {
		for _, s := range v.settings {
			s.first = firstGames(s.runs)
			s.distinct = len(s.first)
		}
		sort.Slice(v.settings, func(a, b int) bool { return v.settings[a].moveTime < v.settings[b].moveTime })
	}
	all := experiments()
	expIndex := func(id string) int {
		return slices.IndexFunc(all, func(e *ThesisExperiment) bool { return e.ID == id })
	}
	sort.SliceStable(variants, func(a, b int) bool {
		va, vb := variants[a], variants[b]
		if ia, ib := expIndex(va.exp.ID), expIndex(vb.exp.ID); ia != ib {
			return ia < ib
		}
		if ka, kb := slices.Index(kindOrder, va.kind), slices.Index(kindOrder, vb.kind); ka != kb {
			return ka < kb
		}
		return va.book < vb.book
	})
	return variants, unused
}

// rowOf places a run's heuristic engine at a row of the experiment: its
// movetime (faithful from the start position, time-matched from a book), or
// the row whose node budget it has (compute-matched). A modern experiment
// (Modern) is compute-matched only, its opponent at the heuristic's budget.
func rowOf(exp *ThesisExperiment, heur, opp record.EngineSummary, book bool) (time.Duration, string, bool) {
	if exp.Of != "" {
		hn, okH := arep.NodeLimit(heur)
		on, okO := arep.NodeLimit(opp)
		if _, timed := arep.MoveTime(heur); timed || !okH || !okO || hn != on {
			return 0, "", false
		}
	}
	if d, ok := arep.MoveTime(heur); ok {
		if book {
			return d, kindTime, true
		}
		return d, kindFaithful, true
	}
	n, ok := arep.NodeLimit(heur)
	if !ok {
		return 0, "", false
	}
	for _, r := range exp.Rows {
		if r.Budget.HeurNodes == n {
			return r.MoveTime, kindCompute, true
		}
	}
	return 0, "", false
}

// experimentOf finds the thesis experiment (or modern one) a run belongs
// to and its two engines; nil when it is none of them. Of the experiments
// against the same engine (experiment 1 and its reference match) the one
// with the run's move limit wins, else the first.
func experimentOf(r *arep.Run) (*ThesisExperiment, record.EngineSummary, record.EngineSummary) {
	es := r.Summary.Engines
	if len(es) != 2 {
		return nil, record.EngineSummary{}, record.EngineSummary{}
	}
	var found *ThesisExperiment
	var heur, opp record.EngineSummary
	var presets map[string]string // read when an experiment needs them
	for _, exp := range experiments() {
		var h, o record.EngineSummary
		switch {
		case exp.OppPreset != "":
			// Both engines may be the heuristic engine: the thesis's
			// is the one with preset thesis, the opponent the one with
			// the experiment's preset.
			if presets == nil {
				presets = presetsOf(r)
			}
			is := func(e record.EngineSummary, preset string) bool {
				return e.Engine == HeuristicEngine && presets[e.Name] == preset
			}
			switch {
			case is(es[0], thesisPreset) && es[1].Engine == exp.Opponent && is(es[1], exp.OppPreset):
				h, o = es[0], es[1]
			case is(es[1], thesisPreset) && es[0].Engine == exp.Opponent && is(es[0], exp.OppPreset):
				h, o = es[1], es[0]
			default:
				continue
			}
		case es[0].Engine == HeuristicEngine && es[1].Engine == exp.Opponent:
			h, o = es[0], es[1]
		case es[1].Engine == HeuristicEngine && es[0].Engine == exp.Opponent:
			h, o = es[1], es[0]
		default:
			continue
		}
		if found == nil || (exp.MaxMoves == r.Summary.MaxMoves && found.MaxMoves != r.Summary.MaxMoves) {
			found, heur, opp = exp, h, o
		}
	}
	return found, heur, opp
}

// pool merges b into a: counts add, per-move means are weighted by moves,
// ACPL is pooled over the judged moves as the arena does.
func pool(a, b record.EngineSummary) record.EngineSummary {
	if a.Games == 0 && a.Moves == 0 {
		return b
	}
	out := a
	out.Games += b.Games
	out.Wins += b.Wins
	out.Draws += b.Draws
	out.Losses += b.Losses
	out.Points += b.Points
	if out.Games > 0 {
		out.ScorePct = 100 * out.Points / float64(out.Games)
	}
	out.Moves += b.Moves
	if n := float64(out.Moves); n > 0 {
		wa, wb := float64(a.Moves)/n, float64(b.Moves)/n
		out.AvgTime = a.AvgTime*wa + b.AvgTime*wb
		out.AvgNodes = a.AvgNodes*wa + b.AvgNodes*wb
		out.AvgDepth = a.AvgDepth*wa + b.AvgDepth*wb
		if out.AvgTime > 0 {
			out.NPS = out.AvgNodes / out.AvgTime
		}
	}
	switch {
	case a.Judge != nil && b.Judge != nil:
		j := *a.Judge
		j.Add(*b.Judge)
		out.Judge, out.ACPL, out.Accuracy = &j, &j.ACPL, &j.Accuracy
	case b.Judge != nil:
		out.Judge, out.ACPL, out.Accuracy = b.Judge, b.ACPL, b.Accuracy
	}
	return out
}

// firstGames marks the first game of each set of games with the same White
// and the same moves among the runs: with deterministic engines from one
// start position, games with the same colours repeat (the thesis's caveat).
func firstGames(runs []*arep.Run) map[gameRef]bool {
	first := map[gameRef]bool{}
	seen := map[string]bool{}
	for _, r := range runs {
		seqs := map[int][]string{}
		for _, m := range r.Moves {
			seqs[m.Game] = append(seqs[m.Game], m.UCI)
		}
		for _, g := range r.Summary.Games {
			key := g.White + "\x00" + strings.Join(seqs[g.Game], " ")
			if !seen[key] {
				seen[key] = true
				first[gameRef{r, g.Game}] = true
			}
		}
	}
	return first
}

// thesisPreset is the preset of the thesis's heuristic engine.
const thesisPreset = "thesis"

// presetsOf is the preset option of each of the run's engines by name,
// from its config.yaml; "" for an engine without one, nil when the config
// cannot be read (then no experiment asking for a preset matches).
func presetsOf(r *arep.Run) map[string]string {
	var cfg struct {
		Engines []struct {
			Name    string            `yaml:"name"`
			Options map[string]string `yaml:"options"`
		} `yaml:"engines"`
	}
	out := map[string]string{}
	if err := yaml.Unmarshal([]byte(r.Config), &cfg); err != nil {
		return out
	}
	for _, e := range cfg.Engines {
		out[e.Name] = e.Options["preset"]
	}
	return out
}
