package nnuetrain

import (
	"testing"

	"arena/engines/board"
	"arena/engines/nnue"
)

// TestShippedNetIsSensible reads the shipped net (make nnue-net) with the
// engine's reader and checks a few evaluations: a near-level start
// position, a queen up is far ahead, from the side to move's view.
func TestShippedNetIsSensible(t *testing.T) {
	q, err := nnue.Load("../nn/nets/nnue-256.nnue")
	if err != nil {
		t.Fatalf("%v (make nnue-net writes it)", err)
	}
	if q.Hidden != 256 || q.Activation != nnue.SCReLU || q.QA != QA || q.QB != QB || q.Scale != 400 {
		t.Fatalf("header %d hidden, activation %d, QA %d, QB %d, scale %d: expected 256, SCReLU, 255, 64, 400",
			q.Hidden, q.Activation, q.QA, q.QB, q.Scale)
	}
	for _, c := range []struct {
		fen    string
		lo, hi int32
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", -10, 60},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", -100, 30},
		{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 300, 10000},   // White a queen up
		{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", -10000, -300}, // the same, Black to move
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1", -10000, -300},
	} {
		p, err := board.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		v := q.Evaluate(p)
		t.Logf("%5d cp  %s", v, c.fen)
		if v < c.lo || v > c.hi {
			t.Errorf("%s: %d cp, expected %d..%d", c.fen, v, c.lo, c.hi)
		}
	}
}
