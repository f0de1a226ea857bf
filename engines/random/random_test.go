package random

import (
	"context"
	"strconv"
	"testing"
	"time"

	"arena/engines"
	"arena/engines/board"
)

func TestRandomMoves(t *testing.T) {
	e, err := engines.New(Name, map[string]string{"seed": "3"})
	if err != nil {
		t.Fatal(err)
	}
	lim := engines.Limits{MoveTime: time.Second}
	seen := map[string]bool{}
	var moves []string
	for ply := 0; ply < 40; ply++ {
		pos := engines.Position{Moves: moves}
		res, err := e.Search(context.Background(), pos, lim, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := board.FromGame(engines.StartFEN, moves)
		if err != nil {
			t.Fatal(err)
		}
		if p.Status() != board.Ongoing {
			break
		}
		if _, err := p.ParseMove(res.Move); err != nil {
			t.Fatalf("ply %d: illegal move %q: %v", ply, res.Move, err)
		}
		again, _ := e.Search(context.Background(), pos, lim, nil)
		if again.Move != res.Move {
			t.Fatalf("ply %d: %s then %s for the same position and seed", ply, res.Move, again.Move)
		}
		if ply == 0 {
			for seed := range 10 {
				o, _ := New(engines.Options{"seed": strconv.Itoa(seed)})
				r, _ := o.Search(context.Background(), pos, lim, nil)
				seen[r.Move] = true
			}
		}
		moves = append(moves, res.Move)
	}
	if len(seen) < 3 {
		t.Fatalf("10 seeds chose only %v from the start position", seen)
	}
	// Checkmated: no move.
	res, err := e.Search(context.Background(), engines.Position{FEN: "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"}, lim, nil)
	if err != nil || res.Move != "" {
		t.Fatalf("checkmated position: move %q, error %v; expected no move", res.Move, err)
	}
}
