package record

import (
	"fmt"

	"arena/arena/config"
)

// A knockout (format: knockout, cutechess-cli's -tournament knockout) is
// single elimination. The engines are seeded in config order (engines[0]
// is seed 1) and placed in a bracket of the next power of two, seed k
// against seed size+1-k in the first round, so that the top seeds meet
// last and the byes (the missing seeds above the engine count) fall to the
// top seeds. cutechess draws the unseeded engines at random; here the
// bracket is the config's order, so it is visible in the config and the
// same on every run (shuffle the list to draw one).
//
// An encounter is config.Games games, played as any pairing's (two at a
// time, in game pairs with pairs: true). An engine that leads after them
// goes through. A tie is broken by extra games, a game pair at a time (a
// single game with pairs: false), until one engine leads after a complete
// pair; after as many extra games as the encounter had (at least two) a
// tie still standing goes to the higher seed, and the summary says so
// ("seed"). cutechess plays on without a bound, which never ends between
// two engines that repeat the same games.
//
// The schedule is therefore not a function of the game number alone: a
// round's games are known once the previous round is decided, and a
// tie-break pair once the encounter's earlier games are in. Knockout
// extends its list of games as finished games are added in game order
// (the runner adds them in that order anyway, for the summary), so the
// list only grows and game i, once listed, never changes. Everything is
// rebuilt from the games alone, which is how --resume restores a bracket.

// Decisions of an encounter (KnockoutEncounter.Decided).
const (
	DecidedScore = "score" // the winner scored more
	DecidedBye   = "bye"   // no opponent: the engine went through without a game
	DecidedSeed  = "seed"  // level after every tie-break game: the higher seed went through
)

// Knockout is the bracket of a knockout tournament and its schedule so
// far. Add games in game order; Games lists what is to be played.
type Knockout struct {
	cfg    *config.Config
	rounds [][]*encounter
	games  []KnockoutGame
	added  int // games added
	pairs  int // game pairs numbered so far
	booked int // encounters whose regular games are in games
	winner int // engine index; -1 until decided
}

// encounter is two engines' meeting; a is the higher seed (the lower
// index), b is -1 for a bye.
type encounter struct {
	a, b      int
	score     [2]float64 // a's, b's
	played    int        // games added
	scheduled int        // games listed, regular and tie-break
	next      int        // the game index the next listed game takes
	winner    int        // -1 until decided
	decided   string
}

// KnockoutGame is one game of the schedule: engines A (the higher seed)
// and B meet in round Round; Index is the game's place in the encounter,
// which gives its colours and opening as game Index of any pairing; Pair
// is its game pair's number (0: none).
type KnockoutGame struct {
	Number, Round, Index, Pair int
	A, B                       int
	enc                        *encounter
}

// NewKnockout draws the first round's bracket and lists its games.
func NewKnockout(cfg *config.Config) *Knockout {
	k := &Knockout{cfg: cfg, winner: -1}
	n := len(cfg.Engines)
	size := 1
	for size < n {
		size *= 2
	}
	order := bracketOrder(size)
	var round []*encounter
	for i := 0; i < size; i += 2 {
		a, b := order[i]-1, order[i+1]-1
		if b >= n { // a seed above the engine count is a bye
			b = -1
		}
		round = append(round, &encounter{a: a, b: b, winner: -1})
	}
	k.rounds = append(k.rounds, round)
	k.advance()
	return k
}

// bracketOrder lists the seeds 1..size in bracket order: slots 2i and
// 2i+1 meet in the first round, and the seeds that would meet in a later
// round by seed (1 and 2 in the final) stay apart until then.
func bracketOrder(size int) []int {
	order := []int{1}
	for len(order) < size {
		m := 2 * len(order)
		next := make([]int, 0, m)
		for _, s := range order {
			next = append(next, s, m+1-s)
		}
		order = next
	}
	return order
}

// Games is the schedule so far; Games()[i] is game i+1.
func (k *Knockout) Games() []KnockoutGame { return k.games }

// RoundsDecided is the number of rounds every encounter of which is
// decided.
func (k *Knockout) RoundsDecided() int {
	n := 0
	for _, round := range k.rounds {
		for _, e := range round {
			if e.winner < 0 {
				return n
			}
		}
		n++
	}
	return n
}

// Done reports whether the tournament has a winner.
func (k *Knockout) Done() bool { return k.winner >= 0 }

// Planned is the number of games known to be played: those listed, and
// the regular games of the encounters still to come (tie-breaks may add
// more).
func (k *Knockout) Planned() int {
	return len(k.games) + k.cfg.Games*(len(k.cfg.Engines)-1-k.booked)
}

// Add counts the next game in game order. A game that is not the next of
// the schedule, or not between its engines, is an error.
func (k *Knockout) Add(g *GameRecord) error {
	if k.added >= len(k.games) || g.Game != k.games[k.added].Number {
		return fmt.Errorf("knockout: game %d is not the next game of the bracket (%d games added, %d scheduled)", g.Game, k.added, len(k.games))
	}
	e := k.games[k.added].enc
	a, b := k.cfg.Engines[e.a].Name, k.cfg.Engines[e.b].Name
	if (g.White != a || g.Black != b) && (g.White != b || g.Black != a) {
		return fmt.Errorf("knockout: game %d is %s vs %s, the bracket has %s vs %s", g.Game, g.White, g.Black, a, b)
	}
	e.score[0] += g.Score(a)
	e.score[1] += g.Score(b)
	e.played++
	k.added++
	if k.added == len(k.games) {
		k.advance()
	}
	return nil
}

// advance lists the next games once every listed game has been added:
// the current round's regular games, its tie-breaks, or the next round's.
func (k *Knockout) advance() {
	for !k.Done() {
		round := k.rounds[len(k.rounds)-1]
		var open []*encounter
		for _, e := range round {
			switch {
			case e.winner >= 0:
			case e.b < 0:
				e.winner, e.decided = e.a, DecidedBye
			case e.scheduled == 0:
				open = append(open, e)
				k.booked++
			default:
				k.decideOrExtend(e, &open)
			}
		}
		if len(open) > 0 {
			k.schedule(len(k.rounds), open)
			return
		}
		var winners []int
		for _, e := range round {
			winners = append(winners, e.winner)
		}
		if len(winners) == 1 {
			k.winner = winners[0]
			return
		}
		var next []*encounter
		for i := 0; i < len(winners); i += 2 {
			a, b := min(winners[i], winners[i+1]), max(winners[i], winners[i+1])
			next = append(next, &encounter{a: a, b: b, winner: -1})
		}
		k.rounds = append(k.rounds, next)
	}
}

// decideOrExtend decides an encounter whose listed games are all in, or
// adds it to open for another tie-break unit.
func (k *Knockout) decideOrExtend(e *encounter, open *[]*encounter) {
	extra := e.scheduled - k.cfg.Games
	switch {
	case e.score[0] != e.score[1]:
		e.winner, e.decided = e.a, DecidedScore
		if e.score[1] > e.score[0] {
			e.winner = e.b
		}
	case extra < MaxTieBreakGames(k.cfg):
		*open = append(*open, e)
	default:
		e.winner, e.decided = e.a, DecidedSeed
	}
}

// MaxTieBreakGames is the most tie-break games an encounter plays: as
// many as its regular games, at least two, in whole units.
func MaxTieBreakGames(cfg *config.Config) int {
	unit := 1
	if cfg.Pairs {
		unit = 2
	}
	return (max(cfg.Games, 2) + unit - 1) / unit * unit
}

// unit is the number of games a tie-break adds: a game pair, or one game.
func (k *Knockout) unit() int {
	if k.cfg.Pairs {
		return 2
	}
	return 1
}

// schedule lists the next games of the open encounters of a round: their
// regular games, or one tie-break unit each. Encounters take turns two
// games at a time, as pairings do in the other formats, so that an
// interrupted round has played its encounters evenly.
func (k *Knockout) schedule(round int, open []*encounter) {
	type span struct {
		e        *encounter
		from, to int // game indices of the encounter
	}
	var spans []span
	for _, e := range open {
		from, to := 0, k.cfg.Games
		if e.scheduled > 0 {
			// A tie-break unit starts on a whole unit, so that a pair's
			// two games share an opening and swap colours (after an odd
			// number of regular games in pairs, the unpaired game's
			// partner index is skipped).
			from = (e.next + k.unit() - 1) / k.unit() * k.unit()
			to = from + k.unit()
		}
		spans = append(spans, span{e, from, to})
	}
	for base := 0; ; base += 2 {
		listed := false
		for _, s := range spans {
			block := s.from + base
			paired := k.cfg.Pairs && block+1 < s.to
			if block < s.to && paired {
				k.pairs++
			}
			for i := block; i < min(block+2, s.to); i++ {
				listed = true
				kg := KnockoutGame{Number: len(k.games) + 1, Round: round, Index: i, A: s.e.a, B: s.e.b, enc: s.e}
				if paired {
					kg.Pair = k.pairs
				}
				k.games = append(k.games, kg)
				s.e.scheduled++
				s.e.next = i + 1
			}
		}
		if !listed {
			return
		}
	}
}

// KnockoutSummary is the bracket in summary.json: every round's
// encounters with their scores, and the winner once there is one.
type KnockoutSummary struct {
	Rounds []KnockoutRound `json:"rounds"`
	Winner string          `json:"winner,omitempty"`
}

// KnockoutRound is one round of the bracket.
type KnockoutRound struct {
	Round      int                 `json:"round"`
	Encounters []KnockoutEncounter `json:"encounters"`
}

// KnockoutEncounter is two engines' meeting: A is the higher seed (its
// seed SeedA, 1 the top), B the other, empty for a bye. Games counts the
// games played, TieBreak those of them that broke a tie; Winner and
// Decided are empty until it is decided.
type KnockoutEncounter struct {
	A        string  `json:"a"`
	SeedA    int     `json:"seed_a"`
	B        string  `json:"b,omitempty"`
	SeedB    int     `json:"seed_b,omitempty"`
	ScoreA   float64 `json:"score_a"`
	ScoreB   float64 `json:"score_b"`
	Games    int     `json:"games"`
	TieBreak int     `json:"tiebreak_games,omitempty"`
	Winner   string  `json:"winner,omitempty"`
	Decided  string  `json:"decided,omitempty"`
}

// Summary is the bracket as it stands.
func (k *Knockout) Summary() *KnockoutSummary {
	name := func(i int) string {
		if i < 0 {
			return ""
		}
		return k.cfg.Engines[i].Name
	}
	s := &KnockoutSummary{Rounds: []KnockoutRound{}, Winner: name(k.winner)}
	for r, round := range k.rounds {
		kr := KnockoutRound{Round: r + 1}
		for _, e := range round {
			ke := KnockoutEncounter{A: name(e.a), SeedA: e.a + 1, B: name(e.b), ScoreA: e.score[0], ScoreB: e.score[1],
				Games: e.played, TieBreak: max(e.played-k.cfg.Games, 0), Winner: name(e.winner), Decided: e.decided}
			if e.b >= 0 {
				ke.SeedB = e.b + 1
			}
			kr.Encounters = append(kr.Encounters, ke)
		}
		s.Rounds = append(s.Rounds, kr)
	}
	return s
}
