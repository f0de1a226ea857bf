// Package polyglot reads Polyglot opening books (.bin): the position keys,
// the book moves of a position, and the lines of book moves from a position
// to a depth, which the arena's openings: loader takes as openings.
package polyglot

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"sort"

	"arena/engines/board"
)

// A Polyglot book (.bin) is a sequence of 16-byte entries sorted by key,
// all fields big-endian: the position's Zobrist key (Key), a move,
// a weight and 32 bits of learning data that nothing here uses. The move's
// bits are: 0-2 to file, 3-5 to rank, 6-8 from file, 9-11 from rank, 12-14
// promotion (0 none, 1 knight, 2 bishop, 3 rook, 4 queen). Castling is
// written as the king taking its own rook (e1h1 for e1g1).
const entrySize = 16

// Entry is one entry of a Polyglot book.
type Entry struct {
	Key    uint64
	Move   uint16
	Weight uint16
	Learn  uint32
}

// Book is a Polyglot opening book in memory, its entries sorted by key.
type Book struct {
	entries []Entry
}

// Move is a move a book gives for a position, in UCI notation.
type Move struct {
	UCI    string
	Weight int
}

// Read reads a whole Polyglot book; name is for errors.
func Read(r io.Reader, name string) (*Book, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data)%entrySize != 0 {
		return nil, fmt.Errorf("%s: %d bytes is not a whole number of 16-byte Polyglot entries (is it a Polyglot .bin book?)", name, len(data))
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("%s: no entries", name)
	}
	b := &Book{entries: make([]Entry, len(data)/entrySize)}
	for i := range b.entries {
		e := data[i*entrySize:]
		b.entries[i] = Entry{
			Key:    binary.BigEndian.Uint64(e),
			Move:   binary.BigEndian.Uint16(e[8:]),
			Weight: binary.BigEndian.Uint16(e[10:]),
			Learn:  binary.BigEndian.Uint32(e[12:]),
		}
	}
	// Books are written sorted; sorting again costs little and makes a
	// hand-made or concatenated book work too.
	slices.SortStableFunc(b.entries, func(x, y Entry) int {
		switch {
		case x.Key < y.Key:
			return -1
		case x.Key > y.Key:
			return 1
		}
		return 0
	})
	return b, nil
}

// Moves returns the book's legal moves for the position, heaviest first
// (entries with weight 0 are kept: the caller decides). An entry whose move
// is not legal in the position (a key collision or a broken book) is
// skipped.
func (b *Book) Moves(p *board.Position) []Move {
	key := Key(p)
	i := sort.Search(len(b.entries), func(i int) bool { return b.entries[i].Key >= key })
	var out []Move
	for ; i < len(b.entries) && b.entries[i].Key == key; i++ {
		uci := decodeMove(p, b.entries[i].Move)
		if _, err := p.ParseMove(uci); err != nil || slices.ContainsFunc(out, func(m Move) bool { return m.UCI == uci }) {
			continue
		}
		out = append(out, Move{UCI: uci, Weight: int(b.entries[i].Weight)})
	}
	slices.SortStableFunc(out, func(x, y Move) int { return y.Weight - x.Weight })
	return out
}

// decodeMove decodes an entry's move in position p into UCI notation,
// turning the king-takes-rook castling into the king's two-square move.
func decodeMove(p *board.Position, m uint16) string {
	from := board.NewSquare(int(m>>6&7), int(m>>9&7))
	to := board.NewSquare(int(m&7), int(m>>3&7))
	if pc := p.PieceAt(from); pc.Type() == board.King && from.File() == 4 && to.Rank() == from.Rank() {
		switch to.File() {
		case 7:
			to = board.NewSquare(6, from.Rank())
		case 0:
			to = board.NewSquare(2, from.Rank())
		}
	}
	s := from.String() + to.String()
	if promo := m >> 12 & 7; promo >= 1 && promo <= 4 {
		s += string("nbrq"[promo-1])
	}
	return s
}

// Key is the position's Zobrist key as Polyglot books define it:
// the XOR of a key for every piece on its square, for each castling right,
// for the en passant file when a pawn of the side to move stands beside the
// pawn that just advanced two squares (whether or not the capture is legal),
// and for White to move.
func Key(p *board.Position) uint64 {
	var key uint64
	for sq := board.Square(0); sq < 64; sq++ {
		pc := p.PieceAt(sq)
		if pc == board.NoPiece {
			continue
		}
		// Kinds: black pawn 0, white pawn 1, black knight 2, ... white king 11.
		kind := 2 * int(pc.Type())
		if pc.Color() == board.White {
			kind++
		}
		key ^= random64[64*kind+8*sq.Rank()+sq.File()]
	}
	for i, c := range "KQkq" {
		if slices.Contains([]rune(p.CastlingRights()), c) {
			key ^= random64[768+i]
		}
	}
	if ep := p.EnPassant(); ep != board.NoSquare && epCapturable(p, ep) {
		key ^= random64[772+ep.File()]
	}
	if p.SideToMove() == board.White {
		key ^= random64[780]
	}
	return key
}

// epCapturable reports a pawn of the side to move beside the pawn that
// passed over ep.
func epCapturable(p *board.Position, ep board.Square) bool {
	us := p.SideToMove()
	rank := 4 // White captures from the fifth rank
	if us == board.Black {
		rank = 3
	}
	for _, f := range []int{ep.File() - 1, ep.File() + 1} {
		if f >= 0 && f < 8 && p.PieceAt(board.NewSquare(f, rank)) == board.MakePiece(us, board.Pawn) {
			return true
		}
	}
	return false
}

// Line is a line of book moves and the position it reaches.
type Line struct {
	Moves []string // UCI
	FEN   string
	// Weight is the probability of reaching the line's position when
	// every move is drawn in proportion to its book weight among the
	// moves followed (as a book-playing engine draws them); the lines'
	// weights add up to 1, a transposition adding to its first line's.
	Weight float64
}

// Lines returns every line of the book from start, following each move
// with a nonzero weight, cut at plies plies (or where the book has no move
// or every book move repeats a position of the line), in order of the
// book's weights, heaviest first; a line reaching the position of an
// earlier one (a transposition) is left out and its weight added to that
// line's.
// More than max lines is an error, so a large book with a deep cut fails
// clearly instead of filling memory.
func (b *Book) Lines(start *board.Position, plies, max int) ([]Line, error) {
	var out []Line
	reached := map[uint64]int{} // position key -> index in out
	var walk func(p *board.Position, moves []string, weight float64, seen map[uint64]bool) error
	walk = func(p *board.Position, moves []string, weight float64, seen map[uint64]bool) error {
		var next []*board.Position
		var nextMoves []Move
		total := 0
		for _, m := range b.Moves(p) {
			if len(moves) >= plies || m.Weight == 0 {
				continue
			}
			q := p.Clone()
			mv, _ := q.ParseMove(m.UCI) // Moves returns legal moves only
			q.MakeMove(mv)
			if seen[Key(q)] {
				continue
			}
			next, nextMoves, total = append(next, q), append(nextMoves, m), total+m.Weight
		}
		if len(next) == 0 {
			k := Key(p)
			if i, ok := reached[k]; ok {
				out[i].Weight += weight // a transposition of a line already listed
				return nil
			}
			if len(out) == max {
				return fmt.Errorf("more than %d lines of %d plies (lower plies)", max, plies)
			}
			reached[k] = len(out)
			out = append(out, Line{Moves: slices.Clone(moves), FEN: p.FEN(), Weight: weight})
			return nil
		}
		for i, q := range next {
			k := Key(q)
			seen[k] = true
			err := walk(q, append(moves, nextMoves[i].UCI), weight*float64(nextMoves[i].Weight)/float64(total), seen)
			delete(seen, k)
			if err != nil {
				return err
			}
		}
		return nil
	}
	err := walk(start, nil, 1, map[uint64]bool{Key(start): true})
	return out, err
}
