package tracker

import (
	"context"
	"fmt"
	"io"

	"arena/tracker/pgn"
)

// Analysis is the judge's verdict on a PGN file: per game and per player.
type Analysis struct {
	Judge   JudgeInfo        `json:"judge"`
	Games   []AnalyzedGame   `json:"games"`
	Players []AnalyzedPlayer `json:"players"`
}

// JudgeInfo describes how the judging was done and what it cost.
type JudgeInfo struct {
	Engine    string `json:"engine"` // Stockfish's "id name"
	Depth     int    `json:"depth"`
	Cap       int    `json:"cap"`
	MateScore int    `json:"mate_score"`
	Workers   int    `json:"workers"`
	Protocol  string `json:"protocol"` // ProtocolPosition or ProtocolThesis
	// Schedule says when the judge ran relative to the engines' thinking
	// (e.g. "between moves", "after each game", "offline").
	Schedule string `json:"schedule"`
	Cost
	// Plies is the number of moves judged; EvaluationsPerPly is
	// Evaluations/Plies (the thesis protocol needs 2; the position protocol
	// at most (n+1)/n for one game of n plies, and less with the cache).
	Plies             int     `json:"plies"`
	EvaluationsPerPly float64 `json:"evaluations_per_ply"`
}

// Cost counts the judge's work.
type Cost struct {
	Evaluations       int64 `json:"evaluations"`        // Stockfish searches
	CacheHits         int64 `json:"cache_hits"`         // positions answered from the cache
	TerminalPositions int64 `json:"terminal_positions"` // positions scored by the rules
}

// Sub returns the work done since an earlier snapshot o.
func (c Cost) Sub(o Cost) Cost {
	return Cost{c.Evaluations - o.Evaluations, c.CacheHits - o.CacheHits, c.TerminalPositions - o.TerminalPositions}
}

// Cost returns the work counters accumulated since the judge started.
func (j *Judge) Cost() Cost {
	return Cost{j.Evaluations(), j.CacheHits(), j.TerminalPositions()}
}

// Info describes the judge for a report of plies moves that cost cost.
func (j *Judge) Info(schedule string, plies int, cost Cost) JudgeInfo {
	info := JudgeInfo{
		Engine: j.Engine(), Depth: j.cfg.Depth, Cap: j.cfg.Cap, MateScore: j.cfg.MateScore,
		Workers: j.cfg.Workers, Protocol: j.cfg.Protocol, Schedule: schedule, Cost: cost, Plies: plies,
	}
	if plies > 0 {
		info.EvaluationsPerPly = float64(cost.Evaluations) / float64(plies)
	}
	return info
}

// AnalyzedGame is one judged game.
type AnalyzedGame struct {
	Number     int         `json:"number"` // 1-based position in the file
	Event      string      `json:"event,omitempty"`
	White      string      `json:"white"`
	Black      string      `json:"black"`
	Result     string      `json:"result"`
	StartFEN   string      `json:"start_fen,omitempty"`
	Plies      int         `json:"plies"`
	WhiteStats PlayerStats `json:"white_stats"`
	BlackStats PlayerStats `json:"black_stats"`
	Judgements []Judgement `json:"judgements"`
}

// AnalyzedPlayer is one player's statistics over all its games, both colours.
type AnalyzedPlayer struct {
	Name string `json:"name"`
	PlayerStats
}

// ScheduleOffline is the judge's schedule in `arena analyze`: games are
// judged after they have been played, so no engine's thinking is disturbed.
const ScheduleOffline = "offline (games already played)"

// AnalyzePGN judges every game of a PGN file (the main line of each; see
// pgn.Reader) with j and aggregates per player, by the White and Black tags
// ("?" when missing). onGame, when not nil, is called after each game (for
// progress). On an error (a bad move names the game and the move) the report
// holds the games judged before it.
func AnalyzePGN(ctx context.Context, r io.Reader, j *Judge, onGame func(AnalyzedGame)) (Analysis, error) {
	start := j.Cost()
	var rep Analysis
	players := map[string]*PlayerStats{}
	var order []string
	add := func(name string, s PlayerStats) {
		p, ok := players[name]
		if !ok {
			p = &PlayerStats{}
			players[name] = p
			order = append(order, name)
		}
		p.Add(s)
	}
	plies := 0
	finish := func() Analysis {
		rep.Judge = j.Info(ScheduleOffline, plies, j.Cost().Sub(start))
		for _, name := range order {
			rep.Players = append(rep.Players, AnalyzedPlayer{Name: name, PlayerStats: *players[name]})
		}
		return rep
	}
	pr := pgn.NewReader(r)
	for {
		g, err := pr.Next()
		if err == io.EOF {
			return finish(), nil
		}
		if err != nil {
			return finish(), err
		}
		gr, err := analyzeGame(ctx, j, g)
		if err != nil {
			return finish(), err
		}
		plies += gr.Plies
		rep.Games = append(rep.Games, gr)
		add(gr.White, gr.WhiteStats)
		add(gr.Black, gr.BlackStats)
		if onGame != nil {
			onGame(gr)
		}
	}
}

func analyzeGame(ctx context.Context, j *Judge, g pgn.Game) (AnalyzedGame, error) {
	where := fmt.Sprintf("PGN game %d", g.Number)
	first, err := SideToMove(g.StartFEN)
	if err != nil {
		return AnalyzedGame{}, fmt.Errorf("%s: %w", where, err)
	}
	before, after, err := j.EvaluateMoves(ctx, g.StartFEN, g.Moves)
	if err != nil {
		return AnalyzedGame{}, fmt.Errorf("%s: %w", where, err)
	}
	a, err := AnalyzeMoves(before, after, first, g.Moves, j.Scoring())
	if err != nil {
		return AnalyzedGame{}, fmt.Errorf("%s: %w", where, err)
	}
	return AnalyzedGame{
		Number:     g.Number,
		Event:      g.Tags["Event"],
		White:      g.Tag("White", "?"),
		Black:      g.Tag("Black", "?"),
		Result:     g.Result,
		StartFEN:   g.StartFEN,
		Plies:      len(g.Moves),
		WhiteStats: a.White,
		BlackStats: a.Black,
		Judgements: a.Judgements,
	}, nil
}
