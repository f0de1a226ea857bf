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
	gen   uint8 // the table's generation when stored; an older entry is empty
}

// transTable is a fixed-size, always-replace hash table of search results,
// indexed by the low bits of the position's Zobrist key. The thesis keys a
// Python dict by FEN; a Zobrist-indexed table is the same cache without
// allocating a string per node (at the price of rare, harmless overwrites).
//
// Clearing is a new generation (gen), not a pass over the table: with
// hash=0 the table is cleared before every move, and writing 16 MB of
// zeros cost about as much as a 20,000-node search's move generation. A
// generation is one byte that fits in the entry's padding (the entry
// stays 24 bytes, so the table has as many slots as before and every
// search is the same); every 256th clear wipes the table for real. The
// first clear of a new table (ucinewgame, answered at isready before the
// clock starts) writes it whole all the same: that makes the kernel
// supply every page of it there, not one page fault at a time inside the
// first moves' searches, where a time-limited search would lose the time.
type transTable struct {
	entries []ttEntry
	mask    uint64
	gen     uint8
	faulted bool // the entries have been written whole once
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
	adviseHugePages(t.entries)
	t.mask = size - 1
	t.faulted = false
}

// clear forgets every entry.
func (t *transTable) clear() {
	t.gen++
	if t.gen == 0 || !t.faulted {
		clear(t.entries)
		t.faulted = true
	}
}

// probe returns the entry stored for key, if any.
func (t *transTable) probe(key uint64) (ttEntry, bool) {
	e := t.entries[key&t.mask]
	return e, e.flag != ttEmpty && e.gen == t.gen && e.key == key
}

// store records a search result for key, replacing whatever is in the slot.
// A store without a move keeps the move already known for the same position,
// so a fail-low result does not erase a useful hash move.
func (t *transTable) store(key uint64, move board.Move, score int32, depth int, flag ttFlag) {
	e := &t.entries[key&t.mask]
	if move == board.NullMove && e.key == key && e.gen == t.gen {
		move = e.move
	}
	*e = ttEntry{key: key, move: move, score: score, depth: int16(depth), flag: flag, gen: t.gen}
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
