package uci

import (
	"testing"

	"arena/engines"
	"arena/engines/board"
)

// checkLegal fails the test unless move is legal in pos.
func checkLegal(t *testing.T, pos engines.Position, move string) {
	t.Helper()
	p, err := board.FromGame(pos.StartFENOrDefault(), pos.Moves)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ParseMove(move); err != nil {
		t.Errorf("move %q is not legal in %v: %v", move, pos, err)
	}
}
