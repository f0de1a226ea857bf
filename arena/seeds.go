package arena

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"arena/arena/config"
	"arena/arena/record"
	"arena/engines"
)

// Repeated games are a choice, never an accident. Every built-in engine
// with a seed option gets a seed of its own for every game, a function of
// the run's seed, the game number, the engine and its configured seed
// (gameSeed), so MCTS and the random mover never replay a game; and a run
// in which engines that play deterministically can meet twice from the same
// position with the same colours says so before its first game and in its
// summary.

// SeedOption is the option of built-in engines that seeds their choices.
const SeedOption = "seed"

// maxSeed bounds the seeds given to engines (their seed option is a UCI
// spin of at most 2^31-1).
const maxSeed = 1<<31 - 1

// gameSeed is the seed engine e (an index into the config's engines) gets
// for game number game.
func gameSeed(runSeed int64, game, e int, configured string) string {
	base, _ := strconv.ParseUint(configured, 10, 64)
	x := splitmix(uint64(runSeed) ^ splitmix(uint64(game)<<8|uint64(e)) ^ splitmix(base+0x5eed))
	return strconv.FormatUint(x%maxSeed, 10)
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// seeded reports whether engine e gets a seed per game: a built-in
// engine with a seed option.
func seeded(e config.EngineConfig) bool {
	if !e.Builtin() {
		return false
	}
	spec, err := engines.Lookup(e.Engine)
	if err != nil {
		return false
	}
	_, ok := spec.Option(SeedOption)
	return ok
}

// seedPlayers gives the game's two engines their seeds for it: in the
// options a restarted process starts with, and by setoption to a running
// one (an engine that refuses it is restarted with the seed).
func (m *match) seedPlayers(ctx context.Context, r *runner, spec gameSpec) {
	for _, i := range []int{spec.White, spec.Black} {
		e := m.cfg.Engines[i]
		if !seeded(e) {
			continue
		}
		p := r.players[i]
		v := gameSeed(m.cfg.Seed, spec.Number, i, e.Options[SeedOption]) // "" (unset) mixes in 0
		p.cfg.Options[SeedOption] = v
		if p.alive() {
			if err := p.client.SetOption(ctx, SeedOption, v); err != nil {
				p.stop()
			}
		}
	}
}

// deterministic reports whether engine e plays the same game twice from
// the same position: its limits do not depend on the clock and it has no
// seed that varies per game (external engines are assumed deterministic
// under node and depth limits, as Stockfish with one thread is).
func deterministic(e config.EngineConfig) bool {
	return e.Limits.MoveTime == 0 && e.Limits.TC == nil && !seeded(e)
}

// repeatWarnings warns when games can repeat: two deterministic engines
// meet more than once from the same start position with the same colours.
func repeatWarnings(cfg *config.Config, openings int) []string {
	var pairs []string
	for _, p := range cfg.Pairings() {
		a, b := cfg.Engines[p[0]], cfg.Engines[p[1]]
		if deterministic(a) && deterministic(b) {
			pairs = append(pairs, a.Name+" vs "+b.Name)
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	// Each start position is played once per colour: by the two games of
	// a pair, or by consecutive uses of a book without pairs.
	starts, why := 1, "there is no opening book"
	if openings > 0 {
		starts, why = openings, fmt.Sprintf("the book has %d openings", openings)
		if !cfg.Pairs {
			starts = 2 * openings
		}
	}
	// A knockout's encounter may go on to its tie-break games.
	games := cfg.Games
	if cfg.Format == config.FormatKnockout {
		games += record.MaxTieBreakGames(cfg)
	}
	perColour := (games + 1) / 2
	if cfg.Pairs || openings == 0 {
		if perColour <= starts {
			return nil
		}
	} else if games <= starts {
		return nil
	}
	return []string{fmt.Sprintf("games can repeat: %s play deterministically (node or depth limits, no per-game seed) and %s for %d games per pairing, so some games copy earlier ones move for move; add openings (at least %d), or use movetime limits",
		strings.Join(pairs, ", "), why, games, perColour)}
}
