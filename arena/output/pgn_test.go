package output

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"arena/arena/config"
	"arena/arena/record"
	"arena/tracker/pgn"
)

func TestWritePGN(t *testing.T) {
	cfg := &config.Config{Name: "t", Engines: []config.EngineConfig{
		{Name: "W", Limits: config.Limits{MoveTime: config.Duration(500 * time.Millisecond)}},
		{Name: "B", Limits: config.Limits{TC: &config.TimeControl{Moves: 40, Base: time.Minute, Inc: 600 * time.Millisecond}}},
	}}
	cpl := 12
	g := &record.GameRecord{
		Game: 3, White: "W", Black: "B", Result: "0-1", Termination: record.TermNormal, Reason: "Black mates",
		FEN:   "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7",
		Plies: 3, Start: time.Date(2025, 11, 30, 21, 38, 42, 0, time.UTC), Duration: 75,
		Moves: []record.MoveRecord{
			{UCI: "f7f6", SAN: "f6", ScoreCP: 32, Depth: 12, Time: 0.51, Nodes: 12345, RSSMB: 30, PeakMB: 35.2, CPL: &cpl},
			{UCI: "d1h5", SAN: "Qh5+", ScoreCP: -150, Depth: 3, Time: 0.01, Nodes: 7, RSSMB: 20, PeakMB: 20},
			{UCI: "g7g6", SAN: "g6", Mate: -1, Depth: 1, Time: 0.02, Nodes: 1, RSSMB: 20, PeakMB: 20},
		},
	}
	var b bytes.Buffer
	if err := WritePGN(&b, cfg, g); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{
		"[Event \"t\"]\n[Site \"arena\"]\n[Date \"2025.11.30\"]\n[Round \"3\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"0-1\"]\n",
		"[SetUp \"1\"]\n[FEN \"" + g.FEN + "\"]\n", "[PlyCount \"3\"]", "[Termination \"normal\"]",
		"[WhiteTimeControl \"0.5/move\"]", "[BlackTimeControl \"40/60+0.6\"]", "[GameDuration \"00:01:15\"]",
		"7... f6 {+0.32/12 0.51s n=12345 mem=35MB cpl=12} 8. Qh5+ {-1.50/3 0.01s n=7 mem=20MB}",
		"g6 {-M1/1 0.02s n=1 mem=20MB} {Black mates} 0-1\n\n",
	} {
		if !strings.Contains(strings.Join(strings.Fields(got), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("PGN lacks %q:\n%s", want, got)
		}
	}
	for _, line := range strings.Split(got, "\n") {
		if len(line) > pgn.LineWidth {
			t.Errorf("line longer than %d: %q", pgn.LineWidth, line)
		}
	}
}

// A newline or quote in a match or engine name stays inside its PGN tag: the
// file reads back as one game with the names (control characters as spaces).
func TestPGNTagsSanitized(t *testing.T) {
	cfg := &config.Config{Name: "evil\n[Result \"1-0\"]", Engines: []config.EngineConfig{
		{Name: "W \"the\\ best\"\r\n1. e4", Limits: config.Limits{Depth: 3}}, {Name: "B", Limits: config.Limits{Depth: 3}},
	}}
	g := &record.GameRecord{Game: 1, White: cfg.Engines[0].Name, Black: "B", Result: "0-1", Termination: record.TermNormal,
		Reason: "Black mates", Plies: 1, Start: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Moves: []record.MoveRecord{{UCI: "e2e4", SAN: "e4"}}}
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
