package arena

import (
	"time"

	"arena/arena/config"
)

// engineMargin is the time margin of engine e: its own time_margin, else
// the config's.
func engineMargin(e config.EngineConfig, global config.Duration) time.Duration {
	if e.TimeMargin != nil {
		return e.TimeMargin.D()
	}
	return global.D()
}
