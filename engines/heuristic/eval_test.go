package heuristic

import (
	"strings"
	"testing"

	"arena/engines"
	"arena/engines/board"
)

// mirrorFEN flips a position vertically and swaps the colours: the same
// position seen from the other side, which must evaluate the same for the
// side to move.
func mirrorFEN(t *testing.T, fen string) string {
	t.Helper()
	f := strings.Fields(fen)
	if len(f) != 6 {
		t.Fatalf("mirrorFEN %q: want 6 fields", fen)
	}
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swapCase := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return r - 'a' + 'A'
			case r >= 'A' && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s)
	}
	side := "w"
	if f[1] == "w" {
		side = "b"
	}
	castling := f[2]
	if castling != "-" {
		// Upper case (White) first, as FEN writes it.
		sw := swapCase(castling)
		var up, low []rune
		for _, r := range sw {
			if r >= 'A' && r <= 'Z' {
				up = append(up, r)
			} else {
				low = append(low, r)
			}
		}
		castling = string(up) + string(low)
	}
	ep := f[3]
	if ep != "-" {
		ep = string(ep[0]) + string('1'+'8'-ep[1])
	}
	return strings.Join([]string{swapCase(strings.Join(ranks, "/")), side, castling, ep, f[4], f[5]}, " ")
}

func evalFEN(t *testing.T, tables *evalTables, fen string) int32 {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatalf("parse %s: %v", fen, err)
	}
	return tables.Evaluate(p)
}

func TestEvalSymmetry(t *testing.T) {
	for _, mode := range []pstMode{pstCorrect, pstThesis} {
		tables := newEvalTables(mode, &pestoWeights)
		if v := evalFEN(t, tables, engines.StartFEN); v != 0 {
			t.Errorf("mode %d: start position evaluates %d, want 0", mode, v)
		}
		for _, fen := range append(testPositions, "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", "8/8/3k4/8/2PK4/8/8/8 w - - 0 1") {
			m := mirrorFEN(t, fen)
			if a, b := evalFEN(t, tables, fen), evalFEN(t, tables, m); a != b {
				t.Errorf("mode %d: eval(%s) = %d but eval of its mirror %s = %d", mode, fen, a, m, b)
			}
		}
	}
}

func TestEvalByHand(t *testing.T) {
	// Kings and one white pawn: phase 0, so the endgame terms alone. The
	// kings stand on mirrored squares and cancel. With correct PeSTO the
	// pawn on e2 reads the table's rank-2 row (e: 13), on e7 its rank-7 row
	// (e: 147); the thesis indexing swaps the two.
	tests := []struct {
		name string
		fen  string
		mode pstMode
		want int32
	}{
		{"pawn e2, correct", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", pstCorrect, 94 + 13},
		{"pawn e7, correct", "4k3/4P3/8/8/8/8/8/4K3 w - - 0 1", pstCorrect, 94 + 147},
		{"pawn e2, black to move", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", pstCorrect, -(94 + 13)},
		{"pawn e2, thesis", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", pstThesis, 94 + 147},
		{"pawn e7, thesis", "4k3/4P3/8/8/8/8/8/4K3 w - - 0 1", pstThesis, 94 + 13},
		// Start position minus White's queen: full phase 24 - 4 = 20.
		// The missing queen on d1 read mg 10 and eg -43 besides 1025 and 936.
		{"queen odds", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1", pstCorrect,
			-((1025+10)*20 + (936-43)*4) / 24},
	}
	for _, tc := range tests {
		if got := evalFEN(t, newEvalTables(tc.mode, &pestoWeights), tc.fen); got != tc.want {
			t.Errorf("%s: eval %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestThesisPSTIsMirrored(t *testing.T) {
	correct, thesis := newEvalTables(pstCorrect, &pestoWeights), newEvalTables(pstThesis, &pestoWeights)
	wp, bp := board.MakePiece(board.White, board.Pawn), board.MakePiece(board.Black, board.Pawn)
	// The listing's White reads the rank-8-first table with a1 = 0: its
	// pawns score highest in the middlegame on rank 2, not rank 7.
	if !(thesis.mg[wp][board.E2] > thesis.mg[wp][board.E7]) {
		t.Errorf("pst=thesis: white pawn mg e2 %d, e7 %d: want e2 higher", thesis.mg[wp][board.E2], thesis.mg[wp][board.E7])
	}
	if !(correct.mg[wp][board.E7] > correct.mg[wp][board.E2]) {
		t.Errorf("pst=correct: white pawn mg e2 %d, e7 %d: want e7 higher", correct.mg[wp][board.E2], correct.mg[wp][board.E7])
	}
	for sq := board.A1; sq <= board.H8; sq++ {
		for _, pc := range []board.Piece{wp, bp, board.MakePiece(board.White, board.Knight), board.MakePiece(board.Black, board.King)} {
			if thesis.mg[pc][sq] != correct.mg[pc][sq^56] || thesis.eg[pc][sq] != correct.eg[pc][sq^56] {
				t.Fatalf("piece %s square %s: thesis (%d, %d) is not correct's vertical mirror (%d, %d)",
					pc, sq, thesis.mg[pc][sq], thesis.eg[pc][sq], correct.mg[pc][sq^56], correct.eg[pc][sq^56])
			}
		}
	}
	// The option reaches the engine: the two indexings score a pawn on the
	// seventh rank differently.
	fen := "4k3/4P3/8/8/8/8/8/4K3 w - - 0 1"
	a := search(t, newEngine(t, map[string]string{"pst": "thesis"}), fen, engines.Limits{Depth: 1})
	b := search(t, newEngine(t, nil), fen, engines.Limits{Depth: 1})
	if a.Score == b.Score {
		t.Errorf("pst=thesis and pst=correct score %s the same (%s) at depth 1", fen, a.Score)
	}
}

func TestMirrorFEN(t *testing.T) {
	got := mirrorFEN(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Kq e3 0 1")
	want := "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b Qk e6 0 1"
	if got != want {
		t.Errorf("mirrorFEN = %q, want %q", got, want)
	}
}

// TestSearchIsColourSymmetric checks the whole search, not only the
// evaluation: a position and its mirror get the same score. (The moves may
// differ between equal-scoring ones: generation order is not symmetric.)
func TestSearchIsColourSymmetric(t *testing.T) {
	for _, fen := range testPositions[:4] {
		m := mirrorFEN(t, fen)
		a := search(t, newEngine(t, nil), fen, engines.Limits{Depth: 4})
		b := search(t, newEngine(t, nil), m, engines.Limits{Depth: 4})
		if a.Score != b.Score {
			t.Errorf("%s: score %s, mirror %s: %s", fen, a.Score, m, b.Score)
		}
	}
}
