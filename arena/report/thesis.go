package report

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"arena/arena/record"
	"arena/internal/atomicfile"
)

// HeuristicEngine is the built-in engine the thesis's experiments all use.
const HeuristicEngine = "heuristic"

// ReproductionPlotsDir is where WriteReproduction puts its plots, relative
// to the file's directory.
var ReproductionPlotsDir = filepath.Join("img", "reproduction")

// setting is our side of one row: the runs of an experiment at one time
// per move (or at the node budgets of that row), pooled.
type setting struct {
	moveTime  time.Duration
	runs      []*Run
	heur, opp record.EngineSummary // pooled over the runs
	distinct  int                  // distinct games (by their moves)
}

// The kinds of reproduction (docs/reproduction.md): how a run's limits and
// start position relate to the thesis's.
const (
	kindFaithful = "faithful" // the thesis's seconds per move from the start position
	kindCompute  = "compute"  // the rows' node budgets (ThesisRow.HeurBudget)
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
func classify(runs []*Run) (variants []*variant, unused []*Run) {
	byKey := map[string]*variant{}
	for _, r := range runs {
		exp, heur, opp := experimentOf(r)
		if exp == nil {
			unused = append(unused, r)
			continue
		}
		d, kind, ok := rowOf(exp, heur, r.Summary.Openings != "")
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
		s.distinct += distinctGames(r)
	}
	for _, v := range variants {
		sort.Slice(v.settings, func(a, b int) bool { return v.settings[a].moveTime < v.settings[b].moveTime })
	}
	expIndex := func(id string) int {
		return slices.IndexFunc(Thesis, func(e ThesisExperiment) bool { return e.ID == id })
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
// the row whose node budget it has (compute-matched).
func rowOf(exp *ThesisExperiment, heur record.EngineSummary, book bool) (time.Duration, string, bool) {
	if d, ok := MoveTime(heur); ok {
		if book {
			return d, kindTime, true
		}
		return d, kindFaithful, true
	}
	n, ok := NodeLimit(heur)
	if !ok {
		return 0, "", false
	}
	for _, r := range exp.Rows {
		if r.HeurBudget == n {
			return r.MoveTime, kindCompute, true
		}
	}
	return 0, "", false
}

// experimentOf finds the thesis experiment a run belongs to and its two
// engines; nil when it is none of them. Of the experiments against the
// same engine (experiment 1 and its reference match) the one with the
// run's move limit wins, else the first.
func experimentOf(r *Run) (*ThesisExperiment, record.EngineSummary, record.EngineSummary) {
	es := r.Summary.Engines
	if len(es) != 2 {
		return nil, record.EngineSummary{}, record.EngineSummary{}
	}
	var found *ThesisExperiment
	var heur, opp record.EngineSummary
	for i := range Thesis {
		exp := &Thesis[i]
		var h, o record.EngineSummary
		switch {
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

// distinctGames counts the run's games that differ in their moves: with
// deterministic engines from one start position, games with the same
// colours repeat (the thesis's caveat).
func distinctGames(r *Run) int {
	seqs := map[int][]string{}
	for _, m := range r.Moves {
		seqs[m.Game] = append(seqs[m.Game], m.UCI)
	}
	seen := map[string]bool{}
	for _, g := range r.Summary.Games {
		seen[g.White+"\x00"+strings.Join(seqs[g.Game], " ")] = true
	}
	return len(seen)
}

// WriteReproduction writes file (docs/reproduction.md): per thesis
// experiment, the thesis's table next to ours, plots of both, and the
// differences the data explain. Plots go to ReproductionPlotsDir beside it.
func WriteReproduction(runs []*Run, file string) error {
	dir := filepath.Dir(file)
	plots := filepath.Join(dir, ReproductionPlotsDir)
	if err := os.MkdirAll(plots, 0o755); err != nil {
		return fmt.Errorf("reproduction plots: %w", err)
	}
	md, err := Reproduction(runs, dir, plots)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(file, md); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}

// Reproduction returns the comparison in Markdown, rendering its plots into
// plots (linked relative to dir, the Markdown file's directory).
func Reproduction(runs []*Run, dir, plots string) ([]byte, error) {
	variants, unused := classify(runs)
	var b bytes.Buffer
	b.WriteString("# Reproduction of the thesis's experiments\n\n")
	fmt.Fprintf(&b, "Generated by `arena report --thesis` from %d runs; the thesis's numbers are THESIS.md section 1.6. ", len(runs))
	b.WriteString("Each cell reads **thesis / ours**; `–` where a side has no number. Times are seconds per move, nodes per move (ours: mean and median), ACPL the mean centipawn loss judged by Stockfish at the depth each experiment states (ours: with its 95% interval, games as clusters).\n\n")
	var wall time.Duration
	for _, r := range runs {
		wall += r.Summary.Updated.Sub(r.Summary.Started)
	}
	fmt.Fprintf(&b, "Wall time of the runs (sum of each run's start to its last summary): %s.\n\n", wall.Round(time.Second))
	writeMethod(&b, runs)
	if len(unused) > 0 {
		names := make([]string, len(unused))
		for i, r := range unused {
			names[i] = "`" + r.Dir + "`"
		}
		fmt.Fprintf(&b, "Not part of a thesis experiment (not the heuristic engine against nn, mcts or supervised at a movetime or one of the node budgets): %s.\n\n", strings.Join(names, ", "))
	}
	for i := range Thesis {
		exp := &Thesis[i]
		fmt.Fprintf(&b, "## %s\n\n", exp.Title)
		fmt.Fprintf(&b, "Thesis: heuristic engine against %s, Stockfish depth %d, at most %d plies, every game from the start position.\n\n", exp.Label, exp.JudgeDepth, exp.MaxMoves)
		for _, rm := range exp.Remarks {
			fmt.Fprintf(&b, "- %s\n", rm)
		}
		if len(exp.Remarks) > 0 {
			b.WriteString("\n")
		}
		var mine []*variant
		for _, v := range variants {
			if v.exp == exp {
				mine = append(mine, v)
			}
		}
		if len(mine) == 0 {
			b.WriteString("No runs of this experiment among the directories given; the thesis's table:\n\n")
			writeMarkdownTable(&b, comparisonTable(&variant{exp: exp}))
			b.WriteString("\n")
			continue
		}
		for _, v := range mine {
			fmt.Fprintf(&b, "### %s\n\n", variantTitle(v))
			writeMarkdownTable(&b, comparisonTable(v))
			b.WriteString("\n")
			prefix := exp.ID + "-" + v.kind + "-" + strings.TrimSuffix(orDefault(v.book, "start"), filepath.Ext(v.book)) + "-"
			for _, f := range comparisonFigures(prefix, v) {
				rf, err := f.render(plots)
				if err != nil {
					return nil, err
				}
				writeMarkdownFigure(&b, dir, rf)
			}
			for _, n := range explain(v) {
				fmt.Fprintf(&b, "- %s\n", n)
			}
			b.WriteString("\n")
		}
	}
	writeVerdicts(&b, variants)
	b.WriteString("## Differences that hold for every experiment\n\n")
	for _, n := range generalDifferences(runs) {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	return b.Bytes(), nil
}

// variantTitle names the kind of reproduction and where its games start.
func variantTitle(v *variant) string {
	start := "from the start position (as the thesis)"
	if v.book != "" {
		start = fmt.Sprintf("from the openings of %s, each played with both colours", v.book)
	}
	switch v.kind {
	case kindCompute:
		return "Compute-matched (the thesis's nodes per move as node budgets), " + start
	case kindTime:
		return "Time-matched (the thesis's seconds per move), " + start
	}
	return "Faithful (the thesis's seconds per move), " + start
}

var comparisonHeader = []string{"Time/move", "Games", "Heur wins", "Opp wins", "Draws", "Heur time (s)", "Opp time (s)",
	"Heur nodes", "Opp nodes", "Heur ACPL", "Opp ACPL", "Distinct games (ours)"}

// comparisonTable has one row per time per move of the thesis or ours.
func comparisonTable(v *variant) *Table {
	header := slices.Clone(comparisonHeader)
	for i, h := range header {
		header[i] = strings.ReplaceAll(h, "Opp", v.exp.Label)
	}
	extraHeader, extraCells := rejudgeColumns(v)
	header = append(header, extraHeader...)
	t := &Table{Header: header, Right: rightFrom(1, len(header))}
	var times []time.Duration
	for _, r := range v.exp.Rows {
		times = append(times, r.MoveTime)
	}
	for _, s := range v.settings {
		times = append(times, s.moveTime)
	}
	slices.Sort(times)
	for _, d := range slices.Compact(times) {
		var tr *ThesisRow
		for i := range v.exp.Rows {
			if v.exp.Rows[i].MoveTime == d {
				tr = &v.exp.Rows[i]
			}
		}
		var s *setting
		for _, c := range v.settings {
			if c.moveTime == d {
				s = c
			}
		}
		cell := func(thesis, ours string) Cell { return Cell{Text: thesis + " / " + ours} }
		th := func(f func(*ThesisRow) string) string {
			if tr == nil {
				return "–"
			}
			return f(tr)
		}
		us := func(f func(*setting) string) string {
			if s == nil {
				return "–"
			}
			return f(s)
		}
		label := fmtSeconds(d)
		if v.kind == kindCompute && tr != nil {
			label += fmt.Sprintf(" (%s nodes)", thousands(float64(tr.HeurBudget)))
		}
		row := []Cell{{Text: label}}
		row = append(row,
			cell(th(func(r *ThesisRow) string { return fmt.Sprint(r.Games) }), us(func(s *setting) string { return fmt.Sprint(s.heur.Games) })),
			cell(th(func(r *ThesisRow) string { return fmt.Sprint(r.HeurWins) }), us(func(s *setting) string { return fmt.Sprint(s.heur.Wins) })),
			cell(th(func(r *ThesisRow) string { return optInt(r.OppWins) }), us(func(s *setting) string { return fmt.Sprint(s.opp.Wins) })),
			cell(th(func(r *ThesisRow) string {
				if r.OppWins == nil {
					return "–"
				}
				return fmt.Sprint(r.Games - r.HeurWins - *r.OppWins)
			}), us(func(s *setting) string { return fmt.Sprint(s.heur.Draws) })),
			cell(th(func(r *ThesisRow) string { return optFloat(r.HeurTime, 2) }), us(func(s *setting) string { return fmt.Sprintf("%.2f", s.heur.AvgTime) })),
			cell(th(func(r *ThesisRow) string { return optFloat(r.OppTime, 2) }), us(func(s *setting) string { return fmt.Sprintf("%.2f", s.opp.AvgTime) })),
			cell(th(func(r *ThesisRow) string { return thousands(r.HeurNodes) }), us(func(s *setting) string { return fmtNodes(s.heur.AvgNodes, statsOf(s, s.heur.Name)) })),
			cell(th(func(r *ThesisRow) string { return thousands(r.OppNodes) }), us(func(s *setting) string { return fmtNodes(s.opp.AvgNodes, statsOf(s, s.opp.Name)) })),
			cell(th(func(r *ThesisRow) string { return optFloat(r.HeurACPL, 0) }), us(func(s *setting) string { return fmtACPLInterval(s.heur.ACPL, statsOf(s, s.heur.Name)) })),
			cell(th(func(r *ThesisRow) string { return optFloat(r.OppACPL, 0) }), us(func(s *setting) string { return fmtACPLInterval(s.opp.ACPL, statsOf(s, s.opp.Name)) })),
			Cell{Text: us(func(s *setting) string { return fmt.Sprintf("%d of %d", s.distinct, s.heur.Games) })},
		)
		for _, c := range extraCells(s) {
			row = append(row, Cell{Text: c})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// explain lists the differences between the thesis's table and ours that
// the data of this variant account for.
func explain(v *variant) []string {
	var notes []string
	var games, distinct int
	for _, s := range v.settings {
		games += s.heur.Games
		distinct += s.distinct
	}
	if v.book == "" {
		notes = append(notes, fmt.Sprintf("Repeated games: from the start position, games with the same colours repeat when both engines are deterministic (the thesis's caveat: its 4 games of a setting are at most 2 distinct games, so its wins count the same game more than once). Ours: %d distinct games in %d.", distinct, games))
	} else {
		notes = append(notes, fmt.Sprintf("Openings: %d distinct games in %d. The thesis played every game from the start position, so these numbers differ from its in the positions played as well as in the engines.", distinct, games))
	}
	notes = append(notes, colourRecordOf(v).note())
	if n := judgeNote(v); n != "" {
		notes = append(notes, n)
	}
	if v.kind == kindCompute {
		notes = append(notes, "Node budgets: each row's limits are the thesis's nodes per move (the heuristic's converted to nodes counted once; see Method), so the time per move is what those nodes cost here, not the thesis's.")
	}
	for _, s := range v.settings {
		for _, tr := range v.exp.Rows {
			if v.kind == kindCompute || tr.MoveTime != s.moveTime || tr.HeurTime == 0 || s.heur.AvgTime == 0 {
				continue
			}
			notes = append(notes, fmt.Sprintf("At %s per move the thesis's heuristic engine searched %s nodes/s (%s nodes in %.2f s), ours %s nodes/s: %s more nodes at the same time per move (mean depth %.1f).",
				fmtSeconds(s.moveTime), thousands(tr.HeurNodes/tr.HeurTime), thousands(tr.HeurNodes), tr.HeurTime,
				thousands(s.heur.NPS), ratio(s.heur.NPS/(tr.HeurNodes/tr.HeurTime)), s.heur.AvgDepth))
		}
	}
	models := map[string]bool{}
	for _, s := range v.settings {
		for _, r := range s.runs {
			models[modelOf(r, v.exp.Opponent)] = true
		}
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for m := range models {
			if !yield(m) {
				return
			}
		}
	})
	notes = append(notes, fmt.Sprintf("Network: the thesis's %s weights are not ours; ours: %s (from each run's config.yaml).", v.exp.Label, strings.Join(names, ", ")))
	return notes
}

// modelOf is the model option of the run's engine of that built-in kind,
// or a note that the engine's default was used.
func modelOf(r *Run, engine string) string {
	var cfg struct {
		Engines []struct {
			Engine  string            `yaml:"engine"`
			Options map[string]string `yaml:"options"`
		} `yaml:"engines"`
	}
	if err := yaml.Unmarshal([]byte(r.Config), &cfg); err != nil {
		return "unknown (" + r.Dir + "/config.yaml: " + err.Error() + ")"
	}
	for _, e := range cfg.Engines {
		if e.Engine == engine {
			if m := e.Options["model"]; m != "" {
				return "`" + m + "`"
			}
		}
	}
	return "the engine's shipped default net"
}

// generalDifferences are the differences of method, with our side's
// numbers from the runs.
func generalDifferences(runs []*Run) []string {
	judges := map[string]bool{}
	var sfDepths []int
	for _, r := range runs {
		if r.Summary.Judge.Enabled {
			judges[orDefault(r.Summary.Versions.Judge, r.Summary.Judge.Engine)] = true
			sfDepths = append(sfDepths, r.Summary.Judge.Depth)
		}
	}
	slices.Sort(sfDepths)
	var js []string
	for j := range judges {
		js = append(js, j)
	}
	slices.Sort(js)
	depths := make([]string, 0, len(sfDepths))
	for _, d := range slices.Compact(sfDepths) {
		depths = append(depths, fmt.Sprint(d))
	}
	out := []string{
		"RAM is not compared: the thesis measured its own Python process (the same 554-882 MB for both engines); the arena measures each engine's own process (see the runs' reports).",
		"Time per move: the thesis's heuristic times exceed the limit (1.25 s at 1 s, 15.24 s at 15 s), partly because its search looks at the clock only every 2048 nodes. Ours are the wall time from `go` to `bestmove` of a separate UCI process, and a move later than the limit plus the margin loses on time.",
		"Games cut at the move limit count as no one's win in both (the thesis's `board.result()` gives `*`, the arena adjudicates a draw).",
	}
	if len(js) > 0 {
		out = append(out, fmt.Sprintf("Judge: the thesis used Stockfish at depth 12 (version not stated); ours: %s at depth %s, each position evaluated once. ACPL over 2-6 games per setting varies a lot from game to game either way.", strings.Join(js, ", "), strings.Join(depths, ", ")))
	}
	return out
}

func fmtSeconds(d time.Duration) string {
	return fmt.Sprintf("%g s", d.Seconds())
}

func optInt(p *int) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprint(*p)
}

func optFloat(v float64, prec int) string {
	if v == 0 {
		return "–"
	}
	return fmt.Sprintf("%.*f", prec, v)
}

func fmtACPL(p *float64) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf("%.0f", *p)
}

// thousands formats a count with comma separators, as the thesis's tables.
func thousands(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	s := fmt.Sprintf("%.0f", v)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func ratio(r float64) string {
	if r >= 10 {
		return fmt.Sprintf("%.0f times", r)
	}
	return fmt.Sprintf("%.1f times", r)
}
