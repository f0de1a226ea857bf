package engines

import "time"

// Time-management constants. They are deliberately simple: the built-in
// engines are compared under fixed move times in most experiments, and the
// clock rule only has to be sensible and never lose on time.
const (
	// defaultMovesToGo is the number of moves the remaining time is spread
	// over when the GUI does not say (sudden death or increment games).
	defaultMovesToGo = 30
	// hardFactor lets one move overrun its target when an iteration is
	// under way, up to this multiple of the target.
	hardFactor = 3
	// minThink is the smallest budget returned under a clock, so that a
	// flagging-close engine still answers with a legal move.
	minThink = time.Millisecond
)

// Budget returns the thinking time for one search under l for the side to
// move (white reports whether White is to move).
//
// soft is the target: an iterative-deepening engine does not start a new
// iteration once soft has elapsed. hard is the absolute limit: the engine
// aborts the iteration in progress when it is reached. Both are zero when the
// search is not limited by time (only depth, nodes, or nothing: infinite,
// until the context is cancelled).
//
// Precedence: Infinite gives no time limit; otherwise MoveTime gives exactly
// MoveTime (soft == hard); otherwise a clock (wtime/btime) gives
// soft = left/movestogo + 3/4 increment (movestogo defaults to 30), and
// hard = 3*soft, where left is the remaining time minus Overhead; both are
// capped at left, and at half of it unless this is the last move before
// the time control (movestogo 1), so one move never spends the whole
// clock. With left at or below 0 the engine answers at once.
func (l Limits) Budget(white bool) (soft, hard time.Duration) {
	switch {
	case l.Infinite:
		return 0, 0
	case l.MoveTime > 0:
		return l.MoveTime, l.MoveTime
	case !l.HasClock():
		return 0, 0
	}
	remaining, inc := l.BTime, l.BInc
	if white {
		remaining, inc = l.WTime, l.WInc
	}
	left := remaining - l.Overhead
	if left <= 0 {
		// Our own clock is unset, at zero or within the overhead: answer
		// at once.
		return minThink, minThink
	}
	mtg := l.MovesToGo
	if mtg <= 0 {
		mtg = defaultMovesToGo
	}
	soft = left/time.Duration(mtg) + inc*3/4
	hard = soft * hardFactor
	limit := left
	if mtg > 1 {
		limit /= 2
	}
	soft = max(min(soft, limit), minThink)
	hard = max(min(hard, limit), soft)
	return soft, hard
}
