package arena

import (
	"fmt"

	"arena/arena/config"
)

// mateCP stands for a mate score in the comparisons: beyond any threshold.
const mateCP = 100_000

// adjudicator follows one game's scores ply by ply.
type adjudicator struct {
	rules      config.Adjudicate
	drawPlies  int    // consecutive plies within the draw score
	resignOwn  [2]int // one-sided: consecutive own moves at -Score or worse, per side
	resignBoth int    // two-sided: consecutive plies agreeing on the same winner
	resignFor  int    // two-sided: the side those plies agree is winning
}

// reset breaks every run of scores: a move without a score (a book move)
// came between.
func (a *adjudicator) reset() {
	a.drawPlies, a.resignOwn, a.resignBoth = 0, [2]int{}, 0
}

// add counts a move's score: side moved, cp and mate are the score from
// its point of view, irreversible says the move was a capture or a pawn
// move.
func (a *adjudicator) add(side, cp, mate int, irreversible bool) {
	own := cp
	if mate != 0 {
		own = mateCP
		if mate < 0 {
			own = -mateCP
		}
	}
	if d := a.rules.Draw; d != nil {
		if irreversible {
			a.drawPlies = 0
		}
		if mate == 0 && abs(cp) <= d.Score {
			a.drawPlies++
		} else {
			a.drawPlies = 0
		}
	}
	r := a.rules.Resign
	if r == nil {
		return
	}
	if !r.TwoSided {
		if own <= -r.Score {
			a.resignOwn[side]++
		} else {
			a.resignOwn[side] = 0
		}
		return
	}
	winner := side
	if own < 0 {
		winner = 1 - side
	}
	switch {
	case abs(own) < r.Score:
		a.resignBoth = 0
	case a.resignBoth > 0 && winner == a.resignFor:
		a.resignBoth++
	default:
		a.resignBoth, a.resignFor = 1, winner
	}
}

// verdict returns the adjudicated winner (0 White, 1 Black, -1 draw), the
// rule and the reason, or ok false while no rule applies. plies is the
// number of plies played in the game.
func (a *adjudicator) verdict(plies int) (winner int, rule, reason string, ok bool) {
	if r := a.rules.Resign; r != nil {
		if r.TwoSided && a.resignBoth >= 2*r.MoveCount {
			w := a.resignFor
			return w, config.AdjudicateResign, fmt.Sprintf("%s wins by adjudication: both engines' scores %d cp or more for %s for %d moves each",
				sideNames[w], r.Score, sideNames[w], r.MoveCount), true
		}
		for s := range 2 {
			if !r.TwoSided && a.resignOwn[s] >= r.MoveCount {
				return 1 - s, config.AdjudicateResign, fmt.Sprintf("%s wins by adjudication: %s's score -%d cp or worse for %d moves",
					sideNames[1-s], sideNames[s], r.Score, r.MoveCount), true
			}
		}
	}
	if d := a.rules.Draw; d != nil && plies >= 2*d.MoveNumber && a.drawPlies >= 2*d.MoveCount {
		return -1, config.AdjudicateDraw, fmt.Sprintf("Draw by adjudication: both scores within %d cp for %d moves each", d.Score, d.MoveCount), true
	}
	return 0, "", "", false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
