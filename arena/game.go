package arena

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"arena/arena/config"
	"arena/arena/openings"
	"arena/arena/record"
	"arena/engines"
	"arena/engines/board"
	"arena/engines/uci"
	"arena/internal/version"
)

// gameSpec is one scheduled game.
type gameSpec struct {
	Number       int // 1-based
	White, Black int // indices into Config.Engines
	Pair         int // 1-based game pair of the schedule; 0: the game has no partner
	Opening      *openings.Opening
}

var sideNames = [2]string{"White", "Black"}

// game is the state of a game in progress.
type game struct {
	cfg     *config.Config
	eng     [2]config.EngineConfig
	players [2]*player
	pos     *board.Position
	fen     string // start FEN given to the engines
	moves   []string
	reps    map[uint64]int // occurrences of each position (RepetitionKey), for threefold repetition
	key     uint64         // RepetitionKey of pos
	clock   [2]time.Duration
	made    [2]int // moves made per side, for the time control's periods
	moved   [2]int // moves played per side, for the engines' own books
	adj     adjudicator
	rec     *record.GameRecord
	number  int // the game's number, which seeds its book draws
	// expect is each side's expected reply (the ponder move of its last
	// bestmove), to ponder on while its opponent thinks; pondering is the
	// move a side's engine is pondering on now (ponder.go).
	expect, pondering [2]string
	// moveCtx bounds each move's search (movectx.go); nil in games made
	// without playGame, whose moves get a context.WithTimeout each.
	moveCtx *moveContext
}

// playGame plays one game to its end. It returns an error only when ctx is
// cancelled (the game is then not recorded); every failure of an engine ends
// the game with a loss for it instead.
func (r *runner) playGame(ctx context.Context, spec gameSpec, onMove func(ply int)) (*record.GameRecord, error) {
	g := &game{
		cfg:    r.cfg,
		eng:    [2]config.EngineConfig{r.cfg.Engines[spec.White], r.cfg.Engines[spec.Black]},
		adj:    adjudicator{rules: r.cfg.Adjudicate},
		number: spec.Number,
		rec: &record.GameRecord{
			Schema:      record.Schema,
			ArenaCommit: version.Stamp(),
			Game:        spec.Number,
			White:       r.cfg.Engines[spec.White].Name,
			Black:       r.cfg.Engines[spec.Black].Name,
			Pair:        spec.Pair,
			Start:       time.Now().UTC().Truncate(time.Second),
		},
	}
	g.players = [2]*player{r.players[spec.White], r.players[spec.Black]}
	g.fen = engines.StartFEN
	if spec.Opening != nil {
		g.fen = spec.Opening.FEN
		g.rec.FEN = spec.Opening.FEN
		g.rec.Opening = spec.Opening.Name
	}
	if err := g.begin(g.fen); err != nil {
		return nil, fmt.Errorf("game %d: start position %q: %w", spec.Number, g.fen, err)
	}
	// A clock starts at base plus increment, as fastchess starts it
	// (TimeControl's time_left_): the first move earns its increment
	// before it is made, as every later one does.
	for s := range 2 {
		if tc := g.eng[s].Limits.TC; tc != nil {
			g.clock[s] = tc.Base + tc.Inc
		}
	}
	started := time.Now()
	defer func() { g.rec.Duration = time.Since(started).Seconds() }()
	g.moveCtx = newMoveContext(ctx)
	defer g.moveCtx.close()

	for s, p := range g.players {
		if p.cfg.Restart == config.RestartOn && !p.fresh {
			p.stop()
		}
		if err := p.start(ctx, r.binary, engineGrace(p.cfg, r.cfg)); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			g.lose(s, record.TermAbandoned, fmt.Sprintf("%s engine failed to start: %v", sideNames[s], err))
			return g.rec, nil
		}
		p.newGame(fmt.Sprintf("game %d: %s vs %s", spec.Number, g.players[0].cfg.Name, g.players[1].cfg.Name))
	}
	g.rec.WhiteID, g.rec.BlackID = g.players[0].id, g.players[1].id
	// A ponder search still running when the game ends is stopped, so the
	// engine's next game starts from a quiet engine.
	defer func() {
		for s := range 2 {
			g.endPonder(s)
		}
	}()

	for !g.over() {
		if err := r.playMove(ctx, g); err != nil {
			return nil, err
		}
		if onMove != nil {
			onMove(len(g.moves))
		}
	}
	g.refreshMemory()
	return g.rec, nil
}

// begin sets the start position.
func (g *game) begin(fen string) error {
	pos, err := board.ParseFEN(fen)
	if err != nil {
		return err
	}
	g.pos, g.key = pos, pos.RepetitionKey()
	g.reps = map[uint64]int{g.key: 1}
	return nil
}

// over applies the game-end rules to the current position and records the
// result when the game has ended. With game_end claim, draws that FIDE makes
// claimable (threefold repetition, fifty moves) are claimed at once, as
// cutechess adjudicates them; with game_end fivefold nobody claims and the
// game goes on to FIDE's automatic draws (fivefold repetition, 75 moves), as
// the thesis's games did (python-chess's is_game_over without claim_draw).
func (g *game) over() bool {
	if g.rec.Result != "" {
		return true
	}
	pos := g.pos
	var legal board.MoveList
	pos.GenerateLegal(&legal)
	switch {
	case legal.Len == 0 && pos.InCheck():
		winner := 1 - int(pos.SideToMove())
		g.finish(winner, record.TermNormal, sideNames[winner]+" mates")
	case legal.Len == 0:
		g.finish(-1, record.TermNormal, "Draw by stalemate")
	case pos.IsInsufficientMaterial():
		g.finish(-1, record.TermNormal, "Draw by insufficient mating material")
	case g.reps[g.key] >= g.repetitions():
		g.finish(-1, record.TermNormal, fmt.Sprintf("Draw by %d-fold repetition", g.repetitions()))
	case pos.HalfmoveClock() >= 2*g.moveRule():
		g.finish(-1, record.TermNormal, fmt.Sprintf("Draw by %s moves rule", map[int]string{50: "fifty", 75: "seventy-five"}[g.moveRule()]))
	default:
		return g.adjudicated()
	}
	return true
}

// adjudicated ends the game by the adjudication rules, max_moves last.
func (g *game) adjudicated() bool {
	winner, rule, reason, ok := g.adj.verdict(len(g.moves))
	if !ok && g.cfg.MaxMoves > 0 && len(g.moves) >= g.cfg.MaxMoves {
		winner, rule, reason, ok = -1, config.AdjudicateMaxMoves, fmt.Sprintf("Draw by adjudication: max moves (%d plies)", g.cfg.MaxMoves), true
	}
	if ok {
		g.finish(winner, record.TermAdjudicated, reason)
		g.rec.Adjudication = rule
	}
	return ok
}

// repetitions is how often a position must occur to end the game.
func (g *game) repetitions() int {
	if g.cfg.GameEnd == config.GameEndFivefold {
		return 5
	}
	return 3
}

// moveRule is the number of moves without a capture or pawn move that ends
// the game.
func (g *game) moveRule() int {
	if g.cfg.GameEnd == config.GameEndFivefold {
		return 75
	}
	return 50
}

// play makes a move given in UCI notation if it is legal and returns its
// SAN.
func (g *game) play(uciMove string) (string, error) {
	move, err := g.pos.ParseMove(uciMove)
	if err != nil {
		return "", fmt.Errorf("illegal move %s", uciMove)
	}
	san := san(g.pos, move)
	g.moved[g.pos.SideToMove()]++
	g.pos.MakeMove(move)
	g.moves = append(g.moves, uciMove)
	g.key = g.pos.RepetitionKey()
	g.reps[g.key]++
	return san, nil
}

// finish records the result: winner 0 (White), 1 (Black) or -1 (draw).
func (g *game) finish(winner int, termination, reason string) {
	switch winner {
	case 0:
		g.rec.Result = "1-0"
	case 1:
		g.rec.Result = "0-1"
	default:
		g.rec.Result = "1/2-1/2"
	}
	g.rec.Termination = termination
	g.rec.Reason = reason
	g.rec.Plies = len(g.moves)
}

// lose ends the game with a loss for side.
func (g *game) lose(side int, termination, reason string) { g.finish(1-side, termination, reason) }

// limits returns the search limits for the side to move, its time limit
// (the move time, or the clock before the move; 0: none) and the time
// after which its move loses on time: the limit plus engineGrace, or
// move_timeout when the engine has no time limit (0: never).
func (g *game) limits(side int) (lim engines.Limits, limit, lose time.Duration) {
	l := g.eng[side].Limits
	lim = engines.Limits{MoveTime: l.MoveTime.D(), Nodes: l.Nodes, Depth: l.Depth}
	switch {
	case l.TC != nil:
		lim.WTime, lim.BTime = g.clock[0], g.clock[1]
		for s, inc := range []*time.Duration{&lim.WInc, &lim.BInc} {
			if tc := g.eng[s].Limits.TC; tc != nil {
				*inc = tc.Inc
			}
		}
		if l.TC.Moves > 0 {
			lim.MovesToGo = l.TC.Moves - g.made[side]%l.TC.Moves
		}
		limit = g.clock[side]
	case l.MoveTime > 0:
		limit = l.MoveTime.D()
	default:
		return lim, 0, g.cfg.MoveTimeout.D()
	}
	grace := engineGrace(g.eng[side], g.cfg)
	if grace == forever {
		return lim, limit, 0
	}
	return lim, limit, limit + grace
}

// playMove asks the side to move for its move and plays it, or ends the game
// when the engine fails.
func (r *runner) playMove(ctx context.Context, g *game) error {
	side := int(g.pos.SideToMove())
	p := g.players[side]
	if mv, ok := g.bookMove(side); ok {
		g.playBook(side, mv)
		return nil
	}
	hit := g.prepareSearch(side)
	lim, limit, late := g.limits(side)
	mctx, release := ctx, func() {}
	switch {
	case late > 0 && g.moveCtx != nil:
		g.moveCtx.arm(late)
		mctx, release = g.moveCtx, g.moveCtx.disarm
	case late > 0:
		var cancel context.CancelFunc
		mctx, cancel = context.WithTimeout(ctx, late)
		release = cancel
	}
	begin := time.Now()
	var res engines.Result
	var err error
	if hit {
		res, err = p.client.PonderHit(mctx, nil)
	} else {
		res, err = p.search(mctx, engines.Position{FEN: g.fen, Moves: g.moves}, lim)
	}
	elapsed := time.Since(begin)
	release()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if res.Time > 0 && err == nil {
		elapsed = res.Time
	}
	// The clock is charged whole milliseconds, as fastchess charges it
	// (its move time is a duration_cast to milliseconds); time_s keeps
	// the measured time.
	charged := elapsed.Truncate(time.Millisecond)
	if g.failed(side, p, res, err, charged, late) {
		return nil
	}
	var overrun float64
	if limit > 0 && charged > limit {
		overrun = (charged - limit).Seconds()
	}
	name := sideNames[side]
	san, err := g.play(res.Move)
	if err != nil {
		g.lose(side, record.TermIllegalMove, fmt.Sprintf("%s makes an illegal move: %s", name, res.Move))
		return nil
	}
	if p.canPonder {
		g.expect[side] = res.Ponder
		p.ponderAsked++
		if res.Ponder != "" {
			p.ponderNamed++
		}
	}
	left := g.charge(side, charged, true)
	g.adj.add(side, res.Score.CP, res.Score.Mate, g.pos.HalfmoveClock() == 0)
	rss, peak := p.memory(false)
	g.rec.Moves = append(g.rec.Moves, record.MoveRecord{
		Ply:       len(g.moves),
		Side:      strings.ToLower(name),
		Engine:    g.eng[side].Name,
		UCI:       res.Move,
		SAN:       san,
		Time:      elapsed.Seconds(),
		TimeLeft:  left,
		Nodes:     res.Nodes,
		Depth:     res.Depth,
		SelDepth:  res.SelDepth,
		ScoreCP:   res.Score.CP,
		Mate:      res.Score.Mate,
		PV:        res.PV,
		RSSMB:     mb(rss),
		PeakMB:    mb(peak),
		Ponderhit: hit,
		Overrun:   overrun,
	})
	return nil
}

// charge takes a move's time off side's clock, adds the increment when
// inc is set, counts the move for the time control's periods and returns
// the time left; nil without a clock.
func (g *game) charge(side int, elapsed time.Duration, inc bool) *float64 {
	tc := g.eng[side].Limits.TC
	if tc == nil {
		return nil
	}
	g.clock[side] = max(0, g.clock[side]-elapsed)
	if inc {
		g.clock[side] += tc.Inc
	}
	g.made[side]++
	if tc.Moves > 0 && g.made[side]%tc.Moves == 0 {
		g.clock[side] += tc.Base
	}
	return new(g.clock[side].Seconds())
}

// failed ends the game when the side to move's search failed: a crash or
// closed output is the engine's failure whenever it comes, so it is
// checked before the clock (a crash after the deadline is not a loss on
// time); then lateness, other errors and a missing move. Stopping the
// player ends the engine's process group, children included.
func (g *game) failed(side int, p *player, res engines.Result, err error, elapsed, late time.Duration) bool {
	name := sideNames[side]
	switch {
	case errors.Is(err, uci.ErrExited):
		p.stop()
		g.lose(side, record.TermAbandoned, fmt.Sprintf("%s engine crashed: %v", name, err))
	case errors.Is(err, uci.ErrClosedOutput):
		p.stop()
		g.lose(side, record.TermAbandoned, fmt.Sprintf("%s engine closed its output: %v", name, err))
	case late > 0 && elapsed > late:
		if err != nil {
			p.stop()
		}
		with := "the time margin"
		if !g.cfg.TimeForfeit.On() {
			with = "move_timeout, time_forfeit off"
		}
		g.lose(side, record.TermTimeForfeit, fmt.Sprintf("%s loses on time (%.2fs, limit %.2fs with %s)", name, elapsed.Seconds(), late.Seconds(), with))
	case err != nil:
		crashed := !p.alive()
		p.stop()
		if crashed {
			g.lose(side, record.TermAbandoned, fmt.Sprintf("%s engine crashed: %v", name, err))
		} else {
			g.lose(side, record.TermAbandoned, fmt.Sprintf("%s engine failed: %v", name, err))
		}
	case res.Move == "":
		g.lose(side, record.TermIllegalMove, name+" makes no move")
	default:
		return false
	}
	return true
}

func mb(bytes uint64) float64 { return float64(bytes) / (1 << 20) }
