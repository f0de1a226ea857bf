package heuristic

import (
	"testing"

	"arena/engines"
	"arena/engines/board"
)

func termsFEN(t *testing.T, fen string) (withTerms, pesto int32) {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatalf("parse %s: %v", fen, err)
	}
	tables := newEvalTables(pstCorrect, &pestoWeights)
	return termsEval{tables, &pestoWeights}.Evaluate(p), tables.Evaluate(p)
}

func TestEvalTermsSymmetry(t *testing.T) {
	if v := evalOf(t, engines.StartFEN); v != 0 {
		t.Errorf("start position evaluates %d with eval_terms, want 0", v)
	}
	for _, bp := range engines.BenchPositions {
		m := mirrorFEN(t, bp.FEN)
		if a, b := evalOf(t, bp.FEN), evalOf(t, m); a != b {
			t.Errorf("%s: eval_terms eval %d, of its mirror %s: %d", bp.FEN, a, m, b)
		}
	}
}

func evalOf(t *testing.T, fen string) int32 {
	t.Helper()
	v, _ := termsFEN(t, fen)
	return v
}

// TestEvalTermsByHand checks each term on positions where it alone (or
// with terms whose values are known) separates the evaluation from PeSTO's.
// Kings alone and pawns: phase 0, endgame weights. White to move.
func TestEvalTermsByHand(t *testing.T) {
	eg := func(w [2]int32) int32 { return w[1] }
	for _, tc := range []struct {
		name, fen string
		want      int32 // eval_terms minus PeSTO
	}{
		// A lone white pawn on e4: passed (rank 4 from White, index 3) and
		// isolated.
		{"passed isolated pawn", "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", eg(passedPawn[3]) + eg(isolatedPawn)},
		// Doubled on the e-file, both isolated, the front one passed (a
		// pawn behind its own is not).
		{"doubled pawns", "4k3/8/8/8/4P3/4P3/8/4K3 w - - 0 1", eg(passedPawn[3]) + 2*eg(isolatedPawn) + eg(doubledPawn)},
		// A black pawn on d5 stops the e4 pawn (adjacent file ahead) and
		// the e4 pawn stops it: neither is passed; both isolated, cancel.
		{"no passers", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", 0},
		// Black's a7 pawn is passed on rank 2 from Black (index 1); both isolated.
		{"black passer", "4k3/p7/8/8/8/8/8/4K3 w - - 0 1", -eg(passedPawn[1]) - eg(isolatedPawn)},
	} {
		with, pesto := termsFEN(t, tc.fen)
		if got := with - pesto; got != tc.want {
			t.Errorf("%s (%s): eval_terms adds %d, want %d", tc.name, tc.fen, got, tc.want)
		}
	}
}

// TestEvalTermsDirections: each term moves the evaluation the way it
// should, comparing two positions that differ in that term only.
func TestEvalTermsDirections(t *testing.T) {
	for _, tc := range []struct{ name, better, worse string }{
		{"bishop pair", "2b1k1n1/8/8/8/8/8/8/2B1KB2 w - - 0 1", "2b1k1n1/8/8/8/8/8/8/2B1KN2 w - - 0 1"},
		{"rook on the open file", "4k3/pp6/8/8/8/8/PP6/3RK3 w - - 0 1", "4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1"},
		{"king attacked by queen and knight", "6k1/5ppp/8/6N1/8/8/5PPP/3Q2K1 w - - 0 1", "6k1/5ppp/8/8/8/8/N4PPP/3Q2K1 w - - 0 1"},
		{"knight mobility", "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/N3K3 w - - 0 1"},
	} {
		b, bPesto := termsFEN(t, tc.better)
		w, wPesto := termsFEN(t, tc.worse)
		if b-bPesto <= w-wPesto {
			t.Errorf("%s: the terms add %d to %s and %d to %s: want more for the first", tc.name, b-bPesto, tc.better, w-wPesto, tc.worse)
		}
	}
}

func TestPawnAttacks(t *testing.T) {
	for _, fen := range append([]string{engines.StartFEN}, benchFENs()...) {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []board.Color{board.White, board.Black} {
			var want board.Bitboard
			for b := p.Pieces(c, board.Pawn); b != 0; {
				want |= board.Attacks(board.Pawn, c, b.PopLSB(), 0)
			}
			if got := pawnAttacks(c, p.Pieces(c, board.Pawn)); got != want {
				t.Errorf("%s, %s pawns: attacks %x, want %x", fen, c, got, want)
			}
		}
	}
}

func benchFENs() []string {
	var fens []string
	for _, bp := range engines.BenchPositions {
		fens = append(fens, bp.FEN)
	}
	return fens
}

// TestSearchOptionsLeaveOutPeSTOOptions: engines with their own evaluation
// get the search options and a strong preset without pst and eval_terms,
// which would mean nothing to them.
func TestSearchOptionsLeaveOutPeSTOOptions(t *testing.T) {
	opts, searchPresets := SearchOptions()
	for _, o := range opts {
		if o.Name == optPST || o.Name == optEvalTerms {
			t.Errorf("SearchOptions lists %s", o.Name)
		}
	}
	if len(searchPresets) != 1 || searchPresets[0].Name != "strong" {
		t.Fatalf("SearchOptions presets %v, want strong alone", searchPresets)
	}
	if _, ok := searchPresets[0].Values[optEvalTerms]; ok {
		t.Errorf("the strong preset of SearchOptions sets %s", optEvalTerms)
	}
	if searchPresets[0].Values["see_pruning"] != "true" || searchPresets[0].Values["late_move_pruning"] != "true" {
		t.Errorf("the strong preset of SearchOptions lacks the search options: %v", searchPresets[0].Values)
	}
	for _, p := range presets {
		if p.Name == "strong" && p.Values[optEvalTerms] != "true" {
			t.Errorf("SearchOptions changed the heuristic engine's own strong preset: %v", p.Values)
		}
	}
}
