package report

import (
	"math"
	"slices"

	"gonum.org/v1/plot/plotter"

	"arena/arena/record"
	arep "arena/arena/report"
	"arena/tracker"
)

// comparisonFigures are the thesis's figures with our lines added: ACPL
// and nodes against time per move, the thesis's engines and ours.
func comparisonFigures(prefix string, v *variant) []*arep.Figure {
	acpl := &arep.Figure{Name: prefix + "acpl-vs-time", Title: v.exp.Label + " vs heuristic: ACPL vs time per move",
		XLabel: "time per move (s)", YLabel: "ACPL", Caption: "The thesis's numbers (its table) and ours (pooled over our runs' distinct games at each setting, with 95% t intervals); x: the movetime limit."}
	nodes := &arep.Figure{Name: prefix + "nodes-vs-time", Title: v.exp.Label + " vs heuristic: nodes vs time per move",
		XLabel: "time per move (s)", YLabel: "nodes per move", LogY: true, Caption: "Mean nodes per move (ours over distinct games, with 95% t intervals), log scale; x: the movetime limit."}
	// The thesis's lines are dashed in the colour of our line of the same
	// engine.
	thesisLine := func(name string, color int, y func(ThesisRow) float64) arep.Line {
		l := arep.Line{Name: name + " (thesis)", Color: color, Dashed: true}
		for _, r := range v.exp.Rows {
			l.Points = append(l.Points, plotter.XY{X: r.MoveTime.Seconds(), Y: y(r)})
		}
		return l
	}
	// Ours carry their 95% t interval over the distinct games as error bars.
	ourLine := func(name string, color int, y func(*setting) tracker.Estimate) arep.Line {
		l := arep.Line{Name: name + " (ours)", Color: color}
		for _, s := range v.settings {
			if e := y(s); !math.IsNaN(e.Value) && e.Value > 0 {
				l.Points = append(l.Points, plotter.XY{X: s.moveTime.Seconds(), Y: e.Value})
				l.Err = append(l.Err, e.Half())
			}
		}
		return l
	}
	acplOf := func(e func(*setting) record.EngineSummary) func(*setting) tracker.Estimate {
		return func(s *setting) tracker.Estimate { return statsOf(s, e(s).Name).acpl }
	}
	nodesOf := func(e func(*setting) record.EngineSummary) func(*setting) tracker.Estimate {
		return func(s *setting) tracker.Estimate { return tracker.Ratio(nodeClusters(s, e(s).Name)) }
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
