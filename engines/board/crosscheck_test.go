package board

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/notnil/chess"
)

// TestCrossCheckNotnil plays random games from fixed seeds and compares, at
// every ply, the legal moves, the FEN and checkmate/stalemate with
// github.com/notnil/chess, an independent implementation. It also checks
// that GenerateCaptures returns exactly the legal captures and promotions.
func TestCrossCheckNotnil(t *testing.T) {
	starts := []string{
		StartFEN,
		kiwipete,
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		"8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
		"r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
		"4k3/1P6/8/3pP3/8/8/6p1/4K3 w - d6 0 1",
	}
	const games = 300
	const maxPlies = 300
	positions, mates, stalemates := 0, 0, 0
	for g := 0; g < games; g++ {
		rng := rand.New(rand.NewSource(int64(g)))
		fen := starts[g%len(starts)]
		p := mustFEN(t, fen)
		ref := &chess.Position{}
		if err := ref.UnmarshalText([]byte(fen)); err != nil {
			t.Fatalf("notnil rejects %s: %v", fen, err)
		}
		for ply := 0; ply < maxPlies; ply++ {
			positions++
			where := func() string { return fmt.Sprintf("%s (game %d, ply %d)", p.FEN(), g, ply) }
			if got, want := p.FEN(), ref.XFENString(); got != want {
				t.Fatalf("FEN %s, notnil %s (game %d, ply %d)", got, want, g, ply)
			}
			var ml MoveList
			p.GenerateLegal(&ml)
			ours := make([]string, 0, ml.Len)
			for _, m := range ml.Slice() {
				ours = append(ours, m.String())
			}
			refMoves := ref.ValidMoves()
			theirs := make([]string, 0, len(refMoves))
			for _, m := range refMoves {
				theirs = append(theirs, uciNotation.Encode(ref, m))
			}
			slices.Sort(ours)
			slices.Sort(theirs)
			if !slices.Equal(ours, theirs) {
				t.Fatalf("%s: legal moves\n ours   %v\n notnil %v", where(), ours, theirs)
			}
			checkCaptures(t, p, ref, refMoves, where)
			st := p.Status()
			switch ref.Status() {
			case chess.Checkmate:
				mates++
				if st != Checkmate {
					t.Fatalf("%s: status %v, notnil says checkmate", where(), st)
				}
			case chess.Stalemate:
				stalemates++
				if st != Stalemate {
					t.Fatalf("%s: status %v, notnil says stalemate", where(), st)
				}
			default:
				if st == Checkmate || st == Stalemate {
					t.Fatalf("%s: status %v, notnil says neither checkmate nor stalemate", where(), st)
				}
			}
			if len(refMoves) == 0 {
				break
			}
			i := rng.Intn(ml.Len)
			m := ml.Moves[i]
			p.MakeMove(m)
			for _, rm := range refMoves {
				if uciNotation.Encode(ref, rm) == m.String() {
					ref = ref.Update(rm)
					break
				}
			}
		}
	}
	t.Logf("%d positions compared, %d checkmates, %d stalemates", positions, mates, stalemates)
	if positions < 30000 || mates < 10 || stalemates < 3 {
		t.Errorf("%d positions, %d checkmates, %d stalemates compared; expected at least 30000, 10 and 3", positions, mates, stalemates)
	}
}

// checkCaptures compares GenerateCaptures with notnil's moves tagged as
// captures or en passant, plus all promotions.
func checkCaptures(t *testing.T, p *Position, ref *chess.Position, refMoves []*chess.Move, where func() string) {
	t.Helper()
	var ml MoveList
	p.GenerateCaptures(&ml)
	var ours, theirs []string
	for _, m := range ml.Slice() {
		if !m.IsCapture() && !m.IsPromotion() {
			t.Fatalf("%s: GenerateCaptures returned the quiet move %v", where(), m)
		}
		ours = append(ours, m.String())
	}
	for _, m := range refMoves {
		if m.HasTag(chess.Capture) || m.HasTag(chess.EnPassant) || m.Promo() != chess.NoPieceType {
			theirs = append(theirs, uciNotation.Encode(ref, m))
		}
	}
	slices.Sort(ours)
	slices.Sort(theirs)
	if !slices.Equal(ours, theirs) {
		t.Fatalf("%s: captures and promotions\n ours   %v\n notnil %v", where(), ours, theirs)
	}
}

var uciNotation chess.UCINotation
