package arena

import (
	"time"

	"arena/arena/config"
)

// engineMargin is the time margin of engine e: its own time_margin, else
// the config's.
func engineMargin(e config.EngineConfig, global config.Duration) time.Duration {
	return e.Margin(global)
}

// forever is a grace that never runs out (time_forfeit off with
// move_timeout 0: the arena waits for the engine's move however late).
const forever = time.Duration(1<<63 - 1)

// engineGrace is how long engine e's move may run past its time limit
// before the arena stops it and the move loses on time: the time margin,
// or with time_forfeit off move_timeout (at least the margin), so that a
// late move is waited for and played while a hung engine still cannot
// stall the run.
func engineGrace(e config.EngineConfig, cfg *config.Config) time.Duration {
	margin := engineMargin(e, cfg.TimeMargin)
	switch {
	case cfg.TimeForfeit.On():
		return margin
	case cfg.MoveTimeout.D() == 0:
		return forever
	}
	return max(margin, cfg.MoveTimeout.D())
}
