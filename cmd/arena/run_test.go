package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// arena run --quiet prints no configuration block and no per-game lines,
// only the results; its warnings go to stderr. Without --quiet the same
// run prints all of it on stdout.
func TestRunQuiet(t *testing.T) {
	t.Setenv("ARENA_TEST_MAIN", "1") // the test binary serves the built-in engines
	tmp := t.TempDir()
	// Two deterministic engines, four games from the start position: the
	// games can repeat, which is warned about.
	file := filepath.Join(tmp, "q.yaml")
	if err := os.WriteFile(file, []byte("games: 4\nmax_moves: 10\njudge: off\nlimits: {depth: 1}\nengines: [{name: A, engine: heuristic}, {name: B, engine: heuristic}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, quiet := range []bool{true, false} {
		args := []string{"run", file, "--out", filepath.Join(tmp, map[bool]string{true: "quiet", false: "loud"}[quiet])}
		if quiet {
			args = append(args, "--quiet")
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout.String(), stderr.String())
		}
		out, errs := stdout.String(), stderr.String()
		for _, line := range []string{"=== MATCH CONFIGURATION ===", "Game 1/4: ", "Game 4/4: "} {
			if strings.Contains(out, line) == quiet {
				t.Errorf("quiet %v: stdout has %q: %v\n%s", quiet, line, !quiet, out)
			}
		}
		for _, line := range []string{"=== RESULTS ===", "A vs B: ", "Results in "} {
			if !strings.Contains(out, line) {
				t.Errorf("quiet %v: stdout lacks %q\n%s", quiet, line, out)
			}
		}
		warning := "Warning: games can repeat"
		if strings.Contains(errs, warning) != quiet || strings.Contains(out, warning) == quiet {
			t.Errorf("quiet %v: the warning should be on %s\nstdout:\n%s\nstderr:\n%s", quiet, map[bool]string{true: "stderr", false: "stdout"}[quiet], out, errs)
		}
	}
}

// A quick match takes -quiet as arena run takes --quiet.
func TestQuickQuiet(t *testing.T) {
	t.Setenv("ARENA_TEST_MAIN", "1")
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-engine", "builtin=random", "-engine", "builtin=heuristic", "-each", "depth=1", "-maxmoves", "5", "-judge", "off",
		"-quiet", "--out", filepath.Join(t.TempDir(), "q")}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if out := stdout.String(); strings.Contains(out, "Game 1/2: ") || strings.Contains(out, "MATCH CONFIGURATION") || !strings.Contains(out, "=== RESULTS ===") {
		t.Errorf("-quiet output:\n%s", out)
	}
}
