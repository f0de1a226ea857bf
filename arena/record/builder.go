package record

import (
	"cmp"
	"maps"
	"math"
	"runtime"
	"slices"
	"time"

	"arena/arena/config"
	"arena/internal/version"
	"arena/tracker"
)

// Builder aggregates finished games one at a time, in game order,
// into the Summary. It keeps counts, sums and bounded median sketches, not
// games, so a run of a million games summarizes in the memory of one: each
// game's line of summary.json (its GameSummary) goes back to the caller,
// which keeps it on disk (output.GameLines), and the Summary's Games stay
// empty.
type Builder struct {
	cfg       *config.Config
	s         Summary // the fields that do not depend on the games
	index     map[string]int
	acc       []engineAcc
	wdl       map[[2]int]*[3]int
	penta     map[[2]int]*tracker.Penta
	open      map[int]float64 // first game of each game pair not yet complete: its score for the pairing's first engine
	pairOrder [][2]int
	sprt      *sprtState
	ko        *Knockout
	commits   []string // the arena commits of the games so far, first appearance first
}

// engineAcc is the running sums of one engine's moves.
type engineAcc struct {
	time, nodes, depth, sel, ram float64
	depthMoves                   float64 // the moves depth and sel sum over: those without a mate score
	judge                        tracker.PlayerStats
	judged                       bool
	medTime, medNodes            medianSketch
}

// RunInfo is what a summary records about the run rather than its games.
type RunInfo struct {
	Dir         string
	Started     time.Time
	Planned     int
	IDs         map[string]string // engine name -> UCI id name
	JudgeID     string
	ConfigHash  string
	Played      map[string]string // the config's game keys (Summary.PlayedConfig)
	Shard       Shard
	Concurrency int
	Warnings    []string
	// Knockout is a knockout's bracket, which the runner extends game by
	// game; the summary shows it as it stands.
	Knockout *Knockout
}

// NewBuilder starts the summary of a run with no games.
func NewBuilder(cfg *config.Config, ri RunInfo) *Builder {
	s := Summary{
		Schema:       Schema,
		Name:         cfg.Name,
		RunDir:       ri.Dir,
		Started:      ri.Started,
		Format:       cfg.ResolvedFormat(),
		GamePairs:    cfg.Pairs,
		GamesPlanned: ri.Planned,
		MaxMoves:     cfg.MaxMoves,
		TimeMargin:   cfg.TimeMargin.String(),
		TimeForfeit:  cfg.TimeForfeit.String(),
		Judge:        JudgeSummary{Enabled: !cfg.Judge.Off},
		ConfigHash:   ri.ConfigHash,
		PlayedConfig: ri.Played,
		Concurrency:  ri.Concurrency,
		Cores:        runtime.NumCPU(),
		Warnings:     ri.Warnings,
		Versions: Versions{
			Arena:   version.Stamp(),
			Go:      runtime.Version(),
			OS:      runtime.GOOS + "/" + runtime.GOARCH,
			Engines: map[string]string{},
			Judge:   ri.JudgeID,
		},
		Games: []GameSummary{},
	}
	if !ri.Shard.IsZero() {
		s.Shard = &ri.Shard
	}
	if cfg.Openings != nil {
		s.Openings = cfg.Openings.File
	}
	if !cfg.Judge.Off {
		s.Judge = JudgeSummary{Enabled: true, Engine: cfg.Judge.Command, Depth: cfg.Judge.Depth,
			Cap: cfg.Judge.Cap, MateScore: cfg.Judge.MateScore, Timing: JudgeTiming, Protocol: cfg.Judge.Protocol}
	}
	b := &Builder{cfg: cfg, index: map[string]int{}, acc: make([]engineAcc, len(cfg.Engines)),
		wdl: map[[2]int]*[3]int{}, penta: map[[2]int]*tracker.Penta{}, open: map[int]float64{}, sprt: newSPRTState(cfg), ko: ri.Knockout}
	for i, e := range cfg.Engines {
		b.index[e.Name] = i
		s.Engines = append(s.Engines, EngineSummary{Name: e.Name, Engine: e.Engine, Command: e.Command,
			ID: ri.IDs[e.Name], Limits: e.Limits.String()})
		if id := ri.IDs[e.Name]; id != "" {
			s.Versions.Engines[e.Name] = id
		}
	}
	b.s = s
	return b
}

// Add counts a finished game and returns its line of summary.json; games
// must come in game order. With an SPRT it sets g.LLR to the test's LLR
// after the game.
func (b *Builder) Add(g *GameRecord) GameSummary {
	s := &b.s
	if c := cmp.Or(g.ArenaCommit, version.Unknown); !slices.Contains(b.commits, c) {
		b.commits = append(b.commits, c)
		if len(b.commits) > 1 {
			s.Versions.ArenaCommits = b.commits
		}
	}
	w, k := b.index[g.White], b.index[g.Black]
	for _, id := range []struct{ name, id string }{{g.White, g.WhiteID}, {g.Black, g.BlackID}} {
		if id.id != "" && s.Versions.Engines[id.name] == "" {
			s.Versions.Engines[id.name] = id.id
			s.Engines[b.index[id.name]].ID = id.id
		}
	}
	if b.sprt != nil {
		b.sprt.add(g)
		g.LLR = b.sprt.status().LLR
	}
	gs := GameSummary{Game: g.Game, Pair: g.Pair, White: g.White, Black: g.Black, Opening: g.Opening, Result: g.Result,
		Termination: g.Termination, Reason: g.Reason, Plies: g.Plies, Duration: g.Duration, JudgeError: g.JudgeError, LLR: g.LLR}
	if st := g.WhiteStats; st != nil && st.Moves > 0 {
		gs.WhiteACPL, gs.WhiteAccuracy = new(st.ACPL), new(st.Accuracy)
		b.acc[w].judge.Add(*st)
		b.acc[w].judged = true
	}
	if st := g.BlackStats; st != nil && st.Moves > 0 {
		gs.BlackACPL, gs.BlackAccuracy = new(st.ACPL), new(st.Accuracy)
		b.acc[k].judge.Add(*st)
		b.acc[k].judged = true
	}
	s.GamesPlayed++
	if g.Adjudication != "" {
		if s.Adjudications == nil {
			s.Adjudications = map[string]int{}
		}
		s.Adjudications[g.Adjudication]++
	}
	if g.WhiteStats != nil {
		s.Judge.Evaluations += g.JudgeEvals
		s.Judge.JudgedPlies += len(g.Moves)
	}
	b.addResult(g, w, k)
	for _, m := range g.Moves {
		i := b.index[m.Engine]
		es, a := &s.Engines[i], &b.acc[i]
		if m.Book {
			es.BookMoves++
			continue
		}
		if m.Ponderhit {
			es.Ponderhits++
		}
		if m.Overrun > b.cfg.Engines[i].Margin(b.cfg.TimeMargin).Seconds() {
			es.Overruns++
		}
		es.MaxOverrun = math.Max(es.MaxOverrun, m.Overrun)
		es.Moves++
		a.time += m.Time
		a.nodes += float64(m.Nodes)
		// A mate score's depth measures the mate proof, not the search:
		// Stockfish, once it has proved a mate, runs its iterations up to
		// depth 245 in no time, which made its average depth read 33 where
		// its searches reach 20. Those moves are left out of the depth
		// averages and counted instead.
		if m.Mate != 0 {
			es.MateMoves++
		} else {
			a.depth += float64(m.Depth)
			a.sel += float64(m.SelDepth)
			a.depthMoves++
		}
		a.ram += m.PeakMB
		a.medTime.add(m.Time)
		a.medNodes.add(float64(m.Nodes))
		es.MaxTime = math.Max(es.MaxTime, m.Time)
		es.PeakRSSMB = math.Max(es.PeakRSSMB, m.PeakMB)
	}
	return gs
}

// addResult counts the game's result for both engines (w plays White, k
// Black), for their pairing and for its game pair.
func (b *Builder) addResult(g *GameRecord, w, k int) {
	winner := g.Winner()
	for side, e := range []int{w, k} {
		es := &b.s.Engines[e]
		es.Games++
		switch {
		case winner == -1:
			es.Draws++
		case winner == side:
			es.Wins++
		default:
			es.Losses++
			switch g.Termination {
			case TermTimeForfeit:
				es.Errors.TimeForfeits++
			case TermIllegalMove:
				es.Errors.IllegalMoves++
			case TermAbandoned:
				es.Errors.Crashes++
			}
		}
	}
	key, flip := [2]int{w, k}, false
	if w > k {
		key, flip = [2]int{k, w}, true
	}
	if g.Pair != 0 {
		sc := g.Score(b.cfg.Engines[key[0]].Name)
		if prev, ok := b.open[g.Pair]; ok {
			if b.penta[key] == nil {
				b.penta[key] = &tracker.Penta{}
			}
			// Scores are 0, 0.5 or 1, which AddPair accepts.
			_ = b.penta[key].AddPair(prev, sc)
			delete(b.open, g.Pair)
		} else {
			b.open[g.Pair] = sc
		}
	}
	if b.wdl[key] == nil {
		b.wdl[key] = &[3]int{}
		b.pairOrder = append(b.pairOrder, key)
	}
	switch {
	case winner == -1:
		b.wdl[key][1]++
	case (winner == 0) != flip:
		b.wdl[key][0]++
	default:
		b.wdl[key][2]++
	}
}

// Summary returns the summary of the games added so far.
func (b *Builder) Summary() *Summary {
	s := b.s
	s.Updated = time.Now().UTC().Truncate(time.Second)
	s.Complete = s.GamesPlayed >= s.GamesPlanned
	s.Engines = slices.Clone(b.s.Engines)
	s.Versions.Engines = maps.Clone(b.s.Versions.Engines)
	for i := range s.Engines {
		es, a := &s.Engines[i], &b.acc[i]
		es.Points = float64(es.Wins) + float64(es.Draws)/2
		if es.Games > 0 {
			es.ScorePct = 100 * es.Points / float64(es.Games)
		}
		if n := float64(es.Moves); n > 0 {
			es.AvgTime, es.AvgNodes, es.AvgRAMMB = a.time/n, a.nodes/n, a.ram/n
			es.MedianTime, es.MedianNodes = a.medTime.median(), a.medNodes.median()
		}
		if a.depthMoves > 0 {
			es.AvgDepth, es.AvgSelDep = a.depth/a.depthMoves, a.sel/a.depthMoves
		}
		if a.time > 0 {
			es.NPS = a.nodes / a.time
		}
		if a.judged {
			st := a.judge
			es.Judge = &st
			es.ACPL, es.Accuracy = new(st.ACPL), new(st.Accuracy)
		}
	}
	if s.Judge.JudgedPlies > 0 {
		s.Judge.EvalsPerPly = float64(s.Judge.Evaluations) / float64(s.Judge.JudgedPlies)
	}
	s.Pairs = []PairSummary{}
	for _, k := range b.pairOrder {
		r := b.wdl[k]
		ps := PairSummary{A: b.cfg.Engines[k[0]].Name, B: b.cfg.Engines[k[1]].Name, Elo: tracker.Elo(r[0], r[1], r[2])}
		if p := b.penta[k]; p != nil {
			ps.Penta = new(tracker.EloPenta(*p))
		}
		s.Pairs = append(s.Pairs, ps)
	}
	s.Crosstable = crosstable(b.cfg, b.wdl)
	var err error
	if s.Ratings, err = fitRatings(b.cfg, b.wdl); err != nil {
		s.RatingsError = err.Error()
	}
	if b.ko != nil {
		s.Knockout = b.ko.Summary()
		s.GamesPlanned, s.Complete = b.ko.Planned(), b.ko.Done()
	}
	if s.SPRT = b.sprt.status(); s.SPRT.Decided() {
		s.Complete = true
		s.Stopped = "SPRT " + s.SPRT.Status
	}
	return &s
}

// Decided reports whether the SPRT has accepted a hypothesis.
func (b *Builder) Decided() bool { return b.sprt.status().Decided() }

// Played is the number of games added.
func (b *Builder) Played() int { return b.s.GamesPlayed }
