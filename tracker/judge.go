package tracker

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/notnil/chess"

	"arena/engines/uci"
)

// JudgeConfig configures the judge. Zero fields take the defaults (the
// thesis's: Stockfish at depth 12, mate_score 10000, loss capped at 900).
// The yaml names are those of the arena config's `judge:` section.
type JudgeConfig struct {
	// Command is the Stockfish program name (looked up in PATH, then
	// /usr/games and the other usual places, by uci.LocateEngine) or path.
	Command   string `yaml:"engine" json:"engine"`
	Depth     int    `yaml:"depth" json:"depth"`
	Cap       int    `yaml:"cap" json:"cap"`
	MateScore int    `yaml:"mate_score" json:"mate_score"`
	// Workers is the number of Stockfish processes evaluating in parallel.
	Workers int `yaml:"workers" json:"workers"`
	HashMB  int `yaml:"hash" json:"hash_mb"`    // Stockfish Hash per process
	Threads int `yaml:"threads" json:"threads"` // Stockfish Threads per process
	// Protocol is how positions are put to Stockfish: ProtocolPosition or
	// ProtocolThesis (see EvaluateMoves).
	Protocol string `yaml:"protocol" json:"protocol"`
	// Timeout bounds one search: a Stockfish that has not answered "go
	// depth N" by then is stopped (killed if it ignores stop), restarted,
	// and the position tried once more before the judging fails.
	Timeout time.Duration `yaml:"timeout" json:"timeout"`
	// Timeouts bound Stockfish's answers outside a search (zero: the UCI
	// client's defaults); a run sets them from its config's
	// start_timeout, ucinewgame_timeout and ping_timeout, arena analyze
	// from its flags.
	Timeouts uci.Timeouts `yaml:"-" json:"-"`
}

// The judge protocols.
const (
	// ProtocolPosition: each position once, as a FEN without history, after
	// ucinewgame (a cold search), cached: a function of the position.
	ProtocolPosition = "position"
	// ProtocolThesis: the thesis listing's protocol: one warm Stockfish
	// process per game, the full move history, two searches per ply.
	ProtocolThesis = "thesis"
)

// Judge defaults.
const (
	DefaultJudgeCommand = "stockfish"
	DefaultJudgeDepth   = 12
	DefaultJudgeHashMB  = 16
	// DefaultJudgeTimeout is far above a depth-12 search (~50 ms) or a
	// depth-20 one (seconds) on a loaded machine, and still ends a hang.
	DefaultJudgeTimeout = 2 * time.Minute
)

// WithDefaults fills the zero fields with the defaults.
func (c JudgeConfig) WithDefaults() JudgeConfig {
	if c.Command == "" {
		c.Command = DefaultJudgeCommand
	}
	if c.Depth == 0 {
		c.Depth = DefaultJudgeDepth
	}
	if c.Cap == 0 {
		c.Cap = DefaultScoring.Cap
	}
	if c.MateScore == 0 {
		c.MateScore = DefaultScoring.MateScore
	}
	if c.Workers == 0 {
		c.Workers = 1
	}
	if c.HashMB == 0 {
		c.HashMB = DefaultJudgeHashMB
	}
	if c.Threads == 0 {
		c.Threads = 1
	}
	if c.Protocol == "" {
		c.Protocol = ProtocolPosition
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultJudgeTimeout
	}
	return c
}

// Validate reports the out-of-range fields, naming each, its value and what
// was expected. It checks the values as given: apply WithDefaults first to
// give omitted (zero) fields their defaults.
func (c JudgeConfig) Validate() error {
	check := func(name string, v, lo, hi int) error {
		if v < lo || v > hi {
			return fmt.Errorf("judge %s: %d is out of range, expected %d..%d", name, v, lo, hi)
		}
		return nil
	}
	var protocol, timeout error
	if c.Protocol != ProtocolPosition && c.Protocol != ProtocolThesis {
		protocol = fmt.Errorf("judge protocol: %q is not a protocol, expected %s or %s", c.Protocol, ProtocolPosition, ProtocolThesis)
	}
	if c.Timeout <= 0 {
		timeout = fmt.Errorf("judge timeout: %v, expected a positive duration", c.Timeout)
	}
	return errors.Join(
		protocol, timeout,
		check("depth", c.Depth, 1, 99),
		check("cap", c.Cap, 1, 1<<30),
		check("mate_score", c.MateScore, 1, 1<<30),
		check("workers", c.Workers, 1, 256),
		check("hash", c.HashMB, 1, 1<<20),
		check("threads", c.Threads, 1, 1024),
	)
}

// Scoring returns the centipawn-loss parameters of the configuration.
func (c JudgeConfig) Scoring() Scoring {
	c = c.WithDefaults()
	return Scoring{MateScore: c.MateScore, Cap: c.Cap}
}

// Judge evaluates positions with a pool of Stockfish processes over UCI
// ("go depth N"). What follows describes ProtocolPosition, the default;
// ProtocolThesis judges a game as the thesis's script did (see
// evaluateThesis). With ProtocolPosition each position is evaluated once: results are cached by position (FEN
// placement, side to move, castling rights and a capturable en passant
// square; not the move counters), and concurrent requests for the same
// position share one search. The position after a move is the position
// before the next one, so a game of n moves costs at most n+1 evaluations
// (the thesis's script costs 2n), fewer when positions repeat or recur
// across games (the same opening, colours swapped) or the game ends in a
// terminal position, which is scored by the rules without Stockfish.
//
// Every evaluation is a function of the position alone, so that it can be
// cached and reproduced (e.g. by `arena analyze` on the PGN of a match):
// Stockfish gets the position as a FEN with zeroed move counters and no move
// history, after "ucinewgame" so that no hash or history table carries over
// from an earlier search. With Threads 1 a fixed-depth search is then
// deterministic.
//
// The judge's searches take Workers×Threads cores. They must not run while
// an engine thinks under a time limit: call Evaluate between moves (with the
// clocks stopped) or EvaluateGame after a game.
//
// A Judge is safe for concurrent use.
type Judge struct {
	cfg  JudgeConfig
	path string // resolved Stockfish path
	name string // Stockfish "id name"

	free chan *uci.Client // idle processes

	mu       sync.Mutex
	cache    map[string]Eval
	inflight map[string]*evalCall
	procs    []*uci.Client // every live process, for Close
	closed   bool

	evaluations atomic.Int64
	cacheHits   atomic.Int64
	terminal    atomic.Int64
	restarts    atomic.Int64
}

type evalCall struct {
	done chan struct{}
	eval Eval
	err  error
}

// NewJudge starts cfg.Workers Stockfish processes. A missing Stockfish is an
// error that lists the paths tried and how to install it.
func NewJudge(ctx context.Context, cfg JudgeConfig) (*Judge, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	path, err := uci.LocateEngine(cfg.Command)
	if err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	j := &Judge{
		cfg:      cfg,
		path:     path,
		free:     make(chan *uci.Client, cfg.Workers),
		cache:    map[string]Eval{},
		inflight: map[string]*evalCall{},
	}
	for range cfg.Workers {
		c, err := j.start(ctx)
		if err != nil {
			j.Close()
			return nil, err
		}
		j.name = c.Name()
		j.free <- c
	}
	return j, nil
}

// start runs one Stockfish process and registers it for Close.
func (j *Judge) start(ctx context.Context) (*uci.Client, error) {
	c, err := uci.Start(ctx, uci.ClientConfig{Command: j.path, Timeouts: j.cfg.Timeouts})
	if err != nil {
		return nil, fmt.Errorf("judge: start %s: %w", j.path, err)
	}
	// Options the engine has: a judge other than Stockfish may lack some.
	// python-chess's analyse, which the thesis's script calls, turns the
	// analysis mode on where the engine has one.
	opts := [][2]string{{"Hash", strconv.Itoa(j.cfg.HashMB)}, {"Threads", strconv.Itoa(j.cfg.Threads)}}
	if j.cfg.Protocol == ProtocolThesis {
		opts = append(opts, [2]string{"UCI_AnalyseMode", "true"})
	}
	for _, o := range opts {
		if !c.HasOption(o[0]) {
			continue
		}
		if err := c.SetOption(ctx, o[0], o[1]); err != nil {
			c.Close()
			return nil, fmt.Errorf("judge: %w", err)
		}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		c.Close()
		return nil, errJudgeClosed
	}
	j.procs = append(j.procs, c)
	return c, nil
}

var errJudgeClosed = errors.New("judge: used after Close")

// Config returns the configuration with defaults filled in.
func (j *Judge) Config() JudgeConfig { return j.cfg }

// Scoring returns the judge's centipawn-loss parameters.
func (j *Judge) Scoring() Scoring { return j.cfg.Scoring() }

// Engine is Stockfish's UCI "id name" (e.g. "Stockfish 15.1").
func (j *Judge) Engine() string { return j.name }

// Path is the Stockfish executable in use.
func (j *Judge) Path() string { return j.path }

// Evaluations is the number of Stockfish searches performed so far (cache
// hits and terminal positions cost none).
func (j *Judge) Evaluations() int64 { return j.evaluations.Load() }

// CacheHits is the number of evaluations answered from the cache.
func (j *Judge) CacheHits() int64 { return j.cacheHits.Load() }

// TerminalPositions is the number of positions scored by the rules.
func (j *Judge) TerminalPositions() int64 { return j.terminal.Load() }

// Restarts is the number of Stockfish processes replaced after failing.
func (j *Judge) Restarts() int64 { return j.restarts.Load() }

// Evaluate returns the evaluation of the position fen from its side to move.
func (j *Judge) Evaluate(ctx context.Context, fen string) (Eval, error) {
	opt, err := chess.FEN(fen)
	if err != nil {
		return Eval{}, fmt.Errorf("judge: FEN %q: %v", fen, err)
	}
	pos := chess.NewGame(opt).Position()
	if err := checkPosition(pos); err != nil {
		return Eval{}, fmt.Errorf("judge: FEN %q: %w", fen, err)
	}
	return j.evaluate(ctx, pos)
}

// checkPosition refuses positions Stockfish cannot take (it may crash on
// them): one king per side, no pawn on the first or last rank.
func checkPosition(pos *chess.Position) error {
	kings := map[chess.Color]int{}
	for sq, p := range pos.Board().SquareMap() {
		switch p.Type() {
		case chess.King:
			kings[p.Color()]++
		case chess.Pawn:
			if r := sq.Rank(); r == chess.Rank1 || r == chess.Rank8 {
				return fmt.Errorf("pawn on %s, expected pawns on ranks 2 to 7", sq)
			}
		}
	}
	if kings[chess.White] != 1 || kings[chess.Black] != 1 {
		return fmt.Errorf("%d white and %d black kings, expected one each", kings[chess.White], kings[chess.Black])
	}
	return nil
}

// EvaluateGame evaluates positions 0..n of a game (the start position, empty
// for the standard one, and the position after each of the n UCI moves), each
// from its side to move, spreading the searches over the workers. An illegal
// move is an error naming it and its index.
func (j *Judge) EvaluateGame(ctx context.Context, startFEN string, moves []string) ([]Eval, error) {
	positions, err := replayUCI(startFEN, moves)
	if err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	evals := make([]Eval, len(positions))
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for i, pos := range positions {
		wg.Go(func() {
			var err error
			evals[i], err = j.evaluate(ctx, pos)
			if err != nil {
				// The first failure cancels the rest; report it, not the
				// failures it caused.
				once.Do(func() { first = fmt.Errorf("position %d of the game: %w", i, err) })
				cancel()
			}
		})
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return evals, nil
}

// replayUCI returns the positions of a game: the start and one per move.
func replayUCI(startFEN string, moves []string) ([]*chess.Position, error) {
	var opts []func(*chess.Game)
	if startFEN != "" {
		opt, err := chess.FEN(startFEN)
		if err != nil {
			return nil, fmt.Errorf("start FEN %q: %v", startFEN, err)
		}
		opts = append(opts, opt)
	}
	pos := chess.NewGame(opts...).Position()
	if err := checkPosition(pos); err != nil {
		return nil, fmt.Errorf("start FEN %q: %w", startFEN, err)
	}
	out := make([]*chess.Position, 0, len(moves)+1)
	out = append(out, pos)
	for i, s := range moves {
		m := findUCIMove(pos, s)
		if m == nil {
			return nil, fmt.Errorf("move %d %q is not legal in %s", i+1, s, pos)
		}
		pos = pos.Update(m)
		out = append(out, pos)
	}
	return out, nil
}

// findUCIMove returns the legal move with the UCI name s, or nil.
func findUCIMove(pos *chess.Position, s string) *chess.Move {
	for _, m := range pos.ValidMoves() {
		if (chess.UCINotation{}).Encode(pos, m) == s {
			return m
		}
	}
	return nil
}

// evaluate scores one position: by the rules when the game is over there,
// else from the cache, else by a Stockfish search shared with concurrent
// requests for the same position.
func (j *Judge) evaluate(ctx context.Context, pos *chess.Position) (Eval, error) {
	if e, ok := terminalEval(pos); ok {
		j.terminal.Add(1)
		return e, nil
	}
	key := PositionKey(pos)
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return Eval{}, errJudgeClosed
	}
	if e, ok := j.cache[key]; ok {
		j.mu.Unlock()
		j.cacheHits.Add(1)
		return e, nil
	}
	if call, ok := j.inflight[key]; ok {
		j.mu.Unlock()
		select {
		case <-call.done:
			if call.err == nil {
				j.cacheHits.Add(1)
			}
			return call.eval, call.err
		case <-ctx.Done():
			return Eval{}, ctx.Err()
		}
	}
	call := &evalCall{done: make(chan struct{})}
	j.inflight[key] = call
	j.mu.Unlock()

	call.eval, call.err = j.search(ctx, key)

	j.mu.Lock()
	delete(j.inflight, key)
	if call.err == nil {
		j.cache[key] = call.eval
	}
	j.mu.Unlock()
	close(call.done)
	return call.eval, call.err
}

// drop closes a dead process and forgets it.
func (j *Judge) drop(c *uci.Client) {
	c.Close()
	j.mu.Lock()
	defer j.mu.Unlock()
	for i, p := range j.procs {
		if p == c {
			j.procs = append(j.procs[:i], j.procs[i+1:]...)
			break
		}
	}
}

// Close stops every Stockfish process. Evaluations running concurrently fail.
func (j *Judge) Close() error {
	j.mu.Lock()
	procs := j.procs
	j.procs = nil
	j.closed = true
	j.mu.Unlock()
	for _, c := range procs {
		c.Close()
	}
	return nil
}
