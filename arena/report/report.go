package report

import (
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"arena/arena/config"
	"arena/arena/record"
	"arena/internal/atomicfile"
	"arena/tracker"
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
	// Sweeps are the sweeps the runs came from, one line each: key,
	// values, settings played.
	Sweeps []string
	// Combined has a row per run and engine when there are several runs
	// (a sweep), ordered by time per move (or the swept value).
	Combined *Table
	// HeadToHead has a row per run and pairing when there are several runs:
	// each pairing's W-L-D and Elo with its interval, from the games and
	// from the game pairs, so a set of A-against-B runs (an ablation)
	// reads as one table.
	HeadToHead *Table
	Figures    []*Rendered // ACPL and nodes against time per move
	Sections   []*Section  // one per run
}

// Section is one run's part of the report.
type Section struct {
	Run     *Run
	Anchor  string // HTML id and file-name slug
	Facts   []Fact
	PGNLink string // games.pgn relative to the report directory; "" without PGN
	PGNName string // its file name: games.pgn, or games.pgn.gz when compressed
	Results *Table
	// EloLines are each pairing's Elo from W-D-L and, with game pairs,
	// from the pentanomial counts; then the SPRT's state if the run had one.
	EloLines   []string
	Crosstable *Table // three or more engines
	Ratings    *Table // three or more engines
	// RatingsNote is the fit's method, or why it failed.
	RatingsNote string
	Games       *Table
	Figures     []*Rendered
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
	rep, err := build(runs, dir)
	if err != nil {
		return nil, err
	}
	md := rep.Markdown()
	if err := atomicfile.WriteFile(filepath.Join(dir, MarkdownFile), md); err != nil {
		return nil, fmt.Errorf("write report: %w", err)
	}
	html, err := rep.HTML()
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, HTMLFile), html); err != nil {
		return nil, fmt.Errorf("write report: %w", err)
	}
	return rep, nil
}

// build renders the plots into dir/plots and assembles the report.
func build(runs []*Run, dir string) (*Report, error) {
	rep := &Report{Dir: dir, Runs: runs, Title: "arena report: " + runs[0].Summary.Name}
	seen := map[*SweepDir]bool{}
	for _, r := range runs {
		if sw := r.Sweep; sw != nil && !seen[sw] {
			seen[sw] = true
			rep.Sweeps = append(rep.Sweeps, sweepLine(sw))
		}
	}
	switch {
	case len(seen) == 1 && runs[0].Sweep != nil && len(runs) == len(runs[0].Sweep.Summary.Settings)-len(runs[0].Sweep.Missing):
		rep.Title = "arena report: " + runs[0].Sweep.Summary.Name
	case len(runs) > 1:
		rep.Title = fmt.Sprintf("arena report: %d runs", len(runs))
	}
	plots := filepath.Join(dir, PlotsDir)
	if err := os.MkdirAll(plots, 0o755); err != nil {
		return nil, fmt.Errorf("report directory: %w", err)
	}
	series, axis := Sweep(runs)
	for _, f := range sweepFigures("", series, axis) {
		r, err := f.Render(plots)
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
		rep.Combined = combinedTable(series, axis, rep.Sections)
		rep.HeadToHead = headToHeadTable(rep.Sections)
	}
	return rep, nil
}

// sweepLine describes a sweep: its key and values and how many settings
// have been played.
func sweepLine(sw *SweepDir) string {
	ss := sw.Summary
	values := make([]string, len(ss.Settings))
	complete := 0
	for i, st := range ss.Settings {
		values[i] = st.Value
		if st.Complete {
			complete++
		}
	}
	line := fmt.Sprintf("Sweep %s (%s): %s over %s; %d of %d settings complete", ss.Name, sw.Dir, ss.Key,
		strings.Join(values, ", "), complete, len(ss.Settings))
	if len(sw.Missing) > 0 {
		var missing []string
		for _, st := range sw.Missing {
			missing = append(missing, st.Value)
		}
		line += "; not started: " + strings.Join(missing, ", ")
	}
	return line
}

// section is one run's part of the report: its facts, tables and plots.
func section(r *Run, slug, dir string) (*Section, error) {
	s := &Section{Run: r, Anchor: slug, Facts: runFacts(r), EloLines: eloLines(r.Summary)}
	sum := r.Summary
	if r.PGN != "" {
		s.PGNLink, s.PGNName = relLink(dir, r.PGN), filepath.Base(r.PGN)
	}
	s.Results = resultsTable(sum)
	if len(sum.Engines) >= 3 {
		s.Crosstable = crosstable(sum)
		s.Ratings = ratingsTable(sum)
		switch {
		case sum.Ratings != nil:
			s.RatingsNote = fmt.Sprintf("%s; %s = 0; ± is half the 95%% interval.", sum.Ratings.Method, sum.Ratings.Anchor)
		case sum.RatingsError != "":
			s.RatingsNote = "No ratings: " + sum.RatingsError
		}
	}
	s.Games = gamesTable(sum)
	for _, f := range runFigures(r, slug) {
		rf, err := f.Render(filepath.Join(dir, PlotsDir))
		if err != nil {
			return nil, err
		}
		s.Figures = append(s.Figures, rf)
	}
	return s, nil
}

// runFacts describes how a run was played: its status, engines, limits,
// openings, judge and versions.
func runFacts(r *Run) []Fact {
	sum := r.Summary
	status := "complete"
	if !sum.Complete {
		status = "incomplete: interrupted or still running"
	}
	if sum.Stopped != "" {
		status = "stopped early: " + sum.Stopped
	}
	facts := []Fact{
		{"Run directory", r.Dir},
		{"Format", orDefault(sum.Format, config.FormatMatch)},
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
		facts = append(facts, Fact{fmt.Sprintf("Engine %d", i+1), fmt.Sprintf("%s (%s); limits: %s", e.Name, desc, e.Limits)})
	}
	maxMoves := "none"
	if sum.MaxMoves > 0 {
		maxMoves = fmt.Sprintf("%d plies (then adjudicated a draw)", sum.MaxMoves)
	}
	openings := "none (standard start position)"
	if sum.Openings != "" {
		openings = sum.Openings
		if sum.GamePairs {
			openings += " (game pairs: each opening played with both colours)"
		}
	}
	judge := "off (no ACPL)"
	if j := sum.Judge; j.Enabled {
		judge = fmt.Sprintf("%s depth %d, cap %d, mate score %d; %d evaluations for %d judged plies",
			orDefault(sum.Versions.Judge, j.Engine), j.Depth, j.Cap, j.MateScore, j.Evaluations, j.JudgedPlies)
	}
	return append(facts,
		Fact{"Max moves", maxMoves},
		Fact{"Openings", openings},
		Fact{"Judge", judge},
		Fact{"Versions", fmt.Sprintf("arena %s, %s, %s", sum.Versions.Arena, sum.Versions.Go, sum.Versions.OS)},
	)
}

// eloLines are the Elo differences of each pair (and of its game pairs) and
// the SPRT's state.
func eloLines(sum *record.Summary) []string {
	var lines []string
	for _, p := range sum.Pairs {
		r := p.Elo
		lines = append(lines, fmt.Sprintf("%s vs %s: +%d -%d =%d, %s", p.A, p.B, r.Wins, r.Losses, r.Draws, r))
		if pe := p.Penta; pe != nil {
			c := pe.Counts
			lines = append(lines, fmt.Sprintf("%s vs %s pairs: LL %d, LD %d, DD+WL %d, WD %d, WW %d, %s", p.A, p.B, c.LL, c.LD, c.DD, c.WD, c.WW, pe))
		}
	}
	if sum.SPRT != nil {
		lines = append(lines, sum.SPRT.String())
	}
	return lines
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
func resultsTable(s *record.Summary) *Table {
	t := &Table{Header: resultsHeader, Right: RightFrom(2, len(resultsHeader))}
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

func failures(e record.ErrorCounts) string {
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

// crosstable is summary.json's crosstable: each engine's points against
// each other engine (the row engine's view) and its total.
func crosstable(s *record.Summary) *Table {
	ct := s.Crosstable
	if ct == nil {
		return nil
	}
	header := append(append([]string{"Engine"}, ct.Engines...), "Points", "Games")
	t := &Table{Header: header, Right: RightFrom(1, len(header))}
	for i, r := range ct.Rows {
		row := texts(r.Engine)
		for j, c := range r.Cells {
			switch {
			case i == j:
				row = append(row, Cell{Text: "—"})
			case c == nil:
				row = append(row, Cell{Text: ""})
			default:
				row = append(row, Cell{Text: c.String()})
			}
		}
		t.Rows = append(t.Rows, append(row, texts(record.FormatPoints(r.Points), fmt.Sprint(r.Games))...))
	}
	return t
}

// ratingsTable lists the maximum-likelihood ratings best first, undefined
// ones last, as the arena's summary.md does.
func ratingsTable(s *record.Summary) *Table {
	if s.Ratings == nil {
		return nil
	}
	players := s.Ratings.Ranked()
	header := []string{"Rank", "Engine", "Elo ± 95%", "Interval", "Games", "Points", "Score %"}
	t := &Table{Header: header, Right: RightFrom(2, len(header))}
	t.Right[0] = true
	for i, p := range players {
		name := p.Name
		if p.Name == s.Ratings.Anchor {
			name += " (anchor)"
		}
		interval := "-"
		if !math.IsNaN(p.Low) && !math.IsNaN(p.High) && p.Name != s.Ratings.Anchor {
			interval = fmt.Sprintf("[%s, %s]", fmtElo(p.Low), fmtElo(p.High))
		}
		score := "-"
		if p.Games > 0 {
			score = fmt.Sprintf("%.1f", 100*p.Points/float64(p.Games))
		}
		t.Rows = append(t.Rows, texts(fmt.Sprint(i+1), name, p.String(), interval, fmt.Sprint(p.Games), record.FormatPoints(p.Points), score))
	}
	return t
}

// fmtElo formats a rating, which FitRatings keeps finite.
func fmtElo(x float64) string { return fmt.Sprintf("%+.1f", x) }

func gamesTable(s *record.Summary) *Table {
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

var combinedHeader = []string{"Run", "X", "Engine", "Games", "Wins", "Draws", "Losses", "Score %",
	"Avg Time (s)", "Avg Nodes", "Avg Depth", "Avg ACPL", "Accuracy"}

// combinedTable is the sweep's table: a row per setting and engine, the
// settings (runs) in order of time per move (a run at its first engine's).
func combinedTable(series []Series, axis Axis, sections []*Section) *Table {
	type key struct {
		run    *Run
		engine string
	}
	points := map[key]Point{}
	for _, s := range series {
		for _, p := range s.Points {
			points[key{p.Run, p.Engine.Name}] = p
		}
	}
	ordered := slices.Clone(sections)
	first := func(s *Section) float64 { return points[key{s.Run, s.Run.Summary.Engines[0].Name}].X }
	sort.SliceStable(ordered, func(a, b int) bool { return first(ordered[a]) < first(ordered[b]) })
	t := &Table{Header: slices.Clone(combinedHeader), Right: RightFrom(3, len(combinedHeader))}
	t.Header[1], t.Right[1] = "Time/move (s)", true
	if axis.Swept || axis.Limit != "" {
		t.Header[1] = axis.Label
	}
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

var headToHeadHeader = []string{"Run", "Pairing", "Games", "W-L-D", "Score %", "Elo (95%)",
	"Pairs", "LL-LD-DD+WL-WD-WW", "Elo from pairs (95%)", "LOS"}

// headToHeadTable lists every pairing of every run in the order given, the
// first engine's view, with nil when no run has a pairing (a gauntlet of
// one engine has none).
func headToHeadTable(sections []*Section) *Table {
	t := &Table{Header: headToHeadHeader, Right: RightFrom(2, len(headToHeadHeader))}
	t.Right[3], t.Right[7] = false, false
	for _, s := range sections {
		for _, p := range s.Run.Summary.Pairs {
			e := p.Elo
			row := []Cell{{Text: s.Run.Summary.Name, Link: "#" + s.Anchor}}
			row = append(row, texts(p.A+" vs "+p.B, fmt.Sprint(e.Games), fmt.Sprintf("+%d -%d =%d", e.Wins, e.Losses, e.Draws),
				scorePct(e), e.Estimate())...)
			los := e.LOS
			if pe := p.Penta; pe != nil {
				c := pe.Counts
				row = append(row, texts(fmt.Sprint(pe.Pairs), fmt.Sprintf("%d-%d-%d-%d-%d", c.LL, c.LD, c.DD, c.WD, c.WW), pe.Estimate())...)
				los = pe.LOS
			} else {
				row = append(row, texts("-", "-", "-")...)
			}
			t.Rows = append(t.Rows, append(row, Cell{Text: fmtPct(los)}))
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

// scorePct is the score as the engines' tables compute it (points over
// games), so that the same score prints the same everywhere in a report.
func scorePct(e tracker.EloResult) string {
	if e.Games == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", 100*(float64(e.Wins)+float64(e.Draws)/2)/float64(e.Games))
}

// fmtPct is a fraction in [0, 1] as a percentage, "-" when undefined.
func fmtPct(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.1f", 100*x)
}

func texts(ss ...string) []Cell {
	out := make([]Cell, len(ss))
	for i, s := range ss {
		out[i] = Cell{Text: s}
	}
	return out
}

// RightFrom right-aligns the columns from first on of n (the numbers).
func RightFrom(first, n int) []bool {
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

// headToHeadNote says how to read the head-to-head table.
const headToHeadNote = "Each pairing of each run from its first engine's side: W-L-D, score and Elo with its 95% interval from the games; with game pairs (each opening played with both colours) the pentanomial counts of the complete pairs and the Elo from them, whose interval allows for the pairs' correlation. LOS is the likelihood of superiority, from the pairs when there are pairs."
