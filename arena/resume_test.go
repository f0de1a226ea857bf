package arena

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/arena/config"
	"arena/arena/output"
)

// Killing the arena with SIGKILL mid-run and resuming keeps every finished
// game: the real binary is run, killed as soon as a game is on disk, then
// resumed with --resume.
func TestKillAndResume(t *testing.T) {
	t.Parallel() // waits on fake engines' 20 ms moves, not the CPU: main_test.go
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "kill.yaml")
	run := filepath.Join(dir, "run")
	// About 20 ms per ply, so a game takes a second and the kill lands
	// while a later game is being played.
	cfg := fmt.Sprintf(`
games: 4
max_moves: 50
judge: off
limits: {movetime: 1s}
engines:
  - name: A
    command: %q
    args: ["-mode", "late", "-late", "20ms"]
  - name: B
    command: %q
    args: ["-mode", "late", "-late", "20ms"]
`, fakeBin, fakeBin)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	out := killRunAfterGames(t, cfgPath, run, 1)
	games := filepath.Join(run, output.GamesFile)
	before, err := os.ReadFile(games)
	if err != nil {
		t.Fatal(err)
	}
	kept := bytes.Count(before, []byte("\n"))
	if kept >= 4 {
		t.Fatalf("all games finished before the kill; the test needs a slower game\n%s", out)
	}

	resume := exec.Command(arenaBin, "run", "--resume", run)
	res, err := resume.CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, res)
	}
	if !strings.Contains(string(res), fmt.Sprintf("Resuming: %d of 4 games already played", kept)) {
		t.Errorf("resume output:\n%s", res)
	}
	after, err := os.ReadFile(games)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(after, before[:bytes.LastIndexByte(before, '\n')+1]) {
		t.Errorf("the games finished before the kill changed on resume")
	}
	checkRunFiles(t, run, 4)
}

// killRunAfterGames starts "arena run CFG --out RUN", kills it (SIGKILL, no
// chance to clean up) as soon as its games log holds n games, and returns
// what it printed.
func killRunAfterGames(t *testing.T, cfgPath, run string, n int) string {
	t.Helper()
	cmd := exec.Command(arenaBin, "run", cfgPath, "--out", run)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	games := filepath.Join(run, output.GamesFile)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		data, _ := os.ReadFile(games)
		if bytes.Count(data, []byte("\n")) >= n {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("not %d games finished in 60 s:\n%s", n, out.String())
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	return out.String()
}

// A record cut short by a kill during its write is dropped on resume, and
// the files written from the records lose the half-written game too.
func TestResumeDropsTornRecord(t *testing.T) {
	cfg := fakeMatch(t, 2)
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(t.Context(), cfg, Options{Binary: arenaBin, OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	games := filepath.Join(dir, output.GamesFile)
	data, err := os.ReadFile(games)
	if err != nil {
		t.Fatal(err)
	}
	// Cut the second record in half, and leave half a game in the PGN.
	lines := bytes.SplitAfter(data, []byte("\n"))
	torn := append(append([]byte{}, lines[0]...), lines[1][:len(lines[1])/2]...)
	if err := os.WriteFile(games, torn, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, output.PGNFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[Event \"torn\"]\n[Round \"2\"]\n")
	f.Close()
	recs, err := output.ReadGames(games)
	if err != nil || len(recs) != 1 {
		t.Fatalf("ReadGames of a torn file: %d records, %v; want 1", len(recs), err)
	}
	sum, err := Resume(t.Context(), dir, Options{Binary: arenaBin})
	if err != nil || sum.GamesPlayed != 2 {
		t.Fatalf("resume: %v (%v games)", err, sum)
	}
	checkRunFiles(t, dir, 2)

	// A damaged record that is not the last line is an error, not a skip.
	if err := os.WriteFile(games, append([]byte("{bad\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := output.ReadGames(games); err == nil || !strings.Contains(err.Error(), output.GamesFile+":1:") {
		t.Errorf("damaged record: got %v, want an error naming %s:1", err, output.GamesFile)
	}
}

func TestRunRefusesFinishedDir(t *testing.T) {
	cfg := writeConfig(t, fmt.Sprintf(`
games: 1
max_moves: 4
judge: off
limits: {depth: 1}
engines:
  - {name: A, command: %q}
  - {name: B, command: %q}
`, fakeBin, fakeBin))
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(t.Context(), cfg, Options{Binary: arenaBin, OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	_, err := Run(t.Context(), cfg, Options{Binary: arenaBin, OutDir: dir})
	if err == nil || !strings.Contains(err.Error(), "arena run --resume "+dir) {
		t.Errorf("second run into the same directory: %v, want a pointer to --resume", err)
	}
	if _, err := Resume(t.Context(), t.TempDir(), Options{Binary: arenaBin}); err == nil || !strings.Contains(err.Error(), "no config.yaml") {
		t.Errorf("resume of an empty directory: %v", err)
	}
}

// A judge that cannot be found is reported with the paths tried, before any
// run directory is created.
func TestMissingJudge(t *testing.T) {
	cfg := writeConfig(t, fmt.Sprintf(`
judge: {engine: no-such-stockfish}
limits: {depth: 1}
engines:
  - {name: A, command: %q}
  - {name: B, command: %q}
`, fakeBin, fakeBin))
	dir := filepath.Join(t.TempDir(), "run")
	_, err := Run(t.Context(), cfg, Options{Binary: arenaBin, OutDir: dir})
	if err == nil || !strings.Contains(err.Error(), `"no-such-stockfish" not found (tried: `) || !strings.Contains(err.Error(), "/usr/games/no-such-stockfish") {
		t.Fatalf("got %v, want a not-found error listing the paths tried", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a run that could not start left %s behind (%v)", dir, err)
	}
}

// A run directory committed with the repository resumes from a checkout
// elsewhere: config.yaml names the book (and an engine's own book)
// relative to the run directory, and the config hash (what arena merge
// compares) does not depend on where the books lie.
func TestResumeFromMovedCheckout(t *testing.T) {
	checkout := filepath.Join(t.TempDir(), "checkout")
	book := filepath.Join(checkout, "configs", "book.epd")
	if err := os.MkdirAll(filepath.Dir(book), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exampleBook(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(book, data, 0o644); err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(checkout, "configs", "own.bin")
	polyglotBook(t, own, bookEntries, bookWeights)
	cfg := writeConfig(t, fmt.Sprintf(`
games: 4
max_moves: 6
judge: off
limits: {depth: 1}
openings: {file: %q}
engines: [{name: A, engine: heuristic, book: {file: %q}}, {name: B, engine: random}]
`, book, own))
	run := filepath.Join(checkout, "results", "r")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &cancelAfter{prefix: "Game 2/4:", cancel: cancel}
	if _, err := Run(ctx, cfg, Options{Binary: arenaBin, OutDir: run, Stdout: w}); err == nil {
		t.Fatal("the run was not interrupted")
	}
	written, err := os.ReadFile(filepath.Join(run, output.ConfigFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"book.epd", "own.bin"} {
		if want := "file: " + filepath.Join("..", "..", "configs", name) + "\n"; !strings.Contains(string(written), want) {
			t.Fatalf("config.yaml does not name %s relative to the run (%q):\n%s", name, want, written)
		}
	}
	before, err := ConfigHash(cfg)
	if err != nil {
		t.Fatal(err)
	}

	moved := filepath.Join(filepath.Dir(checkout), "elsewhere")
	if err := os.Rename(checkout, moved); err != nil {
		t.Fatal(err)
	}
	run = filepath.Join(moved, "results", "r")
	var out bytes.Buffer
	sum, err := Resume(context.Background(), run, Options{Binary: arenaBin, Stdout: &out})
	if err != nil {
		t.Fatalf("resume after the move: %v\n%s", err, out.String())
	}
	if sum.GamesPlayed != 4 {
		t.Fatalf("%d games after the resume, want 4\n%s", sum.GamesPlayed, out.String())
	}
	checkRunFiles(t, run, 4)
	reloaded, err := config.Load(filepath.Join(run, output.ConfigFile))
	if err != nil {
		t.Fatal(err)
	}
	if reloaded.Openings.File != filepath.Join(moved, "configs", "book.epd") || reloaded.Engines[0].Book.File != filepath.Join(moved, "configs", "own.bin") {
		t.Errorf("the reloaded config reads %s and %s", reloaded.Openings.File, reloaded.Engines[0].Book.File)
	}
	after, err := ConfigHash(reloaded)
	if err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Errorf("config hash %s after the move, %s before", after, before)
	}
}
