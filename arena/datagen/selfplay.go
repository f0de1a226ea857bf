package datagen

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/heuristic"
	"arena/internal/atomicfile"
	"arena/tracker"
)

// Self-play data for NNUE training (`arena datagen selfplay`): games of
// the heuristic engine at preset strong against itself, searched in
// process at a fixed node budget, written as the text input NNUE trainers
// (marlinflow, bullet, `arena train nnue`) read:
//
//	<FEN> | <score> | <result>
//
// score is the search's score in centipawns from White's point of view,
// result the game's result for White: 1.0, 0.5 or 0.0.
//
// Determinism is the design's centre: game i is played from the seed
// (Seed, i) alone (its opening, and the engine's fresh state after
// NewGame at a node budget, which involves no clock), and games are
// committed in game order whatever the number of workers. A run is
// therefore a pure function of its configuration and its number of games,
// and resuming is exact: the state file records the games committed and the
// data file's length at that point; --resume cuts the file back to that
// length (dropping a game cut short by a crash) and carries on from the
// next game index. The same seed gives byte-identical data, interrupted or
// not.

// SelfPlayConfig describes one self-play run.
type SelfPlayConfig struct {
	Out    string // data file; its state is Out+".state", its lock Out+".lock"
	Resume bool

	Seed        uint64
	Nodes       int64  // node budget per move
	RandomPlies int    // each game opens with RandomPlies or RandomPlies+1 random moves
	Book        string // EPD/FEN start positions (one drawn per game), before the random moves
	Positions   int    // stop once the file holds this many positions (after a whole game)
	MaxPlies    int    // a game still going after this many plies is a draw
	HashMB      int    // the engine's transposition table

	// Adjudication: |score| >= WinScore for WinPlies plies in a row is a
	// win; after DrawAfter plies, |score| <= DrawScore for DrawPlies plies
	// in a row is a draw.
	WinScore, WinPlies              int
	DrawAfter, DrawScore, DrawPlies int

	// Label "stockfish" re-scores every kept position with Judge.
	Label string
	Judge tracker.JudgeConfig

	Workers  int       // games played in parallel
	Progress io.Writer // progress lines (nil: none)
}

// Defaults fills zero fields.
func (c SelfPlayConfig) Defaults() SelfPlayConfig {
	def := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	if c.Nodes == 0 {
		c.Nodes = 5000
	}
	def(&c.Positions, 1_000_000)
	def(&c.MaxPlies, 400)
	def(&c.HashMB, 16)
	def(&c.WinScore, 1000)
	def(&c.WinPlies, 4)
	def(&c.DrawAfter, 80)
	def(&c.DrawScore, 10)
	def(&c.DrawPlies, 12)
	def(&c.Workers, 1)
	c.Judge = c.Judge.WithDefaults()
	return c
}

// Validate names the first field out of range.
func (c SelfPlayConfig) Validate() error {
	switch {
	case c.Out == "":
		return errors.New("no output file given")
	case c.Nodes < 1:
		return fmt.Errorf("nodes is %d, expected >= 1", c.Nodes)
	case c.RandomPlies < 0:
		return fmt.Errorf("random plies is %d, expected >= 0", c.RandomPlies)
	case c.Positions < 1:
		return fmt.Errorf("positions is %d, expected >= 1", c.Positions)
	case c.MaxPlies < 1:
		return fmt.Errorf("max plies is %d, expected >= 1", c.MaxPlies)
	case c.HashMB < 1:
		return fmt.Errorf("hash is %d MB, expected >= 1", c.HashMB)
	case c.WinScore < 1 || c.WinPlies < 1 || c.DrawScore < 0 || c.DrawPlies < 1 || c.DrawAfter < 0:
		return errors.New("adjudication: win score and plies, draw plies >= 1, draw score and start >= 0 expected")
	case c.Label != "" && c.Label != "stockfish":
		return fmt.Errorf("label %q: expected stockfish or nothing (the search's own score)", c.Label)
	case c.Workers < 1:
		return fmt.Errorf("workers is %d, expected >= 1", c.Workers)
	}
	if c.Label != "" {
		return c.Judge.Validate()
	}
	return nil
}

// fingerprint is what must not change between a run and its resumption:
// everything that decides the games and their labels.
func (c SelfPlayConfig) fingerprint() string {
	label := c.Label
	if label != "" {
		label += fmt.Sprintf(" depth %d", c.Judge.Depth)
	}
	return fmt.Sprintf("seed %d, nodes %d, random plies %d, book %q, max plies %d, hash %d MB, win %d/%d, draw %d/%d/%d, label %q",
		c.Seed, c.Nodes, c.RandomPlies, c.Book, c.MaxPlies, c.HashMB, c.WinScore, c.WinPlies,
		c.DrawAfter, c.DrawScore, c.DrawPlies, label)
}

// SelfPlayState is the state file: how far a run got.
type SelfPlayState struct {
	Config    string `json:"config"`    // the fingerprint of the run's configuration
	Games     int    `json:"games"`     // games committed: the next game index
	Positions int    `json:"positions"` // positions in the data file
	Bytes     int64  `json:"bytes"`     // the data file's length
}

// SelfPlayStats summarises a run.
type SelfPlayStats struct {
	State      SelfPlayState // where the run stopped
	Games      int           // games committed by this run
	Positions  int           // positions written by this run
	Elapsed    time.Duration
	CPU        time.Duration // user+system CPU time of the process during the run
	SoftStop   bool          // stopped by the soft-stop channel
	ReachedMax bool          // Positions reached
}

// gameOut is one played game's data lines.
type gameOut struct {
	index int
	lines []string
	err   error
}

// SelfPlay plays games until the file holds cfg.Positions positions, stop
// is closed (games in progress are finished and committed, so the run
// stops after a whole game) or ctx is cancelled (games in progress are
// lost; the committed ones are kept).
func SelfPlay(ctx context.Context, cfg SelfPlayConfig, stop <-chan struct{}) (SelfPlayStats, error) {
	cfg = cfg.Defaults()
	var st SelfPlayStats
	if err := cfg.Validate(); err != nil {
		return st, err
	}
	unlock, err := lockFile(cfg.Out + ".lock")
	if err != nil {
		return st, err
	}
	defer unlock()
	state, err := prepareSelfPlay(cfg)
	if err != nil {
		return st, err
	}
	st.State = state
	if state.Positions >= cfg.Positions {
		st.ReachedMax = true
		return st, nil
	}
	var book []string
	if cfg.Book != "" {
		entries, err := board.ReadEPDFile(cfg.Book)
		if err != nil {
			return st, err
		}
		if len(entries) == 0 {
			return st, fmt.Errorf("book %s: no positions", cfg.Book)
		}
		for _, e := range entries {
			book = append(book, e.FullFEN())
		}
	}
	var judge *tracker.Judge
	if cfg.Label == "stockfish" {
		if judge, err = tracker.NewJudge(ctx, cfg.Judge); err != nil {
			return st, err
		}
		defer judge.Close()
	}
	f, err := os.OpenFile(cfg.Out, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return st, err
	}
	defer f.Close()

	start, cpu0 := time.Now(), cpuTime()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	next := state.Games
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		select {
		case <-stop:
			return 0, false
		default:
		}
		if ctx.Err() != nil {
			return 0, false
		}
		next++
		return next - 1, true
	}
	outs := make(chan gameOut, cfg.Workers)
	var wg sync.WaitGroup
	for range cfg.Workers {
		eng, err := engines.New(heuristic.Name, map[string]string{
			engines.PresetOption: "strong", "hash": strconv.Itoa(cfg.HashMB)})
		if err != nil {
			cancel()
			wg.Wait()
			return st, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer eng.Close()
			for {
				i, ok := take()
				if !ok {
					return
				}
				// The game runs to its end whatever ctx says, unless ctx
				// is cancelled for good: a search cut short would make
				// the game depend on timing.
				lines, err := playSelfPlayGame(ctx, eng, judge, cfg, book, i)
				select {
				case outs <- gameOut{i, lines, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(outs) }()

	w := bufio.NewWriter(f)
	pending := map[int]gameOut{}
	lastReport := time.Now()
	var runErr error
	for g := range outs {
		if runErr != nil || st.ReachedMax {
			continue // drain: the workers finish their games
		}
		pending[g.index] = g
		for {
			g, ok := pending[state.Games]
			if !ok {
				break
			}
			delete(pending, state.Games)
			if g.err != nil {
				runErr = fmt.Errorf("game %d: %w", g.index, g.err)
				cancel()
				break
			}
			for _, l := range g.lines {
				w.WriteString(l)
				w.WriteByte('\n')
				state.Bytes += int64(len(l) + 1)
			}
			state.Games++
			state.Positions += len(g.lines)
			st.Games++
			st.Positions += len(g.lines)
			if err := commitSelfPlay(w, f, cfg, state); err != nil {
				runErr = err
				cancel()
				break
			}
			st.State = state
			if state.Positions >= cfg.Positions {
				st.ReachedMax = true
				cancel() // games beyond the target are not wanted
				break
			}
		}
		if cfg.Progress != nil && time.Since(lastReport) >= 5*time.Second {
			lastReport = time.Now()
			reportSelfPlay(cfg, st, time.Since(start), cpuTime()-cpu0)
		}
	}
	st.Elapsed, st.CPU = time.Since(start), cpuTime()-cpu0
	select {
	case <-stop:
		st.SoftStop = true
	default:
	}
	if runErr != nil {
		return st, runErr
	}
	if st.ReachedMax || st.SoftStop {
		return st, nil
	}
	return st, ctx.Err()
}

func reportSelfPlay(cfg SelfPlayConfig, st SelfPlayStats, wall, cpu time.Duration) {
	rate := float64(st.Positions) / wall.Seconds()
	perCPU := float64(st.Positions) / cpu.Seconds()
	left := cfg.Positions - st.State.Positions
	eta := "-"
	if rate > 0 {
		eta = (time.Duration(float64(left)/rate) * time.Second).Round(time.Second).String()
	}
	fmt.Fprintf(cfg.Progress, "datagen selfplay: %d/%d positions (%.1f%%), %d games, %.0f positions/s (%.0f per CPU-s), ETA %s\n",
		st.State.Positions, cfg.Positions, 100*float64(st.State.Positions)/float64(cfg.Positions),
		st.State.Games, rate, perCPU, eta)
}

// commitSelfPlay makes the written games durable, then records them in the
// state file: a crash between the two leaves data the state does not
// count, which resuming cuts off.
func commitSelfPlay(w *bufio.Writer, f *os.File, cfg SelfPlayConfig, state SelfPlayState) error {
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", cfg.Out, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", cfg.Out, err)
	}
	data, err := json.MarshalIndent(state, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(cfg.Out+".state", append(data, '\n'))
}

// prepareSelfPlay checks Out and its state against Resume and returns the
// state to carry on from, with Out cut back to the state's length.
func prepareSelfPlay(cfg SelfPlayConfig) (SelfPlayState, error) {
	fresh := SelfPlayState{Config: cfg.fingerprint()}
	statePath := cfg.Out + ".state"
	_, errOut := os.Stat(cfg.Out)
	data, errState := os.ReadFile(statePath)
	switch {
	case errors.Is(errOut, os.ErrNotExist) && errors.Is(errState, os.ErrNotExist):
		if cfg.Resume {
			return fresh, fmt.Errorf("--resume: %s does not exist", cfg.Out)
		}
		return fresh, atomicfile.WriteFile(cfg.Out, nil)
	case !cfg.Resume:
		return fresh, fmt.Errorf("%s exists: use --resume to continue it, or choose another file", cfg.Out)
	case errOut != nil:
		return fresh, errOut
	case errState != nil:
		return fresh, fmt.Errorf("--resume: state file: %w", errState)
	}
	var state SelfPlayState
	if err := json.Unmarshal(data, &state); err != nil {
		return fresh, fmt.Errorf("%s: %w", statePath, err)
	}
	if state.Config != fresh.Config {
		return fresh, fmt.Errorf("%s: the run was made with %s; this one has %s (resume with the same options)",
			statePath, state.Config, fresh.Config)
	}
	fi, err := os.Stat(cfg.Out)
	if err != nil {
		return fresh, err
	}
	if fi.Size() < state.Bytes {
		return fresh, fmt.Errorf("%s: %d bytes, but its state file %s records %d: the file was cut or replaced",
			cfg.Out, fi.Size(), statePath, state.Bytes)
	}
	return state, os.Truncate(cfg.Out, state.Bytes)
}

// lockFile takes an exclusive flock on path (released by the kernel
// however the process ends) and returns its release.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is held by another arena datagen writing the same file; wait for it to finish or stop it first", path)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// playSelfPlayGame plays game index i and returns its data lines.
func playSelfPlayGame(ctx context.Context, eng engines.Engine, judge *tracker.Judge, cfg SelfPlayConfig, book []string, i int) ([]string, error) {
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
	startFEN := engines.StartFEN
	if len(book) > 0 {
		startFEN = book[rng.IntN(len(book))]
	}
	p, err := board.ParseFEN(startFEN)
	if err != nil {
		return nil, fmt.Errorf("book position %q: %w", startFEN, err)
	}
	var ml board.MoveList
	var moves []string
	for range cfg.RandomPlies + rng.IntN(2) {
		p.GenerateLegal(&ml)
		if ml.Len == 0 {
			return nil, nil // the random opening ended the game: no data
		}
		m := ml.Moves[rng.IntN(ml.Len)]
		p.MakeMove(m)
		moves = append(moves, m.String())
	}
	eng.NewGame()
	type kept struct {
		fen   string
		score int // White's view
	}
	var keep []kept
	result := -1.0
	winRun, drawRun, lastSign := 0, 0, 0
	for result < 0 {
		switch st := p.Status(); {
		case st == board.Checkmate && p.SideToMove() == board.White:
			result = 0
			continue
		case st == board.Checkmate:
			result = 1
			continue
		case st != board.Ongoing:
			result = 0.5
			continue
		}
		if len(moves) >= cfg.MaxPlies {
			result = 0.5
			continue
		}
		res, err := eng.Search(ctx, engines.Position{FEN: startFEN, Moves: moves}, engines.Limits{Nodes: cfg.Nodes}, nil)
		if err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		m, err := p.ParseMove(res.Move)
		if err != nil {
			return nil, fmt.Errorf("engine move %q in %s: %w", res.Move, p.FEN(), err)
		}
		score := res.Score.CP
		if res.Score.IsMate() {
			score = 100000 * sign(res.Score.Mate)
		}
		if p.SideToMove() == board.Black {
			score = -score
		}
		last := p.LastMove()
		quiet := !p.InCheck() && !res.Score.IsMate() && !m.IsCapture() && !m.IsPromotion() &&
			(last == board.NullMove || !last.IsCapture() && !last.IsPromotion())
		if quiet {
			keep = append(keep, kept{p.FEN(), score})
		}
		// Adjudication on the search's score, White's view.
		switch s := sign(score); {
		case abs(score) < cfg.WinScore:
			winRun = 0
		case s == lastSign:
			winRun++
		default:
			winRun, lastSign = 1, s
		}
		if len(moves) >= cfg.DrawAfter && abs(score) <= cfg.DrawScore {
			drawRun++
		} else {
			drawRun = 0
		}
		p.MakeMove(m)
		moves = append(moves, res.Move)
		switch {
		case winRun >= cfg.WinPlies && lastSign > 0:
			result = 1
		case winRun >= cfg.WinPlies:
			result = 0
		case drawRun >= cfg.DrawPlies:
			result = 0.5
		}
	}
	res := strconv.FormatFloat(result, 'f', 1, 64)
	lines := make([]string, 0, len(keep))
	for _, k := range keep {
		score := k.score
		if judge != nil {
			ev, err := judge.Evaluate(ctx, k.fen)
			if err != nil {
				return nil, fmt.Errorf("label %s: %w", k.fen, err)
			}
			if ev.IsMate {
				continue
			}
			score = ev.CP
			if strings.Fields(k.fen)[1] == "b" {
				score = -score
			}
		}
		lines = append(lines, k.fen+" | "+strconv.Itoa(score)+" | "+res)
	}
	return lines, nil
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
