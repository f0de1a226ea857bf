package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/output"
)

// exportConfig plays four short games two at a time (so games.jsonl is
// written out of game order until the run ends), on a clock (tl=), with
// every PGN comment field and judged by Stockfish (cpl=, the judge's CSV
// columns): every field the derived files hold has something to say.
const exportConfig = `games: 4
max_moves: 12
concurrency: 2
limits: {tc: 40/20+0.1, depth: 2}
judge: {engine: stockfish, depth: 1}
output: {pgn: all, pgn_comments: [timeleft, nodes, seldepth, nps, pv, mem, cpl]%s}
engines: [{name: A, engine: heuristic}, {name: B, engine: heuristic, options: {preset: strong}}]
`

// arena export derives from games.jsonl the games.pgn and moves.csv a run
// wrote, byte for byte, from a plain run and from one compressed at its
// end; without --pgn and --csv it writes them into the run directory.
func TestExportEqualsRun(t *testing.T) {
	t.Setenv("ARENA_TEST_MAIN", "1") // the test binary serves the built-in engines
	for _, compress := range []bool{false, true} {
		tmp := t.TempDir()
		dir := playExportRun(t, tmp, compress)
		pgn, moves := filepath.Join(tmp, "x.pgn"), filepath.Join(tmp, "x.csv")
		runOK(t, "export", dir, "--pgn", pgn, "--csv", moves)
		for _, c := range [][2]string{{pgn, output.PGNFile}, {moves, output.MovesFile}} {
			if got, want := readFile(t, c[0]), readRunFile(t, dir, c[1]); !bytes.Equal(got, want) || len(want) == 0 {
				t.Errorf("compress %v: exported %s (%d bytes) differs from the run's (%d bytes)", compress, c[1], len(got), len(want))
			}
		}
		if out := runOK(t, "export", dir, "--csv", "-"); out != string(readRunFile(t, dir, output.MovesFile)) {
			t.Errorf("compress %v: --csv - printed\n%s", compress, out)
		}
		kept := keptCopy(t, dir)
		runOK(t, "export", kept)
		for _, f := range []string{output.PGNFile, output.MovesFile} {
			if !bytes.Equal(readFile(t, filepath.Join(kept, f)), readRunFile(t, dir, f)) {
				t.Errorf("compress %v: arena export RUN_DIR wrote a %s unlike the run's", compress, f)
			}
		}
	}
}

// A run that keeps only config.yaml, summary.json and games.jsonl resumes:
// finished, it plays nothing; with its last game dropped from the log, it
// plays and judges that game alone, and rebuilds games.pgn and moves.csv.
func TestResumeKeptRun(t *testing.T) {
	t.Setenv("ARENA_TEST_MAIN", "1")
	tmp := t.TempDir()
	kept := keptCopy(t, playExportRun(t, tmp, false))
	runOK(t, "run", "--resume", kept, "--quiet")
	if s := readSummary(t, kept); s.Throughput.Games != 0 || s.GamesPlayed != 4 {
		t.Errorf("finished run resumed: %d games played, %d in the summary; want 0 and 4", s.Throughput.Games, s.GamesPlayed)
	}
	log := filepath.Join(kept, output.GamesFile)
	lines := strings.SplitAfter(string(readFile(t, log)), "\n")
	if err := os.WriteFile(log, []byte(strings.Join(lines[:3], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	runOK(t, "run", "--resume", kept, "--quiet")
	s := readSummary(t, kept)
	if s.Throughput.Games != 1 || s.GamesPlayed != 4 {
		t.Errorf("resumed without game 4: %d games played, %d in the summary; want 1 and 4", s.Throughput.Games, s.GamesPlayed)
	}
	games, err := output.ReadGames(log)
	if err != nil || len(games) != 4 || games[3].WhiteStats == nil || games[3].BlackStats == nil {
		t.Fatalf("resumed log: %d games (%v); want 4, the last judged", len(games), err)
	}
	var pgn bytes.Buffer
	if err := output.Export(kept, &pgn, nil); err != nil || !bytes.Equal(pgn.Bytes(), readFile(t, filepath.Join(kept, output.PGNFile))) {
		t.Errorf("the resumed run's games.pgn differs from its export (%v)", err)
	}
}

func TestExportErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, output.ConfigFile), []byte("limits: {depth: 1}\nengines: [{name: A, engine: random}, {name: B, engine: random}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{dir, "--pgn", "-", "--csv", "-"}, 2, "cannot both be standard output"},
		{[]string{dir, dir}, 2, "expected one run directory, got 2"},
		{[]string{dir, "--pgn", "-"}, 1, dir + ": no finished games"},
		{[]string{filepath.Join(dir, "none"), "--pgn", "-"}, 1, filepath.Join(dir, "none", output.ConfigFile)},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"export"}, c.args...), &stdout, &stderr); code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("export %v: exit %d, stderr %q; want %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
}

// playExportRun plays exportConfig into tmp/run.
func playExportRun(t *testing.T, tmp string, compress bool) string {
	t.Helper()
	extra := ""
	if compress {
		extra = ", compress: true"
	}
	file := filepath.Join(tmp, "export.yaml")
	if err := os.WriteFile(file, []byte(strings.Replace(exportConfig, "%s", extra, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "run")
	runOK(t, "run", file, "--out", dir, "--quiet")
	return dir
}

// keptCopy copies what a committed run keeps of dir into a new directory,
// decompressed: config.yaml, summary.json and games.jsonl.
func keptCopy(t *testing.T, dir string) string {
	t.Helper()
	kept := filepath.Join(t.TempDir(), "kept")
	if err := os.Mkdir(kept, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{output.ConfigFile, output.SummaryJSON, output.GamesFile} {
		if err := os.WriteFile(filepath.Join(kept, f), readRunFile(t, dir, f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return kept
}

func runOK(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("arena %v: exit %d\n%s%s", args, code, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// readRunFile reads a run file stored plain or compressed.
func readRunFile(t *testing.T, dir, name string) []byte {
	t.Helper()
	r, err := output.Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
