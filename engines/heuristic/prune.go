package heuristic

import (
	"math"

	"arena/engines/board"
)

// Forward-pruning margins (centipawns) and limits of the options futility,
// razoring, null_move, lmr, delta_pruning, late_move_pruning and
// see_pruning. They are the usual values of engines with a PeSTO-sized
// evaluation; each was kept only where it cut the fixed-depth node count of
// the bench positions (docs/ablation.md).
const (
	rfpMaxDepth      = 6   // reverse futility: static eval - rfpMargin*depth >= beta
	rfpMargin        = 80  //
	futilityMaxDepth = 3   // quiet moves skipped: static eval + futilityBase + futilityMargin*depth <= alpha
	futilityBase     = 50  //
	futilityMargin   = 100 //
	razorMaxDepth    = 3   // razoring: static eval + razorBase + razorMargin*depth < alpha
	razorBase        = 200 //
	razorMargin      = 150 //
	deltaMargin      = 200 // quiescence: stand pat + captured value + deltaMargin <= alpha
	iirMinDepth      = 4
	nullVerifyDepth  = 6  // null_move_verify: cutoffs verified from this depth
	lmpMaxDepth      = 8  // late move pruning: 3 + depth^2 quiet moves searched
	seeMaxDepth      = 8  // static exchange pruning of moves that lose more than
	seeQuietMargin   = 64 // seeQuietMargin*depth (quiet moves) or
	seeCaptureMargin = 20 // seeCaptureMargin*depth^2 (captures)
)

// seeValue is a piece's value in centipawns for static exchanges (see.go)
// and delta pruning, indexed by board.PieceType (P N B R Q K).
var seeValue = [7]int32{100, 320, 330, 500, 900, 20000, 0}

// lmrTable[depth][moveNumber] is the late-move reduction in plies: the
// logarithmic formula of Ethereal and Stockfish, 0.75 + ln(depth) *
// ln(moves) / 2.25, so reductions grow slowly with both.
var lmrTable [maxDepth + 1][64]int8

func init() {
	for d := 1; d <= maxDepth; d++ {
		for m := 1; m < 64; m++ {
			lmrTable[d][m] = int8(0.75 + math.Log(float64(d))*math.Log(float64(m))/2.25)
		}
	}
}

// lmrReduction is the reduction of the i-th move (0-based) at depth: the
// table's, one ply less in a PV node and for a killer or counter move, never
// below 1 (a late quiet move is always reduced) nor into quiescence.
func lmrReduction(depth, i int, pvNode, special bool) int {
	r := int(lmrTable[min(depth, maxDepth)][min(i, 63)])
	if pvNode {
		r--
	}
	if special {
		r--
	}
	return max(1, min(r, depth-2))
}

// pruneNode applies the node-level forward pruning before any move is
// searched: reverse futility, razoring and the null move. ok reports a
// result v for the node.
func (s *searcher) pruneNode(depth, ply, idx int, alpha, beta, eval int32, pvNode, allowNull bool) (v int32, ok bool) {
	if pvNode || beta >= mateBound || alpha <= -mateBound {
		return 0, false
	}
	if s.cfg.futility && depth <= rfpMaxDepth && eval-rfpMargin*int32(depth) >= beta {
		return beta, true
	}
	if s.cfg.razoring && depth <= razorMaxDepth && eval+razorBase+razorMargin*int32(depth) < alpha {
		// Quiescence confirms the node is hopeless; if it finds a capture
		// that saves it, the full search goes on.
		if v := s.quiescence(ply, alpha, alpha+1); v <= alpha {
			return alpha, true
		}
	}
	pos := s.pos
	if s.cfg.nullMove && allowNull && depth >= 3 && eval >= beta && s.hasPieces(pos.SideToMove()) {
		r := s.cfg.nullR + depth/4
		if eval-beta >= 200 {
			r++
		}
		pos.MakeNullMove()
		floor := s.nullFloor
		s.nullFloor = idx + 1
		v := -s.negamax(depth-1-r, ply+1, -beta, -beta+1, false)
		s.nullFloor = floor
		pos.UnmakeNullMove()
		if s.stopped {
			return 0, true
		}
		if v >= beta && s.cfg.nullVerify && depth >= nullVerifyDepth {
			// The search of the node itself may be entered here: this ply's
			// move list and history slots are not in use yet.
			v = s.negamax(depth-r, ply, beta-1, beta, false)
			if s.stopped {
				return 0, true
			}
		}
		if v >= beta {
			return beta, true
		}
	}
	return 0, false
}

// futile reports whether a quiet move that does not give check can be
// skipped at a frontier node whose static eval is far below alpha.
func (s *searcher) futile(depth int, alpha, eval int32) bool {
	return s.cfg.futility && depth <= futilityMaxDepth && alpha > -mateBound &&
		eval+futilityBase+futilityMargin*int32(depth) <= alpha
}

// qsSkip reports whether quiescence can skip capture m: it cannot raise the
// stand-pat score to alpha even winning the piece with a margin (delta
// pruning), or it loses material: by a static exchange with see_pruning, else
// with delta_pruning by the cheap stand-in of giving a piece for a cheaper
// one on a defended square.
func (s *searcher) qsSkip(m board.Move, stand, alpha int32) bool {
	if m.IsPromotion() || !s.cfg.delta && !s.cfg.see {
		return false
	}
	pos := s.pos
	victim := board.Pawn
	if !m.IsEnPassant() {
		victim = pos.PieceAt(m.To()).Type()
	}
	if s.cfg.delta && stand+seeValue[victim]+deltaMargin <= alpha {
		return true
	}
	if s.cfg.see {
		return !s.seeGE(m, 0)
	}
	attacker := pos.PieceAt(m.From()).Type()
	return seeValue[attacker] > seeValue[victim] && pos.IsAttacked(m.To(), pos.SideToMove().Other())
}

// lateMoveLimit is the number of quiet moves searched at a node before
// late move pruning skips the rest (0: no limit).
func (s *searcher) lateMoveLimit(n *node, alpha int32) int {
	if !s.cfg.lmp || n.pv || n.inCheck || n.depth > lmpMaxDepth || alpha <= -mateBound {
		return 0
	}
	return 3 + n.depth*n.depth
}

// seeFloor is the exchange value below which see_pruning skips a quiet move
// or a capture at node n, or false where it does not apply.
func (s *searcher) seeFloor(n *node, alpha int32, quiet bool) (int32, bool) {
	if !s.cfg.see || n.pv || n.inCheck || n.depth > seeMaxDepth || alpha <= -mateBound {
		return 0, false
	}
	d := int32(n.depth)
	if quiet {
		return -seeQuietMargin * d, true
	}
	return -seeCaptureMargin * d * d, true
}
