package arena

import (
	"reflect"
	"testing"
)

// schedule lists every game of the whole schedule.
func schedule(cfg *Config, openings []Opening) []gameSpec {
	var games []gameSpec
	it := newSchedule(cfg, openings, Shard{})
	for g, ok := it.next(); ok; g, ok = it.next() {
		games = append(games, g)
	}
	return games
}

// Shards partition the schedule: every game in exactly one shard, each
// game the same as in the whole schedule.
func TestShardsPartitionSchedule(t *testing.T) {
	ops := []Opening{{FEN: "a"}, {FEN: "b"}, {FEN: "c"}}
	cfg := &Config{Games: 7, Seed: 3, Pairs: true, Openings: &OpeningsConfig{Order: "random", Start: 1},
		Engines: []EngineConfig{{Name: "A"}, {Name: "B"}, {Name: "C"}}}
	all := schedule(cfg, ops)
	if len(all) != totalGames(cfg) {
		t.Fatalf("%d games, totalGames says %d", len(all), totalGames(cfg))
	}
	seen := map[int]gameSpec{}
	for i := range 3 {
		it := newSchedule(cfg, ops, Shard{Index: i, Count: 3})
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
	if s, err := ParseShard("2/5"); err != nil || s != (Shard{2, 5}) {
		t.Errorf("ParseShard(2/5) = %v, %v", s, err)
	}
	for _, bad := range []string{"5/5", "-1/2", "1", "a/b", "0/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		env  map[string]string
		want Shard
		ok   bool
		err  bool
	}{
		{map[string]string{}, Shard{}, false, false},
		{map[string]string{EnvSlurmTaskID: "3", EnvSlurmTaskCount: "4", EnvSlurmTaskMin: "1"}, Shard{2, 4}, true, false},
		{map[string]string{EnvSlurmTaskID: "0", EnvSlurmTaskCount: "2"}, Shard{0, 2}, true, false},
		{map[string]string{EnvK8sIndex: "1", EnvShardCount: "3"}, Shard{1, 3}, true, false},
		{map[string]string{EnvK8sIndex: "1"}, Shard{}, false, true},
		{map[string]string{EnvSlurmTaskID: "9", EnvSlurmTaskCount: "4"}, Shard{}, false, true},
	}
	for _, c := range cases {
		s, ok, err := ShardFromEnv(env(c.env))
		if s != c.want || ok != c.ok || (err != nil) != c.err {
			t.Errorf("ShardFromEnv(%v) = %v, %v, %v; want %v, %v, error %v", c.env, s, ok, err, c.want, c.ok, c.err)
		}
	}
}
