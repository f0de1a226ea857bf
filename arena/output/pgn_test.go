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

// The comment fields render with fastchess's keys in one fixed order,
// whatever order the config lists them in; "none" drops the comments; and
// tracker/pgn reads every variant back as the same game.
func TestPGNCommentFields(t *testing.T) {
	cpl, left := 7, 59.4871
	g := &record.GameRecord{Game: 1, White: "W", Black: "B", Result: "1-0", Termination: record.TermNormal, Reason: "White mates",
		Plies: 3, Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Moves: []record.MoveRecord{
			{UCI: "e2e4", SAN: "e4", ScoreCP: 25, Depth: 14, SelDepth: 21, Time: 0.5, TimeLeft: &left, Nodes: 250000,
				PV: []string{"e2e4", "e7e5", "g1f3"}, PeakMB: 35.2, CPL: &cpl},
			{UCI: "f7f6", SAN: "f6", ScoreCP: -300, Depth: 3, SelDepth: 3, Time: 0, Nodes: 12, PeakMB: 20},
			{UCI: "d1h5", SAN: "Qh5+", Mate: 2, Depth: 9, SelDepth: 9, Time: 0.25, Nodes: 1000, PeakMB: 36},
		}}
	for _, c := range []struct {
		name     string
		comments *config.PGNComments
		want     []string
	}{
		{"default", nil, []string{"{+0.25/14 0.50s n=250000 mem=35MB cpl=7}", "{-3.00/3 0.00s n=12 mem=20MB}", "{+M2/9 0.25s n=1000 mem=36MB}"}},
		{"every field", &config.PGNComments{Fields: []string{"cpl", "mem", "pv", "nps", "seldepth", "nodes", "timeleft"}},
			[]string{`{+0.25/14 0.50s tl=59.49s n=250000 sd=21 nps=500000 pv="e2e4 e7e5 g1f3" mem=35MB cpl=7}`,
				"{-3.00/3 0.00s n=12 sd=3 nps=0 mem=20MB}", "{+M2/9 0.25s n=1000 sd=9 nps=4000 mem=36MB}"}},
		{"score and time only", &config.PGNComments{Fields: []string{}}, []string{"e4 {+0.25/14 0.50s}", "f6 {-3.00/3 0.00s}", "Qh5+ {+M2/9 0.25s}"}},
		{"none", &config.PGNComments{None: true}, []string{"1. e4 f6 2. Qh5+ {White mates} 1-0"}},
	} {
		cfg := &config.Config{Name: "t", Engines: []config.EngineConfig{{Name: "W"}, {Name: "B"}},
			Output: config.OutputConfig{Comments: c.comments}}
		var b bytes.Buffer
		if err := WritePGN(&b, cfg, g); err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(b.String()), " ")
		for _, w := range c.want {
			if !strings.Contains(flat, w) {
				t.Errorf("%s: PGN lacks %q:\n%s", c.name, w, b.String())
			}
		}
		games, err := pgn.Read(&b)
		if err != nil || len(games) != 1 {
			t.Fatalf("%s: read back as %d games, %v", c.name, len(games), err)
		}
		if got := strings.Join(games[0].Moves, " "); got != "e2e4 f7f6 d1h5" || games[0].Result != "1-0" {
			t.Errorf("%s: read back moves %q result %q", c.name, got, games[0].Result)
		}
	}
}
