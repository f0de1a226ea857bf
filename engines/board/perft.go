package board

// Perft counts the leaf nodes of the legal move tree to the given depth.
// Every move is made and unmade, leaves included (no bulk counting), so the
// count exercises MakeMove/UnmakeMove as a search does. It does not allocate.
func Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	var nodes uint64
	if depth == 1 {
		for _, m := range ml.Moves[:ml.Len] {
			p.MakeMove(m)
			p.UnmakeMove()
			nodes++
		}
		return nodes
	}
	for _, m := range ml.Moves[:ml.Len] {
		p.MakeMove(m)
		nodes += Perft(p, depth-1)
		p.UnmakeMove()
	}
	return nodes
}

// DivideEntry is one root move and the perft count below it.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns, for each legal root move in generation order, the perft
// count of depth-1 after it (the usual way to locate a move-generation bug).
func Divide(p *Position, depth int) []DivideEntry {
	if depth <= 0 {
		return nil
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	out := make([]DivideEntry, 0, ml.Len)
	for _, m := range ml.Slice() {
		p.MakeMove(m)
		out = append(out, DivideEntry{m, Perft(p, depth-1)})
		p.UnmakeMove()
	}
	return out
}
