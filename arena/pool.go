package arena

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"arena/arena/config"
	"arena/arena/openings"
	"arena/arena/output"
	"arena/arena/record"
	"arena/internal/version"
	"arena/tracker"
)

// Concurrency: a match plays up to N games at once, one per worker, each
// worker with its own engine processes; the judge's Stockfish pool is
// shared. Results never depend on N: game i's pairing, colours, opening and
// engine seeds are functions of i and the config (scheduleIter,
// gameSeed), and everything that depends on the order of games (games.pgn,
// moves.csv, the summary, the SPRT) takes the finished games in game order.
// games.jsonl takes them as they finish, so a kill loses no finished game;
// a game that finished ahead of an earlier one waits on disk, not in memory,
// until the earlier one is done.

// runner plays games with one set of engine processes (one worker's).
type runner struct {
	cfg     *config.Config
	binary  string
	players []*player
}

// match is a run in progress.
type match struct {
	cfg      *config.Config
	opt      Options
	stdout   io.Writer
	shard    record.Shard
	n        int // concurrency
	openings []openings.Opening
	total    int // games of the whole schedule
	planned  int // games of this run's shard
	warnings []string
	judge    *tracker.Judge
	judgeID  string
	workers  []*runner
	ids      map[string]string

	dir     string
	archive *[]string // the move keys a resumed run's archive left out; nil: not archived
	out     *output.Writer
	b       *record.Builder
	lines   *output.GameLines // the summaries' per-game lines, on disk
	commit  games             // the next game in game order
	ko      *record.Knockout  // a knockout's bracket, nil for other formats
	next    gameSpec
	hasNext bool
	pending map[int]pendingGame // finished, waiting for earlier games
	prog    *progress
	st      *status       // what the workers and judges are doing, for the live line
	wrote   time.Time     // last summary write
	wait    time.Duration // until the next one may be written
	played  int           // games finished in this session
	began   time.Time
	cpu0    time.Duration
	prior   int // games finished before this session
	started time.Time
}

// maxJudgeWorkers is the most Stockfish processes the judge accepts.
const maxJudgeWorkers = 256

// newMatch loads the openings and starts the judge and every worker's
// engines, so that a wrong command or option is reported at once.
func newMatch(ctx context.Context, cfg *config.Config, opt Options) (_ *match, err error) {
	m := &match{cfg: cfg, opt: opt, stdout: opt.Stdout, shard: opt.Shard, n: max(cfg.Concurrency, 1),
		ids: map[string]string{}, began: time.Now(), cpu0: processCPU()}
	if m.stdout == nil {
		m.stdout = io.Discard
	}
	if cfg.Openings != nil {
		if m.openings, err = openings.Load(*cfg.Openings); err != nil {
			return nil, err
		}
	}
	if cfg.Format == config.FormatKnockout && !m.shard.IsZero() {
		return nil, fmt.Errorf("format: knockout cannot be split into shards (shard %s, from --shard or a Slurm/Kubernetes array): each round's pairings depend on the previous round's results; run it whole, with concurrency to play a round's games at once", m.shard)
	}
	m.total = totalGames(cfg)
	m.planned = shardGames(m.total, m.shard)
	defer func() {
		if err != nil {
			m.close()
		}
	}()
	judgeWorkers := 0
	if !cfg.Judge.Off {
		jc := cfg.Judge.JudgeConfig
		jc.Workers = min(max(jc.Workers, m.n), maxJudgeWorkers)
		jc.Timeouts = cfg.EngineTimeouts()
		judgeWorkers = jc.Workers * max(jc.Threads, 1)
		if m.judge, err = tracker.NewJudge(ctx, jc); err != nil {
			return nil, err
		}
		m.judgeID = m.judge.Engine()
	}
	m.st = newStatus(m.judge, m.began)
	m.warnings = append(repeatWarnings(cfg, len(m.openings)), coreWarning(m.n, perGame(cfg), judgeWorkers, runtime.NumCPU())...)
	books, err := loadBooks(cfg)
	if err != nil {
		return nil, err
	}
	for range m.n {
		r := &runner{cfg: cfg, binary: opt.Binary}
		for _, e := range cfg.Engines {
			if e.Builtin() && r.binary == "" {
				return nil, fmt.Errorf("engine %q is built-in (%s) but no arena binary was given to run it with", e.Name, e.Engine)
			}
			opts := map[string]string{} // the worker's own, for its per-game seeds
			maps.Copy(opts, e.Options)
			e.Options = opts
			r.players = append(r.players, &player{cfg: e, timeouts: cfg.EngineTimeouts(), book: books[e.Name]})
		}
		m.workers = append(m.workers, r)
	}
	if err := m.startEngines(ctx); err != nil {
		return nil, err
	}
	m.warnings = append(m.warnings, ponderWarnings(m.workers[0].players)...)
	return m, nil
}

// startEngines starts every worker's engines, as many at once as the
// machine has cores: a start is a process start-up, a handshake and the
// engine's allocations (64 MB cleared for the heuristic engine's strong
// preset), tenths of a second each that would otherwise add up before the
// first game, twice as many at concurrency 2. The first failure in
// worker and engine order is returned.
func (m *match) startEngines(ctx context.Context) error {
	var all []*player
	for _, r := range m.workers {
		all = append(all, r.players...)
	}
	errs := make([]error, len(all))
	slots := make(chan struct{}, max(runtime.NumCPU(), 1))
	var wg sync.WaitGroup
	for i, p := range all {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			errs[i] = p.start(ctx, m.opt.Binary, engineGrace(p.cfg, m.cfg))
		})
	}
	wg.Wait()
	for i, p := range all {
		if errs[i] != nil {
			return errs[i]
		}
		m.ids[p.cfg.Name] = p.id
	}
	return nil
}

// coreWarning warns when the games and the judge need more cores than the
// machine has: engines then share cores and their times lose meaning. A
// game keeps perGame engines busy (2 when an engine ponders: it thinks
// while its opponent does); the judge judges beside play at any
// concurrency, one core per judge process.
func coreWarning(n, perGame, judge, cores int) []string {
	busy := n*perGame + judge
	if busy <= cores {
		return nil
	}
	what := fmt.Sprintf("concurrency %d", n)
	if perGame > 1 {
		what = fmt.Sprintf("concurrency %d with pondering (%d engines thinking per game)", n, perGame)
	}
	return []string{fmt.Sprintf("%s plus %d judge process(es) judging beside play need %d cores, the machine has %d: engines will share cores with each other and with the judge, so their times and node counts are not comparable with a run where each has a core",
		what, judge, busy, cores)}
}

// close ends every engine process, all at once: each waits for its
// process to exit after quit, and at concurrency N there are N times as
// many.
func (m *match) close() {
	var wg sync.WaitGroup
	for _, r := range m.workers {
		for _, p := range r.players {
			wg.Go(p.stop)
		}
	}
	wg.Wait()
	if m.judge != nil {
		m.judge.Close()
	}
	if m.out != nil {
		m.out.Close()
	}
	if m.lines != nil {
		m.lines.Close()
	}
}

// open prepares dir: it takes the games already finished there (none for a
// new run) in game order into fresh output files and the summary, judging
// those the judge never saw, and keeps the ones that finished ahead of an
// unfinished game pending.
func (m *match) open(ctx context.Context, dir string) error {
	m.dir = dir
	idx := output.Index{}
	old, err := idx.Add(filepath.Join(dir, output.GamesFile))
	if err != nil {
		return err
	}
	if old != nil {
		defer old.Close()
	}
	m.prior = len(idx)
	m.started = time.Now().UTC().Truncate(time.Second)
	if prev, _ := readSummaryHead(dir); prev != nil && len(idx) > 0 {
		m.started = prev.Started
		if w := mixedVersions(prev, len(idx)); w != "" {
			m.warnings = append(m.warnings, w)
		}
	}
	played, err := GameKeys(m.cfg)
	if err != nil {
		return err
	}
	hash, err := ConfigHash(m.cfg)
	if err != nil {
		return err
	}
	if m.cfg.Format == config.FormatKnockout {
		m.ko = record.NewKnockout(m.cfg)
	}
	m.b = record.NewBuilder(m.cfg, record.RunInfo{Dir: dir, Started: m.started, Planned: m.planned, IDs: m.ids, JudgeID: m.judgeID,
		ConfigHash: hash, Played: played, Shard: m.shard, Concurrency: m.n, Warnings: m.warnings, Knockout: m.ko})
	if m.out, err = output.Create(dir, m.cfg); err != nil {
		return err
	}
	if m.lines, err = output.NewGameLines(dir, m.cfg.SPRT != nil); err != nil {
		return err
	}
	m.commit = newGames(m.cfg, m.openings, m.shard, m.ko)
	m.next, m.hasNext = m.commit.next()
	m.pending = map[int]pendingGame{}
	output.WriteMatchConfig(m.opt.chatter(), m.cfg, m.started, m.planned, dir)
	m.printSetup(len(idx))
	for _, n := range slices.Sorted(maps.Keys(idx)) {
		// A knockout's tie-breaks number games beyond its regular
		// ones; a game outside its bracket fails the check in
		// takeInOrder.
		if (m.ko == nil && n > m.total) || !m.shard.Has(n) {
			return fmt.Errorf("%s: game %d is not in the schedule of this run (%d games, shard %s)", idx[n].Path(), n, m.total, m.shard)
		}
		g, err := idx[n].Read()
		if err != nil {
			return err
		}
		if m.judge != nil && g.WhiteStats == nil && len(g.Moves) > 0 {
			m.judgeRecord(ctx, g)
			if ctx.Err() != nil {
				return &InterruptedError{Dir: dir, Done: len(idx), Total: m.planned}
			}
		}
		ref, err := m.out.AppendJSON(g)
		if err != nil {
			return err
		}
		m.pending[n] = pendingGame{ref: ref}
		if err := m.takeInOrder(false); err != nil {
			return err
		}
	}
	if err := m.out.Install(); err != nil {
		return err
	}
	m.prog = &progress{w: m.stdout, quiet: m.opt.Quiet, terminal: m.opt.Terminal && !m.opt.Quiet, width: m.opt.Width, total: m.total,
		planned: m.planned, prior: m.prior, began: m.began, st: m.st, sum: m.b.Summary(),
		ratingEvery: cmp.Or(m.opt.RatingInterval, m.cfg.RatingInterval)}
	return m.writeSummaries(m.b.Summary(), true)
}

// mixedVersions warns when a resumed run's finished games were played by
// another arena build than this one: its numbers then mix two versions of
// the code. The summary lists every commit (versions.arena_commits).
func mixedVersions(prev *record.Summary, finished int) string {
	now := version.Stamp()
	played := prev.Versions.ArenaCommits
	if len(played) == 0 {
		played = []string{prev.Versions.Arena}
	}
	for i, c := range played {
		// Summaries of schema 1 name the module version ("(devel)") or a
		// 12-character revision, never the full commit.
		if prev.Schema < 2 {
			played[i] = version.Unknown + " (" + c + ")"
		}
	}
	if len(played) == 1 && played[0] == now {
		return ""
	}
	return fmt.Sprintf("mixed versions: the %d games already played were played by arena %s; this resume runs arena %s (summary.json: versions.arena_commits)",
		finished, strings.Join(played, ", "), now)
}

// printSetup prints what the configuration block does not say: concurrency,
// shard, warnings, and how far a resumed run had got.
func (m *match) printSetup(finished int) {
	out := m.opt.chatter()
	if m.n > 1 {
		fmt.Fprintf(out, "Concurrency: %d games at once (%d cores)\n", m.n, runtime.NumCPU())
	}
	if !m.shard.IsZero() {
		fmt.Fprintf(out, "Shard: %s (%d of the %d games; merge the shards with arena merge)\n", m.shard, m.planned, m.total)
	}
	for _, w := range m.warnings {
		fmt.Fprintf(m.opt.warnings(), "Warning: %s\n", w)
	}
	if finished > 0 {
		fmt.Fprintf(out, "Resuming: %d of %d games already played\n", finished, m.planned)
	}
	fmt.Fprintln(out)
}

// gameResult is what a worker hands back: a finished game, or the error
// that stopped it (the game is then replayed by --resume).
type gameResult struct {
	spec gameSpec
	rec  *record.GameRecord
	err  error
}

// play runs the workers and the judges until the schedule is done, the
// SPRT decides or ctx is cancelled.
func (m *match) play(ctx context.Context) (*record.Summary, error) {
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// With several workers, a worker takes its next game from a queue the
	// moment it finishes one, instead of waiting while this goroutine
	// writes the finished game (three fsyncs, often a summary). One worker
	// gets its next game only when it asks for one, so that a game never
	// starts after an interruption that this goroutine has seen.
	queue := m.n
	if m.n == 1 {
		queue = 0
	}
	jobs := make(chan gameSpec, queue)
	results := make(chan gameResult, 2*m.n)
	played := results
	var judged sync.WaitGroup
	if m.judge != nil {
		// Judging beside play: a game goes from its worker to a queue
		// of at most one game per judge, where the first free judge
		// takes it; a worker waits only while that queue is full.
		judges := m.judge.Config().Workers
		played = make(chan gameResult, judges)
		for range judges {
			judged.Go(func() {
				for res := range played {
					if res.err == nil {
						m.judgeRecord(gctx, res.rec)
					}
					results <- res
				}
			})
		}
	}
	var wg sync.WaitGroup
	for _, r := range m.workers {
		wg.Go(func() { m.work(gctx, r, jobs, played) })
	}
	live, stopLive := context.WithCancel(ctx)
	var liveDone sync.WaitGroup
	liveDone.Go(func() { m.prog.run(live) })
	defer func() {
		close(jobs)
		cancel()
		wg.Wait()
		if m.judge != nil {
			close(played)
			judged.Wait()
		}
		stopLive()
		liveDone.Wait()
	}()
	peers, err := newPeerWatch(m.cfg, m.dir, m.shard)
	if err != nil {
		return nil, err
	}
	// wake is closed when the peers' games decide the SPRT: the loop below
	// then stops feeding games, and the games in progress are cancelled.
	wake := make(chan struct{})
	if peers != nil {
		// Polled once before the first game: a shard resumed after the
		// test was decided plays nothing.
		if peers.poll() {
			close(wake)
		} else {
			go peers.run(gctx, func() { close(wake); cancel() })
		}
	}
	feed := newGames(m.cfg, m.openings, m.shard, m.ko)
	spec, more := m.nextToPlay(feed)
	inflight := 0
	var fatal error
	for {
		var send chan<- gameSpec
		if more && ctx.Err() == nil && fatal == nil && !m.b.Decided() && peers.decided() == nil {
			send = jobs
		}
		if send == nil && inflight == 0 {
			break
		}
		select {
		case send <- spec:
			inflight++
			spec, more = m.nextToPlay(feed)
		case res := <-results:
			inflight--
			if err := m.finished(res); err != nil && fatal == nil {
				fatal = err
				cancel()
			}
			peers.gameEnded() // after finished has logged it: the poll reads this shard's log too
			if !more {
				// A knockout's next games appear as results come in.
				spec, more = m.nextToPlay(feed)
			}
			if m.b.Decided() {
				cancel() // the games after the deciding one are not played
			}
		case <-wake:
			wake = nil
		}
	}
	stopLive()
	liveDone.Wait()
	sum := m.b.Summary()
	if st := peers.decided(); st != nil && fatal == nil && !sum.Complete {
		sum.Complete, sum.SPRTShards = true, st
		sum.Stopped = "SPRT " + st.Status + " across the run's shards"
	}
	if fatal != nil {
		m.prog.clear()
		m.writeSummaries(sum, true)
		return sum, fatal
	}
	if !sum.Complete {
		m.prog.clear()
		if err := m.writeSummaries(sum, true); err != nil {
			return sum, err
		}
		return sum, &InterruptedError{Dir: m.dir, Done: sum.GamesPlayed, Total: m.planned}
	}
	return sum, m.finish(sum)
}

// nextToPlay returns the next game of the schedule that has not finished.
func (m *match) nextToPlay(feed games) (gameSpec, bool) {
	for {
		s, ok := feed.next()
		if !ok {
			return s, false
		}
		if _, done := m.pending[s.Number]; !done && m.hasNext && s.Number >= m.next.Number {
			return s, true
		}
	}
}

// finished records a worker's result: the game goes to games.jsonl at once
// and into the other outputs when its turn in game order comes.
func (m *match) finished(res gameResult) error {
	if res.err != nil {
		if errors.Is(res.err, context.Canceled) || errors.Is(res.err, context.DeadlineExceeded) {
			return nil
		}
		return res.err
	}
	m.played++
	ref, err := m.out.AppendJSON(res.rec)
	if err != nil {
		return err
	}
	pg := pendingGame{ref: ref}
	if len(m.pending) < 2*m.n {
		pg.rec = res.rec
	}
	m.pending[res.rec.Game] = pg
	return m.takeInOrder(true)
}

// work plays the games it is handed with one worker's engines and hands
// each on, to the judges or straight to the results.
func (m *match) work(ctx context.Context, r *runner, jobs <-chan gameSpec, out chan<- gameResult) {
	for spec := range jobs {
		if ctx.Err() != nil { // queued before the run stopped
			out <- gameResult{spec: spec, err: ctx.Err()}
			continue
		}
		m.seedPlayers(ctx, r, spec)
		m.st.gameStarted(spec.Number)
		rec, err := r.playGame(ctx, spec, func(ply int) { m.st.move(spec.Number, ply) })
		plies := 0
		if rec != nil {
			plies = rec.Plies
		}
		m.st.gameEnded(spec.Number, plies, err == nil)
		if err != nil && ctx.Err() == nil {
			err = fmt.Errorf("game %d: %w", spec.Number, err)
		}
		out <- gameResult{spec: spec, rec: rec, err: err}
	}
}

// judgeRecord judges a finished game; when ctx ends first the game is kept
// unjudged, to be judged on resume.
func (m *match) judgeRecord(ctx context.Context, rec *record.GameRecord) {
	m.st.judgeStarted(len(rec.Moves))
	if err := judgeGame(ctx, m.judge, rec); err != nil {
		rec.JudgeError = "judge interrupted; judged again on resume"
	}
	m.st.judgeEnded(len(rec.Moves))
}
