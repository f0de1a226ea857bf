package heuristic

import "arena/engines/board"

// Evaluator is the static evaluation the search stands on: the value of p
// in centipawns from the side to move's point of view. The engine's own is
// PeSTO (evalTables); engines/giraffe plugs in a learned one through
// NewWithEvaluator. Values must stay well inside +-MaxEval, so that they
// never read as mate scores, and must depend on the position only: the
// transposition table stores results computed from them.
type Evaluator interface {
	Evaluate(p *board.Position) int32
}

// Incremental is an Evaluator that follows the search from position to
// position instead of reading each one whole (engines/nnue keeps a
// network's accumulators up to date this way). The search calls SetRoot
// with the root before it searches, Push(p, m) just before it makes move m
// on p and Pop just after it takes the move back, so that every Evaluate
// is of the position the pushes lead to. A null move is not pushed: it
// changes only the side to move, which Evaluate reads from p.
type Incremental interface {
	Evaluator
	SetRoot(p *board.Position)
	Push(p *board.Position, m board.Move)
	Pop()
}

// MaxEval bounds a static evaluation: every score beyond it is a mate.
const MaxEval = mateBound - 1

// pstMode selects how the piece-square tables are indexed.
type pstMode int

const (
	// pstCorrect is PeSTO as published: a white piece on a1 reads the
	// table's a1 entry (the tables are printed rank 8 first).
	pstCorrect pstMode = iota
	// pstThesis reproduces the thesis listing, which indexes the rank-8-first
	// tables with python-chess squares (a1 = 0) for White and square_mirror
	// for Black: both sides read vertically mirrored tables, so, for example,
	// a white pawn scores highest on rank 2 in the middlegame.
	pstThesis
)

// evalTables holds material plus piece-square value for every coloured
// piece on every square, from White's point of view (black entries are
// negated), so the evaluation is one add per piece and phase.
type evalTables struct {
	mg, eg [16][64]int32 // indexed by board.Piece, then board.Square
	phase  [16]int32
}

func newEvalTables(mode pstMode, w *Weights) *evalTables {
	t := &evalTables{}
	for pt := board.Pawn; pt <= board.King; pt++ {
		wp, bp := board.MakePiece(board.White, pt), board.MakePiece(board.Black, pt)
		t.phase[wp], t.phase[bp] = gamePhaseInc[pt], gamePhaseInc[pt]
		for sq := 0; sq < 64; sq++ {
			wIdx, bIdx := sq^56, sq
			if mode == pstThesis {
				wIdx, bIdx = sq, sq^56
			}
			t.mg[wp][sq] = mgMaterial[pt] + w.MgPST[pt][wIdx]
			t.eg[wp][sq] = egMaterial[pt] + w.EgPST[pt][wIdx]
			t.mg[bp][sq] = -(mgMaterial[pt] + w.MgPST[pt][bIdx])
			t.eg[bp][sq] = -(egMaterial[pt] + w.EgPST[pt][bIdx])
		}
	}
	return t
}

// Evaluate returns the tapered PeSTO evaluation in centipawns from the side
// to move's point of view: (mg*phase + eg*(24-phase))/24 with the phase
// capped at 24. The thesis divides in floating point; integer division
// (truncating toward zero, so still colour-symmetric) is used here.
func (t *evalTables) Evaluate(p *board.Position) int32 {
	mg, eg, phase := t.sums(p)
	return taper(p, mg, eg, phase)
}

// sums returns the middlegame and endgame material plus piece-square sums
// from White's point of view, and the game phase.
func (t *evalTables) sums(p *board.Position) (mg, eg, phase int32) {
	occ := p.Occupancy(board.White) | p.Occupancy(board.Black)
	for occ != 0 {
		sq := occ.PopLSB()
		pc := p.PieceAt(sq)
		mg += t.mg[pc][sq]
		eg += t.eg[pc][sq]
		phase += t.phase[pc]
	}
	return mg, eg, phase
}

// taper blends White's middlegame and endgame scores by the phase and
// returns the result for the side to move.
func taper(p *board.Position, mg, eg, phase int32) int32 {
	phase = min(phase, maxPhase)
	score := (mg*phase + eg*(maxPhase-phase)) / maxPhase
	if p.SideToMove() == board.Black {
		return -score
	}
	return score
}
