package board

import (
	"strings"
	"testing"
)

func TestStatus(t *testing.T) {
	cases := []struct {
		name  string
		fen   string
		moves []string
		want  Status
	}{
		{"start", StartFEN, nil, Ongoing},
		{"fool's mate", StartFEN, []string{"f2f3", "e7e5", "g2g4", "d8h4"}, Checkmate},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", nil, Stalemate},
		{"fifty moves", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", []string{"a1a2"}, FiftyMoves},
		{"99 plies is not yet fifty moves", "4k3/8/8/8/8/8/8/R3K3 w - - 98 80", []string{"a1a2"}, Ongoing},
		{"mate on the 100th ply stands", "7k/8/6K1/8/8/8/8/R7 w - - 99 80", []string{"a1a8"}, Checkmate},
		{"threefold", StartFEN, []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}, Threefold},
		{"twofold is not a draw", StartFEN, []string{"g1f3", "g8f6", "f3g1", "f6g8"}, Ongoing},
		{"insufficient material", "4k3/8/8/8/8/8/8/4KB2 w - - 0 1", nil, InsufficientMaterial},
	}
	for _, c := range cases {
		p, err := FromGame(c.fen, c.moves)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := p.Status(); got != c.want {
			t.Errorf("%s: Status() = %v, expected %v", c.name, got, c.want)
		}
	}
	if !Stalemate.IsDraw() || Checkmate.IsDraw() || Ongoing.IsDraw() || !InsufficientMaterial.IsDraw() {
		t.Errorf("IsDraw is wrong")
	}
}

func TestRepetitionCount(t *testing.T) {
	p := NewPosition()
	shuffle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	want := []int{0, 0, 0, 1, 1, 1, 1, 2}
	for i, w := range want {
		m, err := p.ParseMove(shuffle[i%4])
		if err != nil {
			t.Fatal(err)
		}
		p.MakeMove(m)
		if got := p.RepetitionCount(); got != w {
			t.Errorf("after %d plies: RepetitionCount() = %d, expected %d", i+1, got, w)
		}
	}
	// After a pawn move only the positions since count: the start position
	// occurred three times, the one after e2e4 once before.
	for _, s := range []string{"e2e4", "g8f6", "g1f3", "f6g8", "f3g1"} {
		p.MakeMove(mustMove(t, p, s))
	}
	if got := p.RepetitionCount(); got != 1 {
		t.Errorf("after e2e4 and a knight shuffle: RepetitionCount() = %d, expected 1", got)
	}

	// Repetition detection does not look past a null move.
	q := NewPosition()
	for _, s := range shuffle {
		q.MakeMove(mustMove(t, q, s))
	}
	q.MakeNullMove()
	q.MakeMove(mustMove(t, q, "g8f6"))
	q.MakeNullMove()
	q.MakeMove(mustMove(t, q, "f6g8"))
	if q.FEN() != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5" || q.RepetitionCount() != 0 {
		t.Errorf("%s: RepetitionCount() = %d across a null move, expected 0", q.FEN(), q.RepetitionCount())
	}
}

func mustMove(t *testing.T, p *Position, uci string) Move {
	t.Helper()
	m, err := p.ParseMove(uci)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestInsufficientMaterial(t *testing.T) {
	cases := []struct {
		fen  string
		want bool
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},      // KvK
		{"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true},    // KBvK
		{"4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", true},    // KNvK
		{"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},   // bishops on same colour (c1, f8 dark)
		{"2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false}, // c1 dark, c8 light
		{"4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", false},  // two knights can mate
		{"4kb2/8/8/8/8/8/8/1N2K3 w - - 0 1", false},  // knight and bishop
		{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},   // pawn
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false},    // rook
		{"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false},    // queen
	}
	for _, c := range cases {
		if got := mustFEN(t, c.fen).IsInsufficientMaterial(); got != c.want {
			t.Errorf("%s: IsInsufficientMaterial() = %v, expected %v", c.fen, got, c.want)
		}
	}
}

func TestParseMove(t *testing.T) {
	p := mustFEN(t, "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
	good := []struct {
		uci                          string
		capture, castle, ep, promote bool
		promo                        PieceType
	}{
		{"e1g1", false, true, false, false, NoPieceType},
		{"e1c1", false, true, false, false, NoPieceType},
		{"e5d6", true, false, true, false, NoPieceType},
		{"b7b8n", false, false, false, true, Knight},
		{"b7a8q", true, false, false, true, Queen},
		{"a1a8", true, false, false, false, NoPieceType},
		{"e5e6", false, false, false, false, NoPieceType},
	}
	for _, g := range good {
		m, err := p.ParseMove(g.uci)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", g.uci, err)
			continue
		}
		if m.String() != g.uci || m.IsCapture() != g.capture || m.IsCastle() != g.castle ||
			m.IsEnPassant() != g.ep || m.IsPromotion() != g.promote || m.Promotion() != g.promo {
			t.Errorf("ParseMove(%q) = %v: capture %v castle %v ep %v promotion %v %v", g.uci, m,
				m.IsCapture(), m.IsCastle(), m.IsEnPassant(), m.IsPromotion(), m.Promotion())
		}
	}
	bad := []struct{ uci, want string }{
		{"e1", "expected UCI notation"},
		{"e1g1qq", "expected UCI notation"},
		{"i1g1", "expected UCI notation"},
		{"b7b8k", `promotion piece 'k': expected one of n, b, r, q`},
		{"b7b8", "a promotion needs the piece to promote to"},
		{"e5e6q", "not a promotion"},
		{"e3e4", "no piece on e3"},
		{"a8a7", "the piece on a8 is black's, white is to move"},
		{"e1e3", "not a legal move"},
	}
	for _, b := range bad {
		_, err := p.ParseMove(b.uci)
		if err == nil || !strings.Contains(err.Error(), b.want) || !strings.Contains(err.Error(), `"`+b.uci+`"`) {
			t.Errorf("ParseMove(%q): error %v, expected it to name the move and contain %q", b.uci, err, b.want)
		}
	}
	if _, err := mustFEN(t, "4k3/8/8/8/8/8/8/r3K3 w - - 0 1").ParseMove("e1f1"); err == nil || !strings.Contains(err.Error(), "in check") {
		t.Errorf("ParseMove in check: error %v, expected it to mention the check", err)
	}
}

func TestFromGameErrors(t *testing.T) {
	_, err := FromGame(StartFEN, []string{"e2e4", "e7e5", "e4e5"})
	if err == nil || !strings.Contains(err.Error(), `moves[2] "e4e5"`) {
		t.Errorf("FromGame with an illegal third move: error %v, expected it to name moves[2]", err)
	}
	_, err = FromGame("bad", nil)
	if err == nil || !strings.Contains(err.Error(), `fen "bad"`) {
		t.Errorf("FromGame with a bad FEN: error %v", err)
	}
	p, err := FromGame(StartFEN, []string{"e2e4", "c7c5", "g1f3"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"; p.FEN() != want || p.Ply() != 3 {
		t.Errorf("FromGame: %s at ply %d, expected %s at ply 3", p.FEN(), p.Ply(), want)
	}
}

func TestCloneIsIndependent(t *testing.T) {
	p, err := FromGame(StartFEN, []string{"g1f3", "g8f6", "f3g1", "f6g8"})
	if err != nil {
		t.Fatal(err)
	}
	c := p.Clone()
	if c.RepetitionCount() != 1 || c.Hash() != p.Hash() || c.Ply() != 4 {
		t.Errorf("clone: repetitions %d, ply %d; expected the original's history", c.RepetitionCount(), c.Ply())
	}
	for _, s := range []string{"e2e4", "e7e5", "g1f3"} {
		c.MakeMove(mustMove(t, c, s))
	}
	if p.FEN() != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3" || p.Ply() != 4 || p.LastMove().String() != "f6g8" {
		t.Errorf("moves on the clone changed the original: %s, ply %d", p.FEN(), p.Ply())
	}
	c.UnmakeMove()
	if c.LastMove().String() != "e7e5" {
		t.Errorf("clone's last move %v, expected e7e5", c.LastMove())
	}
}

func TestTypes(t *testing.T) {
	if E4.String() != "e4" || E4.File() != 4 || E4.Rank() != 3 || NoSquare.String() != "-" || H8 != 63 {
		t.Errorf("Square: e4 = %v (file %d rank %d)", E4, E4.File(), E4.Rank())
	}
	wn, bq := MakePiece(White, Knight), MakePiece(Black, Queen)
	if wn.Color() != White || wn.Type() != Knight || wn.String() != "N" || bq.Color() != Black || bq.Type() != Queen || bq.String() != "q" {
		t.Errorf("Piece: %v %v", wn, bq)
	}
	if NoPiece.Type() != NoPieceType || White.Other() != Black || Black.Other() != White {
		t.Errorf("NoPiece or Color.Other wrong")
	}
	b := SquareBB(C3) | SquareBB(A1) | SquareBB(H8)
	if b.Count() != 3 || b.PopLSB() != A1 || b.PopLSB() != C3 || b.Count() != 1 || !b.Has(H8) {
		t.Errorf("Bitboard operations wrong")
	}
	if NullMove.String() != "0000" || NullMove.Promotion() != NoPieceType {
		t.Errorf("NullMove: %v", NullMove)
	}
	var ml MoveList
	NewPosition().GenerateLegal(&ml)
	if len(ml.Slice()) != 20 {
		t.Errorf("start position: %d moves, expected 20", len(ml.Slice()))
	}
	p := NewPosition()
	if p.Pieces(White, Pawn) != 0xff00 || p.Occupancy(Black) != 0xffff<<48 || p.PieceAt(E1) != MakePiece(White, King) ||
		p.SideToMove() != White || p.HalfmoveClock() != 0 || p.InCheck() || p.CastlingRights() != "KQkq" || p.EnPassant() != NoSquare {
		t.Errorf("start position accessors wrong")
	}
}
