package arena

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/config"
	"time"
)

// restart: on gives every game a new engine process, restart: auto keeps
// one; log: writes one traffic log per process.
func TestRestartPolicyAndTrafficLog(t *testing.T) {
	logs := filepath.Join(t.TempDir(), "uci-logs")
	sum, _, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
games: 3
pairs: false
max_moves: 4
judge: off
log: %q
limits: {depth: 1}
engines:
  - {name: Fresh, engine: heuristic, restart: on}
  - {name: Kept, engine: heuristic, restart: auto}
`, logs))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if sum.GamesPlayed != 3 {
		t.Fatalf("%d games played, want 3", sum.GamesPlayed)
	}
	entries, err := os.ReadDir(logs)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got, want := strings.Join(names, " "), "Fresh.1.log Fresh.2.log Fresh.3.log Kept.1.log"; got != want {
		t.Fatalf("logs %q, want %q (a process per game for restart: on, one for auto)", got, want)
	}
	kept, err := os.ReadFile(filepath.Join(logs, "Kept.1.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"> uci\n", "< uciok\n", "> ucinewgame\n", "< readyok\n", "> go depth 1\n", "< bestmove "} {
		if !strings.Contains(string(kept), want) {
			t.Errorf("Kept.1.log lacks %q:\n%s", want, kept)
		}
	}
	// Kept played all three games in one process: three ucinewgame.
	if n := strings.Count(string(kept), "> ucinewgame\n"); n != 3 {
		t.Errorf("Kept.1.log: %d ucinewgame, want 3", n)
	}
	// Each game's traffic starts with a note naming it (games alternate colours).
	for i, want := range []string{"# game 1: Fresh vs Kept\n", "# game 2: Kept vs Fresh\n", "# game 3: Fresh vs Kept\n"} {
		if n := strings.Count(string(kept), want); n != 1 {
			t.Errorf("Kept.1.log: %d notes %q, want 1", n, want)
		}
		fresh, err := os.ReadFile(filepath.Join(logs, fmt.Sprintf("Fresh.%d.log", i+1)))
		if err != nil || strings.Count(string(fresh), "> ucinewgame\n") != 1 || !strings.Contains(string(fresh), want) {
			t.Errorf("Fresh.%d.log: want one game, note %q; got %v:\n%s", i+1, want, err, fresh)
		}
	}
}

// workdir is the engine process's working directory.
func TestEngineWorkdir(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, fmt.Sprintf("judge: off\nlimits: {depth: 1}\nengines: [{name: A, engine: heuristic, workdir: %q}, {name: B, engine: heuristic}]\n", dir))
	p := &player{cfg: cfg.Engines[0]}
	if err := p.start(context.Background(), arenaBin, time.Second); err != nil {
		t.Fatal(err)
	}
	defer p.stop()
	cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", p.client.PID()))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.EvalSymlinks(dir); cwd != want {
		t.Errorf("engine's working directory %q, want %q", cwd, want)
	}
}

// An engine's time_margin replaces the config's for its own moves.
func TestEngineTimeMargin(t *testing.T) {
	cfg := writeConfig(t, "judge: off\ntime_margin: 1s\nlimits: {movetime: 100ms}\nengines: [{name: A, engine: heuristic, time_margin: 50ms}, {name: B, engine: heuristic}]\n")
	g := &game{cfg: cfg, eng: [2]config.EngineConfig{cfg.Engines[0], cfg.Engines[1]}}
	if _, _, late := g.limits(0); late != 150*time.Millisecond {
		t.Errorf("A's deadline %v, want 150ms (movetime + its own margin)", late)
	}
	if _, _, late := g.limits(1); late != 1100*time.Millisecond {
		t.Errorf("B's deadline %v, want 1.1s (movetime + the config's margin)", late)
	}
	// time_forfeit off: a late move is waited for up to move_timeout (or
	// for ever with move_timeout 0), never less than the margin.
	for _, tc := range []struct {
		timeout string
		want    time.Duration
	}{{"2m", 100*time.Millisecond + 2*time.Minute}, {"10ms", 1100 * time.Millisecond}, {"0s", 0}} {
		cfg := writeConfig(t, "judge: off\ntime_forfeit: off\nmove_timeout: "+tc.timeout+"\nlimits: {movetime: 100ms}\nengines: [{name: A, engine: heuristic}, {name: B, engine: heuristic}]\n")
		g := &game{cfg: cfg, eng: [2]config.EngineConfig{cfg.Engines[0], cfg.Engines[1]}}
		if _, limit, late := g.limits(0); limit != 100*time.Millisecond || late != tc.want {
			t.Errorf("time_forfeit off, move_timeout %s: limit %v, deadline %v; want 100ms, %v", tc.timeout, limit, late, tc.want)
		}
	}
}

func TestEngineHandlingConfigErrors(t *testing.T) {
	for _, tc := range []struct{ engine, want string }{
		{"restart: sometimes", `engines[0].restart: "sometimes" is not a restart policy`},
		{"workdir: /no/such/dir", `engines[0].workdir: directory "/no/such/dir" not found`},
		{"time_margin: 100", "engines[0].time_margin"},
	} {
		_, err := config.Parse("c.yaml", []byte("limits: {depth: 1}\nengines: [{engine: heuristic, "+tc.engine+"}, {engine: heuristic, name: h2}]\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.engine, err, tc.want)
		}
	}
}

// start_timeout bounds an engine's answer to "uci": an engine that never
// answers fails the run with an error that names the limit and the key.
func TestStartTimeout(t *testing.T) {
	t.Parallel() // waits on a 300 ms timeout, not the CPU: main_test.go
	_, _, out, err := playMatch(t, context.Background(), `
games: 1
max_moves: 4
judge: off
start_timeout: 300ms
limits: {depth: 1}
engines:
  - {name: Mute, command: sleep, args: ["30"]}
  - {name: H, engine: heuristic}
`)
	if err == nil {
		t.Fatalf("a run with an engine that never answers uci succeeded:\n%s", out)
	}
	for _, want := range []string{`no "uciok" within 300ms`, "start_timeout"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// ucinewgame_timeout bounds the readyok after ucinewgame: an engine that
// takes longer loses the game with an error naming the key, and the run
// goes on (with a fresh process) to the end.
func TestNewGameTimeout(t *testing.T) {
	t.Parallel() // waits on 300 ms timeouts, not the CPU: main_test.go
	sum, _, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
games: 2
max_moves: 4
judge: off
ucinewgame_timeout: 300ms
limits: {depth: 1}
engines:
  - {name: Slow, command: %q, args: ["-mode", "slownewgame", "-late", "5s"]}
  - {name: H, engine: heuristic}
`, fakeBin))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if sum.GamesPlayed != 2 || sum.Engines[0].Losses != 2 {
		t.Fatalf("%d games, Slow lost %d; want 2 lost:\n%s", sum.GamesPlayed, sum.Engines[0].Losses, out)
	}
	for _, g := range sum.Games {
		for _, want := range []string{`no "readyok" within 300ms after "ucinewgame/isready"`, "ucinewgame_timeout"} {
			if !strings.Contains(g.Reason, want) {
				t.Errorf("game %d: reason %q lacks %q", g.Game, g.Reason, want)
			}
		}
	}
}
