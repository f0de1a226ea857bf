package deepchess

import (
	"arena/engines/board"
)

// kind is what a search value stands for. Game ends rank outside every
// position: a mate of Black is better for White than any position, a mate
// of White worse; a draw sits among the positions (see searcher.better).
type kind int8

const (
	kindNone       kind = iota // no value yet: an open bound
	kindWhiteMated             // White is checkmated, ply plies from the root
	kindDraw                   // a draw by rule (or stalemate)
	kindPos                    // a position, by its vector's id
	kindBlackMated             // Black is checkmated
)

// leaf is a search value: the position (or game end) the line leads to.
type leaf struct {
	kind kind
	ply  int16 // mates: plies from the root, so shorter mates rank further out
	id   int32 // kindPos: index of the position's vector in the store
}

func (l leaf) none() bool { return l.kind == kindNone }

// class ranks the kinds for White: 0 mated, 1 a position or a draw, 2 mating.
func (l leaf) class() int {
	switch l.kind {
	case kindWhiteMated:
		return 0
	case kindBlackMated:
		return 2
	}
	return 1
}

// better reports whether a is strictly better for White than b (both set).
// Two positions are compared by the net; a position against a draw is
// compared against its own colour-flipped mirror, which is exactly as good
// for Black as the position is for White, so "better than its mirror" is
// "better than equal" without any number on the net's side.
func (s *searcher) better(a, b leaf) bool {
	ca, cb := a.class(), b.class()
	switch {
	case ca != cb:
		return ca > cb
	case ca == 2:
		return a.ply < b.ply
	case ca == 0:
		return a.ply > b.ply
	case a.kind == kindDraw && b.kind == kindDraw:
		return false
	case a.kind == kindDraw:
		return !s.beatsDraw(b.id)
	case b.kind == kindDraw:
		return s.beatsDraw(a.id)
	case a.id == b.id:
		return false
	}
	s.comparisons++
	return s.ev.Compare(s.store.vec(a.id), s.store.vec(b.id)) > 0.5
}

// beatsDraw reports whether position id is better for White than its
// mirror, computed once per position.
func (s *searcher) beatsDraw(id int32) bool {
	st := &s.store
	if st.draw[id] == 0 {
		m := st.mirrorOf(id, s.ev)
		s.comparisons++
		st.draw[id] = 2
		if s.ev.Compare(st.vec(id), st.vec(m)) > 0.5 {
			st.draw[id] = 1
		}
	}
	return st.draw[id] == 1
}

// vecStore holds the Pos2Vec vector of every position a search evaluated,
// by id, with its active inputs (for the mirror) and a hash index, so each
// position costs one Pos2Vec pass however often it is reached and a
// comparison is only the head.
type vecStore struct {
	dim    int
	vecs   []float32 // [id][dim]
	acts   []int16   // active inputs, back to back
	off    []int32   // id's inputs are acts[off[id]:off[id+1]]
	draw   []int8    // 0 unknown, 1 better than a draw for White, 2 not
	byHash map[uint64]int32
	buf    []int32
}

func (st *vecStore) reset(dim int) {
	st.dim = dim
	st.vecs, st.acts, st.draw = st.vecs[:0], st.acts[:0], st.draw[:0]
	st.off = append(st.off[:0], 0)
	if st.byHash == nil {
		st.byHash = map[uint64]int32{}
	}
	clear(st.byHash)
}

func (st *vecStore) len() int { return len(st.draw) }

func (st *vecStore) vec(id int32) []float32 {
	return st.vecs[int(id)*st.dim : int(id+1)*st.dim]
}

// add evaluates and stores the position with the given active inputs.
func (st *vecStore) add(active []int32, ev *Evaluator) int32 {
	id := int32(st.len())
	for _, a := range active {
		st.acts = append(st.acts, int16(a))
	}
	st.off = append(st.off, int32(len(st.acts)))
	st.draw = append(st.draw, 0)
	n := len(st.vecs)
	if cap(st.vecs) < n+st.dim {
		st.vecs = append(st.vecs[:cap(st.vecs)], make([]float32, max(cap(st.vecs), 1024*st.dim))...)
	}
	st.vecs = st.vecs[:n+st.dim]
	ev.Embed(active, st.vecs[n:])
	return id
}

// position returns the id of p's vector, evaluating p if it is new.
func (st *vecStore) position(p *board.Position, ev *Evaluator) int32 {
	if id, ok := st.byHash[p.Hash()]; ok {
		return id
	}
	st.buf = Active(p, st.buf[:0])
	id := st.add(st.buf, ev)
	st.byHash[p.Hash()] = id
	return id
}

// mirrorOf returns the id of the vector of id's mirror: colours swapped,
// board flipped vertically, the other side to move. It is stored without a
// hash (no search reaches it).
func (st *vecStore) mirrorOf(id int32, ev *Evaluator) int32 {
	st.buf = Mirror(st.acts[st.off[id]:st.off[id+1]], st.buf[:0])
	return st.add(st.buf, ev)
}

// Mirror appends to dst the active inputs of the colour-flipped mirror of
// the position with active inputs src: each piece becomes the other
// colour's on the vertically mirrored square, the side to move and the
// castling rights change sides.
func Mirror[T int16 | int32](src []T, dst []int32) []int32 {
	whiteToMove := false
	for _, a := range src {
		switch i := int32(a); {
		case i < inputSide:
			plane, sq := i/64, i%64
			dst = append(dst, (plane+6)%12*64+(sq^56))
		case i == inputSide:
			whiteToMove = true
		default:
			dst = append(dst, inputCastle+(i-inputCastle+2)%4)
		}
	}
	if !whiteToMove {
		dst = append(dst, inputSide)
	}
	return dst
}
