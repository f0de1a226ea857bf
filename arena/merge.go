package arena

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"arena/arena/config"
	"arena/arena/openings"
	"arena/arena/output"
	"arena/arena/record"
)

// Merge joins the directories of the shards of one run (arena run --shard
// I/N) into out, writing what a single run of the config writes: config.yaml,
// games.jsonl, games.pgn and moves.csv in game order (compressed with
// output.compress, as at the end of a run; shards are read either way), and
// the summary with its crosstable, ratings and SPRT, computed over all games
// in game order. The shards must come from the same resolved config
// (GameKeys, compared key by key, each shard's config.yaml also with what
// it played), be the N different shards of one split and each be complete;
// overlaps and gaps are refused, naming the directories. Sweeps are merged
// setting by setting.
func Merge(out string, dirs []string, stdout io.Writer) (*record.Summary, error) {
	if stdout == nil {
		stdout = io.Discard
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("no shard directories given")
	}
	if IsSweepDir(dirs[0]) {
		return nil, mergeSweep(out, dirs, stdout)
	}
	cfg, shards, err := checkShards(dirs, stdout)
	if err != nil {
		return nil, err
	}
	idx := output.Index{}
	for _, d := range dirs {
		f, err := idx.Add(filepath.Join(d, output.GamesFile))
		if err != nil {
			return nil, fmt.Errorf("overlapping shards: %w", err)
		}
		if f != nil {
			defer f.Close()
		}
	}
	total := totalGames(cfg)
	for n, ref := range idx {
		if n > total {
			return nil, fmt.Errorf("%s:%d: game %d is not in the schedule of %d games", ref.Path(), ref.Line(), n, total)
		}
	}
	if stoppedTogether(shards) {
		// The shards stopped when their games decided the SPRT: each played
		// what it had played by then, and all of it counts.
		for _, s := range shards {
			if !s.Complete {
				return nil, fmt.Errorf("%s (shard %s) has not stopped yet: wait for it, or resume it with arena run --resume %s", s.RunDir, s.Shard, s.RunDir)
			}
		}
		return writeMerged(out, cfg, shards, idx, stdout)
	}
	var missing []string
	for n := 1; n <= total && len(missing) < 10; n++ {
		if _, ok := idx[n]; !ok {
			d := shards[(n-1)%shards[0].Shard.Count]
			missing = append(missing, fmt.Sprintf("game %d (shard %s, %s)", n, d.Shard, d.RunDir))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("gap: %s not finished; resume the shard with: arena run --resume DIR", strings.Join(missing, ", "))
	}
	if done, err := mergedBefore(out, cfg, len(shards), total); done != nil || err != nil {
		if done != nil {
			fmt.Fprintf(stdout, "%s already holds the merge of these %d shards (%d games): nothing to do\n", out, len(shards), done.GamesPlayed)
		}
		return done, err
	}
	return writeMerged(out, cfg, shards, idx, stdout)
}

// mergedBefore returns the summary of out when it holds the complete merge
// of shards of cfg already (a merge run again, as a re-run Kubernetes Job
// does), nil when out holds no run, and an error saying what to do when it
// holds another run.
func mergedBefore(out string, cfg *config.Config, shards, total int) (*record.Summary, error) {
	if _, err := output.Locate(filepath.Join(out, output.GamesFile)); err != nil {
		return nil, nil
	}
	redo := fmt.Sprintf("give a new output directory, or remove %s and merge again", out)
	prev, err := readSummary(out)
	if err == nil && prev == nil {
		err = fmt.Errorf("no %s", output.SummaryJSON)
	}
	var c *config.Config
	if err == nil {
		c, err = config.Load(filepath.Join(out, output.ConfigFile))
	}
	if err != nil {
		return nil, fmt.Errorf("%s already holds a run, which cannot be read (%v): %s", out, err, redo)
	}
	want, err := GameKeys(cfg)
	if err != nil {
		return nil, err
	}
	have, err := GameKeys(c)
	if err != nil {
		return nil, err
	}
	if diff := diffKeys(have, want); len(diff) > 0 {
		return nil, fmt.Errorf("%s already holds a run of another config (%s): %s", out, strings.Join(diff, "; "), redo)
	}
	if prev.Shard != nil || !prev.Complete || prev.Stopped == "" && prev.GamesPlayed != total {
		return nil, fmt.Errorf("%s already holds a run of this config that is not the complete merge of %d shards (%d of %d games played): %s", out, shards, prev.GamesPlayed, total, redo)
	}
	return prev, nil
}

// checkShards reads every shard's summary and config and checks that they
// are the N shards of one config.
func checkShards(dirs []string, stdout io.Writer) (*config.Config, []*record.Summary, error) {
	var cfg *config.Config
	var keys map[string]string
	bySlot := map[int]string{}
	var shards []*record.Summary
	for _, d := range dirs {
		s, err := readSummary(d)
		if err != nil {
			return nil, nil, fmt.Errorf("%w", err)
		}
		if s == nil {
			return nil, nil, fmt.Errorf("%s: no %s (not a run directory, or a shard that never started)", d, output.SummaryJSON)
		}
		if s.Shard == nil {
			return nil, nil, fmt.Errorf("%s is a whole run, not a shard (shards are made with arena run CONFIG --shard I/N)", d)
		}
		c, err := config.Load(filepath.Join(d, output.ConfigFile))
		if err != nil {
			return nil, nil, fmt.Errorf("%w", err)
		}
		warning, err := checkPlayed(c, s)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", d, err)
		}
		if warning != "" {
			fmt.Fprintf(stdout, "Warning: %s\n", warning)
		}
		k, err := GameKeys(c)
		if err != nil {
			return nil, nil, err
		}
		s.RunDir = d
		if cfg == nil {
			cfg, keys = c, k
		} else if first := shards[0]; !maps.Equal(k, keys) {
			return nil, nil, fmt.Errorf("%s and %s come from different configs:\n  %s\nonly shards of one config merge",
				first.RunDir, d, strings.Join(diffKeys(keys, k), "\n  "))
		} else if s.Shard.Count != first.Shard.Count {
			return nil, nil, fmt.Errorf("%s is shard %s but %s is shard %s: the shards of one split share their count", d, s.Shard, first.RunDir, first.Shard)
		}
		if prev, dup := bySlot[s.Shard.Index]; dup {
			return nil, nil, fmt.Errorf("overlapping shards: %s and %s are both shard %s", prev, d, s.Shard)
		}
		bySlot[s.Shard.Index] = d
		shards = append(shards, s)
	}
	n := shards[0].Shard.Count
	var gaps []string
	for i := range n {
		if _, ok := bySlot[i]; !ok {
			gaps = append(gaps, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(gaps) > 0 {
		return nil, nil, fmt.Errorf("gap: shard(s) %s missing (give the directories of all %d shards)", strings.Join(gaps, ", "), n)
	}
	slices.SortFunc(shards, func(a, b *record.Summary) int { return a.Shard.Index - b.Shard.Index })
	return cfg, shards, nil
}

// writeMerged writes the merged run into out.
func writeMerged(out string, cfg *config.Config, shards []*record.Summary, idx output.Index, stdout io.Writer) (*record.Summary, error) {
	for _, s := range shards {
		if same, _ := sameDir(out, s.RunDir); same {
			return nil, fmt.Errorf("the output %s is one of the shards; give a new directory", out)
		}
	}
	dir, lock, err := claimRunDir(cfg, Options{OutDir: out}, stdout)
	if err != nil {
		return nil, fmt.Errorf("%w", err)
	}
	defer lock.unlock()
	var book []openings.Opening
	if cfg.Openings != nil {
		if book, err = openings.Load(*cfg.Openings); err != nil {
			return nil, err
		}
	}
	played, err := GameKeys(cfg)
	if err != nil {
		return nil, err
	}
	hash, err := ConfigHash(cfg)
	if err != nil {
		return nil, err
	}
	ri := record.RunInfo{Dir: dir, Started: shards[0].Started, Planned: totalGames(cfg), IDs: map[string]string{},
		JudgeID: shards[0].Versions.Judge, ConfigHash: hash, Played: played, Warnings: shards[0].Warnings}
	for _, s := range shards {
		ri.Started = minTime(ri.Started, s.Started)
		for name, id := range s.Versions.Engines {
			ri.IDs[name] = id
		}
	}
	b := record.NewBuilder(cfg, ri)
	o, err := output.Create(dir, cfg)
	if err != nil {
		return nil, err
	}
	defer o.Close()
	lines, err := output.NewGameLines(dir, cfg.SPRT != nil)
	if err != nil {
		return nil, err
	}
	defer lines.Close()
	// Shards that stopped together give every game they played; a whole
	// split stops, as a single run does, at the game that decides the SPRT.
	together := stoppedTogether(shards)
	it := newSchedule(cfg, book, record.Shard{})
	for spec, ok := it.next(); ok && (together || !b.Decided()); spec, ok = it.next() {
		ref, played := idx[spec.Number]
		if !played && together {
			continue
		}
		g, err := ref.Read()
		if err != nil {
			return nil, err
		}
		if g.White != cfg.Engines[spec.White].Name || g.Black != cfg.Engines[spec.Black].Name {
			return nil, fmt.Errorf("game %d is %s vs %s, the schedule says %s vs %s", spec.Number, g.White, g.Black,
				cfg.Engines[spec.White].Name, cfg.Engines[spec.Black].Name)
		}
		g.Pair = spec.Pair
		if err := lines.Add(b.Add(g)); err != nil {
			return nil, err
		}
		if _, err := o.AppendJSON(g); err != nil {
			return nil, err
		}
		if err := o.AppendOrdered(g); err != nil {
			return nil, err
		}
	}
	if err := o.Install(); err != nil {
		return nil, err
	}
	sum := b.Summary()
	if together && !sum.Complete {
		// More games came in after the shards' decision and took the test
		// back between its bounds: the run is still over, and says so.
		sum.Complete = true
		sum.Stopped = "shards stopped by the SPRT across shards; over all their games: " + sum.SPRT.Status
	}
	if err := output.WriteSummaryFiles(dir, cfg, sum, lines); err != nil {
		return nil, err
	}
	if cfg.Output.Compress {
		if err := output.Compress(dir); err != nil {
			return nil, err
		}
	}
	fmt.Fprintf(stdout, "Merged %d shards (%d games) into %s\n\n", len(shards), sum.GamesPlayed, dir)
	if err := output.WriteTable(stdout, sum); err != nil {
		return nil, err
	}
	return sum, nil
}

// stoppedTogether reports whether the shards are those of an SPRT run that
// its shards' games decided (arena/peers.go).
func stoppedTogether(shards []*record.Summary) bool {
	for _, s := range shards {
		if s.SPRTShards != nil {
			return true
		}
	}
	return false
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// sameDir reports whether a and b name the same existing directory.
func sameDir(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}

// mergeSweep merges the shards of a sweep (arena run SWEEP --shard I/N):
// every setting's shard directories into out/SETTING, then sweep.json.
func mergeSweep(out string, dirs []string, stdout io.Writer) error {
	var sweeps []*SweepSummary
	for _, d := range dirs {
		ss, err := readSweep(d)
		if err != nil {
			return fmt.Errorf("%w", err)
		}
		if len(sweeps) > 0 && len(ss.Settings) != len(sweeps[0].Settings) {
			return fmt.Errorf("%s has %d settings, %s has %d: not shards of one sweep", d, len(ss.Settings), dirs[0], len(sweeps[0].Settings))
		}
		sweeps = append(sweeps, ss)
	}
	// A sweep merged before is merged again setting by setting, each of
	// which says "nothing to do" or what differs.
	if !IsSweepDir(out) {
		if err := checkFreshDir(out); err != nil {
			return fmt.Errorf("%w", err)
		}
	}
	if err := os.MkdirAll(out, output.DirPerm); err != nil {
		return fmt.Errorf("%w", err)
	}
	lock, err := lockDir(out, "arena merge", stdout)
	if err != nil {
		return fmt.Errorf("%w", err)
	}
	defer lock.unlock()
	now := time.Now().UTC().Truncate(time.Second)
	first := sweeps[0]
	ss := &SweepSummary{Name: first.Name, RunDir: out, Key: first.Key, Started: first.Started, Updated: now, Rows: []SweepRow{}, Complete: true}
	for i, st := range first.Settings {
		var subs []string
		for _, sw := range sweeps {
			subs = append(subs, filepath.Join(sw.RunDir, sw.Settings[i].Dir))
		}
		fmt.Fprintf(stdout, "=== SWEEP SETTING %d/%d: %s = %s ===\n", i+1, len(first.Settings), first.Key, st.Value)
		sum, err := Merge(filepath.Join(out, st.Dir), subs, stdout)
		if err != nil {
			return fmt.Errorf("sweep setting %d (%s = %s): %w", i+1, first.Key, st.Value, err)
		}
		st.Complete, st.GamesPlayed, st.GamesPlanned, st.Stopped = false, 0, 0, ""
		ss.Settings = append(ss.Settings, st)
		if err := ss.record(i, sum); err != nil {
			return err
		}
		fmt.Fprintln(stdout)
	}
	return ss.write()
}
