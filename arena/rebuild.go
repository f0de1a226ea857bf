package arena

import (
	"fmt"
	"maps"
	"path/filepath"

	"arena/arena/config"
	"arena/arena/openings"
	"arena/arena/output"
	"arena/arena/record"
)

// Rebuild computes the summary of a run directory, finished or still
// running, or of the shard directories of one run, from their config.yaml
// and games.jsonl: the games go through record.Builder in game order up to
// the first one not yet finished, as the runner takes them, so the numbers
// are those the runner writes into summary.json (arena serve shows them).
// Each directory's summary.json gives what is not in the games (start
// time, engine ids); Games lists every game taken. A knockout's bracket is
// rebuilt as its games come in. each, when not nil, sees every game taken.
func Rebuild(each func(*record.GameRecord), dirs ...string) (*record.Summary, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("rebuild: no run directory")
	}
	cfg, err := config.Load(filepath.Join(dirs[0], output.ConfigFile))
	if err != nil {
		return nil, err
	}
	idx := output.Index{}
	ri := record.RunInfo{Dir: dirs[0], IDs: map[string]string{}}
	for i, d := range dirs {
		s, err := readSummaryHead(d)
		if err != nil {
			return nil, err
		}
		if s == nil {
			return nil, fmt.Errorf("%s: no %s yet", d, output.SummaryJSON)
		}
		if i == 0 || s.Started.Before(ri.Started) {
			ri.Started = s.Started
		}
		maps.Copy(ri.IDs, s.Versions.Engines)
		ri.JudgeID, ri.ConfigHash, ri.Played, ri.Concurrency, ri.Warnings = s.Versions.Judge, s.ConfigHash, s.PlayedConfig, s.Concurrency, s.Warnings
		if s.Shard != nil && len(dirs) == 1 {
			ri.Shard = *s.Shard
		}
		f, err := idx.Add(filepath.Join(d, output.GamesFile))
		if err != nil {
			return nil, err
		}
		if f != nil {
			defer f.Close()
		}
	}
	var book []openings.Opening
	if cfg.Openings != nil {
		if book, err = openings.Load(*cfg.Openings); err != nil {
			return nil, err
		}
	}
	if cfg.Format == config.FormatKnockout {
		ri.Knockout = record.NewKnockout(cfg)
	}
	ri.Planned = shardGames(totalGames(cfg), ri.Shard)
	b := record.NewBuilder(cfg, ri)
	var lines []record.GameSummary
	it := newGames(cfg, book, ri.Shard, ri.Knockout)
	for spec, ok := it.next(); ok && !b.Decided(); spec, ok = it.next() {
		ref, done := idx[spec.Number]
		if !done {
			break
		}
		g, err := ref.Read()
		if err != nil {
			return nil, err
		}
		g.Pair = spec.Pair
		if ri.Knockout != nil {
			if err := ri.Knockout.Add(g); err != nil {
				return nil, fmt.Errorf("%s: %w", ref.Path(), err)
			}
		}
		lines = append(lines, b.Add(g))
		if each != nil {
			each(g)
		}
	}
	s := b.Summary()
	if ri.Knockout != nil {
		s.GamesPlanned = ri.Knockout.Planned()
	}
	s.Games = lines
	return s, nil
}

// ReadGame reads game n from the run directories' games.jsonl.
func ReadGame(n int, dirs ...string) (*record.GameRecord, error) {
	for _, d := range dirs {
		idx := output.Index{}
		f, err := idx.Add(filepath.Join(d, output.GamesFile))
		if err != nil {
			return nil, err
		}
		if f == nil {
			continue
		}
		ref, ok := idx[n]
		if !ok {
			f.Close()
			continue
		}
		g, err := ref.Read()
		f.Close()
		return g, err
	}
	return nil, fmt.Errorf("game %d is not finished in %v", n, dirs)
}
