package arena

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/config"
	"arena/arena/openings"
	"arena/arena/output"
	"arena/arena/record"
	"arena/tracker"
)

// readSummaryJSON reads a run's summary.json as the report reads it.
func readSummaryJSON(t *testing.T, dir string) *record.Summary {
	t.Helper()
	s, err := readSummary(dir)
	if err != nil || s == nil {
		t.Fatalf("summary.json in %s: %v", dir, err)
	}
	return s
}

// A three-engine round robin of the built-in heuristic engine at depths 1,
// 2 and 3: every pairing plays its two games, and the crosstable and the
// maximum-likelihood ratings are printed and saved.
func TestRoundRobinCrosstableAndRatings(t *testing.T) {
	sum, dir, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
games: 2
max_moves: 40
judge: off
engines:
  - {name: D1, engine: heuristic, limits: {depth: 1}}
  - {name: D2, engine: heuristic, limits: {depth: 2}}
  - {name: D3, engine: heuristic, limits: {depth: 3}}
anchor: D2
openings: {file: %q}
`, exampleBook(t)))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if sum.Format != config.FormatRoundRobin || sum.GamesPlayed != 6 {
		t.Fatalf("format %q, %d games; want round-robin, 6", sum.Format, sum.GamesPlayed)
	}
	for _, want := range []string{"Format: round-robin: 3 engines, 3 pairings, 2 games per pairing", "Crosstable (", "Ratings (maximum likelihood over all games, D2 = 0",
		"D2 (anchor)", "D1 vs D2 pairs: LL"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	saved := readSummaryJSON(t, dir)
	ct := saved.Crosstable
	if ct == nil || len(ct.Rows) != 3 || strings.Join(ct.Engines, ",") != "D1,D2,D3" {
		t.Fatalf("crosstable %+v", ct)
	}
	var records []tracker.PairRecord
	for i, row := range ct.Rows {
		e := saved.Engines[i]
		if row.Engine != e.Name || row.Games != e.Games || row.Points != e.Points || row.Games != 4 {
			t.Errorf("crosstable row %+v disagrees with the engine's %d games, %v points", row, e.Games, e.Points)
		}
		for j, c := range row.Cells {
			switch {
			case i == j && c != nil:
				t.Errorf("diagonal cell %d = %+v, want null", i, c)
			case i != j && (c == nil || c.Games != 2):
				t.Errorf("cell %s vs %s = %+v, want 2 games", row.Engine, ct.Engines[j], c)
			case i != j:
				// The mirror cell swaps wins and losses.
				m := ct.Rows[j].Cells[i]
				if m.Wins != c.Losses || m.Losses != c.Wins || m.Draws != c.Draws {
					t.Errorf("cells %d,%d and %d,%d are not mirrored: %+v %+v", i, j, j, i, c, m)
				}
				if i < j {
					records = append(records, tracker.PairRecord{A: row.Engine, B: ct.Engines[j], Wins: c.Wins, Draws: c.Draws, Losses: c.Losses})
				}
			}
		}
	}
	// The ratings are the tracker's fit of the crosstable.
	want, err := tracker.FitRatings([]string{"D1", "D2", "D3"}, records, "D2")
	if err != nil {
		t.Fatal(err)
	}
	if saved.Ratings == nil || saved.Ratings.Anchor != "D2" || len(saved.Ratings.Players) != 3 {
		t.Fatalf("ratings %+v", saved.Ratings)
	}
	for i, p := range saved.Ratings.Players {
		w := want.Players[i]
		// summary.json holds null for unbounded ratings (read back as 0).
		finite := !math.IsInf(w.Elo, 0) && !math.IsNaN(w.Elo)
		if p.Name != w.Name || (finite && math.Abs(p.Elo-w.Elo) > 1e-9) || p.Games != 4 {
			t.Errorf("rating %+v, want %+v", p, w)
		}
	}
	if got := saved.Ratings.Players[1]; got.Elo != 0 {
		t.Errorf("anchor D2 rated %v", got.Elo)
	}
	// Every pairing's games form a pair from one opening.
	for _, p := range saved.Pairs {
		if p.Penta == nil || p.Penta.Pairs != 1 {
			t.Errorf("%s vs %s: pentanomial %+v, want 1 pair", p.A, p.B, p.Penta)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, output.SummaryMD))
	if err != nil || !bytes.Contains(md, []byte("Crosstable (")) || !bytes.Contains(md, []byte("| D2 (anchor) ")) {
		t.Errorf("summary.md lacks the crosstable or ratings: %v\n%s", err, md)
	}
}

// A gauntlet pairs the first engine with each of the others only. The
// engine that never scores is rated below the others; the book is read from opening 3.
func TestGauntlet(t *testing.T) {
	sum, dir, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
format: gauntlet
games: 2
max_moves: 20
judge: off
limits: {depth: 1}
engines:
  - {name: A, command: %q}
  - {name: B, command: %q}
  - {name: C, command: %q, args: ["-mode", "illegal"]}
openings: {file: %q, start: 3}
`, fakeBin, fakeBin, fakeBin, exampleBook(t)))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range games {
		got = append(got, fmt.Sprintf("%s-%s/%d", g.White, g.Black, g.Pair))
	}
	if want := "A-B/1 B-A/1 A-C/2 C-A/2"; strings.Join(got, " ") != want {
		t.Errorf("schedule %v, want %s", got, want)
	}
	book, err := openings.Load(openings.Config{File: exampleBook(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if g.FEN != book[2].FEN {
			t.Errorf("game %d starts from %q, want the book's third opening %q", g.Game, g.FEN, book[2].FEN)
		}
	}
	if sum.Format != config.FormatGauntlet || !strings.Contains(out, "Format: gauntlet: A against each of the 2 others") {
		t.Errorf("format %q; output:\n%s", sum.Format, out)
	}
	ct := sum.Crosstable
	if ct.Rows[1].Cells[2] != nil || ct.Rows[2].Cells[1] != nil || ct.Rows[0].Cells[2].Wins != 2 {
		t.Errorf("crosstable: B-C must be empty and A 2-0 against C: %+v", ct.Rows)
	}
	// C lost every game: no finite maximum likelihood, so the prior's
	// virtual draws rate it finitely, below B; nothing prints an infinity.
	b, c := sum.Ratings.Players[1], sum.Ratings.Players[2]
	if math.IsInf(c.Elo, 0) || c.Elo >= b.Elo || strings.Contains(out, "inf") {
		t.Errorf("C lost every game: rated %v (B %v); output:\n%s", c.Elo, b.Elo, out)
	}
}

// sprtGames is the number of all-win (or all-loss) games after which the
// SPRT decides: from pairs (two games each) or single games.
func sprtGames(t *testing.T, s tracker.SPRT, pairs, wins bool) int {
	t.Helper()
	for n := 1; n <= 100; n++ {
		var st tracker.Status
		switch {
		case pairs && wins:
			_, st = s.DecidePenta(tracker.Penta{WW: n})
		case pairs:
			_, st = s.DecidePenta(tracker.Penta{LL: n})
		case wins:
			_, st = s.Decide(n, 0, 0)
		default:
			_, st = s.Decide(0, 0, n)
		}
		if st != tracker.Continue {
			if pairs {
				return 2 * n
			}
			return n
		}
	}
	t.Fatalf("%v does not decide within 100", s)
	return 0
}

// An SPRT stops a match between a working engine and one that makes an
// illegal first move: from game pairs (pentanomial) the strong engine's H1 is
// accepted, from single games (pairs: false, W-D-L) the weak engine's test
// accepts H0. The LLR is printed per game and recorded; resuming a decided
// match plays nothing.
func TestSPRTStopsMatch(t *testing.T) {
	for _, tt := range []struct {
		name   string
		pairs  bool
		strong bool // the first engine is the strong one
		status string
	}{
		{"pairs, H1", true, true, "H1 accepted"},
		{"games, H0", false, false, "H0 accepted"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			first, second := fmt.Sprintf("{name: Strong, command: %q}", fakeBin), fmt.Sprintf("{name: Weak, command: %q, args: [-mode, illegal]}", fakeBin)
			if !tt.strong {
				first, second = second, first
			}
			s := tracker.SPRT{Elo0: 0, Elo1: 200, Model: tracker.ModelLogistic}.WithDefaults()
			want := sprtGames(t, s, tt.pairs, tt.strong)
			sum, dir, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
games: 40
pairs: %v
judge: off
limits: {depth: 1}
engines:
  - %s
  - %s
sprt: {elo0: 0, elo1: 200, model: logistic}
`, tt.pairs, first, second))
			if err != nil {
				t.Fatalf("run: %v\n%s", err, out)
			}
			if sum.GamesPlayed != want || !sum.Complete || sum.Stopped != "SPRT "+tt.status || sum.SPRT.Status != tt.status {
				t.Fatalf("played %d of %d (complete %v, stopped %q, sprt %+v); want the SPRT to stop after %d games with %s\n%s",
					sum.GamesPlayed, sum.GamesPlanned, sum.Complete, sum.Stopped, sum.SPRT, want, tt.status, out)
			}
			unit := map[bool]string{true: "pairs", false: "games"}[tt.pairs]
			if sum.SPRT.Unit != unit || (tt.pairs && sum.SPRT.Count != want/2) || (!tt.pairs && sum.SPRT.Count != want) {
				t.Errorf("sprt counted %d %s, want %s", sum.SPRT.Count, sum.SPRT.Unit, unit)
			}
			for _, w := range []string{"SPRT: logistic Elo [0, 200], alpha 0.05, beta 0.05", fmt.Sprintf("Game %d/40:", want), "| LLR ",
				fmt.Sprintf("Match stopped after %d of 40 games: SPRT", want), tt.status} {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
			if err != nil {
				t.Fatal(err)
			}
			last := games[len(games)-1].LLR
			if last == nil || (tt.strong && *last < sum.SPRT.Upper) || (!tt.strong && *last > sum.SPRT.Lower) {
				t.Errorf("last game's LLR %v, want past a bound (%v, %v)", last, sum.SPRT.Lower, sum.SPRT.Upper)
			}
			var saved struct {
				SPRT struct {
					Status string   `json:"status"`
					LLR    *float64 `json:"llr"`
					Model  string   `json:"model"`
				} `json:"sprt"`
				Games []struct {
					LLR *float64 `json:"llr"`
				} `json:"games"`
			}
			data, _ := os.ReadFile(filepath.Join(dir, output.SummaryJSON))
			if err := json.Unmarshal(data, &saved); err != nil || saved.SPRT.Status != tt.status || saved.SPRT.Model != "logistic" ||
				len(saved.Games) != want || saved.Games[0].LLR == nil {
				t.Errorf("summary.json sprt %+v (%v)", saved, err)
			}
			var again bytes.Buffer
			sum, err = Resume(context.Background(), dir, Options{Binary: arenaBin, Stdout: &again})
			if err != nil || sum.GamesPlayed != want || strings.Contains(again.String(), fmt.Sprintf("Game %d/", want+1)) {
				t.Errorf("resume of a decided match: %v, %d games\n%s", err, sum.GamesPlayed, again.String())
			}
		})
	}
}

// A sweep of a small experiment over two depth limits: each setting is a
// run directory of its own, the combined table is printed and written to
// sweep.json and sweep.md. The sweep is interrupted after its first game and
// resumed: setting 1 continues (or, when its second game was played while
// the first was judged, is already done), setting 2 starts.
func TestSweep(t *testing.T) {
	t.Parallel()
	needStockfish(t)
	cfg := writeConfig(t, `
name: depth-sweep
sweep:
  limits.depth: [1, 2]
games: 2
max_moves: 30
engines:
  - {name: Plain, engine: heuristic}
  - {name: PVS, engine: heuristic, options: {pvs: true}}
judge: {depth: 4}
`)
	dir := filepath.Join(t.TempDir(), "sweep")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := RunSweep(ctx, cfg, Options{Binary: arenaBin, OutDir: dir, Stdout: &cancelAfter{prefix: "Game 1/2:", cancel: cancel}})
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Done > 1 || ie.Total != 2 || !strings.Contains(err.Error(), fmt.Sprintf("interrupted after %d of 2 settings; resume with: arena run --resume %s", ie.Done, dir)) {
		t.Fatalf("interrupted sweep returned %v", err)
	}
	if !output.IsSweepDir(dir) {
		t.Fatalf("%s has no %s after the interruption", dir, output.SweepJSON)
	}
	var out bytes.Buffer
	ss, err := ResumeSweep(context.Background(), dir, Options{Binary: arenaBin, Stdout: &out})
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out.String())
	}
	wants := []string{"=== SWEEP: limits.depth over 1, 2 (2 settings) ===", "=== SWEEP SETTING 2/2: limits.depth = 2 ===", "=== SWEEP RESULTS ===", "limits.depth", "ACPL"}
	if ie.Done == 0 {
		wants = append(wants, "=== SWEEP SETTING 1/2: limits.depth = 1 ===", "Resuming: 1 of 2 games already played")
	}
	for _, want := range wants {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	var saved output.SweepSummary
	data, err := os.ReadFile(filepath.Join(dir, output.SweepJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	if !saved.Complete || saved.Key != "limits.depth" || len(saved.Settings) != 2 || len(saved.Rows) != 4 || ss.Name != "depth-sweep" {
		t.Fatalf("sweep.json: %s", data)
	}
	for i, st := range saved.Settings {
		if !st.Complete || st.GamesPlayed != 2 || st.X == nil || *st.X != float64(i+1) {
			t.Errorf("setting %+v", st)
		}
		sub := readSummaryJSON(t, filepath.Join(dir, st.Dir))
		for j, e := range sub.Engines {
			r := saved.Rows[2*i+j]
			if r.Setting != i+1 || r.Engine != e.Name || r.Games != 2 || r.Wins != e.Wins || r.AvgNodes != e.AvgNodes ||
				r.AvgDepth != e.AvgDepth || r.ACPL == nil || *r.ACPL != *e.ACPL || r.AvgTime <= 0 || r.AvgRAMMB <= 0 {
				t.Errorf("row %+v disagrees with %s's summary %+v", r, st.Dir, e)
			}
		}
		if want := fmt.Sprintf("depth-sweep limits.depth=%d", i+1); sub.Name != want {
			t.Errorf("setting %d run name %q, want %q", i+1, sub.Name, want)
		}
	}
	// Depth 2 searches deeper than depth 1.
	if saved.Rows[2].AvgDepth <= saved.Rows[0].AvgDepth {
		t.Errorf("avg depth %v at depth 1, %v at depth 2", saved.Rows[0].AvgDepth, saved.Rows[2].AvgDepth)
	}
	md, err := os.ReadFile(filepath.Join(dir, output.SweepMD))
	if err != nil || !bytes.Contains(md, []byte("| limits.depth |")) || !bytes.Contains(md, []byte("(02-depth-2/summary.md)")) {
		t.Errorf("sweep.md: %v\n%s", err, md)
	}
	// A complete sweep resumes to its table without playing.
	out.Reset()
	if _, err := ResumeSweep(context.Background(), dir, Options{Binary: arenaBin, Stdout: &out}); err != nil || strings.Contains(out.String(), "SWEEP SETTING") {
		t.Errorf("resume of a complete sweep: %v\n%s", err, out.String())
	}
}
