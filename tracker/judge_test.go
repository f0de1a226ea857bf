package tracker

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"arena/engines/uci"
)

// testDepth keeps the integration tests quick; the judge's behaviour does
// not depend on the depth.
const testDepth = 6

func newTestJudge(t testing.TB, cfg JudgeConfig) *Judge {
	t.Helper()
	if _, err := uci.LocateEngine("stockfish"); err != nil {
		t.Fatalf("stockfish not found (%v): install it with make test-tools (apt-get install -y stockfish)", err)
	}
	if cfg.Depth == 0 {
		cfg.Depth = testDepth
	}
	j, err := NewJudge(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

func TestJudgeTerminalPositions(t *testing.T) {
	j := newTestJudge(t, JudgeConfig{})
	ctx := context.Background()
	cases := []struct {
		name, fen string
		want      Eval
		score     int
	}{
		// Fool's mate: White is checkmated.
		{"checkmate", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
			Eval{Mate: 0, IsMate: true, Terminal: "checkmate"}, -10000},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Eval{Terminal: "stalemate"}, 0},
		{"bare kings", "8/8/4k3/8/8/3K4/8/8 w - - 0 1", Eval{Terminal: "insufficient material"}, 0},
		{"king and bishop", "8/8/4k3/8/8/3KB3/8/8 b - - 0 1", Eval{Terminal: "insufficient material"}, 0},
	}
	for _, c := range cases {
		e, err := j.Evaluate(ctx, c.fen)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if e != c.want || e.Score(10000) != c.score {
			t.Errorf("%s: %+v (score %d), want %+v (score %d)", c.name, e, e.Score(10000), c.want, c.score)
		}
	}
	if n := j.Evaluations(); n != 0 {
		t.Errorf("terminal positions cost %d Stockfish evaluations, want 0", n)
	}
	if n := j.TerminalPositions(); n != int64(len(cases)) {
		t.Errorf("TerminalPositions = %d, want %d", n, len(cases))
	}
}

func TestJudgeMateScores(t *testing.T) {
	j := newTestJudge(t, JudgeConfig{})
	ctx := context.Background()
	// Back-rank mate in one for White (Ra8#).
	e, err := j.Evaluate(ctx, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if !e.IsMate || e.Mate != 1 || e.Score(10000) != 9999 {
		t.Errorf("mate in 1 evaluated %+v (score %d), want mate 1 = 9999", e, e.Score(10000))
	}
	// Black must play Kb8, then Rh8#: mated in one.
	e, err = j.Evaluate(ctx, "k7/8/1K6/8/8/8/8/7R b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if !e.IsMate || e.Mate != -1 || e.Score(10000) != -9999 {
		t.Errorf("mated in 1 evaluated %+v (score %d), want mate -1 = -9999", e, e.Score(10000))
	}
	if e.Depth != testDepth {
		t.Errorf("depth %d, want %d", e.Depth, testDepth)
	}
}

func TestJudgeCache(t *testing.T) {
	j := newTestJudge(t, JudgeConfig{})
	ctx := context.Background()
	// The same position with other move counters and an en passant square
	// no pawn can use (as notnil/chess writes it) is one cache entry.
	fens := []string{
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 7 30",
	}
	var first Eval
	for i, fen := range fens {
		e, err := j.Evaluate(ctx, fen)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = e
		} else if e != first {
			t.Errorf("%s evaluated %v, the same position was %v", fen, e, first)
		}
	}
	if j.Evaluations() != 1 || j.CacheHits() != 2 {
		t.Errorf("evaluations %d, cache hits %d; want 1 and 2", j.Evaluations(), j.CacheHits())
	}
	// A usable en passant capture makes it another position.
	if _, err := j.Evaluate(ctx, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Evaluate(ctx, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"); err != nil {
		t.Fatal(err)
	}
	if j.Evaluations() != 3 {
		t.Errorf("with and without a capturable en passant square: %d evaluations in all, want 3", j.Evaluations())
	}
}

func TestEvaluateGameOneEvaluationPerPly(t *testing.T) {
	j := newTestJudge(t, JudgeConfig{})
	// Fool's mate: 4 plies, 5 positions, the last one checkmate.
	moves := []string{"f2f3", "e7e5", "g2g4", "d8h4"}
	evals, err := j.EvaluateGame(context.Background(), "", moves)
	if err != nil {
		t.Fatal(err)
	}
	if len(evals) != 5 {
		t.Fatalf("%d evaluations, want 5", len(evals))
	}
	if j.Evaluations() != 4 {
		t.Errorf("%d Stockfish evaluations for 4 plies, want 4 (one per ply; the thesis needs 8)", j.Evaluations())
	}
	if !evals[3].IsMate || evals[3].Mate != 1 || evals[4].Terminal != "checkmate" {
		t.Errorf("before and after Qh4#: %v, %v; want mate 1 and checkmate", evals[3], evals[4])
	}
	a, err := AnalyzeGame(evals, White, moves, DefaultScoring)
	if err != nil {
		t.Fatal(err)
	}
	if g4 := a.Judgements[2]; g4.CPL != 900 || g4.Class != Blunder {
		t.Errorf("2. g4?? judged %+v, want CPL 900 (capped) and a blunder", g4)
	}
	if qh4 := a.Judgements[3]; qh4.CPL != 0 || qh4.Class != Good || qh4.Accuracy != 100 {
		t.Errorf("2... Qh4# judged %+v, want CPL 0, no error, accuracy 100", qh4)
	}

	// The same game again costs nothing.
	if _, err := j.EvaluateGame(context.Background(), "", moves); err != nil {
		t.Fatal(err)
	}
	if j.Evaluations() != 4 {
		t.Errorf("re-evaluating the game: %d evaluations in all, want still 4", j.Evaluations())
	}
}

func TestEvaluateGameReproducible(t *testing.T) {
	// Two workers on one judge and a single worker on another give the same
	// evaluations: an evaluation depends on the position alone, so the ACPL
	// of a match can be recomputed from its PGN.
	moves := strings.Fields("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 c8e6 f2f3 f8e7")
	a := newTestJudge(t, JudgeConfig{Workers: 2})
	b := newTestJudge(t, JudgeConfig{Workers: 1})
	ea, err := a.EvaluateGame(context.Background(), "", moves)
	if err != nil {
		t.Fatal(err)
	}
	// b evaluates position by position, in reverse, as a caller between
	// moves would (order must not matter).
	positions, err := replayUCI("", moves)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(positions) - 1; i >= 0; i-- {
		e, err := b.Evaluate(context.Background(), positions[i].String())
		if err != nil {
			t.Fatal(err)
		}
		if e != ea[i] {
			t.Errorf("position %d: %v with 2 workers, %v alone", i, ea[i], e)
		}
	}
	if a.Evaluations() != int64(len(moves)+1) {
		t.Errorf("%d evaluations for %d positions", a.Evaluations(), len(moves)+1)
	}
}

func TestEvaluateGameErrors(t *testing.T) {
	j := newTestJudge(t, JudgeConfig{})
	ctx := context.Background()
	_, err := j.EvaluateGame(ctx, "", []string{"e2e4", "e7e5", "e1e3"})
	if err == nil || !strings.Contains(err.Error(), `move 3 "e1e3" is not legal`) {
		t.Errorf("illegal move: error %v", err)
	}
	if _, err := j.Evaluate(ctx, "not a fen"); err == nil || !strings.Contains(err.Error(), "not a fen") {
		t.Errorf("bad FEN: error %v", err)
	}
	if _, err := j.EvaluateGame(ctx, "8/8/8 w", nil); err == nil || !strings.Contains(err.Error(), "start FEN") {
		t.Errorf("bad start FEN: error %v", err)
	}
	if _, err := j.Evaluate(ctx, "8/8/8/4k3/8/8/8/8 w - - 0 1"); err == nil || !strings.Contains(err.Error(), "0 white and 1 black kings") {
		t.Errorf("position without a white king: error %v", err)
	}
	if _, err := j.EvaluateGame(ctx, "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", nil); err == nil || !strings.Contains(err.Error(), "pawn on a8") {
		t.Errorf("pawn on the last rank: error %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	fen := "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
	if _, err := j.Evaluate(cancelled, fen); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v, want context.Canceled", err)
	}
	// The cancelled request left nothing in the cache.
	if _, err := j.Evaluate(ctx, fen); err != nil || j.Evaluations() != 1 {
		t.Errorf("after a cancelled request: %v, %d evaluations; want one real evaluation", err, j.Evaluations())
	}
	j.Close()
	if _, err := j.Evaluate(ctx, "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"); err == nil {
		t.Error("Evaluate after Close succeeded")
	}
}

func TestJudgeRestartsDeadStockfish(t *testing.T) {
	j := newTestJudge(t, JudgeConfig{})
	ctx := context.Background()
	c := <-j.free
	p, err := os.FindProcess(c.PID())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	j.free <- c
	e, err := j.Evaluate(ctx, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
	if err != nil {
		t.Fatalf("evaluation after Stockfish died: %v", err)
	}
	if !e.IsMate || e.Mate != 1 || j.Restarts() != 1 {
		t.Errorf("after a restart: %v, %d restarts; want mate 1 and 1 restart", e, j.Restarts())
	}
}

func TestJudgeConfig(t *testing.T) {
	c := JudgeConfig{}.WithDefaults()
	want := JudgeConfig{Command: "stockfish", Depth: 12, Cap: 900, MateScore: 10000, Workers: 1, HashMB: 16, Threads: 1, Protocol: ProtocolPosition, Timeout: DefaultJudgeTimeout}
	if c != want {
		t.Errorf("defaults %+v, want %+v", c, want)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
	if err := (JudgeConfig{}).Validate(); err == nil || !strings.Contains(err.Error(), "judge depth: 0") {
		t.Errorf("an explicit depth 0 validated: %v", err)
	}
	err := JudgeConfig{Depth: -3, Cap: 900, MateScore: 10000, Workers: 1000, HashMB: 16, Threads: 1}.Validate()
	if err == nil || !strings.Contains(err.Error(), "judge depth: -3 is out of range, expected 1..99") ||
		!strings.Contains(err.Error(), "judge workers: 1000") {
		t.Errorf("Validate: %v", err)
	}
	_, err = NewJudge(context.Background(), JudgeConfig{Command: "/nonexistent/dir/stockfish"})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/dir/stockfish") {
		t.Errorf("missing Stockfish: %v", err)
	}
	_, err = NewJudge(context.Background(), JudgeConfig{Command: "no-such-judge-engine"})
	if err == nil || !strings.Contains(err.Error(), "tried") || !strings.Contains(err.Error(), "/usr/games/no-such-judge-engine") {
		t.Errorf("unknown engine: %v, want the paths tried", err)
	}
}
