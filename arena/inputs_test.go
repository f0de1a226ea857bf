package arena

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/output"
)

// An engine reporting absurd info values (negative nodes, a mate in 99
// billion moves) has them dropped, not stored, and the run says how many.
func TestAbsurdInfoDropped(t *testing.T) {
	sum, dir, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
games: 2
max_moves: 10
judge: off
limits: {depth: 1}
engines:
  - name: Absurd
    command: %q
    args: ["-mode", "absurd", "-spread"]
  - name: Good
    command: %q
    args: ["-spread"]
`, fakeBin, fakeBin))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if sum.GamesPlayed != 2 {
		t.Fatalf("%d games played", sum.GamesPlayed)
	}
	games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	absurdMoves := 0
	for _, g := range games {
		for _, m := range g.Moves {
			if m.Nodes < 0 || m.Mate != 0 {
				t.Errorf("game %d ply %d: nodes %d, mate %d stored", g.Game, m.Ply, m.Nodes, m.Mate)
			}
			if m.Engine == "Absurd" {
				absurdMoves++
			}
		}
	}
	// Each of its moves had two absurd values: nodes and the mate score.
	want := fmt.Sprintf(`warning: engine "Absurd" sent %d unparsable or absurd info values (first: "mate 99999999999"); they were dropped`, 2*absurdMoves)
	if absurdMoves == 0 || !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, `engine "Good"`) {
		t.Errorf("a warning about the good engine:\n%s", out)
	}
}
