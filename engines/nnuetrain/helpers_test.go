package nnuetrain

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"arena/engines/board"
)

// syntheticLines plays seeded random games and labels their positions
// with the material balance (pawn 100, knight and bishop 300, rook 500,
// queen 900; White's view) and a result that follows it: a target a net
// can learn from piece-square inputs alone.
func syntheticLines(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 0))
	values := []int{100, 300, 300, 500, 900, 0}
	var lines []string
	var ml board.MoveList
	for len(lines) < n {
		p := board.NewPosition()
		for ply := 0; ply < 120 && len(lines) < n; ply++ {
			p.GenerateLegal(&ml)
			if ml.Len == 0 || p.IsInsufficientMaterial() {
				break
			}
			p.MakeMove(ml.Moves[rng.IntN(ml.Len)])
			score := 0
			for pt := range 6 {
				score += values[pt] * (bits.OnesCount64(uint64(p.Pieces(board.White, board.PieceType(pt)))) -
					bits.OnesCount64(uint64(p.Pieces(board.Black, board.PieceType(pt)))))
			}
			res := "0.5"
			switch {
			case score > 200:
				res = "1.0"
			case score < -200:
				res = "0.0"
			}
			lines = append(lines, fmt.Sprintf("%s | %d | %s", p.FEN(), score, res))
		}
	}
	return lines
}

func syntheticData(tb testing.TB, n int, seed uint64) *Data {
	tb.Helper()
	d, err := ReadData(strings.NewReader(strings.Join(syntheticLines(n, seed), "\n")), "synthetic", 0)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}
