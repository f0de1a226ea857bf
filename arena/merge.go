package arena

import (
	"encoding/json"
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
	if output.IsSweepDir(dirs[0]) {
		return nil, mergeSweep(out, dirs, stdout)
	}
	cfg, shards, err := checkShards(dirs, stdout)
	if err != nil {
		return nil, err
	}
	logs := make([]*output.LogReader, len(shards))
	for i, s := range shards {
		r, err := output.OpenLogReader(filepath.Join(s.RunDir, output.GamesFile))
		if err != nil {
			return nil, err
		}
		defer r.Close()
		logs[i] = r
	}
	if err := checkShardGames(cfg, shards, logs); err != nil {
		return nil, err
	}
	if stoppedTogether(shards) {
		// The shards stopped when their games decided the SPRT: each played
		// what it had played by then, and all of it counts.
		for _, s := range shards {
			if !s.Complete {
				return nil, fmt.Errorf("%s (shard %s) has not stopped yet: wait for it, or resume it with arena run --resume %s", s.RunDir, s.Shard, s.RunDir)
			}
		}
	}
	if done, err := mergedBefore(out, cfg, len(shards), totalGames(cfg)); done != nil || err != nil {
		if done != nil {
			fmt.Fprintf(stdout, "%s already holds the merge of these %d shards (%d games): nothing to do\n", out, len(shards), done.GamesPlayed)
		}
		return done, err
	}
	for _, r := range logs {
		if err := r.Rewind(); err != nil {
			return nil, err
		}
	}
	return writeMerged(out, cfg, shards, logs, stdout)
}

// checkShardGames reads every shard's games log once, holding a line at a
// time, and checks that each holds its own games of the schedule in game
// order, none twice, and (unless the shards stopped together on an SPRT)
// all of them; errors name the first lines at fault, or up to ten missing
// games. A shard's log is in game order once the shard has finished.
func checkShardGames(cfg *config.Config, shards []*record.Summary, logs []*output.LogReader) error {
	total := totalGames(cfg)
	together := stoppedTogether(shards)
	var missing []string
	for i, s := range shards {
		r := logs[i]
		expect := s.Shard.Index + 1 // the shard's next game of the schedule
		prev := 0
		for {
			n, _, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			switch {
			case n > total:
				return fmt.Errorf("%s: game %d is not in the schedule of %d games", r.Pos(), n, total)
			case !s.Shard.Has(n):
				return fmt.Errorf("overlapping shards: %s: game %d belongs to shard %d/%d, not to this shard %s", r.Pos(), n, (n-1)%s.Shard.Count, s.Shard.Count, s.Shard)
			case n == prev:
				return fmt.Errorf("%s: game %d recorded twice", r.Pos(), n)
			case n < prev:
				return fmt.Errorf("%s: game %d after game %d: the shard has not finished (a finished shard's games are in game order); resume it with: arena run --resume %s", r.Pos(), n, prev, s.RunDir)
			}
			for ; expect < n; expect += s.Shard.Count {
				if !together && len(missing) < 10 {
					missing = append(missing, fmt.Sprintf("game %d (shard %s, %s)", expect, s.Shard, s.RunDir))
				}
			}
			expect, prev = n+s.Shard.Count, n
		}
		for ; expect <= total && !together && len(missing) < 10; expect += s.Shard.Count {
			missing = append(missing, fmt.Sprintf("game %d (shard %s, %s)", expect, s.Shard, s.RunDir))
		}
	}
	if len(missing) > 0 {
		slices.SortFunc(missing, func(a, b string) int { return gameOf(a) - gameOf(b) })
		return fmt.Errorf("gap: %s not finished; resume the shard with: arena run --resume DIR", strings.Join(missing, ", "))
	}
	return nil
}

// gameOf is the number of a "game N (...)" entry of checkShardGames.
func gameOf(s string) int {
	var n int
	fmt.Sscanf(s, "game %d", &n)
	return n
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
	prev, err := readSummaryHead(out)
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
		s, err := readSummaryHead(d)
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
func writeMerged(out string, cfg *config.Config, shards []*record.Summary, logs []*output.LogReader, stdout io.Writer) (*record.Summary, error) {
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
	summaryLines, err := output.NewGameLines(dir, cfg.SPRT != nil)
	if err != nil {
		return nil, err
	}
	defer summaryLines.Close()
	// Shards that stopped together give every game they played; a whole
	// split stops, as a single run does, at the game that decides the SPRT.
	// The games come from the shards' logs in turn (game n from shard
	// (n-1) mod N), each log read once, front to back: nothing held grows
	// with the number of games.
	together := stoppedTogether(shards)
	heads := make([]int, len(logs)) // the game each log's next line holds; 0: not read yet, -1: at its end
	lines := make([][]byte, len(logs))
	it := newSchedule(cfg, book, record.Shard{})
	for spec, ok := it.next(); ok && (together || !b.Decided()); spec, ok = it.next() {
		i := (spec.Number - 1) % len(logs)
		if heads[i] == 0 {
			n, line, err := logs[i].Next()
			switch {
			case err == io.EOF:
				heads[i] = -1
			case err != nil:
				return nil, err
			default:
				heads[i], lines[i] = n, line
			}
		}
		if heads[i] != spec.Number {
			if together {
				continue // not played before the shards stopped
			}
			return nil, fmt.Errorf("game %d is not in %s (shard %s)", spec.Number, shards[i].RunDir, shards[i].Shard)
		}
		heads[i] = 0
		var g record.GameRecord
		if err := json.Unmarshal(lines[i], &g); err != nil {
			return nil, fmt.Errorf("%s: %v", logs[i].Pos(), err)
		}
		if g.White != cfg.Engines[spec.White].Name || g.Black != cfg.Engines[spec.Black].Name {
			return nil, fmt.Errorf("game %d is %s vs %s, the schedule says %s vs %s", spec.Number, g.White, g.Black,
				cfg.Engines[spec.White].Name, cfg.Engines[spec.Black].Name)
		}
		g.Pair = spec.Pair
		if err := summaryLines.Add(b.Add(&g)); err != nil {
			return nil, err
		}
		if _, err := o.AppendJSON(&g); err != nil {
			return nil, err
		}
		if err := o.AppendOrdered(&g); err != nil {
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
	if err := output.WriteSummaryFiles(dir, cfg, sum, summaryLines); err != nil {
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
	var sweeps []*output.SweepSummary
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
	if !output.IsSweepDir(out) {
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
	ss := &output.SweepSummary{Name: first.Name, RunDir: out, Key: first.Key, Started: first.Started, Updated: now, Rows: []output.SweepRow{}, Complete: true}
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
		if err := recordSetting(ss, i, sum); err != nil {
			return err
		}
		fmt.Fprintln(stdout)
	}
	return ss.Write()
}
