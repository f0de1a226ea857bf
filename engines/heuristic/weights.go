package heuristic

import (
	"fmt"
	"slices"

	"arena/engines/board"
)

// Weights are the evaluation's tunable parameters, in centipawns, [middlegame,
// endgame] where a pair: the piece-square tables (printed rank 8 first, as
// pesto.go's) and the weights of the eval_terms. The material values, the
// phase, the mobility centres and the king-safety terms are not among them:
// the tables absorb any material shift, and king safety is not linear in its
// weights. Option eval_weights picks the set: PeSTO's tables with the
// textbook term weights, or the set fitted by `arena train texel`
// (tuned.go).
type Weights struct {
	MgPST, EgPST [6][64]int32
	Mobility     [6][2]int32 // per safe square over mobilityCenter; knight to queen
	BishopPair   [2]int32
	DoubledPawn  [2]int32
	IsolatedPawn [2]int32
	PassedPawn   [8][2]int32 // by rank from the pawn's own side
	RookOpen     [2]int32
	RookSemiOpen [2]int32
}

// pestoWeights is the set the engine has always had (eval_weights=pesto).
var pestoWeights = Weights{
	MgPST: mgPST, EgPST: egPST, Mobility: mobilityWeight, BishopPair: bishopPair,
	DoubledPawn: doubledPawn, IsolatedPawn: isolatedPawn, PassedPawn: passedPawn,
	RookOpen: rookOpen, RookSemiOpen: rookSemiOpen,
}

// PestoWeights returns a copy of PeSTO's tables with the textbook term weights.
func PestoWeights() Weights { return pestoWeights }

// TunedWeights returns a copy of the set fitted by `arena train texel`.
func TunedWeights() Weights { return tunedWeights }

// Param is one tunable parameter of a Weights.
type Param struct {
	Name string
	V    *int32
	Mg   bool // a middlegame weight (else an endgame one)
}

// Params lists w's parameters in a fixed order, by pointer, so that a tuner
// reads and sets them. A pawn's table entries on ranks 1 and 8 are left out
// (no pawn stands there), and so are the weights of pieces a term does not
// count (the mobility of pawns and kings, the passer bonus on ranks 1 and 8).
func (w *Weights) Params() []Param {
	var ps []Param
	pair := func(name string, v *[2]int32) {
		ps = append(ps, Param{name + ".mg", &v[0], true}, Param{name + ".eg", &v[1], false})
	}
	names := [6]string{"pawn", "knight", "bishop", "rook", "queen", "king"}
	for pt := board.Pawn; pt <= board.King; pt++ {
		for i := 0; i < 64; i++ {
			if pt == board.Pawn && (i < 8 || i >= 56) {
				continue
			}
			sq := board.Square(i ^ 56)
			ps = append(ps, Param{fmt.Sprintf("pst.%s.%s.mg", names[pt], sq), &w.MgPST[pt][i], true})
			ps = append(ps, Param{fmt.Sprintf("pst.%s.%s.eg", names[pt], sq), &w.EgPST[pt][i], false})
		}
	}
	for pt := board.Knight; pt <= board.Queen; pt++ {
		pair("mobility."+names[pt], &w.Mobility[pt])
	}
	pair("bishop_pair", &w.BishopPair)
	pair("doubled_pawn", &w.DoubledPawn)
	pair("isolated_pawn", &w.IsolatedPawn)
	for r := 1; r < 7; r++ {
		pair(fmt.Sprintf("passed_pawn.rank%d", r+1), &w.PassedPawn[r])
	}
	pair("rook_open", &w.RookOpen)
	pair("rook_semi_open", &w.RookSemiOpen)
	return ps
}

// Term is a parameter's coefficient in one position's evaluation: the
// number of times the position counts it, White's minus Black's, times the
// share of its phase (phase/24 for a middlegame weight, the rest for an
// endgame one).
type Term struct {
	Param int // index into Params
	Coef  float64
}

// Tracer finds the terms of positions' evaluations with weights w
// (eval_terms on, PeSTO's indexing): the evaluation from White's point of
// view is sum(Coef x parameter) plus a rest that does not depend on the
// parameters (material, king safety and the integer rounding), to first
// order for king safety, which is held fixed.
type Tracer struct {
	w     *Weights
	index map[*int32]int
	mg    []bool // by parameter: a middlegame weight
	eval  termsEval
	tr    tracer
}

// NewTracer returns a tracer of evaluations with weights w (not copied:
// the tracer sees later changes to w only through its tables, which it
// builds once, so make a new tracer after changing w).
func NewTracer(w *Weights) *Tracer {
	t := &Tracer{w: w, index: map[*int32]int{}, eval: termsEval{newEvalTables(pstCorrect, w), w}}
	for i, p := range w.Params() {
		t.index[p.V] = i
		t.mg = append(t.mg, p.Mg)
	}
	return t
}

// Trace returns p's terms (appended to terms[:0]) and its evaluation from
// White's point of view.
func (t *Tracer) Trace(p *board.Position, terms []Term) ([]Term, int32) {
	tr := &t.tr
	clear(tr.n)
	if tr.n == nil {
		tr.n = map[*int32]int32{}
	}
	occ := p.Occupancy(board.White) | p.Occupancy(board.Black)
	for b := occ; b != 0; {
		sq := b.PopLSB()
		pc := p.PieceAt(sq)
		idx, sign := int(sq)^56, int32(1)
		if pc.Color() == board.Black {
			idx, sign = int(sq), -1
		}
		tr.n[&t.w.MgPST[pc.Type()][idx]] += sign
		tr.n[&t.w.EgPST[pc.Type()][idx]] += sign
	}
	tr.sign = 1
	sideTerms(p, board.White, t.w, tr)
	tr.sign = -1
	sideTerms(p, board.Black, t.w, tr)
	_, _, phase := t.eval.sums(p)
	mgShare := float64(min(phase, maxPhase)) / maxPhase
	terms = terms[:0]
	for v, n := range tr.n {
		i, ok := t.index[v]
		if !ok || n == 0 {
			continue // a weight outside Params: fixed
		}
		share := mgShare
		if !t.mg[i] {
			share = 1 - mgShare
		}
		terms = append(terms, Term{i, float64(n) * share})
	}
	// In parameter order, so that sums over terms do not depend on the
	// map's order and a fit is reproducible.
	slices.SortFunc(terms, func(a, b Term) int { return a.Param - b.Param })
	eval := t.eval.Evaluate(p)
	if p.SideToMove() == board.Black {
		eval = -eval
	}
	return terms, eval
}

// tracer counts how often each weight is added, for Tracer.
type tracer struct {
	n    map[*int32]int32
	sign int32
}

func (tr *tracer) add(mg, eg *int32, n int32) {
	tr.n[mg] += tr.sign * n
	tr.n[eg] += tr.sign * n
}
