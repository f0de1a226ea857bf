package report

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"arena/arena"
)

// Output files, in the report directory.
const (
	MarkdownFile = "report.md"
	HTMLFile     = "report.html"
	PlotsDir     = "plots"
)

// Report is what report.md and report.html show, built once so that both
// say the same thing.
type Report struct {
	Title string
	Dir   string // the report directory
	Runs  []*Run
	// Combined has a row per run and engine when there are several runs
	// (a sweep), ordered by time per move.
	Combined *Table
	Figures  []*Rendered // ACPL and nodes against time per move
	Sections []*Section  // one per run
}

// Section is one run's part of the report.
type Section struct {
	Run        *Run
	Anchor     string // HTML id and file-name slug
	Facts      []Fact
	PGNLink    string // games.pgn relative to the report directory; "" without PGN
	Results    *Table
	EloLines   []string
	Crosstable *Table // three or more engines
	Games      *Table
	Figures    []*Rendered
}

// Fact is one "key: value" line of a run's configuration.
type Fact struct{ Key, Value string }

// Table is a table for both Markdown and HTML.
type Table struct {
	Header []string
	// Right marks the columns aligned right (numbers).
	Right []bool
	Rows  [][]Cell
}

// Cell is a table cell, optionally a link (relative to the report).
type Cell struct{ Text, Link string }

// Write builds the report of runs into dir: report.md, report.html and the
// plots (PNG and SVG) in dir/plots.
func Write(runs []*Run, dir string) (*Report, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("no runs to report")
	}
	plots := filepath.Join(dir, PlotsDir)
	if err := os.MkdirAll(plots, 0o755); err != nil {
		return nil, fmt.Errorf("report directory: %w", err)
	}
	rep, err := build(runs, dir)
	if err != nil {
		return nil, err
	}
	md := rep.Markdown()
	if err := os.WriteFile(filepath.Join(dir, MarkdownFile), md, 0o644); err != nil {
		return nil, fmt.Errorf("write report: %w", err)
	}
	html, err := rep.HTML()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, HTMLFile), html, 0o644); err != nil {
		return nil, fmt.Errorf("write report: %w", err)
	}
	return rep, nil
}

// build renders the plots into dir/plots and assembles the report.
func build(runs []*Run, dir string) (*Report, error) {
	rep := &Report{Dir: dir, Runs: runs, Title: "arena report: " + runs[0].Summary.Name}
	if len(runs) > 1 {
		rep.Title = fmt.Sprintf("arena report: %d runs", len(runs))
	}
	plots := filepath.Join(dir, PlotsDir)
	series := Sweep(runs)
	for _, f := range sweepFigures("", series) {
		r, err := f.render(plots)
		if err != nil {
			return nil, err
		}
		rep.Figures = append(rep.Figures, r)
	}
	names := slugs(runs)
	for i, r := range runs {
		s, err := section(r, names[i], dir)
		if err != nil {
			return nil, err
		}
		rep.Sections = append(rep.Sections, s)
	}
	if len(runs) > 1 {
		rep.Combined = combinedTable(series, rep.Sections)
	}
	return rep, nil
}

func section(r *Run, slug, dir string) (*Section, error) {
	s := &Section{Run: r, Anchor: slug}
	sum := r.Summary
	if r.PGN != "" {
		s.PGNLink = relLink(dir, r.PGN)
	}
	status := "complete"
	if !sum.Complete {
		status = "incomplete: interrupted or still running"
	}
	s.Facts = []Fact{
		{"Run directory", r.Dir},
		{"Games", fmt.Sprintf("%d of %d played (%s)", sum.GamesPlayed, sum.GamesPlanned, status)},
		{"Started", sum.Started.Format(time.RFC3339)},
		{"Wall time", (sum.Updated.Sub(sum.Started)).Round(time.Second).String()},
	}
	for i, e := range sum.Engines {
		desc := e.Engine
		if e.Command != "" {
			desc += ": " + e.Command
		}
		if e.ID != "" && e.ID != e.Engine {
			desc += ", id " + e.ID
		}
		s.Facts = append(s.Facts, Fact{fmt.Sprintf("Engine %d", i+1), fmt.Sprintf("%s (%s); limits: %s", e.Name, desc, e.Limits)})
	}
	maxMoves := "none"
	if sum.MaxMoves > 0 {
		maxMoves = fmt.Sprintf("%d plies (then adjudicated a draw)", sum.MaxMoves)
	}
	openings := "none (standard start position)"
	if sum.Openings != "" {
		openings = sum.Openings
	}
	judge := "off (no ACPL)"
	if j := sum.Judge; j.Enabled {
		judge = fmt.Sprintf("%s depth %d, cap %d, mate score %d; %d evaluations for %d judged plies",
			orDefault(sum.Versions.Judge, j.Engine), j.Depth, j.Cap, j.MateScore, j.Evaluations, j.JudgedPlies)
	}
	s.Facts = append(s.Facts,
		Fact{"Max moves", maxMoves},
		Fact{"Openings", openings},
		Fact{"Judge", judge},
		Fact{"Versions", fmt.Sprintf("arena %s, %s, %s", sum.Versions.Arena, sum.Versions.Go, sum.Versions.OS)},
	)
	s.Results = resultsTable(sum)
	for _, p := range sum.Pairs {
		r := p.Elo
		s.EloLines = append(s.EloLines, fmt.Sprintf("%s vs %s: +%d -%d =%d, %s", p.A, p.B, r.Wins, r.Losses, r.Draws, r))
	}
	if len(sum.Engines) >= 3 {
		s.Crosstable = crosstable(sum)
	}
	s.Games = gamesTable(sum)
	for _, f := range runFigures(r, slug) {
		rf, err := f.render(filepath.Join(dir, PlotsDir))
		if err != nil {
			return nil, err
		}
		s.Figures = append(s.Figures, rf)
	}
	return s, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

var resultsHeader = []string{"Engine", "Limits", "Games", "Wins", "Draws", "Losses", "Score %", "Avg Time (s)",
	"Avg Nodes", "Avg Depth", "Avg RAM (MB)", "Avg ACPL", "Accuracy", "Inacc/Mist/Blund", "Failures"}

// resultsTable is summary.md's table with the limits, the judge's error
// classes and the games lost by failing.
func resultsTable(s *arena.Summary) *Table {
	t := &Table{Header: resultsHeader, Right: rightFrom(2, len(resultsHeader))}
	for _, e := range s.Engines {
		classes := "-"
		if j := e.Judge; j != nil {
			classes = fmt.Sprintf("%d/%d/%d", j.Inaccuracies, j.Mistakes, j.Blunders)
		}
		t.Rows = append(t.Rows, texts(e.Name, e.Limits, fmt.Sprint(e.Games), fmt.Sprint(e.Wins), fmt.Sprint(e.Draws),
			fmt.Sprint(e.Losses), fmt.Sprintf("%.1f", e.ScorePct), fmt.Sprintf("%.3f", e.AvgTime),
			fmt.Sprintf("%.0f", e.AvgNodes), fmt.Sprintf("%.1f", e.AvgDepth), fmt.Sprintf("%.1f", e.AvgRAMMB),
			fmtOpt(e.ACPL), fmtOpt(e.Accuracy), classes, failures(e.Errors)))
	}
	return t
}

func failures(e arena.ErrorCounts) string {
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{e.TimeForfeits, "on time"}, {e.IllegalMoves, "illegal/no move"}, {e.Crashes, "crashed"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, ", ")
}

// crosstable shows each engine's points against each other engine (row
// engine's view) and its total, from the pairings' W-D-L.
func crosstable(s *arena.Summary) *Table {
	n := len(s.Engines)
	header := []string{"Engine"}
	idx := map[string]int{}
	for i, e := range s.Engines {
		header = append(header, e.Name)
		idx[e.Name] = i
	}
	header = append(header, "Points", "Games")
	type wdl struct{ w, d, l int }
	cells := make([][]*wdl, n)
	for i := range cells {
		cells[i] = make([]*wdl, n)
	}
	for _, p := range s.Pairs {
		a, okA := idx[p.A]
		b, okB := idx[p.B]
		if !okA || !okB {
			continue
		}
		cells[a][b] = &wdl{p.Elo.Wins, p.Elo.Draws, p.Elo.Losses}
		cells[b][a] = &wdl{p.Elo.Losses, p.Elo.Draws, p.Elo.Wins}
	}
	t := &Table{Header: header, Right: rightFrom(1, len(header))}
	for i, e := range s.Engines {
		row := texts(e.Name)
		for j := range s.Engines {
			switch c := cells[i][j]; {
			case i == j:
				row = append(row, Cell{Text: "—"})
			case c == nil:
				row = append(row, Cell{Text: ""})
			default:
				pts := float64(c.w) + float64(c.d)/2
				row = append(row, Cell{Text: fmt.Sprintf("%s/%d (+%d =%d -%d)", fmtPoints(pts), c.w+c.d+c.l, c.w, c.d, c.l)})
			}
		}
		row = append(row, texts(fmtPoints(e.Points), fmt.Sprint(e.Games))...)
		t.Rows = append(t.Rows, row)
	}
	return t
}

func fmtPoints(p float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", p), ".0") }

func gamesTable(s *arena.Summary) *Table {
	withOpening := false
	for _, g := range s.Games {
		withOpening = withOpening || g.Opening != ""
	}
	header := []string{"Game", "White", "Black"}
	if withOpening {
		header = append(header, "Opening")
	}
	header = append(header, "Result", "Termination", "Reason", "Plies", "Duration (s)", "White ACPL", "Black ACPL")
	t := &Table{Header: header, Right: make([]bool, len(header))}
	t.Right[0] = true
	for i := len(header) - 4; i < len(header); i++ {
		t.Right[i] = true
	}
	for _, g := range s.Games {
		row := texts(fmt.Sprint(g.Game), g.White, g.Black)
		if withOpening {
			row = append(row, Cell{Text: g.Opening})
		}
		reason := g.Reason
		if g.JudgeError != "" {
			reason += " (judge failed: " + g.JudgeError + ")"
		}
		row = append(row, texts(g.Result, g.Termination, reason, fmt.Sprint(g.Plies), fmt.Sprintf("%.1f", g.Duration),
			fmtOpt(g.WhiteACPL), fmtOpt(g.BlackACPL))...)
		t.Rows = append(t.Rows, row)
	}
	return t
}

var combinedHeader = []string{"Run", "Time/move (s)", "Engine", "Games", "Wins", "Draws", "Losses", "Score %",
	"Avg Time (s)", "Avg Nodes", "Avg Depth", "Avg ACPL", "Accuracy"}

// combinedTable is the sweep's table: a row per setting and engine, the
// settings (runs) in order of time per move (a run at its first engine's).
func combinedTable(series []Series, sections []*Section) *Table {
	type key struct {
		run    *Run
		engine string
	}
	points := map[key]Point{}
	for _, s := range series {
		for _, p := range s.Points {
			points[key{p.Run, s.Engine}] = p
		}
	}
	ordered := slices.Clone(sections)
	first := func(s *Section) float64 { return points[key{s.Run, s.Run.Summary.Engines[0].Name}].X }
	sort.SliceStable(ordered, func(a, b int) bool { return first(ordered[a]) < first(ordered[b]) })
	t := &Table{Header: combinedHeader, Right: rightFrom(3, len(combinedHeader))}
	t.Right[1] = true
	for _, s := range ordered {
		for _, e := range s.Run.Summary.Engines {
			p := points[key{s.Run, e.Name}]
			x := fmt.Sprintf("%g", p.X)
			if p.Measured {
				x = fmt.Sprintf("%.3f (measured)", p.X)
			}
			row := []Cell{{Text: s.Run.Summary.Name, Link: "#" + s.Anchor}}
			row = append(row, texts(x, e.Name, fmt.Sprint(e.Games), fmt.Sprint(e.Wins), fmt.Sprint(e.Draws),
				fmt.Sprint(e.Losses), fmt.Sprintf("%.1f", e.ScorePct), fmt.Sprintf("%.3f", e.AvgTime),
				fmt.Sprintf("%.0f", e.AvgNodes), fmt.Sprintf("%.1f", e.AvgDepth), fmtOpt(e.ACPL), fmtOpt(e.Accuracy))...)
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

func texts(ss ...string) []Cell {
	out := make([]Cell, len(ss))
	for i, s := range ss {
		out[i] = Cell{Text: s}
	}
	return out
}

func rightFrom(first, n int) []bool {
	r := make([]bool, n)
	for i := first; i < n; i++ {
		r[i] = true
	}
	return r
}

func fmtOpt(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f", *p)
}

// relLink is path relative to the report directory as a URL path (forward
// slashes, spaces and other reserved characters escaped), so the link works
// from report.md and report.html wherever the two directories are.
func relLink(dir, path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		if d, err := filepath.Abs(dir); err == nil {
			if rel, err := filepath.Rel(d, abs); err == nil {
				path = rel
			}
		}
	}
	return (&url.URL{Path: filepath.ToSlash(path)}).String()
}
