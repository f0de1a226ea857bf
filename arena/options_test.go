package arena

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/output"
	"arena/engines"
)

// TestPresetUnderUserOptions plays a config whose engine is preset=strong
// minus LMR and capped at depth 10, the ablation the option layers exist
// for. The engine process must receive only those three values and layer
// them itself: every move stops at depth 10 although the node budget allows far more, and every
// recorded search matches, node for node, the same searches in process with
// the same options (and not those of strong with LMR).
func TestPresetUnderUserOptions(t *testing.T) {
	t.Parallel() // node-limited: no clock
	const fen = "8/8/4k3/8/8/4K3/4P3/8 w - -"
	book := filepath.Join(t.TempDir(), "kpk.epd")
	if err := os.WriteFile(book, []byte(fen+` id "KPK";`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, dir, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
name: ablation
games: 1
max_moves: 8
limits: {nodes: 400000}
engines:
  - name: Ablated
    engine: heuristic
    options: {preset: strong, lmr: false, max_depth: 10}
  - name: Plain
    engine: heuristic
    options: {max_depth: 2}
openings: {file: %q}
judge: off
`, book))
	if err != nil || sum.GamesPlayed != 1 {
		t.Fatalf("run: %v (%d games)\n%s", err, sum.GamesPlayed, out)
	}
	if !strings.Contains(out, "built-in heuristic; lmr=false, max_depth=10, preset=strong") {
		t.Errorf("configuration lacks the user's options only:\n%s", out)
	}
	games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil || len(games) != 1 {
		t.Fatalf("games.jsonl: %d games, %v", len(games), err)
	}
	g := games[0]
	replay := func(opts map[string]string) []engines.Result {
		e, err := engines.New("heuristic", opts)
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		e.NewGame()
		var res []engines.Result
		for i := 0; i < len(g.Moves); i += 2 {
			pos := engines.Position{FEN: g.FEN}
			for _, m := range g.Moves[:i] {
				pos.Moves = append(pos.Moves, m.UCI)
			}
			r, err := e.Search(context.Background(), pos, engines.Limits{Nodes: 400000}, nil)
			if err != nil {
				t.Fatal(err)
			}
			res = append(res, r)
		}
		return res
	}
	same := replay(map[string]string{"preset": "strong", "lmr": "false", "max_depth": "10"})
	withLMR := replay(map[string]string{"preset": "strong", "max_depth": "10"})
	differs := false
	for i, r := range same {
		m := g.Moves[2*i]
		if m.Depth != 10 || m.UCI != r.Move || m.Nodes != r.Nodes {
			t.Errorf("ply %d: recorded %s depth %d nodes %d, want %s depth 10 nodes %d (in process, same options)",
				m.Ply, m.UCI, m.Depth, m.Nodes, r.Move, r.Nodes)
		}
		differs = differs || withLMR[i].Nodes != m.Nodes
	}
	if !differs {
		t.Error("strong with LMR searches the same node counts: the test cannot tell the two apart")
	}
}
