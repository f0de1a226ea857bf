package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"html"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/arena/output"
	"arena/arena/record"
)

// The fixtures in testdata/runs are real run directories made with
// `arena run` from testdata/configs (each config names its command):
//   - sweep: a sweep over limits.movetime (50ms, 100ms) of the heuristic
//     engine against itself capped at depth 2, two games per setting,
//     judged at depth 4 (settings in sweep/01-movetime-50ms and
//     sweep/02-movetime-100ms);
//   - roundrobin-depth: three heuristic engines at depths 1, 2 and 4,
//     round robin, judge off;
//   - thesis-exp1 (a sweep like the above) and thesis-exp1-book-50ms:
//     experiment 1 in miniature (nn with the nn package's test net against
//     the heuristic engine), from the start position and from a book.
const (
	runs      = "testdata/runs/"
	sweep50   = "sweep/01-movetime-50ms"
	sweep100  = "sweep/02-movetime-100ms"
	exp1at50  = "thesis-exp1/01-movetime-50ms"
	exp1at100 = "thesis-exp1/02-movetime-100ms"
)

func loadRuns(t *testing.T, dirs ...string) []*Run {
	t.Helper()
	for i, d := range dirs {
		dirs[i] = runs + d
	}
	rs, err := Load(dirs...)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func TestLoadFixtures(t *testing.T) {
	rs := loadRuns(t, sweep50, "roundrobin-depth")
	if len(rs) != 2 {
		t.Fatalf("%d runs, want 2", len(rs))
	}
	s := rs[0].Summary
	if s.Name != "fixture-sweep limits.movetime=50ms" || len(s.Engines) != 2 || s.Engines[0].Name != "Heuristic" || s.Engines[0].Moves != 52 {
		t.Errorf("summary of the 50ms setting: name %q, engines %+v", s.Name, s.Engines)
	}
	// games.jsonl: every ply of every game.
	plies := 0
	for _, g := range s.Games {
		plies += g.Plies
	}
	if len(rs[0].Moves) != plies {
		t.Errorf("%d moves read, want %d (the games' plies)", len(rs[0].Moves), plies)
	}
	m := rs[0].Moves[0]
	if m.Game != 1 || m.Ply != 1 || m.Engine != "Heuristic" || m.UCI != "g1f3" || m.Nodes != 14370 || m.CPL == nil || *m.CPL != 55 {
		t.Errorf("first move %+v (cpl %v), want game 1 ply 1 Heuristic g1f3 14370 nodes cpl 55", m, m.CPL)
	}
	if rs[1].Moves[0].CPL != nil {
		t.Error("judge off, but the first move has a centipawn loss")
	}
	if !strings.Contains(rs[0].Config, "movetime: 50ms") {
		t.Errorf("config.yaml not read verbatim:\n%s", rs[0].Config)
	}
	if rs[0].PGN != filepath.Join(runs+sweep50, output.PGNFile) {
		t.Errorf("PGN %q", rs[0].PGN)
	}
	if rs[0].Sweep != nil {
		t.Error("a setting's directory given directly is not loaded as part of its sweep")
	}
	// summary.json writes unbounded statistics as null; the loader
	// recomputes them.
	for _, p := range rs[1].Summary.Pairs {
		if p.A == "Depth 1" && p.B == "Depth 4" && (!math.IsInf(p.Elo.Elo, -1) || !math.IsInf(p.Penta.Elo, -1)) {
			t.Errorf("Depth 1 vs Depth 4 (0-2): Elo %v, pentanomial Elo %v, want -Inf", p.Elo.Elo, p.Penta.Elo)
		}
	}
	r100 := loadRuns(t, sweep100)[0].Summary
	// 2-0 has no finite maximum likelihood: the prior's two virtual draws
	// make it 3 of 4, -190.8.
	if ps := r100.Ratings.Players; ps[0].Name != "Heuristic" || ps[0].Elo != 0 || math.Abs(ps[1].Elo+190.85) > 0.01 || r100.Ratings.Prior != 2 {
		t.Errorf("ratings of a 2-0 match %+v, want the anchor at 0 and the loser at -190.8 with the prior", ps)
	}
}

func TestLoadSweep(t *testing.T) {
	rs := loadRuns(t, "sweep")
	if len(rs) != 2 || rs[0].Dir != filepath.Join(runs+"sweep", "01-movetime-50ms") || rs[1].Summary.Name != "fixture-sweep limits.movetime=100ms" {
		t.Fatalf("sweep runs %d, first %s", len(rs), rs[0].Dir)
	}
	if rs[0].Sweep == nil || rs[0].Sweep != rs[1].Sweep || rs[0].Sweep.Summary.Key != "limits.movetime" || *rs[1].Setting.X != 0.1 {
		t.Errorf("sweep of the runs %+v, setting %+v", rs[0].Sweep, rs[1].Setting)
	}
	// A whole sweep is reported under the sweep's name.
	if rep, err := build(rs, t.TempDir()); err != nil || rep.Title != "arena report: fixture-sweep" {
		t.Errorf("title of a sweep's report %q (%v)", rep.Title, err)
	}
	// A setting not started yet (a directory with only config.yaml) is
	// left out and listed as missing.
	parent := filepath.Join(t.TempDir(), "sweep")
	copyRun(t, sweep50, filepath.Join(parent, "01-movetime-50ms"))
	if err := os.MkdirAll(filepath.Join(parent, "02-movetime-100ms"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(runs, "sweep", output.SweepJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(parent, output.SweepJSON), data, 0o644); err != nil {
		t.Fatal(err)
	}
	rs, err = Load(parent)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || len(rs[0].Sweep.Missing) != 1 || rs[0].Sweep.Missing[0].Value != "100ms" {
		t.Errorf("partial sweep: %d runs, missing %+v", len(rs), rs[0].Sweep.Missing)
	}
	if got := sweepLine(rs[0].Sweep); !strings.HasSuffix(got, "limits.movetime over 50ms, 100ms; 2 of 2 settings complete; not started: 100ms") {
		t.Errorf("sweep line %q", got)
	}
}

// copyRun copies into dst what a committed run keeps of a fixture run
// directory (no moves.csv, no games.pgn), and the extra files named.
func copyRun(t *testing.T, name, dst string, extra ...string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range append([]string{output.SummaryJSON, output.ConfigFile, output.GamesFile}, extra...) {
		data, err := os.ReadFile(filepath.Join(runs, name, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadParentDirectory(t *testing.T) {
	// A results directory: run directories and sweeps inside, by name.
	parent := t.TempDir()
	copyRun(t, sweep100, filepath.Join(parent, "b"))
	copyRun(t, "roundrobin-depth", filepath.Join(parent, "a"))
	if err := os.Mkdir(filepath.Join(parent, "not-a-run"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(mustAbs(t, runs+"sweep"), filepath.Join(parent, "c")); err != nil {
		t.Fatal(err)
	}
	rs, err := Load(parent)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rs {
		names = append(names, r.Summary.Name)
	}
	if got := strings.Join(names, ","); got != "fixture-roundrobin,fixture-sweep limits.movetime=100ms,fixture-sweep limits.movetime=50ms,fixture-sweep limits.movetime=100ms" {
		t.Errorf("runs of the parent: %s", got)
	}
}

func mustAbs(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func TestLoadErrors(t *testing.T) {
	tmp := t.TempDir()
	empty := filepath.Join(tmp, "empty")
	noConfig := filepath.Join(tmp, "noconfig")
	noLog := filepath.Join(tmp, "nomoves")
	badLog := filepath.Join(tmp, "badmoves")
	lostGame := filepath.Join(tmp, "lostgame")
	badJSON := filepath.Join(tmp, "badjson")
	file := filepath.Join(tmp, "file")
	for _, d := range []string{empty} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{noConfig, noLog, badLog, lostGame, badJSON} {
		copyRun(t, sweep50, d)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Remove(filepath.Join(noConfig, output.ConfigFile)))
	must(os.Remove(filepath.Join(noLog, output.GamesFile)))
	must(os.WriteFile(filepath.Join(badLog, output.GamesFile), []byte("{\"game\": 1, \"moves\": [{\"time_s\": \"fast\"}]}\n"), 0o644))
	log, err := os.ReadFile(filepath.Join(lostGame, output.GamesFile))
	must(err)
	first, _, _ := bytes.Cut(log, []byte("\n"))
	must(os.WriteFile(filepath.Join(lostGame, output.GamesFile), append(first, '\n'), 0o644))
	must(os.WriteFile(filepath.Join(badJSON, output.SummaryJSON), []byte(`{"name": 3}`), 0o644))
	must(os.WriteFile(file, nil, 0o644))
	for _, c := range []struct {
		dir  string
		want []string
	}{
		{filepath.Join(tmp, "missing"), []string{filepath.Join(tmp, "missing"), "no such file"}},
		{file, []string{file, "not a directory"}},
		{empty, []string{empty, "no summary.json or sweep.json", "no run directory"}},
		{noConfig, []string{noConfig, "missing config.yaml"}},
		{noLog, []string{noLog, "missing games.jsonl"}},
		{badLog, []string{filepath.Join(badLog, output.GamesFile) + ":1", "time_s"}},
		{lostGame, []string{lostGame, "summary.json counts game 2, which games.jsonl lacks"}},
		{badJSON, []string{filepath.Join(badJSON, output.SummaryJSON), "expected the summary.json of arena run"}},
	} {
		_, err := Load(c.dir)
		if err == nil {
			t.Errorf("Load(%s): no error", c.dir)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Load(%s): error %q does not contain %q", c.dir, err, w)
			}
		}
	}
	if _, err := Load(); err == nil {
		t.Error("Load(): no error for no directories")
	}
}

func TestMoveTime(t *testing.T) {
	for _, c := range []struct {
		limits string
		want   time.Duration
		ok     bool
	}{
		{"movetime 50ms", 50 * time.Millisecond, true},
		{"movetime 1.5s, depth 8", 1500 * time.Millisecond, true},
		{"tc 40/60+0.6, nodes 1000", 0, false},
		{"depth 4", 0, false},
		{"none", 0, false},
	} {
		d, ok := MoveTime(record.EngineSummary{Limits: c.limits})
		if d != c.want || ok != c.ok {
			t.Errorf("MoveTime(%q) = %v, %v; want %v, %v", c.limits, d, ok, c.want, c.ok)
		}
	}
}

func TestSweep(t *testing.T) {
	// Given in the wrong order: the series are sorted by time per move.
	rs := loadRuns(t, sweep100, sweep50, "roundrobin-depth")
	series, axis := Sweep(rs)
	if axis.Swept || axis.Label != "time per move (s)" {
		t.Errorf("axis %+v, want time per move", axis)
	}
	var names []string
	for _, s := range series {
		names = append(names, s.Engine)
	}
	if got := strings.Join(names, ","); got != "Heuristic,Heuristic depth 2,Depth 1,Depth 2,Depth 4" {
		t.Fatalf("series %s", got)
	}
	h := series[0].Points
	if len(h) != 2 || h[0].X != 0.05 || h[1].X != 0.1 || h[0].Measured || h[0].Engine.AvgNodes != rs[1].Summary.Engines[0].AvgNodes {
		t.Errorf("Heuristic points %+v, want x 0.05 (the 50ms run) then 0.1", h)
	}
	d4 := series[4].Points
	if len(d4) != 1 || !d4[0].Measured || d4[0].X != rs[2].Summary.Engines[2].AvgTime {
		t.Errorf("Depth 4 (no movetime) point %+v, want its measured mean time", d4)
	}

	figs := sweepFigures("", series, axis)
	if len(figs) != 2 || figs[0].Name != "acpl-vs-time" || figs[1].Name != "nodes-vs-time" {
		t.Fatalf("figures %v", figs)
	}
	// ACPL: only the judged engines; nodes: all five, on a log axis
	// (131 to 236,302 nodes per move).
	if n := len(figs[0].Lines); n != 2 {
		t.Errorf("ACPL plot has %d lines, want 2 (the judged engines)", n)
	}
	acpl := figs[0].Lines[1]
	if acpl.Name != "Heuristic depth 2" || len(acpl.Points) != 2 || acpl.Points[1].Y != *rs[0].Summary.Engines[1].ACPL {
		t.Errorf("ACPL line %+v", acpl)
	}
	if n := len(figs[1].Lines); n != 5 || !figs[1].LogY {
		t.Errorf("nodes plot: %d lines, log %v; want 5 lines on a log axis", n, figs[1].LogY)
	}
}

// Runs of two sweeps and a single run: the sweeps' engines get a series
// per sweep, the single run's engines their own names.
func TestSweepSeveralSweeps(t *testing.T) {
	rs := loadRuns(t, "sweep", "thesis-exp1", "roundrobin-depth")
	series, _ := Sweep(rs)
	var names []string
	for _, s := range series {
		names = append(names, fmt.Sprintf("%s (%d)", s.Engine, len(s.Points)))
	}
	want := "fixture-sweep: Heuristic (2),fixture-sweep: Heuristic depth 2 (2),fixture-exp1: NN (2),fixture-exp1: Heuristic (2),Depth 1 (1),Depth 2 (1),Depth 4 (1)"
	if got := strings.Join(names, ","); got != want {
		t.Errorf("series %s\nwant %s", got, want)
	}
}

// A sweep over a key other than the time per move is plotted against it.
func TestSweepOverOtherKey(t *testing.T) {
	rs := loadRuns(t, "sweep")
	x1, x2 := 2.0, 4.0
	rs[0].Sweep.Summary.Key = "engines[0].options.max_depth"
	rs[0].Setting.X, rs[1].Setting.X = &x1, &x2
	series, axis := Sweep(rs)
	if !axis.Swept || axis.Label != "engines[0].options.max_depth" {
		t.Fatalf("axis %+v, want the swept key", axis)
	}
	if p := series[0].Points; p[0].X != 2 || p[1].X != 4 {
		t.Errorf("points at %v and %v, want the settings 2 and 4", p[0].X, p[1].X)
	}
	if figs := sweepFigures("", series, axis); figs[0].Title != "ACPL vs engines[0].options.max_depth" {
		t.Errorf("title %q", figs[0].Title)
	}
	// Mixed with a run from elsewhere, the runs share no key: time per move.
	if _, axis := Sweep(append(rs, loadRuns(t, "roundrobin-depth")...)); axis.Swept {
		t.Error("runs of a sweep and another run plotted against the sweep's key")
	}
}

func TestRunFigures(t *testing.T) {
	rs := loadRuns(t, sweep100, "roundrobin-depth")
	figs := runFigures(rs[0], "x")
	if len(figs) != 2 || figs[0].Name != "x-time-by-ply" || figs[1].Name != "x-cpl-by-ply" {
		t.Fatalf("figures of a judged run: %v", figs)
	}
	// Heuristic is White in game 1 (39 plies) and Black in game 2 (46):
	// odd plies 1..39 and even plies 2..46.
	h := figs[0].Lines[0]
	if h.Name != "Heuristic" || len(h.Points) != 20+23 {
		t.Errorf("Heuristic's time-by-ply line: %s with %d points, want 43", h.Name, len(h.Points))
	}
	var want float64
	for _, m := range rs[0].Moves {
		if m.Ply == 1 && m.Engine == "Heuristic" {
			want = m.Time
		}
	}
	if h.Points[0].X != 1 || h.Points[0].Y != want {
		t.Errorf("ply 1 point %v, want (1, %v)", h.Points[0], want)
	}
	if figs := runFigures(rs[1], "y"); len(figs) != 1 || len(figs[0].Lines) != 3 {
		t.Errorf("unjudged round robin: %d figures, want only time by ply with 3 lines", len(figs))
	}
}

// writeReport writes the report of rs into a new directory and returns it
// with report.md and report.html.
func writeReport(t *testing.T, rs []*Run) (rep *Report, out, md, page string) {
	t.Helper()
	out = t.TempDir()
	rep, err := Write(rs, out)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name string
		text *string
	}{{MarkdownFile, &md}, {HTMLFile, &page}} {
		data, err := os.ReadFile(filepath.Join(out, f.name))
		if err != nil {
			t.Fatal(err)
		}
		*f.text = string(data)
	}
	return rep, out, md, page
}

func TestWrite(t *testing.T) {
	rs := loadRuns(t, "sweep", "roundrobin-depth")
	rep, out, md, page := writeReport(t, rs)
	// Two sweep plots plus time by ply for each run and CPL by ply for the
	// two judged ones, each as PNG and SVG.
	var figs []*Rendered
	figs = append(figs, rep.Figures...)
	for _, s := range rep.Sections {
		figs = append(figs, s.Figures...)
	}
	if len(figs) != 2+3+2 {
		t.Errorf("%d figures, want 7", len(figs))
	}
	for _, f := range figs {
		checkPNG(t, f.PNG)
		svg := checkSVG(t, f.SVG)
		for _, l := range f.Lines {
			if !strings.Contains(svg, ">"+l.Name+"<") {
				t.Errorf("%s: legend entry %q missing", f.SVG, l.Name)
			}
		}
	}

	for _, want := range []string{
		// The combined table, by time per move: the depth-limited engines
		// (measured ms) first, then 50 ms, then 100 ms.
		"- Sweep fixture-sweep (testdata/runs/sweep): limits.movetime over 50ms, 100ms; 2 of 2 settings complete",
		"| [fixture-roundrobin](#roundrobin-depth) | 0.006 (measured) | Depth 4 | 4 | 3 | 1 | 0 | 87.5 |",
		"| [fixture-sweep limits.movetime=100ms](#02-movetime-100ms) | 0.1 | Heuristic | 2 | 2 | 0 | 0 | 100.0 | 0.101 | 236302 | 5.8 | 48.7 | 84.4 |",
		// Per-run results with limits, error classes and failures.
		"| Heuristic depth 2 | movetime 50ms | 2 | 0 | 1 | 1 | 25.0 | 0.004 | 623 | 2.0 |",
		"| Depth 1 | depth 1 | 4 | 0 | 2 | 2 | 25.0 |",
		"- Heuristic vs Heuristic depth 2: +1 -0 =1, Elo +190.8 \\[-67.9, unbounded\\] LOS 92.1% draws 50.0% (2 games)",
		"- Heuristic vs Heuristic depth 2 pairs: LL 0, LD 0, DD+WL 0, WD 0, WW 1, Elo > -636.4 (all won) LOS 100.0% (1 pairs)",
		// The crosstable, row engine's points, and the ratings best first.
		"| Depth 4 | 2/2 (+2 =0 -0) | 1.5/2 (+1 =1 -0) | — | 3.5 | 4 |",
		"| Depth 1 | — | 1/2 (+0 =2 -0) | 0/2 (+0 =0 -2) | 1 | 4 |",
		"| 1 | Depth 4 | +377.0 ± 286.6 | \\[+90.3, +663.6\\] | 4 | 3.5 | 87.5 |",
		"| 3 | Depth 1 (anchor) |",
		// Games and the PGN link, relative to the report directory.
		"| 2 | Heuristic depth 2 | Heuristic | 0-1 | normal | Black mates | 46 |",
		"![ACPL vs time per move](plots/acpl-vs-time.png)",
		"![fixture-roundrobin: time per move by ply](plots/roundrobin-depth-time-by-ply.png)",
		"movetime: 100ms",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if strings.Index(md, "| 0.05 | Heuristic |") > strings.Index(md, "| 0.1 | Heuristic |") {
		t.Error("combined table not ordered by time per move")
	}
	if n := strings.Count(md, "[games.pgn]("); n != 3 {
		t.Errorf("report.md has %d PGN links, want 3", n)
	}
	for _, s := range rep.Sections {
		if s.PGNLink == "" {
			t.Fatalf("%s: no PGN link", s.Run.Dir)
		}
		target := filepath.Join(out, filepath.FromSlash(s.PGNLink))
		if _, err := os.Stat(target); err != nil {
			t.Errorf("PGN link %s does not resolve from the report directory: %v", s.PGNLink, err)
		}
	}

	checkSelfContained(t, page, out)
	if n := strings.Count(page, "<svg"); n != len(figs) {
		t.Errorf("report.html has %d inline SVGs, want %d", n, len(figs))
	}
	text := html.UnescapeString(page)
	for _, want := range []string{"<td>Depth 4</td><td class=\"r\">2/2 (+2 =0 -0)</td>", "movetime: 100ms", ">games.pgn</a>",
		`<td>Heuristic</td><td>movetime 100ms</td><td class="r">2</td><td class="r">2</td><td class="r">0</td><td class="r">0</td><td class="r">100.0</td>`,
		"<li>Sweep fixture-sweep (testdata/runs/sweep): limits.movetime over 50ms, 100ms; 2 of 2 settings complete</li>"} {
		if !strings.Contains(text, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
}

// checkSelfContained fails unless the page loads nothing: no scripts,
// stylesheets, frames or imports, and every src/href is an in-page anchor
// or a relative link to a file that exists (the PGNs).
func checkSelfContained(t *testing.T, html, dir string) {
	t.Helper()
	for _, bad := range []string{"<script", "<link", "<iframe", "<img", "@import", "url(", "//fonts."} {
		if strings.Contains(strings.ToLower(html), bad) {
			t.Errorf("report.html contains %q", bad)
		}
	}
	refs := regexp.MustCompile(`(?i)\s(?:src|href|xlink:href)\s*=\s*"([^"]*)"`).FindAllStringSubmatch(html, -1)
	if len(refs) == 0 {
		t.Error("report.html has no links at all (expected the PGN links)")
	}
	for _, m := range refs {
		ref := m[1]
		switch {
		case strings.HasPrefix(ref, "#"):
			if !strings.Contains(html, `id="`+ref[1:]+`"`) {
				t.Errorf("anchor %s has no target", ref)
			}
		case strings.Contains(ref, ":") || strings.HasPrefix(ref, "//"):
			t.Errorf("report.html refers to %s (only relative links allowed)", ref)
		default:
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(ref))); err != nil {
				t.Errorf("relative link %s: %v", ref, err)
			}
		}
	}
}

func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != 576 || b.Dy() < 384 {
		t.Errorf("%s: %v, want 576 wide and at least 384 high", path, b)
	}
}

// checkSVG parses the file as XML with an <svg> root and returns it.
func checkSVG(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: not well-formed XML: %v", path, err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("%s: root element %q, want svg", path, root)
	}
	return string(data)
}

func TestInlineSVG(t *testing.T) {
	in := `<?xml version="1.0"?>
<!-- Generated by SVGo and Plotinum VG -->
<svg width="432pt" height="288pt" viewBox="0 0 432 288"
	xmlns="http://www.w3.org/2000/svg"><text style="font-family:Liberation Serif;font-size:12px">x</text></svg>`
	got := inlineSVG(in)
	want := `<svg class="plot" role="img" viewBox="0 0 432 288"
	xmlns="http://www.w3.org/2000/svg"><text style="font-family:'Liberation Serif',serif;font-size:12px">x</text></svg>`
	if got != want {
		t.Errorf("inlineSVG:\n%s\nwant\n%s", got, want)
	}
}

func TestEscaping(t *testing.T) {
	if got := mdEscape("a|b *c* [d]_e <f>"); got != `a\|b \*c\* \[d\]\_e &lt;f>` {
		t.Errorf("mdEscape: %q", got)
	}
	if got := relLink("/r/report", "/r/runs/my run/games.pgn"); got != "../runs/my%20run/games.pgn" {
		t.Errorf("relLink: %q", got)
	}
	// Names reach HTML escaped: a run whose engine is called <script>.
	rs := loadRuns(t, sweep50)
	rs[0].Summary.Engines[0].Name = "<script>alert(1)</script>"
	rep, err := build(rs, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	page, err := rep.HTML()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(page, []byte("<script>")) {
		t.Error("engine name not escaped in report.html")
	}
}

// A run compressed at its end (output.compress) reports as the plain run:
// the same moves from games.jsonl.gz, the PGN linked as games.pgn.gz; a
// damaged games.jsonl.gz (cut, or not gzip at all) is an error naming it.
func TestCompressedRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	copyRun(t, sweep50, dir, output.PGNFile)
	if err := output.Compress(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, output.GamesFile)); err == nil {
		t.Fatal("Compress left games.jsonl")
	}
	plain := loadRuns(t, sweep50)[0]
	rs, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs[0].Moves) == 0 || !reflect.DeepEqual(rs[0].Moves, plain.Moves) {
		t.Errorf("games.jsonl.gz read as %d moves, games.jsonl as %d", len(rs[0].Moves), len(plain.Moves))
	}
	if want := filepath.Join(dir, output.PGNFile+output.GzipExt); rs[0].PGN != want {
		t.Errorf("PGN %q, want %q", rs[0].PGN, want)
	}
	out := t.TempDir()
	if _, err := Write(rs, out); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(out, MarkdownFile))
	if err != nil || !regexp.MustCompile(`\[games\.pgn\.gz\]\([^)]*/run/games\.pgn\.gz\)`).Match(md) {
		t.Errorf("report.md does not link games.pgn.gz (%v):\n%s", err, md)
	}
	page, err := os.ReadFile(filepath.Join(out, HTMLFile))
	if err != nil || !strings.Contains(string(page), ">games.pgn.gz</a>") {
		t.Errorf("report.html does not link games.pgn.gz (%v)", err)
	}
	checkSelfContained(t, string(page), out)

	log := filepath.Join(dir, output.GamesFile+output.GzipExt)
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	for what, damaged := range map[string][]byte{"cut": data[:len(data)/2], "not gzip": []byte("{\"game\": 1}\n")} {
		if err := os.WriteFile(log, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(dir)
		if err == nil || !strings.Contains(err.Error(), log+": corrupt or cut-short gzip file") || strings.Contains(err.Error(), "missing") {
			t.Errorf("a %s games.jsonl.gz: %v, want an error naming it", what, err)
		}
	}
}

// TestHeadToHead checks the table of pairings of a multi-run report against
// the games of each run, counted here from the game list.
func TestHeadToHead(t *testing.T) {
	rs := loadRuns(t, "sweep", "roundrobin-depth")
	rep, _, md, page := writeReport(t, rs)
	if rep.HeadToHead == nil {
		t.Fatal("no head-to-head table for several runs")
	}
	var want [][]string
	for _, r := range rs {
		for _, p := range r.Summary.Pairs {
			var w, l, d int
			for _, g := range r.Summary.Games {
				switch {
				case g.Result == "1/2-1/2" && (g.White == p.A && g.Black == p.B || g.White == p.B && g.Black == p.A):
					d++
				case g.White == p.A && g.Black == p.B && g.Result == "1-0", g.Black == p.A && g.White == p.B && g.Result == "0-1":
					w++
				case g.White == p.A && g.Black == p.B && g.Result == "0-1", g.Black == p.A && g.White == p.B && g.Result == "1-0":
					l++
				}
			}
			want = append(want, []string{r.Summary.Name, p.A + " vs " + p.B, fmt.Sprint(w + l + d), fmt.Sprintf("+%d -%d =%d", w, l, d),
				fmt.Sprintf("%.1f", 100*(float64(w)+float64(d)/2)/float64(w+l+d))})
		}
	}
	// The sweep's two settings have one pairing each, the round robin three.
	if len(want) != 5 || len(rep.HeadToHead.Rows) != len(want) {
		t.Fatalf("%d head-to-head rows, %d pairings in the runs (want 5)", len(rep.HeadToHead.Rows), len(want))
	}
	for i, row := range rep.HeadToHead.Rows {
		for j, w := range want[i] {
			if row[j].Text != w {
				t.Errorf("row %d column %q: %q, counted %q", i, headToHeadHeader[j], row[j].Text, w)
			}
		}
		if row[0].Link == "" {
			t.Errorf("row %d does not link to its run's section", i)
		}
	}
	if !strings.Contains(md, "## Head to head") || !strings.Contains(page, `<h2 id="head-to-head">`) {
		t.Error("report.md or report.html has no head-to-head section")
	}
	one, err := Write(rs[:1], t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if one.HeadToHead != nil {
		t.Error("a one-run report has a head-to-head table (its section has the Elo lines)")
	}
}

// Runs whose engines all have a node limit are tabulated by it, under its
// name rather than a time per move.
func TestCombinedTableByNodeLimit(t *testing.T) {
	rs := loadRuns(t, "sweep")
	for i, r := range rs {
		for j := range r.Summary.Engines {
			r.Summary.Engines[j].Limits = fmt.Sprintf("nodes %d", 1000*(i+1))
		}
	}
	rep, err := Write(rs, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if h := rep.Combined.Header[1]; h != "nodes limit" {
		t.Errorf("column %q, want \"nodes limit\"", h)
	}
	if x := rep.Combined.Rows[len(rep.Combined.Rows)-1][1].Text; x != "2000" {
		t.Errorf("last row's limit %q, want 2000", x)
	}
}
