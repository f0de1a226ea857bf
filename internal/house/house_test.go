// Package house checks the repository itself: that a clone stays light
// (the tracked files' total and each file's size under a bound) and that
// committed runs keep only their one source of truth, in the compact form
// (docs/report.md: derived files are made on demand, and games logs are
// committed in columns by arena archive).
package house

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const (
	maxTracked = 60_000_000 // bytes of all tracked files together
	maxFile    = 4_000_000  // bytes of one tracked file (the largest net is 3.2 MB)
)

// derived names the files of a run that are derived from its games log or
// regenerated, and the lock a run holds: none is committed.
var derived = regexp.MustCompile(`^results/.*/(moves\.csv|games\.pgn|games\.epd|report\.html|plots/|\.arena\.lock|games\.jsonl$|games\.jsonl\.gz$)`)

func tracked(t *testing.T) (root string, files []string) {
	t.Helper()
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("git rev-parse: %v (these checks need a git checkout and git: apt-get install -y git)", err)
	}
	root = strings.TrimSpace(string(out))
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	if out, err = cmd.Output(); err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	return root, strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

func TestCloneStaysLight(t *testing.T) {
	root, files := tracked(t)
	var total int64
	for _, f := range files {
		st, err := os.Lstat(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		total += st.Size()
		if st.Size() > maxFile {
			t.Errorf("%s: %d bytes, over the %d a tracked file may take: commit results in their compact form (arena archive), data as a recipe (make nnue-data), not as files", f, st.Size(), maxFile)
		}
	}
	t.Logf("%d tracked files, %d bytes", len(files), total)
	if total > maxTracked {
		t.Errorf("the tracked files take %d bytes, over the %d the clone may weigh (docs/report.md)", total, maxTracked)
	}
}

func TestCommittedRunsKeepOneSource(t *testing.T) {
	_, files := tracked(t)
	for _, f := range files {
		if derived.MatchString(f) {
			t.Errorf("%s is committed: a run's PGN, CSV, EPD, report.html and plots are derived (arena export, arena report), its lock is not data, and its games log is committed as games.jsonl.cols (arena archive RUN_DIR)", f)
		}
	}
}
