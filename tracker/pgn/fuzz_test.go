package pgn

import (
	"os"
	"strings"
	"testing"

	"github.com/notnil/chess"
)

// FuzzReadPGN: any text either fails with an error or gives games whose UCI
// moves replay legally from their start position, one per SAN move.
func FuzzReadPGN(f *testing.F) {
	hand, err := os.ReadFile("../testdata/handwritten.pgn")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		string(hand),
		"[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
		"1. e4 {comment} (1. d4 d5) 1... c5 $1 2. Nf3!? 1-0\n[Event \"b\"]\n1. d4 *",
		"[FEN \"4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 40\"]\n\n40... gxh1=N 41. b8=Q+ *",
		"[Event \"x\\\"y\"]\n% escape\n1. 0-0 ; rest\n",
		"[Event \"unterminated\n1. e4",
		"1. e4 (1. d4",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		games, err := Read(strings.NewReader(text))
		if err != nil {
			return
		}
		for _, g := range games {
			if len(g.Moves) != len(g.SAN) || g.Number < 1 || g.Line < 1 {
				t.Fatalf("game %d (line %d): %d moves for %d SAN", g.Number, g.Line, len(g.Moves), len(g.SAN))
			}
			var opts []func(*chess.Game)
			if g.StartFEN != "" {
				opt, err := chess.FEN(g.StartFEN)
				if err != nil {
					t.Fatalf("game %d: start FEN %q: %v", g.Number, g.StartFEN, err)
				}
				opts = append(opts, opt)
			}
			game := chess.NewGame(opts...)
			for _, m := range g.Moves {
				mv, err := chess.UCINotation{}.Decode(game.Position(), m)
				if err == nil {
					err = game.Move(mv)
				}
				if err != nil {
					t.Fatalf("game %d: move %s does not replay: %v", g.Number, m, err)
				}
			}
		}
	})
}
