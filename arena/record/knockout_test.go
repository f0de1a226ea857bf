package record

import (
	"fmt"
	"strings"
	"testing"

	"arena/arena/config"
)

// knockoutConfig is a knockout of n heuristic engines named E1..En.
func knockoutConfig(t *testing.T, n int, extra string) *config.Config {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "format: knockout\njudge: off\nlimits: {depth: 1}\n%s\nengines:\n", extra)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  - {name: E%d, engine: heuristic}\n", i)
	}
	cfg, err := config.Parse("ko.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// play adds the knockout's next listed game with the result winner
// chooses (an engine index, or -1 for a draw), and returns the game.
func play(t *testing.T, k *Knockout, cfg *config.Config, winner func(KnockoutGame) int) KnockoutGame {
	t.Helper()
	kg := k.Games()[k.added]
	g := &GameRecord{Game: kg.Number, White: cfg.Engines[kg.A].Name, Black: cfg.Engines[kg.B].Name, Result: "1/2-1/2"}
	if kg.Index%2 == 1 {
		g.White, g.Black = g.Black, g.White
	}
	switch w := winner(kg); {
	case w < 0:
	case cfg.Engines[w].Name == g.White:
		g.Result = "1-0"
	default:
		g.Result = "0-1"
	}
	if err := k.Add(g); err != nil {
		t.Fatal(err)
	}
	return kg
}

// encounters lists a round's encounters as "A-B" (B "bye").
func encounters(s *KnockoutSummary, round int) string {
	var parts []string
	for _, e := range s.Rounds[round-1].Encounters {
		b := e.B
		if b == "" {
			b = "bye"
		}
		parts = append(parts, e.A+"-"+b)
	}
	return strings.Join(parts, " ")
}

// The bracket: seed k meets seed size+1-k, byes go to the top seeds, and
// the winners meet in bracket order; each round's games are listed only
// once the round before it is decided.
func TestKnockoutBracketAndByes(t *testing.T) {
	for _, tc := range []struct {
		n      int
		rounds []string
	}{
		{2, []string{"E1-E2"}},
		{3, []string{"E1-bye E2-E3", "E1-E3"}},
		{4, []string{"E1-E4 E2-E3", "E1-E3"}},
		{5, []string{"E1-bye E4-E5 E2-bye E3-bye", "E1-E5 E2-E3", "E1-E3"}},
		{8, []string{"E1-E8 E4-E5 E2-E7 E3-E6", "E1-E5 E6-E7", "E1-E7"}},
	} {
		cfg := knockoutConfig(t, tc.n, "games: 2")
		k := NewKnockout(cfg)
		if got, want := k.Planned(), 2*(tc.n-1); got != want {
			t.Errorf("%d engines: %d games planned, want %d", tc.n, got, want)
		}
		// Engine E1 wins all its games; elsewhere the lower seed (the
		// higher index) wins, so the bracket's later rounds show that
		// winners, not seeds, go through.
		for !k.Done() {
			if k.added >= len(k.Games()) {
				t.Fatalf("%d engines: no game listed and no winner", tc.n)
			}
			play(t, k, cfg, func(kg KnockoutGame) int {
				if kg.A == 0 {
					return 0
				}
				return kg.B
			})
		}
		s := k.Summary()
		if len(s.Rounds) != len(tc.rounds) {
			t.Fatalf("%d engines: %d rounds, want %d: %+v", tc.n, len(s.Rounds), len(tc.rounds), s)
		}
		for r, want := range tc.rounds {
			if got := encounters(s, r+1); got != want {
				t.Errorf("%d engines, round %d: %s, want %s", tc.n, r+1, got, want)
			}
		}
		if s.Winner != "E1" || len(k.Games()) != 2*(tc.n-1) || k.Planned() != len(k.Games()) {
			t.Errorf("%d engines: winner %q after %d games (planned %d), want E1 after %d", tc.n, s.Winner, len(k.Games()), k.Planned(), 2*(tc.n-1))
		}
		for _, e := range s.Rounds[0].Encounters {
			if e.B == "" && (e.Decided != DecidedBye || e.Games != 0 || e.Winner != e.A) {
				t.Errorf("%d engines: bye %+v", tc.n, e)
			}
		}
	}
}

// Games are listed a round at a time, the encounters taking turns two
// games at a time, numbered in order, with game pairs numbered across the
// tournament.
func TestKnockoutGameOrder(t *testing.T) {
	cfg := knockoutConfig(t, 4, "games: 3")
	k := NewKnockout(cfg)
	var got []string
	for _, g := range k.Games() {
		got = append(got, fmt.Sprintf("%d:%d-%d i%d p%d", g.Number, g.A, g.B, g.Index, g.Pair))
	}
	want := "1:0-3 i0 p1 2:0-3 i1 p1 3:1-2 i0 p2 4:1-2 i1 p2 5:0-3 i2 p0 6:1-2 i2 p0"
	if strings.Join(got, " ") != want {
		t.Errorf("round 1 games:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	for range 5 {
		play(t, k, cfg, func(kg KnockoutGame) int { return kg.A })
		if len(k.Games()) != 6 {
			t.Fatalf("round 2 listed before round 1 finished: %d games", len(k.Games()))
		}
	}
	play(t, k, cfg, func(kg KnockoutGame) int { return kg.A })
	if g := k.Games()[6]; len(k.Games()) != 9 || g.Round != 2 || g.A != 0 || g.B != 1 || g.Pair != 3 {
		t.Errorf("round 2: %d games listed, first %+v", len(k.Games()), g)
	}
}

// A tie is broken by extra game pairs; level after as many extra games as
// the encounter had, the higher seed goes through.
func TestKnockoutTieBreaks(t *testing.T) {
	cfg := knockoutConfig(t, 2, "games: 2")
	k := NewKnockout(cfg)
	// Each engine wins with White: every pair is 1-1.
	whiteWins := func(kg KnockoutGame) int {
		if kg.Index%2 == 0 {
			return kg.A
		}
		return kg.B
	}
	for range 2 {
		play(t, k, cfg, whiteWins)
	}
	if len(k.Games()) != 4 || k.Done() {
		t.Fatalf("after a 1-1 pair: %d games listed, done %v; want a tie-break pair", len(k.Games()), k.Done())
	}
	if g := k.Games()[2]; g.Index != 2 || g.Pair != 2 || k.Games()[3].Pair != 2 {
		t.Errorf("tie-break game %+v, want index 2 in pair 2", g)
	}
	for range 2 {
		play(t, k, cfg, whiteWins)
	}
	s := k.Summary()
	e := s.Rounds[0].Encounters[0]
	if !k.Done() || s.Winner != "E1" || e.Decided != DecidedSeed || e.Games != 4 || e.TieBreak != 2 || e.ScoreA != 2 || e.ScoreB != 2 {
		t.Errorf("level after the tie-break: done %v, %+v, winner %q; want E1 by seed after 4 games", k.Done(), e, s.Winner)
	}

	// A tie-break won by the lower seed decides on score.
	k = NewKnockout(cfg)
	for range 2 {
		play(t, k, cfg, whiteWins)
	}
	play(t, k, cfg, func(KnockoutGame) int { return 1 })
	play(t, k, cfg, func(KnockoutGame) int { return -1 })
	e = k.Summary().Rounds[0].Encounters[0]
	if !k.Done() || e.Winner != "E2" || e.Decided != DecidedScore || e.ScoreB != 2.5 || e.TieBreak != 2 {
		t.Errorf("tie-break 1.5-0.5 for E2: %+v", e)
	}
}

// Without pairs a tie-break is one game at a time, colours alternating;
// with pairs after an odd number of games, a tie-break pair starts on a
// whole pair (its games share an opening use).
func TestKnockoutTieBreakUnits(t *testing.T) {
	cfg := knockoutConfig(t, 2, "games: 1\npairs: false")
	k := NewKnockout(cfg)
	play(t, k, cfg, func(KnockoutGame) int { return -1 })
	if len(k.Games()) != 2 || k.Games()[1].Index != 1 || k.Games()[1].Pair != 0 {
		t.Fatalf("single-game tie-break: %+v", k.Games())
	}
	play(t, k, cfg, func(KnockoutGame) int { return -1 })
	play(t, k, cfg, func(KnockoutGame) int { return 1 })
	if e := k.Summary().Rounds[0].Encounters[0]; !k.Done() || e.Winner != "E2" || e.Games != 3 {
		t.Errorf("after 1 regular and 2 tie-break games: done %v, %+v", k.Done(), e)
	}

	cfg = knockoutConfig(t, 2, "games: 3")
	k = NewKnockout(cfg)
	for _, w := range []int{0, 1, -1} {
		play(t, k, cfg, func(KnockoutGame) int { return w })
	}
	if g := k.Games(); len(g) != 5 || g[3].Index != 4 || g[4].Index != 5 || g[3].Pair == 0 || g[3].Pair != g[4].Pair {
		t.Errorf("tie-break after 3 games in pairs: %+v", g[3:])
	}
	if got := MaxTieBreakGames(cfg); got != 4 {
		t.Errorf("MaxTieBreakGames with 3 games in pairs = %d, want 4", got)
	}
}

// A game that is not the bracket's next, or not between its engines, is
// refused.
func TestKnockoutRefusesOtherGames(t *testing.T) {
	cfg := knockoutConfig(t, 3, "")
	k := NewKnockout(cfg)
	if err := k.Add(&GameRecord{Game: 2, White: "E2", Black: "E3", Result: "1-0"}); err == nil || !strings.Contains(err.Error(), "not the next game") {
		t.Errorf("game 2 first: %v", err)
	}
	if err := k.Add(&GameRecord{Game: 1, White: "E1", Black: "E3", Result: "1-0"}); err == nil || !strings.Contains(err.Error(), "the bracket has E2 vs E3") {
		t.Errorf("E1 vs E3 as game 1: %v", err)
	}
}
