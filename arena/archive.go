package arena

import (
	"fmt"
	"io"
	"os"

	"arena/arena/output"
)

// Archive stores the games log of the run in dir in columns
// (output.Archive), under the run's lock, so that no run or merge appends to
// the log while it is rewritten, and says on w what it saved.
func Archive(dir string, drop []string, w io.Writer) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s: not a directory (expected a run directory of arena run)", dir)
	}
	lock, err := lockDir(dir, "arena archive", w)
	if err != nil {
		return err
	}
	defer lock.unlock()
	before, after, err := output.Archive(dir, drop)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %s%s, %d -> %d bytes (%.1fx smaller)\n", dir, output.GamesFile, output.ColumnsExt, before, after, float64(before)/float64(after))
	return nil
}
