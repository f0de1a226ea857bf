package nnue

import (
	"math/rand/v2"
	"testing"

	"arena/engines/board"
	"arena/engines/nnuetrain"
)

// TestCrossTrainer: the trainer (engines/nnuetrain) and the engine read
// and write the same net file and evaluate positions alike, for both
// activations and both directions of writing.
func TestCrossTrainer(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, act := range []Activation{SCReLU, CReLU} {
		n := RandomNet(3, 256, act)
		data, _ := n.Bytes()
		q, err := nnuetrain.Decode(data, "x")
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(q.Encode(), "y")
		if err != nil {
			t.Fatal(err)
		}
		if back.CRC != n.CRC {
			t.Fatalf("%v: the trainer wrote the engine's net back with CRC %08x, want %08x", act, back.CRC, n.CRC)
		}
		checked := 0
		for _, fen := range treePositions {
			p, err := board.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 60; ply++ {
				var ml board.MoveList
				p.GenerateLegal(&ml)
				if ml.Len == 0 {
					break
				}
				p.MakeMove(ml.Moves[r.IntN(ml.Len)])
				want, err := q.EvaluateFEN(p.FEN())
				if err != nil {
					t.Fatal(err)
				}
				if got := n.Evaluate(p); int(got) != want {
					t.Fatalf("%s: engine %d trainer %d", p.FEN(), got, want)
				}
				checked++
			}
		}
		t.Logf("%v: %d positions agree", act, checked)
	}
}
