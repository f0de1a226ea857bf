// Package datagen makes training data for the value network: positions
// (from PGN files, or from games played by the built-in heuristic engine
// with randomised openings) labelled by Stockfish through tracker.Judge,
// written in engines/nn/dataset's file format; and, for the NNUE trainer,
// self-play positions scored by the engine's own search (SelfPlay,
// selfplay.go, in the "FEN | score | result" text of docs/nnue.md).
package datagen

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/heuristic"
	"arena/engines/nn/dataset"
	"arena/internal/atomicfile"
	"arena/tracker"
	"arena/tracker/pgn"
)

// Config describes one datagen run.
type Config struct {
	Out    string // data file, appended to
	Resume bool   // carry on an existing Out (else an existing Out is an error)
	// Exclude lists data files, or EPD/FEN lists (.epd, .fen: read with
	// board.ReadEPDFile), whose positions are never written (e.g. the
	// training data when making a held-out set, or an opening book).
	Exclude []string

	// PGN files to take positions from; none means self-generated games.
	PGN    []string
	MinElo int // both players' WhiteElo/BlackElo tags at least this (0: no filter)

	SkipPlies    int // positions before this ply of a game are not used
	Every        int // take every Every-th ply (1: all)
	MaxPositions int // total positions in Out, resumed ones included

	// Self-generated games: RandomPlies uniformly random moves (at least
	// half that many, seeded per game), then the heuristic engine at a depth
	// drawn from 1..EngineDepth per game, with Epsilon the chance of a random
	// move instead; games stop at MaxPlies.
	Seed        uint64
	RandomPlies int
	EngineDepth int
	Epsilon     float64
	MaxPlies    int

	Judge     tracker.JudgeConfig // Stockfish labeller (Workers processes)
	ChunkSize int                 // records per fsynced append
	Progress  io.Writer           // progress lines (nil: none)
}

// Defaults fills zero fields.
func (c Config) Defaults() Config {
	if c.Every == 0 {
		c.Every = 1
	}
	if c.MaxPositions == 0 {
		c.MaxPositions = 10000
	}
	if c.RandomPlies == 0 {
		c.RandomPlies = 8
	}
	if c.EngineDepth == 0 {
		c.EngineDepth = 3
	}
	if c.MaxPlies == 0 {
		c.MaxPlies = 300
	}
	if c.ChunkSize == 0 {
		c.ChunkSize = 64
	}
	c.Judge = c.Judge.WithDefaults()
	return c
}

// Validate names the first field out of range.
func (c Config) Validate() error {
	switch {
	case c.Out == "":
		return errors.New("no output file given")
	case c.Every < 1:
		return fmt.Errorf("every is %d, expected >= 1", c.Every)
	case c.SkipPlies < 0:
		return fmt.Errorf("skip is %d, expected >= 0", c.SkipPlies)
	case c.MaxPositions < 1:
		return fmt.Errorf("max positions is %d, expected >= 1", c.MaxPositions)
	case c.RandomPlies < 0:
		return fmt.Errorf("random plies is %d, expected >= 0", c.RandomPlies)
	case c.EngineDepth < 1 || c.EngineDepth > 8:
		return fmt.Errorf("engine depth is %d, expected 1..8", c.EngineDepth)
	case c.Epsilon < 0 || c.Epsilon > 1:
		return fmt.Errorf("epsilon is %v, expected 0..1", c.Epsilon)
	case c.MaxPlies < 1:
		return fmt.Errorf("max plies is %d, expected >= 1", c.MaxPlies)
	case c.ChunkSize < 1:
		return fmt.Errorf("chunk is %d, expected >= 1", c.ChunkSize)
	}
	return c.Judge.Validate()
}

// Stats summarises a run.
type Stats struct {
	Existing  int // records found in Out when resuming
	Written   int // records appended by this run
	Games     int // games read or played
	Evaluated int64
	Elapsed   time.Duration
}

// candidate is a position waiting for its label.
type candidate struct {
	fen    string
	result float64
}

// Run labels positions until Out holds cfg.MaxPositions records, the
// sources run out or ctx is cancelled (then the records labelled so far are
// kept: the run can be resumed).
func Run(ctx context.Context, cfg Config) (Stats, error) {
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return Stats{}, err
	}
	var st Stats
	start := time.Now()
	seen, existing, err := seenPositions(cfg)
	st.Existing = existing
	if err != nil {
		return st, err
	}
	want := cfg.MaxPositions - st.Existing
	if want <= 0 {
		return st, nil
	}
	f, err := os.OpenFile(cfg.Out, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return st, err
	}
	defer f.Close()

	judge, err := tracker.NewJudge(ctx, cfg.Judge)
	if err != nil {
		return st, err
	}
	defer judge.Close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	todo := make(chan candidate, 4*cfg.Judge.Workers)
	done := make(chan dataset.Record, 4*cfg.Judge.Workers)
	var srcErr error
	var games int
	go func() {
		defer close(todo)
		emit := func(fen string, result float64) bool {
			k := positionKey(fen)
			if seen[k] {
				return true
			}
			seen[k] = true
			select {
			case todo <- candidate{fen, result}:
				want--
				return want > 0
			case <-ctx.Done():
				return false
			}
		}
		if len(cfg.PGN) > 0 {
			games, srcErr = pgnSource(ctx, cfg, emit)
		} else {
			games, srcErr = gameSource(ctx, cfg, emit)
		}
	}()
	labelErr := label(ctx, cancel, judge, cfg, todo, done)

	if err := writeRecords(f, cfg, done, &st, start); err != nil {
		return st, fmt.Errorf("write %s: %w", cfg.Out, err)
	}
	st.Games = games
	st.Evaluated = judge.Evaluations()
	st.Elapsed = time.Since(start)
	if err := labelErr(); err != nil {
		return st, err
	}
	if srcErr != nil && !errors.Is(srcErr, context.Canceled) {
		return st, srcErr
	}
	return st, ctx.Err()
}

// record converts the judge's evaluation (from the side to move) to White's
// point of view.
func record(c candidate, ev tracker.Eval, mateScore int) dataset.Record {
	sign := 1
	if f := strings.Fields(c.fen); len(f) > 1 && f[1] == "b" {
		sign = -1
	}
	r := dataset.Record{FEN: c.fen, CP: sign * ev.Score(mateScore), Result: c.result}
	if ev.IsMate {
		r.Mate, r.HasMate = sign*ev.Mate, true
	}
	return r
}

// prepareOutput checks Out against Resume and returns the positions it
// already holds. A last line cut short by a crash is removed.
func prepareOutput(cfg Config) (map[string]bool, error) {
	seen := map[string]bool{}
	data, err := os.ReadFile(cfg.Out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return seen, atomicfile.WriteFile(cfg.Out, []byte(dataset.Header+"\n"))
	case err != nil:
		return nil, err
	case !cfg.Resume:
		return nil, fmt.Errorf("%s exists: use --resume to add to it, or choose another file", cfg.Out)
	}
	if cut := len(data) - lastNewline(data); cut > 0 {
		if err := os.Truncate(cfg.Out, int64(len(data)-cut)); err != nil {
			return nil, err
		}
		data = data[:len(data)-cut]
	}
	recs, err := dataset.Read(bytes.NewReader(data), cfg.Out)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		seen[positionKey(r.FEN)] = true
	}
	return seen, nil
}

// lastNewline is the length of data up to and including its last newline.
func lastNewline(data []byte) int {
	for i := len(data) - 1; i >= 0; i-- {
		if data[i] == '\n' {
			return i + 1
		}
	}
	return 0
}

// pgnSource emits the positions of the games in cfg.PGN.
func pgnSource(ctx context.Context, cfg Config, emit func(string, float64) bool) (int, error) {
	games := 0
	for _, path := range cfg.PGN {
		f, err := os.Open(path)
		if err != nil {
			return games, err
		}
		r := pgn.NewReader(bufio.NewReader(f))
		for ctx.Err() == nil {
			g, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				f.Close()
				return games, fmt.Errorf("%s: %w", path, err)
			}
			if cfg.MinElo > 0 && (elo(g.Tags["WhiteElo"]) < cfg.MinElo || elo(g.Tags["BlackElo"]) < cfg.MinElo) {
				continue
			}
			games++
			if !sampleGame(cfg, g.StartFEN, g.Moves, resultScore(g.Result), emit) {
				f.Close()
				return games, nil
			}
		}
		f.Close()
	}
	return games, ctx.Err()
}

func elo(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

// resultScore is White's score, or -1 (dataset.Record's unknown result).
func resultScore(r string) float64 {
	if s, ok := pgn.WhiteScore(r); ok {
		return s
	}
	return -1
}

// sampleGame emits the positions of one game that pass the ply filters; it
// returns false when emit wants no more.
func sampleGame(cfg Config, startFEN string, moves []string, result float64, emit func(string, float64) bool) bool {
	if startFEN == "" {
		startFEN = engines.StartFEN
	}
	p, err := board.ParseFEN(startFEN)
	if err != nil {
		return true // the PGN reader checked the game; an unreadable start is skipped
	}
	for ply := 0; ; ply++ {
		if ply >= cfg.SkipPlies && (ply-cfg.SkipPlies)%cfg.Every == 0 {
			if !emit(p.FEN(), result) {
				return false
			}
		}
		if ply == len(moves) {
			return true
		}
		m, err := p.ParseMove(moves[ply])
		if err != nil {
			return true
		}
		p.MakeMove(m)
	}
}

// gameSource plays games with the heuristic engine and emits their
// positions. Game i is seeded with (Seed, i), so a resumed run replays the
// same games and skips the positions already labelled.
func gameSource(ctx context.Context, cfg Config, emit func(string, float64) bool) (int, error) {
	eng, err := engines.New(heuristic.Name, nil)
	if err != nil {
		return 0, err
	}
	defer eng.Close()
	for i := 0; ctx.Err() == nil; i++ {
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
		moves, result, err := PlayGame(ctx, eng, rng, cfg)
		if err != nil {
			return i, err
		}
		if !sampleGame(cfg, "", moves, result, emit) {
			return i + 1, nil
		}
	}
	return 0, ctx.Err()
}

// PlayGame plays one game from the start position: random opening moves,
// then the engine at a random depth with epsilon-random moves. It returns
// the moves and White's score (-1 when MaxPlies ended the game).
func PlayGame(ctx context.Context, eng engines.Engine, rng *rand.Rand, cfg Config) ([]string, float64, error) {
	eng.NewGame()
	p := board.NewPosition()
	randomPlies := cfg.RandomPlies/2 + rng.IntN(cfg.RandomPlies-cfg.RandomPlies/2+1)
	depth := 1 + rng.IntN(cfg.EngineDepth)
	var moves []string
	var ml board.MoveList
	for len(moves) < cfg.MaxPlies {
		p.GenerateLegal(&ml)
		switch st := p.Status(); {
		case st == board.Checkmate && p.SideToMove() == board.White:
			return moves, 0, nil
		case st == board.Checkmate:
			return moves, 1, nil
		case st != board.Ongoing:
			return moves, 0.5, nil
		}
		var mv string
		if len(moves) < randomPlies || rng.Float64() < cfg.Epsilon {
			mv = ml.Moves[rng.IntN(ml.Len)].String()
		} else {
			res, err := eng.Search(ctx, engines.Position{Moves: moves}, engines.Limits{Depth: depth}, nil)
			if err != nil {
				return nil, 0, err
			}
			if res.Move == "" {
				return nil, 0, fmt.Errorf("engine %s gave no move in %s", eng.Name(), p.FEN())
			}
			mv = res.Move
		}
		m, err := p.ParseMove(mv)
		if err != nil {
			return nil, 0, fmt.Errorf("engine %s: %w", eng.Name(), err)
		}
		p.MakeMove(m)
		moves = append(moves, mv)
	}
	return moves, -1, nil
}

// excludedFENs reads the positions of an --exclude file: a position list
// (.epd, .fen) or a data file.
func excludedFENs(path string) ([]string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".epd", ".fen":
		entries, err := board.ReadEPDFile(path)
		fens := make([]string, len(entries))
		for i, e := range entries {
			fens[i] = e.FEN
		}
		return fens, err
	}
	recs, err := dataset.ReadFile(path)
	fens := make([]string, len(recs))
	for i, r := range recs {
		fens[i] = r.FEN
	}
	return fens, err
}

// positionKey identifies a position for deduplication: tracker.PositionKey,
// the key the arena's repetitions and the judge's cache use. A FEN that does
// not parse is its own key: it cannot repeat a legal position, and the
// labelling step rejects it with its error.
func positionKey(fen string) string {
	k, err := tracker.FENKey(fen)
	if err != nil {
		return fen
	}
	return k
}
