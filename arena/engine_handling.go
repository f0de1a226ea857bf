package arena

import (
	"arena/arena/config"

	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// engineMargin is the time margin of engine e: its own time_margin, else
// the config's.
func engineMargin(e config.EngineConfig, global config.Duration) time.Duration {
	if e.TimeMargin != nil {
		return e.TimeMargin.D()
	}
	return global.D()
}

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// createLog creates the next free traffic log of engine name in dir:
// NAME.1.log, NAME.2.log, ... one per engine process (with restart: on,
// one per game). O_EXCL keeps concurrent games' processes apart.
func createLog(dir, name string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("UCI log directory: %w", err)
	}
	base := unsafeFileChars.ReplaceAllString(name, "_")
	for n := 1; ; n++ {
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("%s.%d.log", base, n)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("UCI log: %w", err)
		}
		return f, nil
	}
}
