package heuristic

import (
	"bufio"
	"math/rand/v2"
	"os"
	"testing"

	"arena/engines"
	"arena/engines/board"
)

// TestTracerIsTheEvaluation checks that a trace is complete: the terms of a
// position traced with PeSTO's weights, evaluated at other weights, give the
// engine's evaluation with those weights (to the integer rounding of the
// taper), for every parameter moved at random at once.
func TestTracerIsTheEvaluation(t *testing.T) {
	var fens []string
	for _, bp := range engines.BenchPositions {
		fens = append(fens, bp.FEN)
	}
	f, err := os.Open("../../configs/openings/balanced.epd")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if e, err := board.ParseEPDLine(sc.Text()); err == nil {
			fens = append(fens, e.FullFEN())
		}
	}
	fens = append(fens, "4k3/8/8/8/4P3/4P3/8/4K3 w - - 0 1", "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R b KQkq - 0 1")
	if len(fens) < 50 {
		t.Fatalf("%d positions, expected the bench and the balanced book", len(fens))
	}
	base := PestoWeights()
	moved := PestoWeights()
	rng := rand.New(rand.NewPCG(1, 2))
	params := moved.Params()
	for _, p := range params {
		*p.V += int32(rng.IntN(41)) - 20
	}
	traceBase, traceMoved := NewTracer(&base), NewTracer(&moved)
	var terms []Term
	for _, fen := range fens {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		var e0, e1 int32
		terms, e0 = traceBase.Trace(p, terms)
		_, e1 = traceMoved.Trace(p, nil)
		predicted := float64(e0)
		for _, tm := range terms {
			predicted += tm.Coef * float64(*params[tm.Param].V-*base.Params()[tm.Param].V)
		}
		if d := predicted - float64(e1); d < -1 || d > 1 {
			t.Errorf("%s: the trace predicts %.2f at the moved weights, the evaluation is %d", fen, predicted, e1)
		}
		want := termsEval{newEvalTables(pstCorrect, &moved), &moved}.Evaluate(p)
		if p.SideToMove() == board.Black {
			want = -want
		}
		if e1 != want {
			t.Errorf("%s: the tracer's evaluation %d, the engine's %d", fen, e1, want)
		}
	}
}

// TestWeightsOption checks that eval_weights=tuned plays with the tuned set
// and leaves preset strong (pesto) alone.
func TestWeightsOption(t *testing.T) {
	strong := newEngine(t, map[string]string{"preset": "strong"})
	tuned := newEngine(t, map[string]string{"preset": "strong", "eval_weights": "tuned"})
	if strong.cfg.weights != &pestoWeights || tuned.cfg.weights != &tunedWeights {
		t.Fatalf("eval_weights: strong has %p, tuned %p; want pesto %p and tuned %p", strong.cfg.weights, tuned.cfg.weights, &pestoWeights, &tunedWeights)
	}
	if tunedWeights == pestoWeights {
		t.Error("the tuned weights are PeSTO's: tuned.go holds no fit")
	}
	differ := 0
	for _, bp := range engines.BenchPositions {
		p, err := board.ParseFEN(bp.FEN)
		if err != nil {
			t.Fatal(err)
		}
		if strong.s.eval.Evaluate(p) != tuned.s.eval.Evaluate(p) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("strong and eval_weights=tuned evaluate every bench position alike")
	}
}
