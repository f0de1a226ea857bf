package openings

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"arena/arena/book/polyglot"
	"arena/engines/board"
)

// Book formats of openings.format.
const (
	FormatEPD      = "epd"
	FormatPGN      = "pgn"
	FormatPolyglot = "polyglot"
)

// Opening orders of openings.order.
const (
	OrderSequential = "sequential" // the book's order
	OrderRandom     = "random"     // shuffled by the run's seed, each opening once per pass
	// OrderWeighted draws every opening of a Polyglot book in proportion to
	// its Weight: as if each game walked the book from the start position,
	// drawing every move in proportion to its book weight, as cutechess's
	// and engines' book moves are drawn. The draw for each use of the book
	// is seeded by the run's seed and the use (arena/schedule.go).
	OrderWeighted = "weighted"
)

// maxPolyglotLines bounds the openings taken from a Polyglot book: its tree
// grows fast with plies, and a cut that deep is a mistake better reported
// than played.
const maxPolyglotLines = 100000

// FormatOf is the format of a book: as configured, else by extension
// (.pgn PGN, .bin Polyglot, anything else EPD).
func FormatOf(cfg Config) string {
	if cfg.Format != "" {
		return cfg.Format
	}
	switch strings.ToLower(filepath.Ext(cfg.File)) {
	case ".pgn":
		return FormatPGN
	case ".bin":
		return FormatPolyglot
	}
	return FormatEPD
}

// polyglotOpenings reads a Polyglot book's openings: the position at the
// end of every line of book moves (weight > 0) from the start position, cut
// at cfg.Plies plies, heaviest lines first, transpositions once.
func polyglotOpenings(cfg Config) ([]Opening, error) {
	f, err := os.Open(cfg.File)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := polyglot.Read(f, cfg.File)
	if err != nil {
		return nil, err
	}
	lines, err := b.Lines(board.NewPosition(), cfg.Plies, maxPolyglotLines)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", cfg.File, err)
	}
	var ops []Opening
	for _, l := range lines {
		if len(l.Moves) == 0 {
			continue // the start position itself: the book has no move for it
		}
		ops = append(ops, Opening{FEN: l.FEN, Name: filepath.Base(cfg.File) + ": " + strings.Join(l.Moves, " "), Weight: l.Weight})
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("%s: no book move from the start position", cfg.File)
	}
	return ops, nil
}
