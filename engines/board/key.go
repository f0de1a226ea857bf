package board

// RepetitionKey is the position's key for repetitions by FIDE's rule: two
// positions are the same when the same pieces stand on the same squares,
// the same side moves and the same moves are possible. Hash counts the en
// passant square whenever an enemy pawn attacks it; RepetitionKey counts it
// only when an en passant capture is legal (not for a pinned pawn), as
// tracker.PositionKey does with FEN text.
func (p *Position) RepetitionKey() uint64 {
	ep := p.st.ep()
	if ep == NoSquare {
		return p.hash
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Moves[:ml.Len] {
		if m.IsEnPassant() {
			return p.hash
		}
	}
	return p.hash ^ zobEPSquare[ep]
}
