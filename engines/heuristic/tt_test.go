package heuristic

import (
	"testing"
	"unsafe"

	"arena/engines/board"
)

// The generation byte lives in the entry's padding: a table of a given
// size has as many slots as before it existed, so searches are unchanged.
func TestTTEntrySize(t *testing.T) {
	if n := unsafe.Sizeof(ttEntry{}); n != 24 {
		t.Errorf("ttEntry is %d bytes, want 24", n)
	}
}

// clear empties the table for probe and store, across the wrap-around of
// the generation counter.
func TestTTClear(t *testing.T) {
	var tt transTable
	tt.resize(1)
	const key = 0x1234_5678_9abc_def0
	move := board.Move(0x1a2b)
	for round := range 600 {
		tt.store(key, move, 17, 5, ttExact)
		if e, ok := tt.probe(key); !ok || e.move != move || e.score != 17 {
			t.Fatalf("round %d: probe after store: %+v, %v", round, e, ok)
		}
		tt.clear()
		if e, ok := tt.probe(key); ok {
			t.Fatalf("round %d: probe after clear found %+v", round, e)
		}
		// A store without a move keeps the known move only within a
		// generation.
		tt.store(key, board.NullMove, 3, 1, ttUpper)
		if e, ok := tt.probe(key); !ok || e.move != board.NullMove {
			t.Fatalf("round %d: move-less store after clear: %+v, %v; want no move", round, e, ok)
		}
		tt.store(key, move, 3, 1, ttLower)
		tt.store(key, board.NullMove, 4, 2, ttUpper)
		if e, _ := tt.probe(key); e.move != move {
			t.Fatalf("round %d: move-less store dropped the known move: %+v", round, e)
		}
		tt.clear()
	}
}
