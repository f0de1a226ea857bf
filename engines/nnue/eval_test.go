package nnue

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"arena/engines/board"
)

// TestKernelsMatchPortable: every kernel path computes the portable Go
// kernels' integers bit for bit, on random data including the extremes of
// int16 (accumulators wrap, weights of -32768), for widths on and off the
// assembly's 16-element blocks.
func TestKernelsMatchPortable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vec := func(n int) []int16 {
		v := make([]int16, n)
		for i := range v {
			switch r.IntN(4) {
			case 0:
				v[i] = int16(r.IntN(65536) - 32768)
			case 1:
				v[i] = []int16{-32768, 32767, 0, -1, 1}[r.IntN(5)]
			default:
				v[i] = int16(r.IntN(601) - 300)
			}
		}
		return v
	}
	for _, k := range paths() {
		for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 48, 100, 256, 1024} {
			for trial := 0; trial < 20; trial++ {
				src, a1, a2, s1, s2 := vec(n), vec(n), vec(n), vec(n), vec(n)
				want, got := make([]int16, n), make([]int16, n)
				updateGo(want, src, a1, a2, s1, s2)
				k.update(got, src, a1, a2, s1, s2)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: update of width %d differs from portable Go", k.name, n)
				}
				k.update(src, src, a1, a2, s1, s2) // in place, as a refresh would
				if !slices.Equal(src, want) {
					t.Fatalf("%s: in-place update of width %d differs", k.name, n)
				}
				acc, w := vec(n), vec(n)
				for _, qa := range []int16{1, 127, 255, 1024} {
					if g, w := k.dotSCReLU(acc, w, qa), dotSCReLUGo(acc, w, qa); g != w {
						t.Fatalf("%s: SCReLU dot of width %d, QA %d: %d, portable %d", k.name, n, qa, g, w)
					}
					small := make([]int16, n) // |w| * qa <= 32767, at the limit
					for i, x := range w {
						small[i] = x % (32767/qa + 1)
					}
					if g, w := k.dotSCReLUSmall(acc, small, qa), dotSCReLUGo(acc, small, qa); g != w {
						t.Fatalf("%s: small-weight SCReLU dot of width %d, QA %d: %d, portable %d", k.name, n, qa, g, w)
					}
					if g, w := k.dotCReLU(acc, w, qa), dotCReLUGo(acc, w, qa); g != w {
						t.Fatalf("%s: CReLU dot of width %d, QA %d: %d, portable %d", k.name, n, qa, g, w)
					}
				}
			}
		}
	}
}

// TestOutputKernelChoice: the narrow SCReLU kernel is used only where
// |w| * QA fits int16: output weights of 128 (x 255 = 32640) and of 129
// (32895) on saturated accumulators evaluate as the portable reference.
func TestOutputKernelChoice(t *testing.T) {
	p := board.NewPosition()
	for _, w := range []int16{128, 129, -129, -1000} {
		n := &Net{Hidden: 48, QA: 255, QB: 64, Scale: 400, Activation: SCReLU, FeatureWeights: make([]int16, Inputs*48),
			FeatureBias: make([]int16, 48), OutputWeights: make([]int16, 96)}
		for i := range n.FeatureBias {
			n.FeatureBias[i] = 300
		}
		for i := range n.OutputWeights {
			n.OutputWeights[i] = w
		}
		n.Scale = 1 // keeps the value inside EvalLimit
		// (2 x 48 x 255^2 x w / 255) x 1 / (255 x 64) = 1.5 w, toward zero.
		want := int32(2 * 48 * int64(w) / 64)
		for _, k := range paths() {
			e := newEvaluator(n, k)
			e.SetRoot(p)
			if got := e.Evaluate(p); got != want {
				t.Errorf("%s kernels, output weights %d: %d, want %d", k.name, w, got, want)
			}
		}
	}
}

// treePositions are start positions for random move trees, among them
// castling both ways for both sides, en passant and promotions with and
// without capture.
var treePositions = []string{
	board.StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	"r3k2r/1P4P1/8/8/2pP4/8/1p4p1/R3K2R b KQkq d3 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
}

// TestIncrementalMatchesRefresh walks random move trees (moves, null moves
// when not in check, which are not pushed, and back) with an Evaluator per kernel path that is
// asked for an evaluation at random nodes only, so that catching up spans
// several plies, and compares both accumulators with a refresh from
// scratch at every evaluated node. It counts the special moves it met so
// that the tree is known to cover them.
func TestIncrementalMatchesRefresh(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	seen := map[string]int{}
	for _, act := range []Activation{SCReLU, CReLU} {
		net := RandomNet(7, 40, act) // 40: blocks of 16 and a tail
		for _, k := range paths() {
			for _, fen := range treePositions {
				p, err := board.ParseFEN(fen)
				if err != nil {
					t.Fatal(err)
				}
				e := newEvaluator(net, k)
				e.SetRoot(p)
				walk(t, r, net, e, p, 6, seen)
			}
		}
	}
	for _, kind := range []string{"castle", "en passant", "promotion", "capture promotion", "null"} {
		if seen[kind] == 0 {
			t.Errorf("the random trees made no %s move", kind)
		}
	}
}

func walk(t *testing.T, r *rand.Rand, net *Net, e *Evaluator, p *board.Position, depth int, seen map[string]int) {
	t.Helper()
	if r.IntN(3) == 0 {
		checkAgainstRefresh(t, net, e, p)
	}
	if depth == 0 {
		return
	}
	var ml board.MoveList
	p.GenerateLegal(&ml)
	for i := 0; i < min(ml.Len, 3); i++ {
		m := ml.Moves[r.IntN(ml.Len)]
		// Special moves are rare among random picks: prefer them.
		for _, c := range ml.Moves[:ml.Len] {
			if (c.IsCastle() || c.IsEnPassant() || c.IsPromotion()) && r.IntN(2) == 0 {
				m = c
			}
		}
		switch {
		case m.IsCastle():
			seen["castle"]++
		case m.IsEnPassant():
			seen["en passant"]++
		case m.IsPromotion() && m.IsCapture():
			seen["capture promotion"]++
		case m.IsPromotion():
			seen["promotion"]++
		}
		e.Push(p, m)
		p.MakeMove(m)
		walk(t, r, net, e, p, depth-1, seen)
		p.UnmakeMove()
		e.Pop()
	}
	if !p.InCheck() && r.IntN(2) == 0 {
		seen["null"]++
		p.MakeNullMove() // not pushed, as the search does
		walk(t, r, net, e, p, depth-1, seen)
		p.UnmakeNullMove()
	}
	if r.IntN(3) == 0 {
		checkAgainstRefresh(t, net, e, p) // after the children, on the way back
	}
}

func checkAgainstRefresh(t *testing.T, net *Net, e *Evaluator, p *board.Position) {
	t.Helper()
	got := e.Evaluate(p)
	f := &e.frames[e.top]
	want := make([]int16, net.Hidden)
	for _, c := range []board.Color{board.White, board.Black} {
		net.refresh(want, p, c)
		if !slices.Equal(f.acc[c], want) {
			t.Fatalf("%s kernels: %s: %v's accumulator differs from a refresh", e.k.name, p.FEN(), c)
		}
	}
	if w := net.Evaluate(p); got != w {
		t.Fatalf("%s kernels: %s: incremental eval %d, from scratch %d", e.k.name, p.FEN(), got, w)
	}
}

// TestColourSymmetry: the net sees a position and its colour-flipped twin
// (ranks mirrored, colours and side to move swapped) the same way, which
// fails if a perspective's features were indexed wrongly; EvaluateFeatures
// gives Evaluate's value.
func TestColourSymmetry(t *testing.T) {
	net := RandomNet(8, 32, SCReLU)
	for _, fen := range treePositions {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		q, err := board.ParseFEN(flipFEN(fen))
		if err != nil {
			t.Fatal(err)
		}
		if a, b := net.Evaluate(p), net.Evaluate(q); a != b {
			t.Errorf("%s: %d, its colour-flipped twin %s: %d", fen, a, flipFEN(fen), b)
		}
		// The trainer's entry: the same value from feature lists.
		var us, them []int
		occ := p.Occupancy(board.White) | p.Occupancy(board.Black)
		for occ != 0 {
			sq := occ.PopLSB()
			us = append(us, Feature(p.SideToMove(), p.PieceAt(sq), sq))
			them = append(them, Feature(p.SideToMove().Other(), p.PieceAt(sq), sq))
		}
		if a, b := net.Evaluate(p), net.EvaluateFeatures(us, them); a != b {
			t.Errorf("%s: Evaluate %d, EvaluateFeatures %d", fen, a, b)
		}
	}
}

// flipFEN mirrors a FEN's ranks and swaps colours and side to move
// (castling and en passant are ignored: the net does not see them).
func flipFEN(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	slices.Reverse(ranks)
	swap := func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		}
		return r
	}
	stm := "w"
	if f[1] == "w" {
		stm = "b"
	}
	return strings.Map(swap, strings.Join(ranks, "/")) + " " + stm + " - - 0 1"
}
