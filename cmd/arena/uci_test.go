package main

import (
	"context"
	"os"
	"testing"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/uci"
)

// TestMain lets the test binary stand in for the arena binary: with
// ARENA_TEST_MAIN set it runs the CLI on its arguments, so a test can start
// "arena uci ..." as a real subprocess without building anything.
func TestMain(m *testing.M) {
	if os.Getenv("ARENA_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestUCISubprocessWholeGame drives two "arena uci heuristic" processes
// through a whole game, from the start position to a finished game, checking
// every move against the board's rules.
func TestUCISubprocessWholeGame(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ARENA_TEST_MAIN", "1") // inherited by the engine processes
	ctx := context.Background()
	var players [2]*uci.Client
	for i, depth := range []string{"2", "3"} {
		c, err := uci.Start(ctx, uci.ClientConfig{
			Command: self,
			Args:    []string{"uci", "heuristic", "--option", "max_depth=" + depth},
		})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if c.Name() != "heuristic" {
			t.Errorf("id name %q, want heuristic", c.Name())
		}
		c.NewGame()
		players[i] = c
	}

	pos := board.NewPosition()
	var game engines.Position
	// A game between deterministic engines may cycle; the fifty-move rule
	// and repetition end it long before this bound.
	for ply := 0; ply < 1000 && pos.Status() == board.Ongoing; ply++ {
		res, err := players[ply%2].Search(ctx, game, engines.Limits{Depth: 3}, nil)
		if err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		m, err := pos.ParseMove(res.Move)
		if err != nil {
			t.Fatalf("ply %d (%s): engine played %q: %v", ply, pos.FEN(), res.Move, err)
		}
		if res.Depth < 1 || res.Nodes < 1 {
			t.Errorf("ply %d: result %+v lacks depth or nodes", ply, res)
		}
		pos.MakeMove(m)
		game.Moves = append(game.Moves, res.Move)
	}
	if pos.Status() == board.Ongoing {
		t.Fatalf("game not finished after %d plies", len(game.Moves))
	}
	t.Logf("game over after %d plies: %v", len(game.Moves), pos.Status())
	for i, c := range players {
		if err := c.Close(); err != nil {
			t.Errorf("player %d: close: %v", i, err)
		}
		if !c.Exited() {
			t.Errorf("player %d: process still running after Close", i)
		}
	}
}
