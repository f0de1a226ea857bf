package arena

import (
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/config"
)

// The repeated-games warning fires for deterministic engines without a
// book, and not when the games differ by opening, clock or seed.
func TestRepeatWarning(t *testing.T) {
	base := `
games: 4
judge: off
limits: {depth: 2}
engines:
  - {name: A, engine: heuristic}
  - {name: B, engine: heuristic}
`
	cfg := writeConfig(t, base)
	if w := repeatWarnings(cfg, 0); len(w) != 1 || !strings.Contains(w[0], "A vs B play deterministically") || !strings.Contains(w[0], "no opening book") {
		t.Errorf("deterministic config without a book: %q", w)
	}
	if w := repeatWarnings(cfg, 2); w != nil {
		t.Errorf("4 games, a book of 2 openings in pairs: %q, want none", w)
	}
	// A knockout's encounter of 2 games may go on to 2 tie-break games.
	ko := writeConfig(t, strings.Replace(base, "games: 4", "games: 2\nformat: knockout", 1))
	if w := repeatWarnings(ko, 1); len(w) != 1 || !strings.Contains(w[0], "for 4 games per pairing") {
		t.Errorf("a knockout of 2 games per encounter from one opening: %q", w)
	}
	if w := repeatWarnings(ko, 2); w != nil {
		t.Errorf("a knockout of 2 games per encounter from 2 openings: %q, want none", w)
	}
	if w := repeatWarnings(cfg, 1); len(w) != 1 || !strings.Contains(w[0], "the book has 1 openings") {
		t.Errorf("4 games from one opening: %q", w)
	}
	if w := repeatWarnings(writeConfig(t, strings.Replace(base, "{depth: 2}", "{movetime: 1s}", 1)), 0); w != nil {
		t.Errorf("movetime limits: %q, want none", w)
	}
	if w := repeatWarnings(writeConfig(t, strings.Replace(base, "{name: B, engine: heuristic}", "{name: B, engine: random}", 1)), 0); w != nil {
		t.Errorf("a seeded opponent: %q, want none", w)
	}
	// A run of that config records and prints the warning.
	sum, _, out, err := playMatch(t, t.Context(), strings.Replace(base, "games: 4", "games: 3\nmax_moves: 4", 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Warnings) != 1 || !strings.Contains(out, "Warning: games can repeat") {
		t.Errorf("summary warnings %q, output:\n%s", sum.Warnings, out)
	}
	if sum.Engines[0].MedianNodes <= 0 || sum.Engines[0].MedianTime <= 0 {
		t.Errorf("medians not recorded: %+v", sum.Engines[0])
	}
}

// Sizes past the limits are config errors; a sweep is refused over an
// existing run and a run over an existing sweep.
func TestLimitsAndRunKinds(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"games: 2000000000\nformat: gauntlet\n", "more than the 100000000 games a run may schedule"},
		{"games: 40000000\nformat: round-robin\n", "pairings is 120000000 games"},
		{"concurrency: 5000\n", "more than the limit of 1024"},
	} {
		text := c.text + "limits: {depth: 1}\nengines: [{name: A, engine: random}, {name: B, engine: random}, {name: C, engine: random}]\n"
		if _, err := config.Parse("x.yaml", []byte(text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	run := writeConfig(t, `
games: 1
max_moves: 2
judge: off
limits: {depth: 1}
engines: [{name: A, engine: random}, {name: B, engine: random}]
`)
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(t.Context(), run, Options{Binary: arenaBin, OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	sweep := writeConfig(t, `
games: 1
max_moves: 2
judge: off
limits: {depth: 1}
engines: [{name: A, engine: random}, {name: B, engine: random}]
sweep: {max_moves: [2, 4]}
`)
	if _, err := RunSweep(t.Context(), sweep, Options{Binary: arenaBin, OutDir: dir}); err == nil || !strings.Contains(err.Error(), "already holds a run") {
		t.Errorf("sweep into a run directory: %v", err)
	}
	if _, err := ResumeSweep(t.Context(), dir, Options{Binary: arenaBin}); err == nil || !strings.Contains(err.Error(), "not a sweep directory") {
		t.Errorf("resume of a run as a sweep: %v", err)
	}
	sweepDir := filepath.Join(t.TempDir(), "sweep")
	if _, err := RunSweep(t.Context(), sweep, Options{Binary: arenaBin, OutDir: sweepDir}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(t.Context(), run, Options{Binary: arenaBin, OutDir: sweepDir}); err == nil || !strings.Contains(err.Error(), "already holds a sweep") {
		t.Errorf("run into a sweep directory: %v", err)
	}
	if _, err := Resume(t.Context(), sweepDir, Options{Binary: arenaBin}); err == nil || !strings.Contains(err.Error(), "holds a sweep") {
		t.Errorf("resume of a sweep as a run: %v", err)
	}
}
