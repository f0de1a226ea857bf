package tracker

import (
	"context"
	"fmt"

	"github.com/notnil/chess"

	"arena/engines"
	"arena/engines/uci"
)

// EvaluateMoves returns, for each of the n moves of a game, the judge's
// evaluations of the positions before and after it, each from its own side
// to move (after is from the opponent's side). With ProtocolPosition
// after[i] is before[i+1], each position searched once (EvaluateGame); with
// ProtocolThesis every position is searched as the thesis's script searches
// it (see evaluateThesis), so the two differ.
func (j *Judge) EvaluateMoves(ctx context.Context, startFEN string, moves []string) (before, after []Eval, err error) {
	if j.cfg.Protocol == ProtocolThesis {
		return j.evaluateThesis(ctx, startFEN, moves)
	}
	evals, err := j.EvaluateGame(ctx, startFEN, moves)
	if err != nil {
		return nil, nil, err
	}
	return evals[:len(evals)-1], evals[1:], nil
}

// evaluateThesis judges a game as the thesis's arena script does (seed 000,
// calculate_acpl and get_eval): for each ply, the position before the move
// and the position after it, each by python-chess's analyse on the same
// Stockfish process, which sends the whole game ("position startpos moves
// ...") and "go depth N", and "ucinewgame" only before the first search. The
// hash and history tables stay warm from search to search, so a position
// searched as "after" one move and again as "before" the next may get a
// different score, and Stockfish sees repetitions in the history. The
// evaluations are not cached: they depend on everything searched before.
//
// One difference from the script, which keeps one process for a whole
// match: each game starts with "ucinewgame", so a game's judgement does not
// depend on the games judged before it on that process (nor on how games
// are spread over workers, or on a resumed run). Checkmate and stalemate
// are scored by the rules, as Stockfish scores them (mate 0, cp 0) without
// searching. If a process fails, it is replaced and the search retried once
// on the new, cold process.
func (j *Judge) evaluateThesis(ctx context.Context, startFEN string, moves []string) (before, after []Eval, err error) {
	positions, err := replayUCI(startFEN, moves)
	if err != nil {
		return nil, nil, fmt.Errorf("judge: %w", err)
	}
	var c *uci.Client
	select {
	case c = <-j.free:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	defer func() { j.free <- c }()
	c.NewGame()
	eval := func(i int) (Eval, error) {
		if e, ok := ruleEval(positions[i]); ok {
			j.terminal.Add(1)
			return e, nil
		}
		pos := engines.Position{FEN: startFEN, Moves: moves[:i]}
		var e Eval
		var err error
		c, e, err = j.retry(ctx, c, func(c *uci.Client) (Eval, error) { return j.searchOn(ctx, c, pos) })
		if err != nil {
			return Eval{}, fmt.Errorf("position %d of the game: %w", i, err)
		}
		return e, nil
	}
	before, after = make([]Eval, len(moves)), make([]Eval, len(moves))
	for i := range moves {
		if before[i], err = eval(i); err != nil {
			return nil, nil, err
		}
		if after[i], err = eval(i + 1); err != nil {
			return nil, nil, err
		}
	}
	return before, after, nil
}

// ruleEval scores the positions Stockfish answers without a search:
// checkmate (mate 0) and stalemate (cp 0). Unlike terminalEval it leaves
// dead positions to Stockfish, as the thesis's script does.
func ruleEval(pos *chess.Position) (Eval, bool) {
	switch pos.Status() {
	case chess.Checkmate:
		return Eval{Mate: 0, IsMate: true, Terminal: "checkmate"}, true
	case chess.Stalemate:
		return Eval{Terminal: "stalemate"}, true
	}
	return Eval{}, false
}
