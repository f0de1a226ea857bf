package arena

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An engine without the Ponder option plays without pondering, and the run
// says so once; so does an engine that never names a ponder move.
func TestPonderWithoutOption(t *testing.T) {
	logs := filepath.Join(t.TempDir(), "uci")
	sum, _, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
games: 2
max_moves: 12
judge: off
log: %q
limits: {depth: 1}
engines:
  - {name: Fake, command: %s, args: [-spread], ponder: true}
  - {name: R, engine: random, ponder: true}
`, logs, fakeBin))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	want := `engine "Fake" has no UCI option Ponder, so it plays without pondering`
	if strings.Count(out, want) != 1 || len(sum.Warnings) == 0 || !strings.Contains(strings.Join(sum.Warnings, "\n"), want) {
		t.Errorf("want the warning %q once in the output and the summary:\n%s\n%q", want, out, sum.Warnings)
	}
	// The random mover announces Ponder (every built-in engine does) but
	// names no ponder move.
	if want := `warning: engine "R" named no ponder move in any of its`; strings.Count(out, want) != 1 {
		t.Errorf("want the warning %q once:\n%s", want, out)
	}
	log, err := os.ReadFile(filepath.Join(logs, "Fake.1.log"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), "ponder") {
		t.Errorf("the engine without Ponder was asked to ponder:\n%s", log)
	}
	if sum.GamesPlayed != 2 {
		t.Errorf("%d games played", sum.GamesPlayed)
	}
}

// Pondering counts two busy engines per game in the core warning, and
// the judge, which judges beside play, one core per process.
func TestCoreWarningCountsPondering(t *testing.T) {
	for _, c := range []struct {
		n, perGame, judge, cores int
		want                     string
	}{
		{1, 1, 1, 2, ""},
		{1, 1, 0, 1, ""},
		{1, 1, 1, 1, "concurrency 1 plus 1 judge process(es) judging beside play need 2 cores, the machine has 1"},
		{1, 2, 1, 2, "concurrency 1 with pondering (2 engines thinking per game) plus 1 judge process(es) judging beside play need 3 cores"},
		{2, 1, 0, 2, ""},
		{2, 2, 0, 2, "concurrency 2 with pondering (2 engines thinking per game) plus 0 judge process(es) judging beside play need 4 cores, the machine has 2"},
		{2, 1, 2, 2, "concurrency 2 plus 2 judge process(es) judging beside play need 4 cores"},
	} {
		got := strings.Join(coreWarning(c.n, c.perGame, c.judge, c.cores), "")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("coreWarning(%d, %d, %d, %d) = %q, want %q", c.n, c.perGame, c.judge, c.cores, got, c.want)
		}
	}
}
