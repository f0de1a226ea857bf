package mcts

import (
	"context"
	"math"
	"time"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/internal/nnengine"
)

const (
	// infoEvery is the interval between progress reports.
	infoEvery = time.Second
	// maxPV bounds the reported principal variation.
	maxPV = 32
)

// run is the simulation loop on the root set by setRoot.
func (e *Engine) run(ctx context.Context, start time.Time, lim engines.Limits, info engines.InfoFunc) engines.Result {
	soft, _ := lim.Budget(e.pos.SideToMove() == board.White)
	limits := engines.NewStop(ctx, start, lim, soft)
	e.sims, e.selDepth = 0, 0
	nextInfo := infoEvery
	for {
		// A root without children has no move to play yet: the first
		// simulation runs whatever the limits say.
		if e.t.nodes[0].firstChild != none && e.stop(&limits, lim) {
			break
		}
		n := e.cfg.batch
		if lim.Nodes > 0 {
			n = int(min(int64(n), lim.Nodes-e.sims))
		}
		e.simulate(n)
		if info != nil {
			if el := time.Since(start); el >= nextInfo {
				nextInfo = el + infoEvery
				info(e.info(start))
			}
		}
	}
	// Search.Finish reports the result and holds an unbounded search's
	// answer until stopped, even if it ended on its own (a proven root or a
	// full tree).
	return e.result()
}

// stop reports whether the search is over: the limits' checks (simulations
// count as nodes; the time limit is the soft budget, as a simulation is
// short) or the tree's own ends.
func (e *Engine) stop(limits *engines.Stop, lim engines.Limits) bool {
	switch {
	case lim.Depth > 0 && e.selDepth >= lim.Depth,
		e.cfg.mateDetection && e.t.nodes[0].proof != 0,
		len(e.t.nodes)+e.cfg.batch > maxNodes:
		return true
	}
	return limits.Check(e.sims)
}

// simulate runs up to n simulations whose leaves are evaluated together.
func (e *Engine) simulate(n int) {
	e.leaves = e.leaves[:0]
	inputs := 0
	for len(e.leaves) < n {
		l, ok := e.selectLeaf(inputs)
		if !ok {
			break
		}
		if l.input == inputs {
			inputs++
		}
		e.leaves = append(e.leaves, l)
	}
	if inputs > 0 {
		e.eval.EvaluateBatch(e.inputs[:inputs], e.values[:inputs])
	}
	rootWhite := e.pos.SideToMove() == board.White
	for _, l := range e.leaves {
		v := l.value
		if l.input >= 0 {
			// The network's value is White's; the leaf's mover is the
			// side to move at the root when the leaf is an odd number of
			// plies deep.
			v = float64(e.values[l.input])
			if moverWhite := rootWhite == (l.depth%2 == 1); !moverWhite {
				v = -v
			}
		}
		e.backup(l.node, v)
		e.selDepth = max(e.selDepth, l.depth)
	}
	e.sims += int64(len(e.leaves))
}

// selectLeaf descends from the root by UCT and expands one untried move, or
// stops at a game end or a proven node. The leaf and its path get a virtual
// loss until backup. When the leaf needs the network its position is
// encoded into e.inputs[input]. It returns false, having changed nothing,
// when the descent reaches a leaf of the current batch still waiting for its
// value (a collision: the batch ends there).
func (e *Engine) selectLeaf(input int) (leaf, bool) {
	t, p := e.t, e.pos
	n, depth := int32(0), 0
	for {
		nd := &t.nodes[n]
		if nd.kind != ongoing || nd.proof != 0 {
			break
		}
		if n != 0 && nd.visits == 0 {
			for ; depth > 0; depth-- {
				p.UnmakeMove()
			}
			return leaf{}, false
		}
		if nd.moves == none {
			p.GenerateLegal(&e.ml)
			t.setMoves(n, &e.ml)
		}
		if nd.expanded < nd.numMoves {
			n = e.expand(n)
			depth++
			break
		}
		n = e.bestChild(n)
		p.MakeMove(t.nodes[n].move)
		depth++
	}
	l := leaf{node: n, depth: depth, input: -1}
	for x := n; x != none; x = t.nodes[x].parent {
		t.nodes[x].inflight++
	}
	switch nd := &t.nodes[n]; {
	case nd.kind == mate || nd.proof > 0:
		l.value = 1
	case nd.proof < 0:
		l.value = -1
	case nd.kind == drawnEnd:
		l.value = 0
	default:
		l.input = input
		e.inputs[input].SetPosition(p)
	}
	for ; depth > 0; depth-- {
		p.UnmakeMove()
	}
	return l, true
}

// expand adds a child of n for a random untried move, plays it on e.pos and
// returns the child. Its kind (and, with mate_detection, the proofs it
// settles) is known from its legal moves.
func (e *Engine) expand(n int32) int32 {
	t, p := e.t, e.pos
	nd := &t.nodes[n]
	i := nd.moves + int32(nd.expanded)
	j := i + int32(e.rng.IntN(int(nd.numMoves-nd.expanded)))
	t.moves[i], t.moves[j] = t.moves[j], t.moves[i]
	m := t.moves[i]
	nd.expanded++
	p.MakeMove(m)
	p.GenerateLegal(&e.ml)
	kind := ongoing
	switch st := nnengine.Status(p, &e.ml, e.cfg.thesisDraws); {
	case st == board.Checkmate:
		kind = mate
	case st.IsDraw():
		kind = drawnEnd
	}
	c := t.add(n, m, kind)
	if e.cfg.mateDetection {
		if kind == mate {
			t.nodes[c].proof = 1
		}
		// A child, mate or not, can complete the proof that every move
		// of n loses.
		e.propagateProof(n)
	}
	return c
}

// bestChild is the child of the fully expanded node n with the highest UCT
// score q + c*sqrt(ln(N)/n), virtual losses counted as visits of value -1.
// Children proven lost for their mover are skipped (mate_detection).
func (e *Engine) bestChild(n int32) int32 {
	t := e.t
	nd := &t.nodes[n]
	lnN := math.Log(float64(nd.visits + nd.inflight))
	best, bestScore := none, math.Inf(-1)
	for c := nd.firstChild; c != none; c = t.nodes[c].nextSibling {
		ch := &t.nodes[c]
		if ch.proof < 0 {
			continue
		}
		v := float64(ch.visits + ch.inflight)
		if v == 0 {
			return c
		}
		s := (ch.valueSum-float64(ch.inflight))/v + exploration*math.Sqrt(lnN/v)
		// The list is newest first, so >= keeps the oldest of equal
		// scores, as Python's max over the thesis's child list does.
		if s >= bestScore {
			best, bestScore = c, s
		}
	}
	if best == none {
		// Every child is a proven loss, which proves n itself, and proven
		// nodes are leaves: kept only so that a bug cannot index -1.
		return nd.firstChild
	}
	return best
}

// backup adds v, the leaf's value for its mover, to the leaf and its
// ancestors, each from its own mover's point of view, and removes the
// virtual loss. The root has no mover and only counts visits.
func (e *Engine) backup(n int32, v float64) {
	t := e.t
	for ; n != none; n = t.nodes[n].parent {
		nd := &t.nodes[n]
		nd.visits++
		nd.inflight--
		if nd.parent != none {
			nd.valueSum += v
		}
		v = -v
	}
}

// propagateProof settles the proofs that a new proof below n implies: n is
// lost for its mover when one of its moves wins (the shortest win counts),
// and won when every move has been tried and loses (the longest defence
// counts); proofs then go on up.
func (e *Engine) propagateProof(n int32) {
	t := e.t
	for ; n != none; n = t.nodes[n].parent {
		nd := &t.nodes[n]
		if nd.proof != 0 {
			return
		}
		var win, lose int16
		allLose := nd.moves != none && nd.expanded == nd.numMoves
		for c := nd.firstChild; c != none; c = t.nodes[c].nextSibling {
			switch pc := t.nodes[c].proof; {
			case pc > 0:
				if win == 0 || pc < win {
					win = pc
				}
			case pc < 0:
				lose = max(lose, -pc)
			default:
				allLose = false
			}
		}
		switch {
		case win > 0:
			nd.proof = -(win + 1)
		case allLose:
			nd.proof = lose + 1
		default:
			return
		}
	}
}

// bestMove is the root child to play: with a proof, the shortest proven win
// or, when every move loses, the longest defence; otherwise the most
// visited child (the oldest of equals), proven losses excluded while another
// move remains.
func (e *Engine) bestMove() int32 {
	t := e.t
	best := none
	better := func(c int32) bool {
		if best == none {
			return true
		}
		a, b := &t.nodes[c], &t.nodes[best]
		if ra, rb := rankProof(a.proof), rankProof(b.proof); ra != rb {
			return ra > rb
		}
		// The list is newest first: >= keeps the oldest of equals.
		return a.visits >= b.visits
	}
	for c := t.nodes[0].firstChild; c != none; c = t.nodes[c].nextSibling {
		if better(c) {
			best = c
		}
	}
	return best
}

// rankProof orders proofs for the mover: shorter wins first, then unproven
// moves, then losses, longest defence first.
func rankProof(p int16) int {
	switch {
	case p > 0:
		return 1<<20 - int(p)
	case p < 0:
		return -1<<20 - int(p)
	}
	return 0
}

// score is the value of playing child c.
func (e *Engine) score(c int32) engines.Score {
	ch := &e.t.nodes[c]
	switch {
	case ch.proof > 0:
		return engines.Score{Mate: (int(ch.proof) + 1) / 2}
	case ch.proof < 0:
		return engines.Score{Mate: int(ch.proof) / 2}
	case ch.visits == 0:
		return engines.Score{}
	}
	return engines.Score{CP: nnengine.ValueToCP(ch.valueSum / float64(ch.visits))}
}

// pv is the best move followed by the most visited child at each level.
func (e *Engine) pv(first int32) []string {
	t := e.t
	var pv []string
	for n := first; n != none && len(pv) < maxPV; {
		pv = append(pv, t.nodes[n].move.String())
		next := none
		for c := t.nodes[n].firstChild; c != none; c = t.nodes[c].nextSibling {
			if next == none || t.nodes[c].visits >= t.nodes[next].visits {
				next = c
			}
		}
		n = next
	}
	return pv
}

func (e *Engine) info(start time.Time) engines.Info {
	best := e.bestMove()
	depth := max(e.selDepth, 1)
	return engines.Info{Depth: depth, SelDepth: depth, Score: e.score(best), Nodes: e.sims, Time: time.Since(start), PV: e.pv(best)}
}

func (e *Engine) result() engines.Result {
	best := e.bestMove()
	pv := e.pv(best)
	res := engines.Result{Move: pv[0], Score: e.score(best), Depth: max(e.selDepth, 1), SelDepth: max(e.selDepth, 1), Nodes: e.sims, PV: pv}
	if len(pv) > 1 {
		res.Ponder = pv[1]
	}
	return res
}
