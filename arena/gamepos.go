package arena

import "arena/engines/board"

// The game loop keeps its position in the project's own board package, not
// in notnil/chess: every ply it checks the engine's move, writes its SAN and
// looks for mate, stalemate and repetitions, and notnil/chess does that by
// allocating every legal move and writing the position as FEN text (a
// sixth of the arena's profiled CPU in a Stockfish 1,000-node match). The board generates moves into a
// fixed buffer and keys positions by Zobrist hash; the rules and the SAN
// text are notnil/chess's (TestSANMatchesNotnil and TestRepetitionKey
// compare them move by move).

// san writes m, a legal move of pos, in Standard Algebraic Notation exactly
// as notnil/chess's AlgebraicNotation does: a file, else a rank, else both to
// tell pieces of one kind apart; "=Q" for promotions; "+" or "#".
func san(pos *board.Position, m board.Move) string {
	b := make([]byte, 0, 10)
	from, to := m.From(), m.To()
	pt := pos.PieceAt(from).Type()
	switch {
	case m.IsCastle() && to.File() > from.File():
		b = append(b, "O-O"...)
	case m.IsCastle():
		b = append(b, "O-O-O"...)
	case pt == board.Pawn:
		if m.IsCapture() {
			b = append(b, byte('a'+from.File()), 'x')
		}
		b = append(b, to.String()...)
		if m.IsPromotion() {
			b = append(b, '=', pieceLetter[m.Promotion()])
		}
	default:
		b = append(b, pieceLetter[pt])
		b = appendDisambiguation(b, pos, m)
		if m.IsCapture() {
			b = append(b, 'x')
		}
		b = append(b, to.String()...)
	}
	pos.MakeMove(m)
	if pos.InCheck() {
		var ml board.MoveList
		pos.GenerateLegal(&ml)
		if ml.Len == 0 {
			b = append(b, '#')
		} else {
			b = append(b, '+')
		}
	}
	pos.UnmakeMove()
	return string(b)
}

var pieceLetter = [...]byte{board.Knight: 'N', board.Bishop: 'B', board.Rook: 'R', board.Queen: 'Q', board.King: 'K'}

// appendDisambiguation appends the origin's file, rank or both when another
// piece of the same kind can move to m's square.
func appendDisambiguation(b []byte, pos *board.Position, m board.Move) []byte {
	from, to := m.From(), m.To()
	pc := pos.PieceAt(from)
	var ml board.MoveList
	pos.GenerateLegal(&ml)
	var other, sameFile, sameRank bool
	for _, o := range ml.Moves[:ml.Len] {
		if o.To() != to || o.From() == from || pos.PieceAt(o.From()) != pc {
			continue
		}
		other = true
		sameFile = sameFile || o.From().File() == from.File()
		sameRank = sameRank || o.From().Rank() == from.Rank()
	}
	if sameRank || other && !sameFile {
		b = append(b, byte('a'+from.File()))
	}
	if sameFile {
		b = append(b, byte('1'+from.Rank()))
	}
	return b
}
