package report

import (
	arep "arena/arena/report"
	"slices"

	"gonum.org/v1/plot/plotter"

	"arena/arena/record"
)

// comparisonFigures are the thesis's figures with our lines added: ACPL
// and nodes against time per move, the thesis's engines and ours.
func comparisonFigures(prefix string, v *variant) []*arep.Figure {
	acpl := &arep.Figure{Name: prefix + "acpl-vs-time", Title: v.exp.Label + " vs heuristic: ACPL vs time per move",
		XLabel: "time per move (s)", YLabel: "ACPL", Caption: "The thesis's numbers (its table) and ours (pooled over our runs at each setting); x: the movetime limit."}
	nodes := &arep.Figure{Name: prefix + "nodes-vs-time", Title: v.exp.Label + " vs heuristic: nodes vs time per move",
		XLabel: "time per move (s)", YLabel: "nodes per move", LogY: true, Caption: "Mean nodes per move, log scale; x: the movetime limit."}
	// The thesis's lines are dashed in the colour of our line of the same
	// engine.
	thesisLine := func(name string, color int, y func(ThesisRow) float64) arep.Line {
		l := arep.Line{Name: name + " (thesis)", Color: color, Dashed: true}
		for _, r := range v.exp.Rows {
			l.Points = append(l.Points, plotter.XY{X: r.MoveTime.Seconds(), Y: y(r)})
		}
		return l
	}
	ourLine := func(name string, color int, y func(*setting) (float64, bool)) arep.Line {
		l := arep.Line{Name: name + " (ours)", Color: color}
		for _, s := range v.settings {
			if val, ok := y(s); ok {
				l.Points = append(l.Points, plotter.XY{X: s.moveTime.Seconds(), Y: val})
			}
		}
		return l
	}
	acplOf := func(e func(*setting) record.EngineSummary) func(*setting) (float64, bool) {
		return func(s *setting) (float64, bool) {
			if a := e(s).ACPL; a != nil {
				return *a, true
			}
			return 0, false
		}
	}
	nodesOf := func(e func(*setting) record.EngineSummary) func(*setting) (float64, bool) {
		return func(s *setting) (float64, bool) { return e(s).AvgNodes, e(s).AvgNodes > 0 }
	}
	heur := func(s *setting) record.EngineSummary { return s.heur }
	opp := func(s *setting) record.EngineSummary { return s.opp }
	acpl.Lines = []arep.Line{
		thesisLine("Heuristic", 0, func(r ThesisRow) float64 { return r.HeurACPL }),
		thesisLine(v.exp.Label, 1, func(r ThesisRow) float64 { return r.OppACPL }),
		ourLine("Heuristic", 0, acplOf(heur)),
		ourLine(v.exp.Label, 1, acplOf(opp)),
	}
	nodes.Lines = []arep.Line{
		thesisLine("Heuristic", 0, func(r ThesisRow) float64 { return r.HeurNodes }),
		thesisLine(v.exp.Label, 1, func(r ThesisRow) float64 { return r.OppNodes }),
		ourLine("Heuristic", 0, nodesOf(heur)),
		ourLine(v.exp.Label, 1, nodesOf(opp)),
	}
	var out []*arep.Figure
	for _, f := range []*arep.Figure{acpl, nodes} {
		f.Lines = slices.DeleteFunc(f.Lines, func(l arep.Line) bool { return len(l.Points) == 0 })
		if len(f.Lines) > 0 {
			out = append(out, f)
		}
	}
	return out
}
