package report

import (
	"image/color"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// Twelve lines get twelve different colours.
func TestPaletteDistinct(t *testing.T) {
	seen := map[color.Color]int{}
	for i := range 12 {
		c := lineColor(i)
		if j, dup := seen[c]; dup {
			t.Errorf("lines %d and %d share colour %v", j, i, c)
		}
		seen[c] = i
	}
}

// A few x values are the ticks themselves; many fall back to gonum's.
func TestValueTicks(t *testing.T) {
	ticks := valueTicks{0.05, 0.1, 0.2}.Ticks(0, 0.25)
	var labels []string
	for _, tk := range ticks {
		labels = append(labels, tk.Label)
	}
	if strings.Join(labels, " ") != "0.05 0.1 0.2" {
		t.Errorf("ticks %q", labels)
	}
	if ticks := valueTicks(nil).Ticks(0, 100); len(ticks) < 2 {
		t.Errorf("default ticks %v", ticks)
	}
	lines := []Line{{Points: plotter.XYs{{X: 0.2, Y: 1}, {X: 0.05, Y: 2}}}, {Points: plotter.XYs{{X: 0.05, Y: 3}}}}
	if xs := distinctX(lines, 8); len(xs) != 2 || xs[0] != 0.05 || xs[1] != 0.2 {
		t.Errorf("distinctX = %v", xs)
	}
	if xs := distinctX(lines, 1); xs != nil {
		t.Errorf("more than max: %v", xs)
	}
}

// The sweep plots carry 95% error bars from the games, and runs limited by
// depth only are plotted against the depth limit, not a measured time.
func TestSweepErrorBarsAndLimitAxis(t *testing.T) {
	rs := loadRuns(t, sweep100, sweep50)
	series, axis := Sweep(rs)
	figs := sweepFigures("", series, axis)
	acpl := figs[0].Lines[0]
	if len(acpl.Err) != len(acpl.Points) {
		t.Fatalf("ACPL line has %d error bars for %d points", len(acpl.Err), len(acpl.Points))
	}
	for i, e := range acpl.Err {
		if !(e > 0) {
			t.Errorf("point %d: error bar %v, want a positive half-width from the run's 2 games", i, e)
		}
	}
	if !strings.Contains(figs[0].Caption, "95% intervals") {
		t.Errorf("caption %q does not say what the bars are", figs[0].Caption)
	}
	if _, err := figs[0].draw("svg"); err != nil {
		t.Fatal(err)
	}

	rr := loadRuns(t, "roundrobin-depth")
	series, axis = Sweep(rr)
	if axis.Limit != "depth" || axis.Label != "depth limit" {
		t.Fatalf("axis of a depth-limited run %+v, want the depth limit", axis)
	}
	for _, s := range series {
		want := map[string]float64{"Depth 1": 1, "Depth 2": 2, "Depth 4": 4}[s.Engine]
		if p := s.Points[0]; p.X != want || p.Measured {
			t.Errorf("%s at x %v (measured %v), want its depth %v", s.Engine, p.X, p.Measured, want)
		}
	}
	if f := sweepFigures("", series, axis); f[0].Title != "Nodes vs depth limit" {
		t.Errorf("title %q", f[0].Title)
	}
}

// Error bars of measures that cannot be negative stop at zero (above it on
// a log axis); the interval above the mean keeps its width.
func TestErrorBarsNotBelowZero(t *testing.T) {
	l := Line{Points: plotter.XYs{{X: 1, Y: 2}, {X: 2, Y: 10}}, Err: []float64{5, 3}}
	for _, logY := range []bool{false, true} {
		bars, err := errorBars(l, logY)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range l.Points {
			low, high := p.Y-bars.YErrors[i].Low, p.Y+bars.YErrors[i].High
			if low < 0 || (logY && low <= 0) || high != p.Y+l.Err[i] {
				t.Errorf("log %v, point %v ± %v: bar [%v, %v]", logY, p.Y, l.Err[i], low, high)
			}
		}
		if got := p0(bars); got != 7 {
			t.Errorf("log %v: the bar of 10 ± 3 starts at %v, want 7", logY, got)
		}
	}
}

func p0(b *plotter.YErrorBars) float64 { return b.XYs[1].Y - b.YErrors[1].Low }

// A figure whose lines have one point each becomes a table, with the
// intervals clamped as the bars are; two points make a plot.
func TestOnePointFigureIsATable(t *testing.T) {
	f := &Figure{Name: "x", XLabel: "movetime", YLabel: "ACPL", Lines: []Line{
		{Name: "A", Points: plotter.XYs{{X: 0.1, Y: 40}}, Err: []float64{50}},
		{Name: "B", Points: plotter.XYs{{X: 0.1, Y: 20}}, Err: []float64{4}},
	}}
	r, err := f.Render(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if r.Table == nil || r.InlineSVG != "" || len(r.Table.Rows) != 2 {
		t.Fatalf("one point per line: %+v", r)
	}
	if got := r.Table.Rows[0][3].Text; got != "[0, 90]" {
		t.Errorf("interval of 40 ± 50: %q, want [0, 90]", got)
	}
	f.Lines[0].Points = append(f.Lines[0].Points, plotter.XY{X: 0.2, Y: 30})
	if r, err := f.Render(t.TempDir()); err != nil || r.Table != nil || r.InlineSVG == "" {
		t.Errorf("two points: table %v, err %v", r.Table, err)
	}
}
