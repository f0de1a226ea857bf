package arena

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"arena/arena/config"
	"arena/arena/openings"
	"arena/arena/record"
)

// The schedule is generated lazily, one game at a time, so that its size
// costs no memory: a run of two billion games starts as fast as one of two.
// Game i's pairing, colours, pair number and opening are a function of i and
// the config (its seed included) only; the workers that play the games, and
// the shards that split them, never change what game i is.

// openingSeq is the opening order of openingOrder, one use at a time. Uses
// must be asked for in non-decreasing order (the random order draws one
// shuffle per pass over the book).
type openingSeq struct {
	n, offset int
	random    bool
	rng       *rand.Rand
	pass      int // the pass perm belongs to; -1 before the first
	perm      []int
	seed      int64
	cum       []float64 // weighted order: the openings' cumulative weights
}

func newOpeningSeq(book []openings.Opening, order string, start int, seed int64) *openingSeq {
	s := &openingSeq{n: len(book), offset: max(start-1, 0), random: order == openings.OrderRandom, pass: -1, seed: seed} // start is 0 in configs resolved before it existed
	if s.random {
		s.rng = rand.New(rand.NewPCG(uint64(seed), 0x6f70656e696e6773)) // "openings"
	}
	if order == openings.OrderWeighted {
		total := 0.0
		for _, o := range book {
			total += o.Weight
			s.cum = append(s.cum, total)
		}
	}
	return s
}

// at returns the book index of use i (0-based).
func (s *openingSeq) at(i int) int {
	p := s.offset + i
	switch {
	case s.cum != nil:
		return s.weighted(p)
	case !s.random:
		return p % s.n
	}
	for s.pass < p/s.n {
		s.perm = s.rng.Perm(s.n)
		s.pass++
	}
	return s.perm[p%s.n]
}

// weighted draws use p's opening in proportion to the weights, from a
// generator of its own seeded by the run's seed and p: a use's opening
// depends on nothing else (not on the uses before it, the shard, or a
// resume).
func (s *openingSeq) weighted(p int) int {
	rng := rand.New(rand.NewPCG(uint64(s.seed), splitmix(uint64(p))^0x7765696768746564)) // "weighted"
	x := rng.Float64() * s.cum[len(s.cum)-1]
	i, _ := slices.BinarySearchFunc(s.cum, x, func(c, x float64) int {
		if c <= x {
			return -1
		}
		return 1
	})
	return min(i, s.n-1)
}

// scheduleIter yields the games of a match in order: each pairing of
// engines plays cfg.Games games with alternating colours; with cfg.Pairs
// consecutive games 2k-1 and 2k of a pairing are a game pair sharing an
// opening (the colours swapped), else every game takes the next opening.
// Every pairing uses the same sequence of openings. Pairings take turns,
// two games at a time, so that an interrupted tournament is balanced. With
// a shard, only the shard's games are yielded (numbered as in the whole
// schedule).
type scheduleIter struct {
	cfg      *config.Config
	ps       [][2]int
	openings []openings.Opening
	seq      *openingSeq
	shard    record.Shard
	k, p, i  int // block of two games per pairing, pairing, game of the pairing
	number   int // games yielded or skipped so far
	pair     int
}

func newSchedule(cfg *config.Config, book []openings.Opening, shard record.Shard) *scheduleIter {
	s := &scheduleIter{cfg: cfg, ps: cfg.Pairings(), openings: book, shard: shard}
	if len(book) > 0 {
		s.seq = newOpeningSeq(book, cfg.Openings.Order, cfg.Openings.Start, cfg.Seed)
	}
	return s
}

// totalGames is the number of games the config schedules (all shards;
// a knockout's without tie-breaks).
func totalGames(cfg *config.Config) int { return cfg.ScheduledGames() }

// games yields the games of a schedule in order: next returns false at
// its end, or, for a knockout, where the next game depends on results not
// yet in (a later call may then return it).
type games interface {
	next() (gameSpec, bool)
}

// knockoutIter yields a knockout's games as its bracket lists them (see
// record.Knockout), with their colours and openings: game Index of an
// encounter is played as game Index of any pairing.
type knockoutIter struct {
	cfg      *config.Config
	ko       *record.Knockout
	openings []openings.Opening
	i        int
}

func (s *knockoutIter) next() (gameSpec, bool) {
	list := s.ko.Games()
	if s.i >= len(list) {
		return gameSpec{}, false
	}
	kg := list[s.i]
	s.i++
	g := gameSpec{Number: kg.Number, White: kg.A, Black: kg.B, Pair: kg.Pair}
	if swapped(s.cfg, kg.Index) {
		g.White, g.Black = kg.B, kg.A
	}
	if len(s.openings) > 0 {
		use := kg.Index
		if s.cfg.Pairs {
			use /= 2
		}
		// A fresh sequence per game: the random order's shuffles must
		// be drawn in order, and encounters reuse the same uses.
		seq := newOpeningSeq(s.openings, s.cfg.Openings.Order, s.cfg.Openings.Start, s.cfg.Seed)
		g.Opening = &s.openings[seq.at(use)]
	}
	return g, true
}

// newGames is the schedule of a run: the bracket's for a knockout, else
// the fixed schedule of the shard.
func newGames(cfg *config.Config, book []openings.Opening, shard record.Shard, ko *record.Knockout) games {
	if ko != nil {
		return &knockoutIter{cfg: cfg, ko: ko, openings: book}
	}
	return newSchedule(cfg, book, shard)
}

// next returns the next game of the schedule (of the shard), false at the end.
func (s *scheduleIter) next() (gameSpec, bool) {
	for {
		g, ok := s.step()
		if !ok || s.shard.Has(g.Number) {
			return g, ok
		}
	}
}

// step returns the next game of the whole schedule.
func (s *scheduleIter) step() (gameSpec, bool) {
	if len(s.ps) == 0 || s.k >= s.cfg.Games {
		return gameSpec{}, false
	}
	p := s.ps[s.p]
	// A trailing odd game has no partner.
	paired := s.cfg.Pairs && s.k+1 < s.cfg.Games
	if paired && s.i == s.k {
		s.pair++
	}
	s.number++
	g := gameSpec{Number: s.number, White: p[0], Black: p[1]}
	if swapped(s.cfg, s.i) {
		g.White, g.Black = p[1], p[0]
	}
	if paired {
		g.Pair = s.pair
	}
	if s.seq != nil {
		use := s.i
		if s.cfg.Pairs {
			use = s.i / 2
		}
		g.Opening = &s.openings[s.seq.at(use)]
	}
	// Advance: the games of this block for this pairing, then the next
	// pairing, then the next block.
	s.i++
	if s.i >= min(s.k+2, s.cfg.Games) {
		s.p++
		s.i = s.k
		if s.p == len(s.ps) {
			s.p = 0
			s.k += 2
			s.i = s.k
		}
	}
	return g, true
}

// Environment variables ShardFromEnv reads: Slurm's job arrays, or a
// Kubernetes Indexed Job's completion index with ARENA_SHARD_COUNT (an
// Indexed Job does not tell its pods the number of completions).
const (
	EnvSlurmTaskID    = "SLURM_ARRAY_TASK_ID"
	EnvSlurmTaskCount = "SLURM_ARRAY_TASK_COUNT"
	EnvSlurmTaskMin   = "SLURM_ARRAY_TASK_MIN"
	EnvK8sIndex       = "JOB_COMPLETION_INDEX"
	EnvShardCount     = "ARENA_SHARD_COUNT"
)

// ShardFromEnv returns the shard a Slurm array task (SLURM_ARRAY_TASK_ID
// minus SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT) or a Kubernetes
// Indexed Job pod (JOB_COMPLETION_INDEX of ARENA_SHARD_COUNT) is; ok is
// false when neither is set.
func ShardFromEnv(getenv func(string) string) (s record.Shard, ok bool, err error) {
	num := func(name string) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(getenv(name)))
		if err != nil {
			return 0, fmt.Errorf("%s=%q is not a number", name, getenv(name))
		}
		return v, nil
	}
	var idx, count int
	switch {
	case getenv(EnvSlurmTaskID) != "":
		if getenv(EnvSlurmTaskCount) == "" {
			return s, false, fmt.Errorf("%s is set but %s is not", EnvSlurmTaskID, EnvSlurmTaskCount)
		}
		if idx, err = num(EnvSlurmTaskID); err == nil {
			count, err = num(EnvSlurmTaskCount)
		}
		if err == nil && getenv(EnvSlurmTaskMin) != "" {
			var lo int
			lo, err = num(EnvSlurmTaskMin)
			idx -= lo
		}
	case getenv(EnvK8sIndex) != "":
		if getenv(EnvShardCount) == "" {
			return s, false, fmt.Errorf("%s is set but %s (the number of completions) is not", EnvK8sIndex, EnvShardCount)
		}
		if idx, err = num(EnvK8sIndex); err == nil {
			count, err = num(EnvShardCount)
		}
	default:
		return s, false, nil
	}
	if err != nil {
		return s, false, err
	}
	s, err = record.ParseShard(fmt.Sprintf("%d/%d", idx, count))
	return s, err == nil, err
}
