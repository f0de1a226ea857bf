package board

import "testing"

// An en passant square counts in RepetitionKey only when the capture is
// legal: after 1.e4 with Black's d4 pawn pinned along the fourth rank, the
// position is the one without the square; with the capture legal, it is not.
func TestRepetitionKey(t *testing.T) {
	after := func(fen, move string) *Position {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove(move)
		if err != nil {
			t.Fatal(err)
		}
		p.MakeMove(m)
		return p
	}
	key := func(fen string) uint64 {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		return p.RepetitionKey()
	}
	pinned := after("8/8/8/8/R2p3k/8/4P3/4K3 w - - 0 1", "e2e4")
	if pinned.EnPassant() == NoSquare {
		t.Fatal("the test needs a position whose hash counts the en passant square")
	}
	if got, want := pinned.RepetitionKey(), key("8/8/8/8/R2pP2k/8/8/4K3 b - - 0 1"); got != want {
		t.Errorf("pinned pawn: key %x, want the key without en passant %x", got, want)
	}
	free := after("8/8/8/8/3p3k/8/4P3/R3K3 w - - 0 1", "e2e4")
	if free.RepetitionKey() == key("8/8/8/8/3pP2k/8/8/R3K3 b - - 0 1") {
		t.Error("a legal en passant capture is not counted in the key")
	}
	if free.RepetitionKey() != free.Hash() {
		t.Error("with a legal en passant capture the key is not the hash")
	}
}
