package arena

import (
	"context"
	"path/filepath"
	"testing"

	"arena/arena/output"
	"arena/engines"
)

// Under "go nodes N" the heuristic engine searches exactly N nodes (every
// node it visits, quiescence included), and the count the arena records
// through "arena uci" is that total: the same number the engine reports in
// process for the same position and limit.
func TestRecordedNodesAreTheEngineTotal(t *testing.T) {
	const budget = 3000
	sum, dir, out, err := playMatch(t, context.Background(), `
games: 1
max_moves: 12
judge: off
engines:
  - name: A
    engine: heuristic
    limits: {nodes: 3000}
  - name: B
    engine: heuristic
    options: {max_depth: 3}
    limits: {nodes: 3000}
`)
	if err != nil || sum.GamesPlayed != 1 {
		t.Fatalf("run: %v\n%s", err, out)
	}
	games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engines.New("heuristic", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	var moves []string
	for _, m := range games[0].Moves {
		if m.Engine == "A" {
			if m.Nodes != budget {
				t.Errorf("ply %d: recorded %d nodes, want exactly %d", m.Ply, m.Nodes, budget)
			}
			res, err := eng.Search(context.Background(), engines.Position{Moves: moves}, engines.Limits{Nodes: budget}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Nodes != m.Nodes || res.Move != m.UCI {
				t.Errorf("ply %d: in process %d nodes, %s; recorded %d nodes, %s", m.Ply, res.Nodes, res.Move, m.Nodes, m.UCI)
			}
		} else if m.Nodes <= 0 || m.Nodes > budget {
			// max_depth 3 may finish below the budget, never above it.
			t.Errorf("ply %d: depth-capped engine recorded %d nodes, want 1..%d", m.Ply, m.Nodes, budget)
		}
		moves = append(moves, m.UCI)
	}
}
