package tracker

import (
	"fmt"
	"math"

	"arena/engines"
)

// Scoring holds the thesis's centipawn-loss parameters.
type Scoring struct {
	MateScore int `json:"mate_score"` // centipawn value of a mate (python-chess mate_score)
	Cap       int `json:"cap"`        // upper clamp of one move's loss
}

// DefaultScoring is the thesis's: mate_score=10000, loss capped at 900.
var DefaultScoring = Scoring{MateScore: 10000, Cap: 900}

// CentipawnLoss is the thesis's loss of one move (arena listing,
// calculate_acpl): best = before.score(mate_score) with before the position
// before the move from the mover's side; actual = -after.score(mate_score)
// with after the position after the move, which is from the opponent's side;
// loss = min(max(0, best - actual), cap).
func (s Scoring) CentipawnLoss(before, after Eval) int {
	best := before.Score(s.MateScore)
	actual := -after.Score(s.MateScore)
	return min(max(0, best-actual), s.Cap)
}

// Lichess's win percentage and accuracy (sources: lichess-org/scalachess
// core/src/main/scala/eval.scala, WinPercent; lichess-org/lila
// modules/analyse/src/main/AccuracyPercent.scala; lichess.org/page/accuracy).
const (
	// lichessCeiling is Eval.Cp.CEILING: centipawns are clamped to ±1000
	// before the win percentage, and a mate counts as ±1000.
	lichessCeiling = 1000
	// winMultiplier is WinPercent.winningChances's MULTIPLIER (lila PR 11148).
	winMultiplier = -2 * engines.WinScale
)

// WinningChances is lichess's winningChances: 2/(1+exp(-0.00368208*cp)) - 1,
// in [-1, 1], for centipawns from one side's point of view.
func WinningChances(cp int) float64 {
	w := 2/(1+math.Exp(winMultiplier*float64(cp))) - 1
	return max(-1, min(1, w))
}

// WinPercent is lichess's WinPercent.fromCentiPawns: 50 + 50 *
// winningChances(cp) with cp clamped to ±1000, in [0, 100].
func WinPercent(cp int) float64 {
	return 50 + 50*WinningChances(max(-lichessCeiling, min(lichessCeiling, cp)))
}

// lichessCP is an evaluation as lichess feeds it to WinPercent: centipawns
// clamped to ±1000 and a mate as ±1000 (WinPercent.fromMate: +1000 when the
// side to move mates, -1000 when it is mated, including Mate(0)).
func (e Eval) lichessCP() int {
	if e.IsMate {
		if e.Mate > 0 {
			return lichessCeiling
		}
		return -lichessCeiling
	}
	return max(-lichessCeiling, min(lichessCeiling, e.CP))
}

// MoveAccuracy is lichess's AccuracyPercent.fromWinPercents for one move,
// with win percentages from the mover's side before and after it: 100 when
// the move lost nothing, else 103.1668100711649*exp(-0.04354415386753951*
// (before-after)) - 3.166924740191411 + 1 (lichess's "uncertainty bonus"),
// clamped to [0, 100].
func MoveAccuracy(winBefore, winAfter float64) float64 {
	if winAfter >= winBefore {
		return 100
	}
	raw := 103.1668100711649*math.Exp(-0.04354415386753951*(winBefore-winAfter)) - 3.166924740191411 + 1
	return max(0, min(100, raw))
}

// Class is lichess's judgement of a move.
type Class string

// The judgements; an ordinary move has the empty Class.
const (
	Good       Class = ""
	Inaccuracy Class = "inaccuracy"
	Mistake    Class = "mistake"
	Blunder    Class = "blunder"
)

// Classify is lichess's move judgement (lila modules/tree/src/main/Advice.scala).
// before is the position before the move from the mover's side, after the
// position after it from the opponent's side (as CentipawnLoss takes them):
//
//   - both centipawn scores: the mover's drop of WinningChances (unclamped
//     centipawns, result in [-1, 1]) is a blunder from 0.3, a mistake from
//     0.2, an inaccuracy from 0.1 (15, 10 and 5 points of win percentage);
//   - a mate appears against the mover ("checkmate is now unavoidable"):
//     inaccuracy when the mover was already below -999 cp, mistake below
//     -700, else blunder;
//   - the mover had a mate and lost it ("lost forced checkmate sequence"):
//     inaccuracy when still above 999 cp after, mistake above 700, else
//     blunder (a mate against the mover counts as 0 cp there, as in lila);
//   - any other change between mate scores (a slower mate, a mate delivered)
//     is not judged.
func Classify(before, after Eval) Class {
	if !before.IsMate && !after.IsMate {
		drop := WinningChances(before.CP) - WinningChances(-after.CP)
		switch {
		case drop >= 0.3:
			return Blunder
		case drop >= 0.2:
			return Mistake
		case drop >= 0.1:
			return Inaccuracy
		}
		return Good
	}
	// The opponent, to move after the move, mates: the mover is being mated.
	moverMated := after.IsMate && after.Mate > 0
	switch {
	case !before.IsMate && moverMated:
		switch {
		case before.CP < -999:
			return Inaccuracy
		case before.CP < -700:
			return Mistake
		}
		return Blunder
	case before.IsMate && before.Mate > 0 && (!after.IsMate || moverMated):
		afterCP := 0
		if !after.IsMate {
			afterCP = -after.CP
		}
		switch {
		case afterCP > 999:
			return Inaccuracy
		case afterCP > 700:
			return Mistake
		}
		return Blunder
	}
	return Good
}

// Judgement is the verdict on one move (one ply).
type Judgement struct {
	Ply  int    `json:"ply"`            // 0-based index of the move in the game
	Side Side   `json:"side"`           // the mover
	Move string `json:"move,omitempty"` // UCI, when known
	// Before and After are the judge's evaluations of the positions before
	// and after the move, each from its own side to move (After is from the
	// opponent's side), as Stockfish reports them.
	Before Eval `json:"before"`
	After  Eval `json:"after"`
	CPL    int  `json:"cpl"`
	// WinBefore and WinAfter are lichess win percentages from the mover's side.
	WinBefore float64 `json:"win_before"`
	WinAfter  float64 `json:"win_after"`
	Accuracy  float64 `json:"accuracy"`
	Class     Class   `json:"class,omitempty"`
}

// PlayerStats aggregates the judgements of one player's moves, over one game
// or, with Add, over several.
type PlayerStats struct {
	Games int `json:"games"` // games in which the player made at least one judged move
	Moves int `json:"moves"`
	// CPLSum is the sum of the moves' centipawn losses; ACPL = CPLSum/Moves,
	// the thesis's per-move mean (pooled over all moves when aggregated).
	CPLSum int     `json:"cpl_sum"`
	ACPL   float64 `json:"acpl"`
	// Accuracy is lichess's game accuracy (see GameAccuracy); aggregated over
	// games it is the mean of the per-game accuracies.
	Accuracy     float64 `json:"accuracy"`
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
}

// Add merges o into p (e.g. a player's statistics over several games).
func (p *PlayerStats) Add(o PlayerStats) {
	if p.Games+o.Games > 0 {
		p.Accuracy = (p.Accuracy*float64(p.Games) + o.Accuracy*float64(o.Games)) / float64(p.Games+o.Games)
	}
	p.Games += o.Games
	p.Moves += o.Moves
	p.CPLSum += o.CPLSum
	if p.Moves > 0 {
		p.ACPL = float64(p.CPLSum) / float64(p.Moves)
	}
	p.Inaccuracies += o.Inaccuracies
	p.Mistakes += o.Mistakes
	p.Blunders += o.Blunders
}

// GameAnalysis is the judge's verdict on one game.
type GameAnalysis struct {
	Judgements []Judgement `json:"judgements"`
	White      PlayerStats `json:"white"`
	Black      PlayerStats `json:"black"`
}

// Player returns the statistics of one side.
func (g GameAnalysis) Player(s Side) PlayerStats {
	if s == Black {
		return g.Black
	}
	return g.White
}

// AnalyzeGame turns the evaluations of positions 0..n of a game (n+1 evals,
// each from its side to move, as EvaluateGame returns them) into n
// judgements and per-side statistics. first is the side to move in position
// 0; moves, when not nil, are the n UCI moves (copied into the judgements).
// The "after" evaluation of a move is the "before" evaluation of the next, so
// each position is evaluated once.
func AnalyzeGame(evals []Eval, first Side, moves []string, s Scoring) (GameAnalysis, error) {
	if len(evals) == 0 {
		return GameAnalysis{}, fmt.Errorf("no evaluations: expected one per position (moves+1)")
	}
	n := len(evals) - 1
	if moves != nil && len(moves) != n {
		return GameAnalysis{}, fmt.Errorf("%d evaluations for %d moves: expected moves+1", len(evals), len(moves))
	}
	return AnalyzeMoves(evals[:n], evals[1:], first, moves, s)
}

// AnalyzeMoves is AnalyzeGame for evaluations taken per move, as
// EvaluateMoves returns them: before[i] and after[i] are the positions
// before and after move i, each from its side to move. Each move's loss uses
// its own pair (the thesis's protocol searches the position between two
// moves twice, with different results); the game accuracy, which needs one
// value per position, uses before[i] for position i and the last after.
func AnalyzeMoves(before, after []Eval, first Side, moves []string, s Scoring) (GameAnalysis, error) {
	return AnalyzeMovesExcept(before, after, first, moves, s, nil)
}

// AnalyzeMovesExcept is AnalyzeMoves with the plies for which skip is true
// (book moves the engine did not choose) judged but left out of the
// players' statistics: their losses, classes and accuracies count for
// neither side. skip may be nil.
func AnalyzeMovesExcept(before, after []Eval, first Side, moves []string, s Scoring, skip []bool) (GameAnalysis, error) {
	n := len(before)
	if len(after) != n || (moves != nil && len(moves) != n) {
		return GameAnalysis{}, fmt.Errorf("%d evaluations before and %d after for %d moves: expected one of each per move", n, len(after), len(moves))
	}
	if n == 0 {
		return GameAnalysis{}, nil
	}
	g := GameAnalysis{Judgements: make([]Judgement, n)}
	side := first
	for i := range n {
		before, after := before[i], after[i]
		j := Judgement{
			Ply:       i,
			Side:      side,
			Before:    before,
			After:     after,
			CPL:       s.CentipawnLoss(before, after),
			WinBefore: WinPercent(before.lichessCP()),
			WinAfter:  WinPercent(-after.lichessCP()),
			Class:     Classify(before, after),
		}
		if moves != nil {
			j.Move = moves[i]
		}
		j.Accuracy = MoveAccuracy(j.WinBefore, j.WinAfter)
		g.Judgements[i] = j
		side = side.Other()
	}
	evals := append(append(make([]Eval, 0, n+1), before...), after[n-1])
	acc := gameAccuracy(evals, first, skip)
	for _, sd := range []Side{White, Black} {
		var p PlayerStats
		for _, j := range g.Judgements {
			if j.Side != sd || skipped(skip, j.Ply) {
				continue
			}
			p.Moves++
			p.CPLSum += j.CPL
			switch j.Class {
			case Inaccuracy:
				p.Inaccuracies++
			case Mistake:
				p.Mistakes++
			case Blunder:
				p.Blunders++
			}
		}
		if p.Moves > 0 {
			p.Games = 1
			p.ACPL = float64(p.CPLSum) / float64(p.Moves)
			p.Accuracy = acc[sd]
		}
		if sd == White {
			g.White = p
		} else {
			g.Black = p
		}
	}
	return g, nil
}

// GameAccuracy is lichess's game accuracy per side (lila
// modules/analyse/src/main/AccuracyPercent.scala, gameAccuracy; statistics
// from lichess-org/scalalib Maths.scala): the win percentages of all
// positions from White's side; window = clamp(moves/10, 2, 8); each move is
// weighted by the population standard deviation of the window of win
// percentages around it (the first window repeated for the first window-2
// moves, then a sliding window), clamped to [0.5, 12]; a side's accuracy is
// the mean of the weighted mean of its move accuracies and their harmonic
// mean (each accuracy taken as at least 1 there). One deviation from lichess:
// lichess prepends a fixed +15 cp for the start position, which it does not
// analyse; we use the judge's evaluation of position 0. The result is indexed
// by Side; a side without moves gets 0.
func GameAccuracy(evals []Eval, first Side) [2]float64 { return gameAccuracy(evals, first, nil) }

// skipped reports whether ply i is one to leave out.
func skipped(skip []bool, i int) bool { return i < len(skip) && skip[i] }

// gameAccuracy is GameAccuracy over the moves not skipped; the skipped
// moves' positions still shape the volatility windows.
func gameAccuracy(evals []Eval, first Side, skip []bool) [2]float64 {
	var out [2]float64
	n := len(evals) - 1
	if n < 1 {
		return out
	}
	wins := make([]float64, len(evals)) // from White's side
	side := first
	for i, e := range evals {
		cp := e.lichessCP()
		if side == Black {
			cp = -cp
		}
		wins[i] = WinPercent(cp)
		side = side.Other()
	}
	window := max(2, min(8, n/10))
	weights := make([]float64, 0, n)
	for range min(window, len(wins)) - 2 {
		weights = append(weights, windowWeight(wins[:window]))
	}
	for i := 0; i+window <= len(wins); i++ {
		weights = append(weights, windowWeight(wins[i:i+window]))
	}
	var wSum, wAcc, hSum [2]float64
	var count [2]int
	side = first
	for i := range n {
		before, after := wins[i], wins[i+1]
		if side == Black {
			before, after = 100-before, 100-after
		}
		if skipped(skip, i) {
			side = side.Other()
			continue
		}
		acc := MoveAccuracy(before, after)
		wAcc[side] += acc * weights[i]
		wSum[side] += weights[i]
		hSum[side] += 1 / max(1, acc)
		count[side]++
		side = side.Other()
	}
	for _, sd := range []Side{White, Black} {
		if count[sd] == 0 {
			continue
		}
		weighted := wAcc[sd] / wSum[sd]
		harmonic := float64(count[sd]) / hSum[sd]
		out[sd] = (weighted + harmonic) / 2
	}
	return out
}

// windowWeight is a window's volatility weight: the population standard
// deviation of its win percentages, clamped to [0.5, 12].
func windowWeight(xs []float64) float64 {
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return max(0.5, min(12, math.Sqrt(ss/float64(len(xs)))))
}
