package arena

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/arena/config"
	"arena/tracker/pgn"
)

// A newline or quote in a match or engine name stays inside its PGN tag: the
// file reads back as one game with the names (control characters as spaces).
func TestPGNTagsSanitized(t *testing.T) {
	cfg := &config.Config{Name: "evil\n[Result \"1-0\"]", Engines: []config.EngineConfig{
		{Name: "W \"the\\ best\"\r\n1. e4", Limits: config.Limits{Depth: 3}}, {Name: "B", Limits: config.Limits{Depth: 3}},
	}}
	g := &GameRecord{Game: 1, White: cfg.Engines[0].Name, Black: "B", Result: "0-1", Termination: TermNormal,
		Reason: "Black mates", Plies: 1, Start: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Moves: []MoveRecord{{UCI: "e2e4", SAN: "e4"}}}
	var b bytes.Buffer
	if err := WritePGN(&b, cfg, g); err != nil {
		t.Fatal(err)
	}
	games, err := pgn.Read(&b)
	if err != nil || len(games) != 1 {
		t.Fatalf("PGN reads back as %d games, %v:\n%s", len(games), err, b.String())
	}
	tags := games[0].Tags
	if tags["Event"] != `evil [Result "1-0"]` || tags["White"] != `W "the\ best"  1. e4` || tags["Result"] != "0-1" {
		t.Errorf("tags read back: %q", tags)
	}
}

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
	games, err := readGames(filepath.Join(dir, GamesFile))
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
