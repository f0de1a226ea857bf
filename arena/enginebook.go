package arena

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"arena/arena/book/polyglot"
	"arena/arena/config"
	"arena/arena/record"
)

// Engines' own books (engines[].book), as cutechess-cli's book=FILE
// bookdepth=N. While an engine has made fewer than depth moves in the game
// (no limit with depth 0) and its Polyglot book has a move for the
// position, the arena plays a book move for it without asking the engine,
// drawn in proportion to the book's weights (a move of weight 0 never) as
// cutechess draws them; the book is asked again on every move, so a line
// that leaves the book and transposes back into it is followed again. A
// move that would repeat a position of the game is left to the engine.
// The draw is seeded by the run's seed, the game's number and the ply, so
// a game's book moves do not depend on concurrency, shards or resumes.
//
// A book move takes no time: the clock is not charged and no increment is
// added (cutechess adds none either), but it counts for a time control's
// moves per period. It is recorded with book set, no search figures, and
// "book" as its PGN comment; the engine's averages (time, nodes, depth,
// RAM) and the judge's statistics (ACPL, accuracy, error counts) leave it
// out, as they leave out the plies of an opening (which are not part of the
// game at all). It carries no score, so it breaks the score runs of draw
// and resign adjudication.

// bookMove returns the move side's own book gives here, if it gives one.
func (g *game) bookMove(side int) (string, bool) {
	p := g.players[side]
	if p.book == nil || (p.cfg.Book.Depth > 0 && g.moved[side] >= p.cfg.Book.Depth) {
		return "", false
	}
	moves := p.book.Moves(g.pos)
	total := 0
	for _, m := range moves {
		total += m.Weight
	}
	if total == 0 {
		return "", false
	}
	rng := rand.New(rand.NewPCG(uint64(g.cfg.Seed), splitmix(uint64(g.number)<<16|uint64(len(g.moves)))^0x626f6f6b6d6f7665)) // "bookmove"
	r := rng.IntN(total)
	pick := moves[len(moves)-1].UCI
	for _, m := range moves {
		if r < m.Weight {
			pick = m.UCI
			break
		}
		r -= m.Weight
	}
	mv, err := g.pos.ParseMove(pick)
	if err != nil {
		return "", false
	}
	g.pos.MakeMove(mv)
	seen := g.reps[g.pos.RepetitionKey()] > 0
	g.pos.UnmakeMove()
	if seen {
		return "", false
	}
	return pick, true
}

// playBook plays side's book move.
func (g *game) playBook(side int, uciMove string) {
	p := g.players[side]
	g.endPonder(side)
	g.expect[1-side] = ""     // the opponent's expectation was about a search
	san, _ := g.play(uciMove) // legal: bookMove found it among the legal moves
	left := g.charge(side, 0, false)
	g.adj.reset()
	rss, peak := p.memory(false)
	g.rec.Moves = append(g.rec.Moves, record.MoveRecord{
		Ply:      len(g.moves),
		Side:     strings.ToLower(sideNames[side]),
		Engine:   g.eng[side].Name,
		UCI:      uciMove,
		SAN:      san,
		TimeLeft: left,
		RSSMB:    mb(rss),
		PeakMB:   mb(peak),
		Book:     true,
	})
}

// loadBooks reads every engine's own book once, by engine name.
func loadBooks(cfg *config.Config) (map[string]*polyglot.Book, error) {
	books := map[string]*polyglot.Book{}
	for _, e := range cfg.Engines {
		if e.Book == nil {
			continue
		}
		b, err := config.LoadBook(e.Book.File)
		if err != nil {
			return nil, fmt.Errorf("engine %q: book: %w", e.Name, err)
		}
		books[e.Name] = b
	}
	return books, nil
}
