package tracker

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func analyzeTestPGN(t testing.TB, j *Judge) Analysis {
	t.Helper()
	f, err := os.Open("testdata/handwritten.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var seen []int
	rep, err := AnalyzePGN(context.Background(), f, j, func(g AnalyzedGame) { seen = append(seen, g.Number) })
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(rep.Games) {
		t.Errorf("progress called for games %v, report has %d", seen, len(rep.Games))
	}
	return rep
}

func TestAnalyzePGN(t *testing.T) {
	j := newTestJudge(t, JudgeConfig{})
	rep := analyzeTestPGN(t, j)
	if len(rep.Games) != 4 {
		t.Fatalf("%d games judged, want 4", len(rep.Games))
	}
	// Moves per player: Alice 12 (g1 white) + 7 (g2 black, who moves first)
	// + 2 (g3) + 4 (g4); Bob 11 + 6; Carol 2 + 4.
	want := map[string]struct{ games, moves int }{"Alice": {4, 25}, "Bob": {2, 17}, "Carol": {2, 6}}
	if len(rep.Players) != len(want) {
		t.Errorf("players %+v, want Alice, Bob, Carol", rep.Players)
	}
	for _, p := range rep.Players {
		w, ok := want[p.Name]
		if !ok || p.Games != w.games || p.Moves != w.moves {
			t.Errorf("player %s: %d games %d moves, want %d and %d", p.Name, p.Games, p.Moves, w.games, w.moves)
		}
		if p.ACPL < 0 || p.ACPL > 900 || p.Accuracy <= 0 || p.Accuracy > 100 {
			t.Errorf("player %s: ACPL %.1f accuracy %.1f out of range", p.Name, p.ACPL, p.Accuracy)
		}
	}
	// Per game, the sides' CPL sums are the sums of their judgements.
	plies := 0
	for _, g := range rep.Games {
		plies += g.Plies
		sum := map[Side]int{}
		for _, jd := range g.Judgements {
			sum[jd.Side] += jd.CPL
		}
		if sum[White] != g.WhiteStats.CPLSum || sum[Black] != g.BlackStats.CPLSum || len(g.Judgements) != g.Plies {
			t.Errorf("game %d: judgements sum to %v, stats say %d/%d", g.Number, sum, g.WhiteStats.CPLSum, g.BlackStats.CPLSum)
		}
	}
	// Fool's mate: White's 2. g4?? allows mate (CPL capped at 900, a
	// blunder); Black's mate costs nothing.
	fool := rep.Games[2]
	if fool.White != "Carol" || fool.Judgements[2].CPL != 900 || fool.WhiteStats.Blunders < 1 || fool.Judgements[3].CPL != 0 {
		t.Errorf("fool's mate judged %+v", fool)
	}
	// Game 2 starts from a FEN with Black to move and ends in bare kings.
	g2 := rep.Games[1]
	if g2.StartFEN == "" || g2.Judgements[0].Side != Black || g2.Judgements[len(g2.Judgements)-1].After.Terminal != "insufficient material" {
		t.Errorf("SetUp game: FEN %q first mover %v last after %+v", g2.StartFEN, g2.Judgements[0].Side, g2.Judgements[len(g2.Judgements)-1].After)
	}
	// Cost: at most one Stockfish evaluation per ply over the file (terminal
	// positions are free, a position seen before is cached).
	info := rep.Judge
	if info.Plies != plies || info.Evaluations > int64(plies) || info.EvaluationsPerPly > 1 {
		t.Errorf("judge cost %+v for %d plies: want at most one evaluation per ply", info, plies)
	}
	if info.Evaluations+info.CacheHits+info.TerminalPositions != int64(plies+len(rep.Games)) {
		t.Errorf("evaluations %d + cache hits %d + terminal %d != %d positions",
			info.Evaluations, info.CacheHits, info.TerminalPositions, plies+len(rep.Games))
	}
	if info.Schedule != ScheduleOffline || !strings.HasPrefix(info.Engine, "Stockfish") || info.Depth != testDepth {
		t.Errorf("judge info %+v", info)
	}

	// The same file judged again by a fresh judge gives the same numbers
	// (the recomputation the arena's summary must match).
	again := analyzeTestPGN(t, newTestJudge(t, JudgeConfig{Workers: 2}))
	for i := range rep.Players {
		if rep.Players[i] != again.Players[i] {
			t.Errorf("second judging: %+v, first %+v", again.Players[i], rep.Players[i])
		}
	}

	// Render and WriteFile.
	var buf bytes.Buffer
	if err := rep.Render(&buf); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Alice", "Carol", "0-1", "evaluations for 48 plies", "depth 6"} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("rendered report lacks %q:\n%s", s, buf.String())
		}
	}
	path := filepath.Join(t.TempDir(), "report.json")
	if err := rep.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var back Analysis
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Games) != 4 || back.Players[0] != rep.Players[0] || back.Games[1].Judgements[0].Side != Black {
		t.Errorf("JSON round trip lost data: %+v", back.Players)
	}
}

func TestAnalyzePGNError(t *testing.T) {
	j := newTestJudge(t, JudgeConfig{})
	pgn := "[White \"A\"]\n[Black \"B\"]\n1. f3 e5 2. g4 Qh4# 0-1\n\n[White \"C\"]\n1. e4 e5 2. Qe3 *\n"
	rep, err := AnalyzePGN(context.Background(), strings.NewReader(pgn), j, nil)
	if err == nil || !strings.Contains(err.Error(), "PGN game 2") || !strings.Contains(err.Error(), "2. Qe3") {
		t.Errorf("error %v, want one naming game 2 and 2. Qe3", err)
	}
	if len(rep.Games) != 1 || len(rep.Players) != 2 {
		t.Errorf("partial report: %d games %d players, want the first game", len(rep.Games), len(rep.Players))
	}
}
