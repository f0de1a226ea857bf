package heuristic

import (
	"unsafe"

	"arena/engines/board"
)

// ttFlag says how a stored score bounds the true value of a position.
type ttFlag uint8

const (
	ttEmpty ttFlag = iota // slot never written since the last clear
	ttExact               // the score is exact
	ttLower               // the search failed high: true value >= score
	ttUpper               // the search failed low: true value <= score
)

// ttEntry is one transposition-table slot. The full Zobrist key is stored
// to detect index collisions; entries live in one flat slice, so storing
// and probing never allocate.
type ttEntry struct {
	key   uint64
	move  board.Move
	score int32
	depth int16
	flag  ttFlag
}

// transTable is a fixed-size, always-replace hash table of search results,
// indexed by the low bits of the position's Zobrist key. The thesis keys a
// Python dict by FEN; a Zobrist-indexed table is the same cache without
// allocating a string per node (at the price of rare, harmless overwrites).
type transTable struct {
	entries []ttEntry
	mask    uint64
}

// thesisTTMB is the table size used with hash=0 (the thesis behaviour,
// cleared before every move); the Python dict had no fixed size.
const thesisTTMB = 16

// resize allocates a table of at most mb megabytes (a power-of-two number of
// entries), dropping the old contents. It is the only place entries are
// allocated.
func (t *transTable) resize(mb int) {
	n := uint64(mb) << 20 / uint64(unsafe.Sizeof(ttEntry{}))
	size := uint64(1)
	for size*2 <= n {
		size *= 2
	}
	if uint64(len(t.entries)) == size {
		t.clear()
		return
	}
	t.entries = make([]ttEntry, size)
	t.mask = size - 1
}

func (t *transTable) clear() { clear(t.entries) }

// probe returns the entry stored for key, if any.
func (t *transTable) probe(key uint64) (ttEntry, bool) {
	e := t.entries[key&t.mask]
	return e, e.flag != ttEmpty && e.key == key
}

// store records a search result for key, replacing whatever is in the slot.
// A store without a move keeps the move already known for the same position,
// so a fail-low result does not erase a useful hash move.
func (t *transTable) store(key uint64, move board.Move, score int32, depth int, flag ttFlag) {
	e := &t.entries[key&t.mask]
	if move == board.NullMove && e.key == key {
		move = e.move
	}
	*e = ttEntry{key: key, move: move, score: score, depth: int16(depth), flag: flag}
}

// scoreToTT converts a mate score from "mate at this distance from the root"
// to "mate at this distance from the stored node", so an entry stays right
// when the position is reached at another ply; scoreFromTT converts back.
func scoreToTT(s int32, ply int) int32 {
	switch {
	case s >= mateBound:
		return s + int32(ply)
	case s <= -mateBound:
		return s - int32(ply)
	}
	return s
}

func scoreFromTT(s int32, ply int) int32 {
	switch {
	case s >= mateBound:
		return s - int32(ply)
	case s <= -mateBound:
		return s + int32(ply)
	}
	return s
}
