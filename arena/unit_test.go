package arena

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/arena/config"
	"arena/arena/openings"
	"arena/arena/record"
	"arena/internal/version"
)

func TestSchedule(t *testing.T) {
	ops := []openings.Opening{{FEN: "a"}, {FEN: "b"}, {FEN: "c"}}
	cfg := &config.Config{Games: 5, Seed: 7, Pairs: true, Openings: &openings.Config{Order: "sequential", Start: 1},
		Engines: []config.EngineConfig{{Name: "A"}, {Name: "B"}}}
	show := func(cfg *config.Config, ops []openings.Opening) []string {
		var got []string
		for _, g := range schedule(cfg, ops) {
			s := fmt.Sprintf("%s%s%d", cfg.Engines[g.White].Name, cfg.Engines[g.Black].Name, g.Pair)
			if g.Opening != nil {
				s += g.Opening.FEN
			}
			got = append(got, s)
		}
		return got
	}
	// Game pairs: each opening twice with the colours swapped; the odd
	// last game has no partner (pair 0).
	if got, want := show(cfg, ops), []string{"AB1a", "BA1a", "AB2b", "BA2b", "AB0c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("two engines: %v, want %v", got, want)
	}
	// start: 3 begins with the third opening and wraps around.
	cfg.Openings.Start = 3
	if got, want := show(cfg, ops), []string{"AB1c", "BA1c", "AB2a", "BA2a", "AB0b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("start 3: %v, want %v", got, want)
	}
	// pairs: false: a new opening every game, colours still alternating.
	cfg.Pairs = false
	if got, want := show(cfg, ops), []string{"AB0c", "BA0a", "AB0b", "BA0c", "AB0a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("no pairs: %v, want %v", got, want)
	}
	cfg.Pairs, cfg.Openings.Start = true, 1

	// Three engines: every pairing plays Games games, two at a time, and
	// every pairing plays the same openings.
	cfg.Engines = append(cfg.Engines, config.EngineConfig{Name: "C"})
	cfg.Games = 2
	if got, want := show(cfg, ops), []string{"AB1a", "BA1a", "AC2a", "CA2a", "BC3a", "CB3a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("round robin: %v, want %v", got, want)
	}
	cfg.Games = 3
	if got, want := show(cfg, nil), []string{"AB1", "BA1", "AC2", "CA2", "BC3", "CB3", "AB0", "AC0", "BC0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("round robin, 3 games: %v, want %v", got, want)
	}
	// Gauntlet: the first engine against each of the others.
	cfg.Format = config.FormatGauntlet
	cfg.Engines = append(cfg.Engines, config.EngineConfig{Name: "D"})
	cfg.Games = 2
	if got, want := show(cfg, nil), []string{"AB1", "BA1", "AC2", "CA2", "AD3", "DA3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("gauntlet: %v, want %v", got, want)
	}

	// Random order is a seeded permutation, reshuffled per pass over the book.
	a := openingOrder(3, 6, "random", 1, 7)
	if b := openingOrder(3, 6, "random", 1, 7); !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different orders: %v, %v", a, b)
	}
	if c := openingOrder(3, 6, "random", 1, 8); reflect.DeepEqual(a, c) {
		t.Errorf("seeds 7 and 8 give the same order %v", a)
	}
	for pass := range 2 {
		seen := map[int]bool{}
		for _, i := range a[pass*3 : pass*3+3] {
			seen[i] = true
		}
		if len(seen) != 3 {
			t.Errorf("pass %d of %v is not a permutation", pass, a)
		}
	}
	// start reads the same shuffled sequence from a later position.
	if b := openingOrder(3, 4, "random", 3, 7); !reflect.DeepEqual(b, a[2:6]) {
		t.Errorf("random from start 3: %v, want %v (the sequence of start 1 from its third element)", b, a[2:6])
	}
}

// The game-end rules: repetition and fifty-move draws are claimed (or, with
// game_end fivefold, played on to fivefold and 75 moves), max_moves
// adjudicates, and checkmate wins.
func TestGameOver(t *testing.T) {
	newGame := func(fen string, maxMoves int, gameEnd string) *game {
		g := &game{cfg: &config.Config{MaxMoves: maxMoves, GameEnd: gameEnd}, rec: &record.GameRecord{}}
		if err := g.begin(fen); err != nil {
			t.Fatal(err)
		}
		return g
	}
	tests := []struct {
		name, fen   string
		maxMoves    int
		gameEnd     string
		moves       []string
		result      string
		termination string
		reason      string
	}{
		{"checkmate", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", 0, config.GameEndClaim, []string{"d8h4"},
			"0-1", record.TermNormal, "Black mates"},
		{"threefold", StartFENForTest, 0, config.GameEndClaim, []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"},
			"1/2-1/2", record.TermNormal, "Draw by 3-fold repetition"},
		{"fifty moves", "8/8/8/4k3/8/8/8/R3K3 w - - 99 80", 0, config.GameEndClaim, []string{"a1a2"},
			"1/2-1/2", record.TermNormal, "Draw by fifty moves rule"},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", 0, config.GameEndClaim, []string{"g6h6"},
			"1/2-1/2", record.TermNormal, "Draw by stalemate"},
		{"insufficient material", "8/8/8/4k3/8/8/3r4/4K3 w - - 0 1", 0, config.GameEndClaim, []string{"e1d2"},
			"1/2-1/2", record.TermNormal, "Draw by insufficient mating material"},
		// 1.e4 leaves an en passant square in the FEN that no capture can
		// use: the position after 3.Ng1 is the one after 1.e4 (issue 9).
		{"threefold after a double push", StartFENForTest, 0, config.GameEndClaim, []string{"e2e4", "g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8", "f3g1"},
			"1/2-1/2", record.TermNormal, "Draw by 3-fold repetition"},
		{"fivefold", StartFENForTest, 0, config.GameEndFivefold, []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
			"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"},
			"1/2-1/2", record.TermNormal, "Draw by 5-fold repetition"},
		{"fifty moves played on", "8/8/8/4k3/8/8/8/R3K3 w - - 99 80", 0, config.GameEndFivefold, []string{"a1a2", "e5e4"},
			"", "", ""},
		{"seventy-five moves", "8/8/8/4k3/8/8/8/R3K3 w - - 149 80", 0, config.GameEndFivefold, []string{"a1a2"},
			"1/2-1/2", record.TermNormal, "Draw by seventy-five moves rule"},
		{"max moves", StartFENForTest, 2, config.GameEndClaim, []string{"e2e4", "e7e5"},
			"1/2-1/2", record.TermAdjudicated, "max moves (2 plies)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(tt.fen, tt.maxMoves, tt.gameEnd)
			for i, m := range tt.moves {
				if g.over() {
					t.Fatalf("game over before move %d: %s", i+1, g.rec.Reason)
				}
				if _, err := g.play(m); err != nil {
					t.Fatal(err)
				}
			}
			if tt.result == "" {
				if g.over() {
					t.Errorf("game over: %s", g.rec.Reason)
				}
				return
			}
			if !g.over() || g.rec.Result != tt.result || g.rec.Termination != tt.termination || !strings.Contains(g.rec.Reason, tt.reason) {
				t.Errorf("got %s %q %q, want %s %q %q", g.rec.Result, g.rec.Termination, g.rec.Reason, tt.result, tt.termination, tt.reason)
			}
		})
	}
}

// StartFENForTest is the standard start position.
const StartFENForTest = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

func TestLimitsForClock(t *testing.T) {
	tc := &config.TimeControl{Moves: 40, Base: 60 * time.Second, Inc: 500 * time.Millisecond}
	g := &game{cfg: &config.Config{TimeMargin: config.Duration(time.Second)},
		eng:   [2]config.EngineConfig{{Limits: config.Limits{TC: tc}}, {Limits: config.Limits{MoveTime: config.Duration(time.Second)}}},
		clock: [2]time.Duration{30 * time.Second, 0}, made: [2]int{39, 0}}
	lim, _, late := g.limits(0)
	if lim.WTime != 30*time.Second || lim.WInc != 500*time.Millisecond || lim.BInc != 0 || lim.MovesToGo != 1 || late != 31*time.Second {
		t.Errorf("clock limits %+v, late %v", lim, late)
	}
	lim, _, late = g.limits(1)
	if lim.MoveTime != time.Second || late != 2*time.Second {
		t.Errorf("movetime limits %+v, late %v", lim, late)
	}
}

func TestPlaySANAndLegality(t *testing.T) {
	tests := []struct{ fen, move, san string }{
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O"},
		{"8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", "e8=Q"},
		{"8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8n", "e8=N"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "exd6"},
		{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#"},
	}
	for _, tt := range tests {
		g := &game{}
		if err := g.begin(tt.fen); err != nil {
			t.Fatal(err)
		}
		san, err := g.play(tt.move)
		if err != nil || san != tt.san {
			t.Errorf("%s in %s: SAN %q, %v; want %q", tt.move, tt.fen, san, err, tt.san)
		}
		if _, err := g.play(tt.move); err == nil {
			t.Errorf("%s played twice in a row was accepted", tt.move)
		}
	}
	// Only the exact lower-case UCI text of a legal move is accepted.
	for _, bad := range []string{"e7e8", "e7e8Q", "e7e8k", "e7e8qq", "E7e8q", "e7e9q", "i7e8q", "e1e1", "", "e7"} {
		g := &game{}
		if err := g.begin("8/4P3/8/8/8/8/k7/4K3 w - - 0 1"); err != nil {
			t.Fatal(err)
		}
		if san, err := g.play(bad); err == nil {
			t.Errorf("%q accepted as %s", bad, san)
		}
	}
}

func TestInsufficientMaterial(t *testing.T) {
	tests := map[string]bool{
		"8/8/8/4k3/8/8/8/4K3 w - - 0 1":     true,  // K v K
		"8/8/8/4k3/8/8/8/3NK3 w - - 0 1":    true,  // K+N v K
		"8/8/8/4k3/8/8/8/2B1K3 w - - 0 1":   true,  // K+B v K
		"1b6/8/8/4k3/8/8/8/2B1K3 w - - 0 1": true,  // bishops on dark squares only (c1, b8)
		"2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1": false, // bishops on both colours (c1 dark, c8 light)
		"8/8/8/4k3/8/8/8/2NNK3 w - - 0 1":   false, // two knights
		"8/8/8/4k3/8/8/8/2BNK3 w - - 0 1":   false,
		"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1":   false,
		"8/8/8/4k3/8/8/8/3RK3 w - - 0 1":    false,
	}
	for fen, want := range tests {
		g := &game{cfg: &config.Config{}, rec: &record.GameRecord{}}
		if err := g.begin(fen); err != nil {
			t.Fatal(err)
		}
		if got := g.over() && strings.Contains(g.rec.Reason, "insufficient"); got != want {
			t.Errorf("%s: insufficient material %v, want %v", fen, got, want)
		}
	}
}

// A PGN book through the config: each opening is the position after the
// first plies plies, read from opening start in the seeded random order.
func TestPGNBookFromConfig(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book.pgn")
	text := "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 e6 *\n\n[Event \"c\"]\n\n1. c4 e5 2. Nc3 Nf6 *\n"
	if err := os.WriteFile(book, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, fmt.Sprintf("games: 4\nlimits: {depth: 1}\n%sopenings: {file: %q, plies: 2, order: random, start: 2}\n", twoEngines, book))
	ops, err := openings.Load(*cfg.Openings)
	if err != nil {
		t.Fatal(err)
	}
	after2 := map[string]bool{}
	for _, fen := range []string{
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
		"rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 2",
		"rnbqkbnr/pppp1ppp/8/4p3/2P5/8/PP1PPPPP/RNBQKBNR w KQkq e6 0 2",
	} {
		after2[fen] = true
	}
	games := schedule(cfg, ops)
	for i, g := range games {
		if !after2[g.Opening.FEN] {
			t.Errorf("game %d starts from %q, not a position after 2 plies", i+1, g.Opening.FEN)
		}
	}
	// start: 2 begins at the second element of the seeded sequence.
	full := openingOrder(3, 3, "random", 1, cfg.Seed)
	if games[0].Opening != &ops[full[1]] || games[2].Opening != &ops[full[2]] || games[1].Opening != games[0].Opening {
		t.Errorf("openings %v %v %v, want book entries %d, %d (order from start 1: %v)", games[0].Opening, games[1].Opening, games[2].Opening, full[1], full[2], full)
	}
}

// A resume by another build than the one that played the finished games
// warns "mixed versions", and the summary lists every commit that played.
func TestMixedVersions(t *testing.T) {
	now := version.Stamp()
	if w := mixedVersions(&record.Summary{Schema: record.Schema, Versions: record.Versions{Arena: now}}, 3); w != "" {
		t.Errorf("same build: warning %q, want none", w)
	}
	for _, prev := range []*record.Summary{
		{Versions: record.Versions{Arena: "(devel)"}}, // schema 1
		{Schema: record.Schema, Versions: record.Versions{Arena: "0123456789abcdef0123456789abcdef01234567"}},
		{Schema: record.Schema, Versions: record.Versions{Arena: now, ArenaCommits: []string{"unknown", now}}},
	} {
		if w := mixedVersions(prev, 3); !strings.HasPrefix(w, "mixed versions: the 3 games already played were played by arena ") {
			t.Errorf("previous %+v: warning %q, want mixed versions", prev.Versions, w)
		}
	}
	b := record.NewBuilder(&config.Config{Engines: []config.EngineConfig{{Name: "A"}, {Name: "B"}}}, record.RunInfo{})
	for _, c := range []string{"", "abc", "abc", "def"} {
		b.Add(&record.GameRecord{White: "A", Black: "B", Result: "1-0", ArenaCommit: c})
	}
	if got := b.Summary().Versions.ArenaCommits; !slices.Equal(got, []string{version.Unknown, "abc", "def"}) {
		t.Errorf("versions.arena_commits %v, want unknown, abc, def", got)
	}
}
