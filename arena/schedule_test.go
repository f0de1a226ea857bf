package arena

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"arena/arena/config"
	"arena/arena/openings"
	"arena/arena/output"
	"arena/arena/record"
)

// schedule lists every game of the whole schedule.
func schedule(cfg *config.Config, book []openings.Opening) []gameSpec {
	var games []gameSpec
	it := newSchedule(cfg, book, record.Shard{})
	for g, ok := it.next(); ok; g, ok = it.next() {
		games = append(games, g)
	}
	return games
}

// Shards partition the schedule: every game in exactly one shard, each
// game the same as in the whole schedule.
func TestShardsPartitionSchedule(t *testing.T) {
	ops := []openings.Opening{{FEN: "a"}, {FEN: "b"}, {FEN: "c"}}
	cfg := &config.Config{Games: 7, Seed: 3, Pairs: true, Openings: &openings.Config{Order: "random", Start: 1},
		Engines: []config.EngineConfig{{Name: "A"}, {Name: "B"}, {Name: "C"}}}
	all := schedule(cfg, ops)
	if len(all) != totalGames(cfg) {
		t.Fatalf("%d games, totalGames says %d", len(all), totalGames(cfg))
	}
	seen := map[int]gameSpec{}
	for i := range 3 {
		it := newSchedule(cfg, ops, record.Shard{Index: i, Count: 3})
		for g, ok := it.next(); ok; g, ok = it.next() {
			if _, dup := seen[g.Number]; dup {
				t.Errorf("game %d in two shards", g.Number)
			}
			if (g.Number-1)%3 != i {
				t.Errorf("game %d in shard %d", g.Number, i)
			}
			seen[g.Number] = g
		}
	}
	for _, g := range all {
		if !reflect.DeepEqual(seen[g.Number], g) {
			t.Errorf("game %d: shard has %+v, whole schedule %+v", g.Number, seen[g.Number], g)
		}
	}
}

func TestShardParsingAndEnv(t *testing.T) {
	if s, err := record.ParseShard("2/5"); err != nil || s != (record.Shard{Index: 2, Count: 5}) {
		t.Errorf("ParseShard(2/5) = %v, %v", s, err)
	}
	for _, bad := range []string{"5/5", "-1/2", "1", "a/b", "0/0"} {
		if _, err := record.ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		env  map[string]string
		want record.Shard
		ok   bool
		err  bool
	}{
		{map[string]string{}, record.Shard{}, false, false},
		{map[string]string{EnvSlurmTaskID: "3", EnvSlurmTaskCount: "4", EnvSlurmTaskMin: "1"}, record.Shard{Index: 2, Count: 4}, true, false},
		{map[string]string{EnvSlurmTaskID: "0", EnvSlurmTaskCount: "2"}, record.Shard{Index: 0, Count: 2}, true, false},
		{map[string]string{EnvK8sIndex: "1", EnvShardCount: "3"}, record.Shard{Index: 1, Count: 3}, true, false},
		{map[string]string{EnvK8sIndex: "1"}, record.Shard{}, false, true},
		{map[string]string{EnvSlurmTaskID: "9", EnvSlurmTaskCount: "4"}, record.Shard{}, false, true},
	}
	for _, c := range cases {
		s, ok, err := ShardFromEnv(env(c.env))
		if s != c.want || ok != c.ok || (err != nil) != c.err {
			t.Errorf("ShardFromEnv(%v) = %v, %v, %v; want %v, %v, error %v", c.env, s, ok, err, c.want, c.ok, c.err)
		}
	}
}

// openingOrder returns the opening index of each of count uses of a book
// of n openings: the book's order from opening start (1-based), wrapping
// around, or with order random a seeded shuffle, reshuffled each time the
// book is used up, read from position start of that sequence.
func openingOrder(n, count int, order string, start int, seed int64) []int {
	seq := newOpeningSeq(make([]openings.Opening, n), order, start, seed)
	idx := make([]int, count)
	for i := range idx {
		idx[i] = seq.at(i)
	}
	return idx
}

// A sweep setting's value is a number for plots: plain numbers as they are,
// durations in seconds, time controls not at all.
func TestSweepX(t *testing.T) {
	for v, want := range map[string]float64{"0.5": 0.5, "2s": 2, "1m": 60, "8": 8} {
		if x := sweepX(v); x == nil || *x != want {
			t.Errorf("sweepX(%q) = %v, want %v", v, x, want)
		}
	}
	if x := sweepX("40/60+1"); x != nil {
		t.Errorf("sweepX of a time control = %v, want nil", *x)
	}
}

// reverse starts each pairing with its second engine as White; noswap
// keeps one engine White in every game.
func TestScheduleColours(t *testing.T) {
	ops := []openings.Opening{{FEN: "a"}, {FEN: "b"}}
	for _, tc := range []struct {
		noswap, reverse bool
		whites          string
	}{
		{false, false, "ABAB"},
		{false, true, "BABA"},
		{true, false, "AAAA"},
		{true, true, "BBBB"},
	} {
		cfg := &config.Config{Games: 4, Pairs: true, NoSwap: tc.noswap, Reverse: tc.reverse, Openings: &openings.Config{Order: "sequential", Start: 1},
			Engines: []config.EngineConfig{{Name: "A"}, {Name: "B"}}}
		whites, fens := "", ""
		for _, g := range schedule(cfg, ops) {
			whites += cfg.Engines[g.White].Name
			fens += g.Opening.FEN
		}
		if whites != tc.whites || fens != "aabb" {
			t.Errorf("noswap %v reverse %v: White %s, openings %s; want %s, aabb", tc.noswap, tc.reverse, whites, fens, tc.whites)
		}
	}
	cfg, err := config.Parse("c.yaml", []byte("noswap: true\nreverse: true\nlimits: {depth: 1}\nengines: [{engine: heuristic}, {engine: heuristic, name: h2}]\n"))
	if err != nil || !cfg.NoSwap || !cfg.Reverse {
		t.Fatalf("noswap/reverse not read: %v", err)
	}
	var b strings.Builder
	output.WriteMatchConfig(&b, cfg, time.Now(), 2, "")
	if !strings.Contains(b.String(), "Colours: h2 White in every game (noswap, reverse)") {
		t.Errorf("header lacks the colours:\n%s", b.String())
	}
}
