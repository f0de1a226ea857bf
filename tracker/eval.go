package tracker

import (
	"fmt"
	"strings"

	"github.com/notnil/chess"
)

// Eval is the judge's evaluation of one position, from the point of view of
// the side to move (as UCI reports it): centipawns, or a mate distance.
//
// Mate follows UCI and python-chess: when IsMate is set, Mate > 0 means the
// side to move mates in Mate moves, Mate < 0 that it is mated in -Mate moves,
// and Mate == 0 that it is checkmated on the board (python-chess's Mate(0)).
type Eval struct {
	CP     int  `json:"cp"`
	Mate   int  `json:"mate"`
	IsMate bool `json:"is_mate"`
	// Depth is the search depth Stockfish reached; 0 for a terminal position
	// scored by the rules.
	Depth int `json:"depth,omitempty"`
	// Terminal names the rule that scored a game-over position without
	// Stockfish ("checkmate", "stalemate", "insufficient material"); empty
	// for a searched position.
	Terminal string `json:"terminal,omitempty"`
}

// CP returns a centipawn evaluation.
func CP(cp int) Eval { return Eval{CP: cp} }

// MateIn returns a mate evaluation: n > 0 the side to move mates in n moves,
// n < 0 it is mated in -n, n == 0 it is checkmated.
func MateIn(n int) Eval { return Eval{Mate: n, IsMate: true} }

// Score converts the evaluation to centipawns exactly as the thesis does with
// python-chess's score.relative.score(mate_score=mateScore): centipawns as
// they are; Mate(n) with n > 0 is mateScore - n; Mate(n) with n <= 0 is
// -mateScore - n (so a checkmated side to move, Mate(0), is -mateScore, and
// being mated in 3 is -mateScore + 3). Source: python-chess chess/engine.py,
// class Mate, method score.
func (e Eval) Score(mateScore int) int {
	switch {
	case !e.IsMate:
		return e.CP
	case e.Mate > 0:
		return mateScore - e.Mate
	default:
		return -mateScore - e.Mate
	}
}

// String formats the evaluation as UCI does ("cp 35", "mate -3", "mate 0").
func (e Eval) String() string {
	if e.IsMate {
		return fmt.Sprintf("mate %d", e.Mate)
	}
	return fmt.Sprintf("cp %d", e.CP)
}

// PositionKey identifies a position for repetitions and for the judge's
// evaluation cache: the FEN's placement, side to move, castling rights and an en passant square only
// when an en passant capture is legal. The move counters are left out so a
// position reached at different move numbers is evaluated once, and the en
// passant square is normalised because writers differ (notnil/chess writes it
// after every double push, Stockfish only when a capture is possible); FIDE
// counts two positions as the same only when the same captures are possible,
// so a double push that allows none repeats the position before it.
func PositionKey(pos *chess.Position) string {
	f := strings.Fields(pos.String())
	ep := "-"
	if pos.EnPassantSquare() != chess.NoSquare {
		for _, m := range pos.ValidMoves() {
			if m.HasTag(chess.EnPassant) {
				ep = f[3]
				break
			}
		}
	}
	return f[0] + " " + f[1] + " " + f[2] + " " + ep
}

// FENKey is PositionKey of the position a FEN describes.
func FENKey(fen string) (string, error) {
	opt, err := chess.FEN(fen)
	if err != nil {
		return "", err
	}
	return PositionKey(chess.NewGame(opt).Position()), nil
}

// terminalEval scores a position where the game is over by rule, so that
// Stockfish (which answers such positions with "bestmove (none)" and a bare
// "score mate 0" or "score cp 0") is never asked: checkmate is Mate(0) for the
// side to move; stalemate and a dead position (notnil/chess's insufficient
// material rule) are 0. Repetitions and the move-count rules need the game
// history or a claim, so they do not make a position terminal: the position
// itself still has a value, and the judge scores positions alone.
func terminalEval(pos *chess.Position) (Eval, bool) {
	switch pos.Status() {
	case chess.Checkmate:
		return Eval{Mate: 0, IsMate: true, Terminal: "checkmate"}, true
	case chess.Stalemate:
		return Eval{Terminal: "stalemate"}, true
	}
	// A fresh game applies notnil/chess's automatic draw rules to the lone
	// position; with no history and zeroed counters only insufficient
	// material can fire.
	opt, err := chess.FEN(PositionKey(pos) + " 0 1")
	if err == nil && chess.NewGame(opt).Method() == chess.InsufficientMaterial {
		return Eval{Terminal: "insufficient material"}, true
	}
	return Eval{}, false
}

// Side is a player colour.
type Side int

// The two sides.
const (
	White Side = iota
	Black
)

// String returns "white" or "black".
func (s Side) String() string {
	if s == Black {
		return "black"
	}
	return "white"
}

// MarshalText writes the side as "white" or "black" (JSON, YAML).
func (s Side) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "white" or "black".
func (s *Side) UnmarshalText(b []byte) error {
	switch string(b) {
	case "white":
		*s = White
	case "black":
		*s = Black
	default:
		return fmt.Errorf("side %q: expected \"white\" or \"black\"", b)
	}
	return nil
}

// Other returns the opponent's side.
func (s Side) Other() Side { return 1 - s }

// SideToMove returns the side to move in a FEN (the standard start position
// when fen is empty).
func SideToMove(fen string) (Side, error) {
	if fen == "" {
		return White, nil
	}
	f := strings.Fields(fen)
	if len(f) < 2 {
		return White, fmt.Errorf("FEN %q: missing the side-to-move field (expected \"w\" or \"b\")", fen)
	}
	switch f[1] {
	case "w":
		return White, nil
	case "b":
		return Black, nil
	}
	return White, fmt.Errorf("FEN %q: side to move is %q, expected \"w\" or \"b\"", fen, f[1])
}
