package nnue

import (
	"math"
	"slices"

	"arena/engines/board"
)

// EvalLimit bounds an evaluation in centipawns, far inside the search's
// mate scores; only a net with extreme weights reaches it.
const EvalLimit = 30000

// Feature is the input index of piece pc on sq seen from perspective persp:
// colourRel*384 + pieceType*64 + square, colourRel 0 for persp's own
// pieces, the square flipped vertically (sq^56) for Black's perspective.
func Feature(persp board.Color, pc board.Piece, sq board.Square) int {
	rel := 0
	if pc.Color() != persp {
		rel = 1
	}
	s := int(sq)
	if persp == board.Black {
		s ^= 56
	}
	return rel*384 + int(pc.Type())*64 + s
}

// row is feature f's row of the feature weights.
func (n *Net) row(f int) []int16 {
	return n.FeatureWeights[f*n.Hidden : (f+1)*n.Hidden]
}

// refresh sets acc to the accumulator of perspective persp in p from
// scratch: the bias plus the row of every piece. It is the reference the
// incremental updates are tested against.
func (n *Net) refresh(acc []int16, p *board.Position, persp board.Color) {
	copy(acc, n.FeatureBias)
	occ := p.Occupancy(board.White) | p.Occupancy(board.Black)
	for occ != 0 {
		sq := occ.PopLSB()
		for i, w := range n.row(Feature(persp, p.PieceAt(sq), sq)) {
			acc[i] += w
		}
	}
}

// dotFor returns k's kernel for n's output dot products.
func (n *Net) dotFor(k *kernels) func(acc, w []int16, qa int16) int64 {
	if n.Activation == CReLU {
		return k.dotCReLU
	}
	for _, w := range n.OutputWeights {
		if abs(int(w))*int(n.QA) > math.MaxInt16 {
			return k.dotSCReLU
		}
	}
	return k.dotSCReLUSmall
}

// output is the evaluation in centipawns of the side to move whose
// accumulator is us (them: the other side's), as the file format defines
// it; dot is n.dotFor's kernel.
func (n *Net) output(us, them []int16, dot func(acc, w []int16, qa int16) int64) int32 {
	w := n.OutputWeights
	qa := int16(n.QA)
	out := dot(us, w[:n.Hidden], qa) + dot(them, w[n.Hidden:], qa)
	if n.Activation == SCReLU {
		out /= int64(n.QA)
	}
	v := (out + int64(n.OutputBias)) * int64(n.Scale) / (int64(n.QA) * int64(n.QB))
	return int32(min(max(v, -EvalLimit), EvalLimit))
}

// Evaluate is the net's value of p in centipawns from the side to move's
// point of view, computed from scratch in portable Go (the reference; the
// search uses an Evaluator).
func (n *Net) Evaluate(p *board.Position) int32 {
	us, them := make([]int16, n.Hidden), make([]int16, n.Hidden)
	stm := p.SideToMove()
	n.refresh(us, p, stm)
	n.refresh(them, p, stm.Other())
	return n.output(us, them, n.dotFor(portable))
}

// EvaluateFeatures is Evaluate for a position given as its active
// features (Feature) from the side to move's perspective (us) and the
// other side's (them): the trainer's data are feature lists, and the
// trainer measures its quantised nets with this, the engine's arithmetic.
func (n *Net) EvaluateFeatures(us, them []int) int32 {
	var acc [2][]int16
	for k, feats := range [2][]int{us, them} {
		acc[k] = slices.Clone(n.FeatureBias)
		for _, f := range feats {
			for i, w := range n.row(f) {
				acc[k][i] += w
			}
		}
	}
	return n.output(acc[0], acc[1], n.dotFor(portable))
}

// change is a piece appearing on or leaving a square.
type change struct {
	pc board.Piece
	sq board.Square
}

// frame is the evaluator's state for one position of the search path:
// both perspectives' accumulators (indexed by colour) once computed, and
// the changes that lead to it from the parent frame's position.
type frame struct {
	acc        [2][]int16
	fresh      bool // acc is this position's
	add, sub   [2]change
	nAdd, nSub int
}

// Evaluator evaluates the positions of a search with a net, keeping one
// accumulator pair per ply of the search path (it implements
// heuristic.Incremental). Push records what a move changes and nothing
// more; Evaluate brings the accumulators up to date from the nearest
// computed ancestor, so that a node that is never evaluated (most interior
// nodes, moves skipped after they are made) costs no accumulator update.
// An update copies the parent's accumulator with at most two rows added and
// two subtracted (castling; a capture subtracts two, a promotion adds the
// new piece instead of the pawn), in one pass. An Evaluator is not safe for
// concurrent use; the Net it reads may be shared.
type Evaluator struct {
	net    *Net
	k      *kernels
	dot    func(acc, w []int16, qa int16) int64 // the output's kernel
	zero   []int16                              // the row of an absent change
	frames []frame
	top    int
}

// NewEvaluator returns an Evaluator of net using the fastest kernels this
// CPU runs.
func NewEvaluator(net *Net) *Evaluator {
	return newEvaluator(net, active)
}

func newEvaluator(net *Net, k *kernels) *Evaluator {
	return &Evaluator{net: net, k: k, dot: net.dotFor(k), zero: make([]int16, net.Hidden)}
}

// frameAt returns frame i, allocating the path's frames as it first grows
// to that depth.
func (e *Evaluator) frameAt(i int) *frame {
	for len(e.frames) <= i {
		var f frame
		for c := range f.acc {
			f.acc[c] = make([]int16, e.net.Hidden)
		}
		e.frames = append(e.frames, f)
	}
	return &e.frames[i]
}

// SetRoot starts a path at p, computing its accumulators from scratch.
func (e *Evaluator) SetRoot(p *board.Position) {
	e.top = 0
	f := e.frameAt(0)
	e.net.refresh(f.acc[board.White], p, board.White)
	e.net.refresh(f.acc[board.Black], p, board.Black)
	f.fresh = true
}

// Push records move m about to be made on p. A null move needs no push:
// the accumulators do not depend on the side to move.
func (e *Evaluator) Push(p *board.Position, m board.Move) {
	e.top++
	f := e.frameAt(e.top)
	f.fresh = false
	from, to := m.From(), m.To()
	pc := p.PieceAt(from)
	f.sub[0] = change{pc, from}
	f.nSub = 1
	switch {
	case m.IsCastle():
		rook := board.MakePiece(pc.Color(), board.Rook)
		rookFrom, rookTo := to+1, to-1 // king side: h-file rook to the f-file
		if to.File() == 2 {
			rookFrom, rookTo = to-2, to+1 // queen side: a-file rook to the d-file
		}
		f.add = [2]change{{pc, to}, {rook, rookTo}}
		f.sub[1] = change{rook, rookFrom}
		f.nAdd, f.nSub = 2, 2
		return
	case m.IsEnPassant():
		f.sub[1] = change{board.MakePiece(pc.Color().Other(), board.Pawn), to ^ 8}
		f.nSub = 2
	case m.IsCapture():
		f.sub[1] = change{p.PieceAt(to), to}
		f.nSub = 2
	}
	if m.IsPromotion() {
		pc = board.MakePiece(pc.Color(), m.Promotion())
	}
	f.add[0] = change{pc, to}
	f.nAdd = 1
}

// Pop returns to the parent position, after the move is unmade.
func (e *Evaluator) Pop() { e.top-- }

// Evaluate returns the net's value of p, the position the path has reached,
// in centipawns from the side to move's point of view.
func (e *Evaluator) Evaluate(p *board.Position) int32 {
	f := &e.frames[e.top]
	if !f.fresh {
		e.catchUp()
	}
	stm := p.SideToMove()
	return e.net.output(f.acc[stm], f.acc[stm.Other()], e.dot)
}

// catchUp computes the top frame's accumulators from the nearest computed
// frame below it, applying each frame's changes in turn.
func (e *Evaluator) catchUp() {
	i := e.top
	for !e.frames[i].fresh {
		i--
	}
	for i++; i <= e.top; i++ {
		parent, f := &e.frames[i-1], &e.frames[i]
		for c := board.White; c <= board.Black; c++ {
			e.k.update(f.acc[c], parent.acc[c], e.rowOf(c, f.add, f.nAdd, 0), e.rowOf(c, f.add, f.nAdd, 1),
				e.rowOf(c, f.sub, f.nSub, 0), e.rowOf(c, f.sub, f.nSub, 1))
		}
		f.fresh = true
	}
}

// rowOf is the row of changes[i] from perspective persp, or the zero row
// when there are only n < i+1 changes.
func (e *Evaluator) rowOf(persp board.Color, changes [2]change, n, i int) []int16 {
	if i >= n {
		return e.zero
	}
	return e.net.row(Feature(persp, changes[i].pc, changes[i].sq))
}
