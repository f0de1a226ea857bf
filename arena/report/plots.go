package report

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"arena/arena/record"
	"arena/internal/atomicfile"
	"arena/tracker"
)

// Plot size without the legend below it: 6 × 4 inches (576 × 384 pixels in
// the PNG at gonum's 96 dpi).
const (
	plotWidth  = 6 * vg.Inch
	plotHeight = 4 * vg.Inch
)

// Point is one engine in one run: a point of the sweep plots.
type Point struct {
	Run    *Run
	Engine record.EngineSummary
	// X is the engine's time per move in seconds: its movetime limit, or,
	// when it had none (clock, nodes or depth only), its measured mean
	// time per move (Measured is then true). When the runs are the
	// settings of one sweep over another numeric key, X is the setting's
	// value (Axis.Swept).
	X        float64
	Measured bool
}

// Series is one engine's points over the runs, by increasing X.
type Series struct {
	Engine string
	Points []Point
}

// Axis is what the x axis of the sweep plots shows.
type Axis struct {
	Label string // "time per move (s)" or the swept key
	// Swept: x is the value of the swept key (the runs are the settings
	// of one sweep over a numeric key other than a movetime).
	Swept bool
	// Limit is "nodes" or "depth" when x is that limit: every engine of
	// every run is limited by it and none by time, so a time per move
	// would only be the measured one, scattered.
	Limit string
}

// Sweep groups the runs' engines by name: one series per engine, in order
// of first appearance, so a list of runs at different time limits is a
// sweep whatever produced it. Runs of several sweeps (or of sweeps and
// single runs) make one series per sweep and engine, named "SWEEP: ENGINE",
// so that the same engine in different experiments gets separate lines. A
// sweep over another numeric key (a depth, an option) is plotted against
// that key: its runs share one time per move.
func Sweep(runs []*Run) ([]Series, Axis) {
	axis := Axis{Label: "time per move (s)"}
	if sw := runs[0].Sweep; sw != nil && !strings.HasSuffix(sw.Summary.Key, "movetime") {
		axis = Axis{Label: sw.Summary.Key, Swept: true}
		for _, r := range runs {
			if r.Sweep != sw || r.Setting.X == nil {
				axis = Axis{Label: "time per move (s)"}
				break
			}
		}
	}
	if !axis.Swept {
		if l := commonLimit(runs); l != "" {
			axis = Axis{Label: l + " limit", Limit: l}
		}
	}
	sweeps := map[*SweepDir]bool{}
	for _, r := range runs {
		sweeps[r.Sweep] = true
	}
	var out []Series
	index := map[string]int{}
	for _, r := range runs {
		for _, e := range r.Summary.Engines {
			name := e.Name
			if len(sweeps) > 1 && r.Sweep != nil {
				name = r.Sweep.Summary.Name + ": " + e.Name
			}
			i, ok := index[name]
			if !ok {
				i = len(out)
				index[name] = i
				out = append(out, Series{Engine: name})
			}
			p := Point{Run: r, Engine: e}
			if d, ok := MoveTime(e); axis.Swept {
				p.X = *r.Setting.X
			} else if axis.Limit != "" {
				p.X, _ = limitValue(e, axis.Limit)
			} else if ok {
				p.X = d.Seconds()
			} else {
				p.X, p.Measured = e.AvgTime, true
			}
			out[i].Points = append(out[i].Points, p)
		}
	}
	for _, s := range out {
		sort.SliceStable(s.Points, func(a, b int) bool { return s.Points[a].X < s.Points[b].X })
	}
	return out, axis
}

// commonLimit is "nodes" or "depth" when every engine of every run has that
// limit and no movetime or clock, "" otherwise.
func commonLimit(runs []*Run) string {
	for _, l := range []string{"nodes", "depth"} {
		all := true
		for _, r := range runs {
			for _, e := range r.Summary.Engines {
				_, ok := limitValue(e, l)
				all = all && ok && !strings.Contains(e.Limits, "movetime ") && !strings.Contains(e.Limits, "tc ")
			}
		}
		if all {
			return l
		}
	}
	return ""
}

// limitValue is the engine's nodes or depth limit from summary.json's
// limits ("nodes 20000, depth 8").
func limitValue(e record.EngineSummary, name string) (float64, bool) {
	for part := range strings.SplitSeq(e.Limits, ",") {
		if v, found := strings.CutPrefix(strings.TrimSpace(part), name+" "); found {
			x, err := strconv.ParseFloat(v, 64)
			return x, err == nil
		}
	}
	return 0, false
}

// Figure is one plot: what is drawn, independent of the output format.
type Figure struct {
	Name    string // file name without extension, in the plots directory
	Title   string
	XLabel  string
	YLabel  string
	LogY    bool
	Lines   []Line
	Caption string // what the reader needs to know to read it
}

// Line is one engine's line of a figure.
type Line struct {
	Name   string
	Points plotter.XYs
	// Err is the half-width of each point's 95% interval, drawn as an
	// error bar (NaN or missing: none).
	Err    []float64
	Color  int  // index into palette (and gonum's glyph shapes)
	Dashed bool // e.g. the thesis's numbers beside ours
}

// sweepFigures builds the thesis-style plots: ACPL and nodes against time
// per move, one line per engine, named PREFIXacpl-vs-time and
// PREFIXnodes-vs-time. The ACPL plot is left out when no move was judged.
func sweepFigures(prefix string, series []Series, axis Axis) []*Figure {
	xLabel := axis.Label
	caption := "x: the engine's movetime limit"
	if anyMeasured(series) {
		caption += "; engines without one (clock, nodes or depth limits) at their measured mean time per move"
	}
	what := "time per move"
	if axis.Swept {
		caption, what = "x: the sweep's setting of "+axis.Label, axis.Label
	}
	if axis.Limit != "" {
		caption, what = "x: the engine's "+axis.Limit+" limit", axis.Limit+" limit"
	}
	bars := " Bars: 95% intervals with games as the units."
	acpl := &Figure{Name: prefix + "acpl-vs-time", Title: "ACPL vs " + what, XLabel: xLabel,
		YLabel: "ACPL", Caption: caption + "; y: ACPL pooled over the engine's judged moves." + bars}
	nodes := &Figure{Name: prefix + "nodes-vs-time", Title: "Nodes vs " + what, XLabel: xLabel,
		YLabel: "nodes per move", Caption: caption + "; y: mean nodes per move." + bars}
	for i, s := range series {
		la, ln := Line{Name: s.Engine, Color: i}, Line{Name: s.Engine, Color: i}
		for _, p := range s.Points {
			cpl, nodes := engineMoves(p.Run, p.Engine.Name)
			if p.Engine.ACPL != nil {
				la.Points = append(la.Points, plotter.XY{X: p.X, Y: *p.Engine.ACPL})
				la.Err = append(la.Err, tracker.Ratio(cpl).Half())
			}
			ln.Points = append(ln.Points, plotter.XY{X: p.X, Y: p.Engine.AvgNodes})
			ln.Err = append(ln.Err, tracker.Ratio(nodes).Half())
		}
		if len(la.Points) > 0 {
			acpl.Lines = append(acpl.Lines, la)
		}
		nodes.Lines = append(nodes.Lines, ln)
	}
	// Node counts of engines differ by orders of magnitude (the thesis's
	// heuristic engine 10^5, its 1-ply network 10): on a linear axis the
	// small ones would lie flat on zero.
	lo, hi := math.Inf(1), 0.0
	for _, l := range nodes.Lines {
		for _, p := range l.Points {
			lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y)
		}
	}
	if lo > 0 && hi/lo > 100 {
		nodes.LogY = true
		nodes.Caption += " Log scale: the engines' node counts differ by orders of magnitude."
	}
	var figs []*Figure
	if len(acpl.Lines) > 0 {
		figs = append(figs, acpl)
	}
	return append(figs, nodes)
}

func anyMeasured(series []Series) bool {
	for _, s := range series {
		for _, p := range s.Points {
			if p.Measured {
				return true
			}
		}
	}
	return false
}

// runFigures builds one run's plots by ply: the mean time per move and, when
// judged, the mean centipawn loss at each ply over the run's games, one line
// per engine.
func runFigures(r *Run, slug string) []*Figure {
	// One value per game at a ply: the games are independent samples.
	type acc struct{ time, cpl []tracker.Cluster }
	per := map[string]map[int]*acc{}
	judged := false
	for _, m := range r.Moves {
		if per[m.Engine] == nil {
			per[m.Engine] = map[int]*acc{}
		}
		a := per[m.Engine][m.Ply]
		if a == nil {
			a = &acc{}
			per[m.Engine][m.Ply] = a
		}
		a.time = append(a.time, tracker.Cluster{Sum: m.Time, N: 1})
		if m.CPL != nil {
			a.cpl = append(a.cpl, tracker.Cluster{Sum: *m.CPL, N: 1})
			judged = true
		}
	}
	name := r.Summary.Name
	tf := &Figure{Name: slug + "-time-by-ply", Title: name + ": time per move by ply", XLabel: "ply",
		YLabel: "time per move (s)", Caption: "Mean wall time (go to bestmove) at each ply over the run's games; bars: 95% intervals."}
	cf := &Figure{Name: slug + "-cpl-by-ply", Title: name + ": centipawn loss by ply", XLabel: "ply",
		YLabel: "centipawn loss", Caption: "Mean centipawn loss (the judge's) at each ply over the run's games; bars: 95% intervals."}
	for i, e := range r.Summary.Engines {
		plies := make([]int, 0, len(per[e.Name]))
		for p := range per[e.Name] {
			plies = append(plies, p)
		}
		sort.Ints(plies)
		lt, lc := Line{Name: e.Name, Color: i}, Line{Name: e.Name, Color: i}
		for _, p := range plies {
			a := per[e.Name][p]
			t := tracker.Ratio(a.time)
			lt.Points = append(lt.Points, plotter.XY{X: float64(p), Y: t.Value})
			lt.Err = append(lt.Err, t.Half())
			if len(a.cpl) > 0 {
				c := tracker.Ratio(a.cpl)
				lc.Points = append(lc.Points, plotter.XY{X: float64(p), Y: c.Value})
				lc.Err = append(lc.Err, c.Half())
			}
		}
		if len(lt.Points) > 0 {
			tf.Lines = append(tf.Lines, lt)
		}
		if len(lc.Points) > 0 {
			cf.Lines = append(cf.Lines, lc)
		}
	}
	var figs []*Figure
	if len(tf.Lines) > 0 {
		figs = append(figs, tf)
	}
	if judged {
		figs = append(figs, cf)
	}
	return figs
}

// plot draws the figure's axes and lines with gonum/plot, and returns its
// legend separately: drawn inside the plot it would cover data.
func (f *Figure) plot() (*plot.Plot, plot.Legend, error) {
	p := plot.New()
	p.Title.Text = f.Title
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel
	p.Add(plotter.NewGrid())
	if f.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = decadeTicks{}
	}
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	// Browsers without gonum's font draw the inline SVG's legend in a
	// wider one; the padding keeps its lines apart.
	legend.Padding = vg.Points(2)
	for _, l := range f.Lines {
		line, points, err := plotter.NewLinePoints(l.Points)
		if err != nil {
			return nil, legend, fmt.Errorf("plot %s, line %s: %w", f.Name, l.Name, err)
		}
		c := lineColor(l.Color)
		line.Color = c
		line.Width = vg.Points(1.5)
		if l.Dashed {
			line.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		points.Color = c
		points.Shape = plotutil.Shape(l.Color)
		points.Radius = vg.Points(3)
		p.Add(line, points)
		legend.Add(l.Name, line, points)
		bars, err := errorBars(l, f.LogY)
		if err != nil {
			return nil, legend, fmt.Errorf("plot %s, line %s: %w", f.Name, l.Name, err)
		}
		if bars != nil {
			bars.Color = c
			p.Add(bars)
		}
	}
	p.X.Tick.Marker = valueTicks(distinctX(f.Lines, 8))
	// Points would otherwise sit on the plot's edges (a single run's
	// point on both). A log axis spans whole decades instead: gonum's log
	// ticks run to the next power of ten and leave the space between
	// empty otherwise.
	p.X.Min, p.X.Max = padRange(p.X.Min, p.X.Max)
	if f.LogY {
		p.Y.Min = math.Pow10(int(math.Floor(math.Log10(p.Y.Min))))
		p.Y.Max = math.Pow10(int(math.Ceil(math.Log10(p.Y.Max))))
	} else {
		p.Y.Min, p.Y.Max = padRange(p.Y.Min, p.Y.Max)
	}
	return p, legend, nil
}

// draw writes the figure in format ("png" or "svg"): the plot, and below
// it the legend, one line per engine.
func (f *Figure) draw(format string) ([]byte, error) {
	p, legend, err := f.plot()
	if err != nil {
		return nil, err
	}
	pad := vg.Points(6)
	probe := draw.New(vgimg.New(plotWidth, plotHeight))
	legendH := legend.Rectangle(probe).Size().Y + pad
	total := plotHeight + legendH
	c, err := draw.NewFormattedCanvas(plotWidth, total, format)
	if err != nil {
		return nil, fmt.Errorf("plot %s: %w", f.Name, err)
	}
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, 0, legendH, 0))
	legend.Draw(draw.Crop(dc, pad, 0, 0, -plotHeight-pad/2))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plot %s as %s: %w", f.Name, format, err)
	}
	return buf.Bytes(), nil
}

// decadeTicks are gonum's log ticks labelled 1, 10, 100, 1k ... 1M instead
// of 1e+06.
type decadeTicks struct{}

func (decadeTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.LogTicks{}.Ticks(min, max)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = siLabel(t.Value)
		}
	}
	return ticks
}

func siLabel(v float64) string {
	for _, u := range []struct {
		div    float64
		suffix string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= u.div {
			return strconv.FormatFloat(v/u.div, 'g', -1, 64) + u.suffix
		}
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// padRange widens a data range by 5% on each side, and a single value by
// 10% of it, so that no point is drawn on an axis.
func padRange(lo, hi float64) (float64, float64) {
	if hi == lo {
		d := math.Max(math.Abs(lo)*0.1, 1e-3)
		lo, hi = lo-d, hi+d
	} else {
		d := (hi - lo) * 0.05
		lo, hi = lo-d, hi+d
	}
	return lo, hi
}

// Rendered is a figure written to disk.
type Rendered struct {
	*Figure
	PNG, SVG string // paths of the files written
	// InlineSVG is the SVG without its XML prolog, for embedding in HTML.
	InlineSVG string
	// Table replaces the plot when no line has two points: a plot of
	// lone points says less than their numbers (and no file is written).
	Table *Table
}

// Render writes the figure as dir/NAME.png and dir/NAME.svg, or makes it a
// table when no line has two points.
func (f *Figure) Render(dir string) (*Rendered, error) {
	out := &Rendered{Figure: f, PNG: filepath.Join(dir, f.Name+".png"), SVG: filepath.Join(dir, f.Name+".svg")}
	if t := f.pointTable(); t != nil {
		out.Table = t
		return out, nil
	}
	for _, o := range []struct{ format, path string }{{"png", out.PNG}, {"svg", out.SVG}} {
		data, err := f.draw(o.format)
		if err != nil {
			return nil, err
		}
		if err := atomicfile.WriteFile(o.path, data); err != nil {
			return nil, fmt.Errorf("write plot: %w", err)
		}
		if o.format == "svg" {
			out.InlineSVG = inlineSVG(string(data))
		}
	}
	return out, nil
}

// pointTable is the figure as a table (engine, x, y, 95% interval) when no
// line has more than one point; nil otherwise.
func (f *Figure) pointTable() *Table {
	for _, l := range f.Lines {
		if len(l.Points) > 1 {
			return nil
		}
	}
	t := &Table{Header: []string{"Engine", f.XLabel, f.YLabel, "95% interval"}, Right: []bool{false, true, true, true}}
	for _, l := range f.Lines {
		for i, p := range l.Points {
			ci := "-"
			if i < len(l.Err) && !math.IsNaN(l.Err[i]) && l.Err[i] > 0 {
				low, high := ErrorRange(p.Y, l.Err[i], f.LogY)
				ci = fmt.Sprintf("[%s, %s]", fmtValue(low), fmtValue(high))
			}
			t.Rows = append(t.Rows, []Cell{{Text: l.Name}, {Text: fmtValue(p.X)}, {Text: fmtValue(p.Y)}, {Text: ci}})
		}
	}
	return t
}

// fmtValue prints a measure with four significant digits.
func fmtValue(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

var svgSize = regexp.MustCompile(`^<svg width="[^"]*" height="[^"]*"`)

// inlineSVG drops the XML prolog and comment before <svg> (not allowed in
// HTML) and the fixed size in points, so the page's CSS can scale the plot
// with its viewBox. The SVG names gonum's font (Liberation) without a
// fallback; a generic family lets browsers without it pick a like one
// instead of their default.
func inlineSVG(s string) string {
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	s = strings.ReplaceAll(s, "font-family:Liberation Serif;", "font-family:'Liberation Serif',serif;")
	return svgSize.ReplaceAllString(s, `<svg class="plot" role="img"`)
}

var slugRe = regexp.MustCompile(`[^a-z0-9]+`)

// slugs gives each run a file-name-safe name from its directory, unique
// within the report.
func slugs(runs []*Run) []string {
	out := make([]string, len(runs))
	seen := map[string]int{}
	for i, r := range runs {
		s := strings.Trim(slugRe.ReplaceAllString(strings.ToLower(filepath.Base(filepath.Clean(r.Dir))), "-"), "-")
		if s == "" {
			s = "run"
		}
		seen[s]++
		if n := seen[s]; n > 1 {
			s = fmt.Sprintf("%s-%d", s, n)
		}
		out[i] = s
	}
	return out
}
