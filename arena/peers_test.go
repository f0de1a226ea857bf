package arena

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"arena/arena/output"
	"arena/arena/record"
)

// Four shards of an SPRT run, played at once into sibling directories,
// stop together as soon as their games decide the test, far short of the
// schedule; each says why, and arena merge gives the verdict over every
// game they played, the same a tally of those games gives. The timed poll
// is set beyond the test's length: the shards must poll as their games end
// (games faster than the timed poll once let a Slurm check's shards play
// their whole schedule).
func TestSPRTStopsAcrossShards(t *testing.T) {
	defer func(p, q time.Duration) { peerPoll, peerPollPerShard = p, q }(peerPoll, peerPollPerShard)
	peerPoll, peerPollPerShard = time.Hour, 0
	cfg := writeConfig(t, fmt.Sprintf(`
games: 400
pairs: true
judge: off
limits: {depth: 1}
engines:
  - {name: Strong, command: %q}
  - {name: Weak, command: %q, args: [-mode, illegal]}
sprt: {elo0: 0, elo1: 200, model: logistic}
`, fakeBin, fakeBin))
	root := t.TempDir()
	const n = 4
	dirs := make([]string, n)
	sums := make([]*record.Summary, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		dirs[i] = filepath.Join(root, fmt.Sprintf("shard-%d", i))
		wg.Go(func() {
			sums[i], errs[i] = Run(t.Context(), cfg, Options{Binary: arenaBin, OutDir: dirs[i], Shard: record.Shard{Index: i, Count: n}})
		})
	}
	wg.Wait()
	played := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("shard %d: %v", i, errs[i])
		}
		s := sums[i]
		played += s.GamesPlayed
		// A shard may also have decided the test from its own games alone.
		if !s.Complete || (s.SPRTShards == nil && !s.SPRT.Decided()) {
			t.Errorf("shard %d: complete %v, stopped %q, sprt_shards %+v: want it stopped by the SPRT", i, s.Complete, s.Stopped, s.SPRTShards)
		}
		if s.SPRTShards != nil && s.SPRTShards.Status != "H1 accepted" {
			t.Errorf("shard %d stopped on %s, want H1 accepted", i, s.SPRTShards)
		}
	}
	if played >= 200 {
		t.Errorf("the shards played %d of 400 games: they did not stop early", played)
	}
	merged, err := Merge(filepath.Join(root, "merged"), dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if merged.GamesPlayed != played || !merged.Complete || merged.SPRT.Status != "H1 accepted" {
		t.Fatalf("merged %d games (complete %v), sprt %s; want the %d games the shards played, H1 accepted",
			merged.GamesPlayed, merged.Complete, merged.SPRT, played)
	}
	games, err := output.ReadGames(filepath.Join(root, "merged", output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	tally := record.NewSPRTTally(cfg)
	for i, g := range games {
		if i > 0 && g.Game <= games[i-1].Game {
			t.Fatalf("merged games out of order: %d after %d", g.Game, games[i-1].Game)
		}
		tally.Add(g)
	}
	want := tally.Status()
	if len(games) != played || *want.LLR != *merged.SPRT.LLR || want.Count != merged.SPRT.Count {
		t.Errorf("merged SPRT %s over %d games; a tally of the merged games gives %s over %d", merged.SPRT, played, want, len(games))
	}
	t.Logf("%d shards stopped after %d of 400 games; merged: %s", n, played, merged.SPRT)
}
