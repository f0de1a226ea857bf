// Package record holds what a run records and shares between the runner,
// the output writers and arena report: a finished game (GameRecord, one
// games.jsonl line), the run's Summary (summary.json) and the Builder that
// folds finished games into it one at a time.
//
// The types live apart from the runner so that the writers (arena/output)
// and the readers of finished runs (arena/report) need not import the
// runner, and the runner only calls the writers: imports flow
// arena -> arena/output -> arena/record -> {arena/config, tracker}.
package record

import (
	"time"

	"arena/tracker"
	"arena/tracker/pgn"
)

// Schema is the version of the run files' format this arena writes
// (summary.json, games.jsonl, moves.csv). docs/reference.md ("Schema history") lists
// what each version added; files without a schema field are version 1,
// and readers cope with every version.
const Schema = 2

// Termination values of the PGN Termination tag (PGN standard 9.8.1, plus
// "illegal move" as cutechess writes it).
const (
	TermNormal      = "normal"
	TermAdjudicated = "adjudication"
	TermTimeForfeit = "time forfeit"
	TermIllegalMove = "illegal move"
	TermAbandoned   = "abandoned"
)

// GameRecord is one finished game: what games.jsonl holds per line, and
// what a resumed run reloads.
type GameRecord struct {
	// Schema is the version of the format the line was written in
	// (Schema), ArenaCommit the commit of the arena that played the game
	// (version.Stamp); both absent in files of schema 1.
	Schema      int    `json:"schema,omitempty"`
	ArenaCommit string `json:"arena_commit,omitempty"`
	Game        int    `json:"game"` // 1-based
	White       string `json:"white"`
	Black       string `json:"black"`
	// Pair numbers the game pairs of the schedule (1-based; the two games
	// of a pair share an opening with the colours swapped); 0: unpaired.
	Pair        int    `json:"pair,omitempty"`
	WhiteID     string `json:"white_id,omitempty"` // the engines' UCI id names
	BlackID     string `json:"black_id,omitempty"`
	Opening     string `json:"opening,omitempty"`
	FEN         string `json:"fen,omitempty"` // start position; empty: the standard one
	Result      string `json:"result"`        // "1-0", "0-1", "1/2-1/2"
	Termination string `json:"termination"`   // PGN Termination tag value
	Reason      string `json:"reason"`        // e.g. "White mates", "Black loses on time"
	// Adjudication is the rule that ended an adjudicated game
	// (AdjudicateDraw, AdjudicateResign or AdjudicateMaxMoves).
	Adjudication string       `json:"adjudication,omitempty"`
	Plies        int          `json:"plies"`
	Start        time.Time    `json:"start"`
	Duration     float64      `json:"duration_s"`
	Moves        []MoveRecord `json:"moves"`
	// WhiteStats and BlackStats are the judge's per-side verdict (nil when
	// the judge is off or failed; JudgeError then says why).
	WhiteStats *tracker.PlayerStats `json:"white_judge,omitempty"`
	BlackStats *tracker.PlayerStats `json:"black_judge,omitempty"`
	JudgeError string               `json:"judge_error,omitempty"`
	// JudgeEvals is the number of Stockfish searches the judge ran for the
	// game (positions already cached or decided by the rules cost none).
	JudgeEvals int `json:"judge_evals,omitempty"`
	// LLR is the SPRT's log-likelihood ratio after this game (with sprt:).
	LLR *float64 `json:"llr,omitempty"`
}

// MoveRecord is one ply as measured by the arena and judged by the tracker.
type MoveRecord struct {
	Ply      int      `json:"ply"` // 1-based within the game
	Side     string   `json:"side"`
	Engine   string   `json:"engine"`
	UCI      string   `json:"uci"`
	SAN      string   `json:"san"`
	Time     float64  `json:"time_s"`                // wall time from go to bestmove
	TimeLeft *float64 `json:"time_left_s,omitempty"` // the mover's clock after the move and its increment; nil without a clock
	Nodes    int64    `json:"nodes"`
	Depth    int      `json:"depth"`
	SelDepth int      `json:"seldepth"`
	ScoreCP  int      `json:"score_cp"`   // the engine's score, its own point of view
	Mate     int      `json:"score_mate"` // non-zero: mate in this many moves
	PV       []string `json:"pv,omitempty"`
	RSSMB    float64  `json:"rss_mb"`      // engine process RSS after the move
	PeakMB   float64  `json:"peak_rss_mb"` // engine process peak RSS so far
	// Book: the arena played the move from the engine's own book (no
	// search, no time; left out of the engine's averages). Ponderhit: the
	// engine had pondered on this move's position and its time counts
	// from the ponderhit.
	Book      bool `json:"book,omitempty"`
	Ponderhit bool `json:"ponderhit,omitempty"`
	// Overrun is how far the move ran past its time limit (the move time,
	// or the mover's clock before the move), in seconds; 0 within it. A
	// move past the limit plus the time margin loses on time unless
	// time_forfeit is off, so larger overruns are recorded only then.
	Overrun float64 `json:"overrun_s,omitempty"`
	// Judge fields, nil when the judge is off. EvalCP is the judge's
	// evaluation after the move from White's point of view (mates as
	// ±mate_score), as lichess shows evaluations.
	EvalCP   *int          `json:"eval_cp,omitempty"`
	CPL      *int          `json:"cpl,omitempty"`
	Accuracy *float64      `json:"accuracy,omitempty"`
	Class    tracker.Class `json:"class,omitempty"`
}

// Winner returns 0 for a White win, 1 for Black, -1 for a draw.
func (g *GameRecord) Winner() int {
	switch g.Result {
	case "1-0":
		return 0
	case "0-1":
		return 1
	}
	return -1
}

// Score is the named engine's points in the game: 1, 0.5 or 0 (0.5 for a
// game without a result, as Winner calls it a draw).
func (g *GameRecord) Score(name string) float64 {
	s, ok := pgn.WhiteScore(g.Result)
	switch {
	case !ok:
		return 0.5
	case g.White != name:
		return 1 - s
	}
	return s
}
