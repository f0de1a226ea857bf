// Package openings reads the opening books a config names (EPD/FEN lists,
// PGN games cut at a ply, Polyglot books) into start positions. It sits
// below the config package, which loads a book once while validating so a
// bad book is an error at the config key that names it.
package openings

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/notnil/chess"

	"arena/engines/board"
	"arena/tracker/pgn"
)

// Config is the openings: section of an arena config: the book and how
// its start positions are used.
type Config struct {
	File  string `yaml:"file"`
	Order string `yaml:"order"` // OrderSequential, OrderRandom or OrderWeighted
	Plies int    `yaml:"plies"` // PGN and Polyglot books: the position after this many plies (0: all for PGN)
	Start int    `yaml:"start"` // 1-based: the first opening used, in the book's (or shuffled) order

	// Format is epd, pgn or polyglot; empty: by the file's extension.
	Format string `yaml:"format,omitempty"`
}

// Opening is a start position from a book.
type Opening struct {
	FEN  string `json:"fen"`
	Name string `json:"name"` // the EPD id opcode, the PGN's Opening/ECO tags, or file:line
	// Weight is a Polyglot line's chance of being drawn move by move in
	// proportion to the book's weights (order: weighted); 0 for EPD and
	// PGN books.
	Weight float64 `json:"weight,omitempty"`
}

// Load reads the book named by cfg: an EPD file (.epd, .fen, or any
// other extension: a FEN or EPD line per position, read with
// board.ReadEPD; the id operation names the opening), a PGN file (.pgn,
// read with the tracker's PGN reader: the position after the first
// cfg.Plies plies of each game's main line, all of them when Plies is 0), or
// a Polyglot book (.bin or format polyglot; see polyglotOpenings). Every EPD
// and PGN position is checked with the board package's rules (one king a
// side, no pawn on the first or last rank, the side not to move not in
// check, castling rights backed by king and rook) and must have a legal
// move, so a bad opening is an error naming its file and line, not a lost
// game.
func Load(cfg Config) ([]Opening, error) {
	if FormatOf(cfg) == FormatPolyglot {
		return polyglotOpenings(cfg)
	}
	f, err := os.Open(cfg.File)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if FormatOf(cfg) == FormatPGN {
		return pgnOpenings(f, cfg.File, cfg.Plies)
	}
	return epdOpenings(f, cfg.File)
}

func epdOpenings(r io.Reader, name string) ([]Opening, error) {
	entries, err := board.ReadEPD(r, name)
	if err != nil {
		return nil, err
	}
	ops := make([]Opening, 0, len(entries))
	for _, e := range entries {
		if err := checkStart(e.FullFEN()); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, e.Line, err)
		}
		id, _ := e.Op("id")
		if id == "" {
			id = fmt.Sprintf("%s:%d", filepath.Base(name), e.Line)
		}
		ops = append(ops, Opening{FEN: e.FullFEN(), Name: id})
	}
	return ops, nil
}

// checkStart rejects positions a game cannot start from: ParseFEN's
// legality checks, and a position without a legal move.
func checkStart(fen string) error {
	p, err := board.ParseFEN(fen)
	if err != nil {
		return err
	}
	return playable(p)
}

func playable(p *board.Position) error {
	var ml board.MoveList
	p.GenerateLegal(&ml)
	if ml.Len == 0 {
		return fmt.Errorf("position %q has no legal moves", p.FEN())
	}
	return nil
}

func pgnOpenings(r io.Reader, name string, plies int) ([]Opening, error) {
	pr := pgn.NewReader(r)
	var ops []Opening
	for {
		g, err := pr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		moves := g.Moves
		if plies > 0 && plies < len(moves) {
			moves = moves[:plies]
		}
		start := g.StartFEN
		if start == "" {
			start = board.StartFEN
		}
		p, err := board.FromGame(start, moves)
		if err == nil {
			err = playable(p)
		}
		fen := ""
		if err == nil {
			fen, err = replayFEN(g.StartFEN, moves)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: game %d: %v", name, g.Line, g.Number, err)
		}
		id := g.Tag("Opening", g.Tag("ECO", fmt.Sprintf("%s#%d", filepath.Base(name), g.Number)))
		ops = append(ops, Opening{FEN: fen, Name: id})
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("%s: no games (expected a PGN file of openings)", name)
	}
	return ops, nil
}

// replayFEN returns the FEN after playing UCI moves from fen (empty: the
// standard start position) as notnil/chess writes it, with the en passant
// square after every double push (the board package writes it only where a
// capture is possible): the FEN a game starts from stays what books have
// always given.
func replayFEN(fen string, moves []string) (string, error) {
	var opts []func(*chess.Game)
	if fen != "" {
		opt, err := chess.FEN(fen)
		if err != nil {
			return "", err
		}
		opts = append(opts, opt)
	}
	g := chess.NewGame(opts...)
	for _, m := range moves {
		mv, err := chess.UCINotation{}.Decode(g.Position(), m)
		if err == nil {
			err = g.Move(mv)
		}
		if err != nil {
			return "", fmt.Errorf("move %s: %v", m, err)
		}
	}
	return g.Position().String(), nil
}

// SideFile is where a book's provenance is written (BOOK.txt beside
// BOOK): the book itself holds position lines only, since fastchess and
// cutechess-cli reject a "#" line as an invalid FEN. Books with "#"
// comment lines are still read.
func SideFile(book string) string { return book + ".txt" }
