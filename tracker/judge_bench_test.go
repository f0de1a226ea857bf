package tracker

import (
	"context"
	"os"
	"testing"

	"arena/tracker/pgn"
)

// benchDepth is small to keep benchmark runs short on the shared machine;
// the cost per ply in evaluations does not depend on it.
const benchDepth = 8

// BenchmarkJudgeGame judges one 23-ply game (game 1 of the hand-written PGN)
// with a fresh judge per iteration and reports the Stockfish evaluations per
// ply: (n+1)/n for n plies, against 2 for the thesis's script.
func BenchmarkJudgeGame(b *testing.B) {
	f, err := os.Open("testdata/handwritten.pgn")
	if err != nil {
		b.Fatal(err)
	}
	games, err := pgn.Read(f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	g := games[0]
	var evals, plies int64
	for b.Loop() {
		b.StopTimer()
		j := newTestJudge(b, JudgeConfig{Depth: benchDepth})
		b.StartTimer()
		if _, err := j.EvaluateGame(context.Background(), g.StartFEN, g.Moves); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		evals += j.Evaluations()
		plies += int64(len(g.Moves))
		j.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(evals)/float64(plies), "evals/ply")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(plies), "ms/ply")
}

// BenchmarkJudgeFile judges the whole hand-written PGN (4 games, 48 plies,
// positions shared between games, a checkmate and a dead position) and
// reports the evaluations per ply, which the cache and the rules bring
// below 1.
func BenchmarkJudgeFile(b *testing.B) {
	var evals, plies int64
	for b.Loop() {
		b.StopTimer()
		j := newTestJudge(b, JudgeConfig{Depth: benchDepth})
		f, err := os.Open("testdata/handwritten.pgn")
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		rep, err := AnalyzePGN(context.Background(), f, j, nil)
		b.StopTimer()
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		evals += rep.Judge.Evaluations
		plies += int64(rep.Judge.Plies)
		j.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(evals)/float64(plies), "evals/ply")
}
