package output

import (
	"fmt"
	"strings"

	"arena/arena/record"
	"arena/engines/board"
)

// finalEPD is the line games.epd holds for a game: its final position's
// four EPD fields (placement, side to move, castling, en passant), as
// fastchess's -epdout writes them, so the file reads back as an opening
// book (openings: {file: games.epd}). An illegal move that ended a game is
// not in its record, so the position is the one the offender faced.
func finalEPD(g *record.GameRecord) (string, error) {
	fen := g.FEN
	if fen == "" {
		fen = board.StartFEN
	}
	moves := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		moves[i] = m.UCI
	}
	p, err := board.FromGame(fen, moves)
	if err != nil {
		return "", fmt.Errorf("game %d: final position: %w", g.Game, err)
	}
	return strings.Join(strings.Fields(p.FEN())[:4], " ") + "\n", nil
}
