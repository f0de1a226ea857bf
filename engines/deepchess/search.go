package deepchess

import (
	"context"
	"time"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/internal/nnengine"
)

const (
	// maxPly bounds the search's plies, quiescence included.
	maxPly = 96
	// MaxDepth bounds the nominal depth, leaving room for quiescence.
	MaxDepth = 64
	// maxVectors stops a search that has evaluated this many positions
	// (about 2^20 x dim x 4 bytes of vectors): only an unbounded search on
	// a fast machine gets there, and it then holds its answer.
	maxVectors = 1 << 20
)

// searcher is one engine's search state, reset at every search.
type searcher struct {
	ev       *Evaluator
	pos      *board.Position
	qdepth   int // quiescence plies past the depth
	maxDepth int

	store       vecStore
	nodes       int64
	comparisons int64
	seldepth    int
	stop        engines.Stop
	stopped     bool

	moves   [maxPly]board.MoveList
	keys    [maxPly][len(board.MoveList{}.Moves)]int32
	killers [maxPly][2]board.Move
	bestOf  map[uint64]board.Move // best move per position from earlier iterations
	pv      [maxPly][maxPly]board.Move
	pvLen   [maxPly]int
}

// run is iterative deepening: each depth is a full alpha-beta search whose
// bounds are positions; an iteration cut short is discarded.
func (s *searcher) run(ctx context.Context, start time.Time, lim engines.Limits, info engines.InfoFunc) engines.Result {
	soft, hard := lim.Budget(s.pos.SideToMove() == board.White)
	s.stop = engines.NewStop(ctx, start, lim, hard)
	s.nodes, s.comparisons, s.stopped = 0, 0, false
	s.store.reset(s.ev.net.dim)
	if s.bestOf == nil {
		s.bestOf = map[uint64]board.Move{}
	}
	clear(s.bestOf)
	s.killers = [maxPly][2]board.Move{}
	depthLimit := s.maxDepth
	if lim.Depth > 0 {
		depthLimit = min(lim.Depth, MaxDepth)
	}
	s.pos.GenerateLegal(&s.moves[0])
	var res engines.Result
	if s.moves[0].Len == 0 {
		return res
	}
	s.order(0, &s.moves[0], false)
	fallback := s.moves[0].Moves[0]
	for depth := 1; depth <= depthLimit; depth++ {
		if depth > 1 && soft > 0 && time.Since(start) >= soft {
			break
		}
		s.order(0, &s.moves[0], false) // the last iteration's best move first
		s.seldepth = 0
		v := s.search(depth, 0, leaf{}, leaf{})
		if s.stopped {
			break
		}
		res = engines.Result{Move: s.pv[0][0].String(), Score: s.score(v), Depth: depth, SelDepth: s.seldepth, PV: s.pvStrings()}
		if info != nil {
			info(engines.Info{Depth: depth, SelDepth: s.seldepth, Score: res.Score, Nodes: s.nodes, Time: time.Since(start), PV: res.PV})
		}
		if v.class() != 1 {
			break // a mate found by a full-width search is exact: no deeper line changes it
		}
	}
	if res.Move == "" {
		res.Move, res.PV = fallback.String(), []string{fallback.String()}
	}
	if len(res.PV) > 1 {
		res.Ponder = res.PV[1]
	}
	res.Nodes = s.nodes
	return res
}

// score turns the root's value into a UCI score from the side to move's
// point of view: mates by their distance, a draw 0, a position by the
// net's probability p that it is better for White than its mirror, read as
// the expected result 2p-1 (nnengine.ValueToCP).
func (s *searcher) score(v leaf) engines.Score {
	sign := 1
	if s.pos.SideToMove() == board.Black {
		sign = -1
	}
	moves := (int(v.ply) + 1) / 2
	switch v.kind {
	case kindBlackMated:
		return engines.Score{Mate: sign * moves}
	case kindWhiteMated:
		return engines.Score{Mate: -sign * moves}
	case kindPos:
		m := s.store.mirrorOf(v.id, s.ev)
		p := s.ev.Compare(s.store.vec(v.id), s.store.vec(m))
		return engines.Score{CP: sign * nnengine.ValueToCP(2*float64(p)-1)}
	}
	return engines.Score{}
}

// gameEnd is the value of a position that ends the game, or false. Inside
// the search one repetition of an earlier position counts as a draw.
func (s *searcher) gameEnd(ml *board.MoveList, ply int) (leaf, bool) {
	p := s.pos
	switch {
	case ml.Len == 0 && p.InCheck():
		if p.SideToMove() == board.White {
			return leaf{kind: kindWhiteMated, ply: int16(ply)}, true
		}
		return leaf{kind: kindBlackMated, ply: int16(ply)}, true
	case ml.Len == 0, p.HalfmoveClock() >= 100, p.IsInsufficientMaterial(), ply > 0 && p.RepetitionCount() >= 1:
		return leaf{kind: kindDraw}, true
	}
	return leaf{}, false
}

// search is fail-hard alpha-beta with positions as bounds: White's nodes
// raise alpha, Black's lower beta, each when the net says the child's value
// is better for the side to move than the bound; a node is cut off once
// alpha is no worse than beta. Open bounds (kindNone) are beaten by
// anything.
func (s *searcher) search(depth, ply int, alpha, beta leaf) leaf {
	s.pvLen[ply] = 0
	s.seldepth = max(s.seldepth, ply)
	ml := &s.moves[ply]
	if ply > 0 {
		s.pos.GenerateLegal(ml)
	}
	if v, over := s.gameEnd(ml, ply); over {
		return v
	}
	if depth <= 0 || ply >= maxPly-1 {
		return s.quiesce(ply, s.qdepth, alpha, beta)
	}
	if ply > 0 {
		s.order(ply, ml, false)
	}
	white := s.pos.SideToMove() == board.White
	for i := range ml.Len {
		m := ml.Moves[i]
		if s.stopped = s.stopped || s.stop.Check(s.nodes); s.stopped {
			return leaf{}
		}
		s.nodes++
		s.pos.MakeMove(m)
		v := s.search(depth-1, ply+1, alpha, beta)
		s.pos.UnmakeMove()
		if s.stopped {
			return leaf{}
		}
		if cut, improved := s.update(white, ply, m, v, &alpha, &beta); improved {
			s.bestOf[s.pos.Hash()] = m
			if cut {
				if !m.IsCapture() && s.killers[ply][0] != m {
					s.killers[ply][1], s.killers[ply][0] = s.killers[ply][0], m
				}
				break
			}
		}
	}
	if white {
		return alpha
	}
	return beta
}

// update takes a child's value v at a node of the given side: it reports
// whether v improved the side's bound (then m heads the node's PV) and
// whether the node is cut off; a cut node returns the other bound.
func (s *searcher) update(white bool, ply int, m board.Move, v leaf, alpha, beta *leaf) (cut, improved bool) {
	if white {
		if !alpha.none() && !s.better(v, *alpha) {
			return false, false
		}
		*alpha = v
	} else {
		if !beta.none() && !s.better(*beta, v) {
			return false, false
		}
		*beta = v
	}
	if m == board.NullMove {
		s.pvLen[ply] = 0 // stand pat: the line ends here
	} else {
		s.pv[ply][0] = m
		copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
		s.pvLen[ply] = s.pvLen[ply+1] + 1
	}
	if alpha.none() || beta.none() || s.better(*beta, *alpha) {
		return false, true
	}
	if white {
		*alpha = *beta
	} else {
		*beta = *alpha
	}
	return true, true
}

// quiesce resolves captures for up to qleft plies: the position itself is
// a bound (stand pat), then captures and promotions are searched. Positions
// right after a capture are the ones DeepChess's training leaves out, so
// the net judges the quiet ends of exchanges. The plies are capped because
// a stand pat cuts only when the net says so: with a noisy net an uncapped
// quiescence search of a middlegame full of captures ran to 69,000 nodes at
// depth 1.
func (s *searcher) quiesce(ply, qleft int, alpha, beta leaf) leaf {
	s.pvLen[ply] = 0
	stand := leaf{kind: kindPos, id: s.store.position(s.pos, s.ev)}
	if s.store.len() >= maxVectors {
		s.stopped = true
		return leaf{}
	}
	white := s.pos.SideToMove() == board.White
	if qleft <= 0 || ply >= maxPly-1 {
		return stand
	}
	if cut, _ := s.update(white, ply, board.NullMove, stand, &alpha, &beta); cut {
		return s.bound(white, alpha, beta)
	}
	ml := &s.moves[ply]
	s.order(ply, ml, true)
	for i := range ml.Len {
		m := ml.Moves[i]
		if !m.IsCapture() && !m.IsPromotion() {
			break // order puts every capture and promotion first
		}
		if s.stopped = s.stopped || s.stop.Check(s.nodes); s.stopped {
			return leaf{}
		}
		s.nodes++
		s.pos.MakeMove(m)
		s.seldepth = max(s.seldepth, ply+1)
		var v leaf
		s.pos.GenerateLegal(&s.moves[ply+1])
		if end, over := s.gameEnd(&s.moves[ply+1], ply+1); over {
			v = end
			s.pvLen[ply+1] = 0
		} else {
			v = s.quiesce(ply+1, qleft-1, alpha, beta)
		}
		s.pos.UnmakeMove()
		if s.stopped {
			return leaf{}
		}
		if cut, _ := s.update(white, ply, m, v, &alpha, &beta); cut {
			break
		}
	}
	return s.bound(white, alpha, beta)
}

func (s *searcher) bound(white bool, alpha, beta leaf) leaf {
	if white {
		return alpha
	}
	return beta
}

// pvStrings is the principal variation in UCI notation.
func (s *searcher) pvStrings() []string {
	var pv []string
	for _, m := range s.pv[0][:s.pvLen[0]] {
		if m == board.NullMove {
			break
		}
		pv = append(pv, m.String())
	}
	return pv
}
