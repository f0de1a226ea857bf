package report

import (
	"image/color"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"arena/tracker"
)

// engineMoves sums an engine's moves of a run per game (the clusters of
// tracker.Ratio: the moves of one game are not independent, so 2 games must
// not look like 100 samples): the centipawn loss of its judged moves and the
// nodes of all of them.
func engineMoves(r *Run, engine string) (cpl, nodes []tracker.Cluster) {
	type acc struct{ cpl, nodes tracker.Cluster }
	byGame := map[int]*acc{}
	var order []int
	for _, m := range r.Moves {
		if m.Engine != engine {
			continue
		}
		a := byGame[m.Game]
		if a == nil {
			a = &acc{}
			byGame[m.Game] = a
			order = append(order, m.Game)
		}
		a.nodes.Sum += float64(m.Nodes)
		a.nodes.N++
		if m.CPL != nil {
			a.cpl.Sum += *m.CPL
			a.cpl.N++
		}
	}
	for _, g := range order {
		nodes = append(nodes, byGame[g].nodes)
		if byGame[g].cpl.N > 0 {
			cpl = append(cpl, byGame[g].cpl)
		}
	}
	return cpl, nodes
}

// palette gives up to 12 lines distinct colours (Paul Tol's colour-blind
// safe "muted" scheme, darkest first, then black, orange and grey), where
// gonum's default repeats after 7; beyond 12 the glyph shape still tells
// lines apart.
var palette = []color.RGBA{
	{0x33, 0x22, 0x88, 0xff}, {0xcc, 0x66, 0x77, 0xff}, {0x11, 0x77, 0x33, 0xff}, {0x88, 0x22, 0x55, 0xff},
	{0x44, 0xaa, 0x99, 0xff}, {0x99, 0x99, 0x33, 0xff}, {0xaa, 0x44, 0x99, 0xff}, {0x88, 0xcc, 0xee, 0xff},
	{0xdd, 0xcc, 0x77, 0xff}, {0x00, 0x00, 0x00, 0xff}, {0xee, 0x77, 0x33, 0xff}, {0x77, 0x77, 0x77, 0xff},
}

func lineColor(i int) color.Color { return palette[i%len(palette)] }

// valueTicks puts a labelled tick at each x value of the data when there
// are few (the settings of a sweep: 0.05, 0.1, 0.2 s), where gonum's
// evenly spaced ticks would label values no run used; otherwise gonum's.
type valueTicks []float64

func (v valueTicks) Ticks(min, max float64) []plot.Tick {
	if len(v) == 0 || len(v) > 8 {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	ticks := make([]plot.Tick, len(v))
	for i, x := range v {
		ticks[i] = plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', 4, 64)}
	}
	return ticks
}

// distinctX lists the figure's x values, sorted, or nil when there are
// more than max.
func distinctX(lines []Line, max int) []float64 {
	seen := map[float64]bool{}
	var xs []float64
	for _, l := range lines {
		for _, p := range l.Points {
			if !seen[p.X] {
				seen[p.X] = true
				xs = append(xs, p.X)
				if len(xs) > max {
					return nil
				}
			}
		}
	}
	sort.Float64s(xs)
	return xs
}

// ErrorRange is the interval y ± half of a measure that cannot be
// negative: asymmetric, its low end at least zero, and on a log axis at
// least a tenth of y (a log axis has no zero). arena serve's bars use it
// too, so the report and the dashboard draw the same intervals.
func ErrorRange(y, half float64, logY bool) (low, high float64) {
	low = max(y-half, 0)
	if logY {
		low = max(low, 0.1*y)
	}
	return low, y + half
}

// errorBars returns the line's 95% error bars as a gonum plotter, nil when
// it has none. Every figure plots a measure that cannot be negative (time,
// nodes, centipawn loss), so a bar stops at zero, and on a log axis above
// it (ErrorRange).
func errorBars(l Line, logY bool) (*plotter.YErrorBars, error) {
	var pts plotter.XYs
	var errs plotter.YErrors
	for i, p := range l.Points {
		if i >= len(l.Err) || math.IsNaN(l.Err[i]) || l.Err[i] <= 0 {
			continue
		}
		low, high := ErrorRange(p.Y, l.Err[i], logY)
		pts = append(pts, p)
		errs = append(errs, struct{ Low, High float64 }{p.Y - low, high - p.Y})
	}
	if len(pts) == 0 {
		return nil, nil
	}
	return plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{pts, errs})
}
