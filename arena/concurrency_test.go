package arena

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"arena/arena/output"
	"arena/arena/record"
	_ "arena/engines/random"
)

// nodeLimited is a 20-game match under node limits: the heuristic engine
// (deterministic) against the random mover (seeded per game).
const nodeLimited = `
name: nodes
games: 20
max_moves: 60
judge: off
limits: {nodes: 400}
engines:
  - {name: H, engine: heuristic}
  - {name: R, engine: random}
`

// gameKey is what must not depend on concurrency or sharding: who played
// which colour, the moves and the result.
func gameKey(g *record.GameRecord) string {
	moves := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		moves[i] = m.UCI
	}
	return fmt.Sprintf("%d %s-%s %s %s %s", g.Game, g.White, g.Black, g.Result, g.Reason, strings.Join(moves, " "))
}

func gameKeys(t *testing.T, dir string) []string {
	t.Helper()
	games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, g := range games {
		keys = append(keys, gameKey(g))
	}
	return keys
}

// The same config gives the same games at concurrency 1 and 2, and the
// outputs of the concurrent run are in game order.
func TestConcurrencyGivesIdenticalGames(t *testing.T) {
	t.Parallel()
	cfg := writeConfig(t, nodeLimited)
	var dirs []string
	for _, n := range []int{1, 2} {
		dir := filepath.Join(t.TempDir(), fmt.Sprint("c", n))
		var out bytes.Buffer
		sum, err := Run(t.Context(), cfg, Options{Binary: arenaBin, OutDir: dir, Stdout: &out, Concurrency: n})
		if err != nil {
			t.Fatalf("concurrency %d: %v\n%s", n, err, out.String())
		}
		if sum.Concurrency != n || sum.Cores < 1 || sum.GamesPlayed != 20 || !sum.Complete {
			t.Errorf("concurrency %d: summary has concurrency %d, cores %d, %d games, complete %v", n, sum.Concurrency, sum.Cores, sum.GamesPlayed, sum.Complete)
		}
		if len(sum.Warnings) != 0 {
			t.Errorf("concurrency %d: warnings %q for a config whose games cannot repeat", n, sum.Warnings)
		}
		if !strings.Contains(out.String(), "games/hour at concurrency") {
			t.Errorf("no speed line:\n%s", out.String())
		}
		saved, err := readSummary(dir)
		if err != nil || saved == nil || len(saved.Games) != 20 {
			t.Fatalf("concurrency %d: summary.json: %v, %+v, want 20 games", n, err, saved)
		}
		for i, g := range saved.Games {
			if g.Game != i+1 {
				t.Fatalf("concurrency %d: summary game %d is game %d", n, i+1, g.Game)
			}
		}
		checkRunFiles(t, dir, 20)
		checkGameOrder(t, dir)
		dirs = append(dirs, dir)
	}
	a, b := gameKeys(t, dirs[0]), gameKeys(t, dirs[1])
	if len(a) != 20 || !reflect.DeepEqual(a, b) {
		t.Errorf("games differ between concurrency 1 and 2:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	// The random mover got a different seed for every game: its first
	// moves as Black are not all the same.
	first := map[string]bool{}
	for _, k := range a {
		if f := strings.Fields(k); len(f) > 5 && strings.HasPrefix(f[1], "H-") {
			first[f[5]] = true
		}
	}
	if len(first) < 2 {
		t.Errorf("the random mover answered every game the same way (%v): seeds do not vary per game", first)
	}
}

// Shards played separately and merged equal the single run, game by game;
// merge refuses overlaps, gaps and shards of another config.
func TestShardsMergeToTheSingleRun(t *testing.T) {
	t.Parallel()
	cfg := writeConfig(t, nodeLimited)
	root := t.TempDir()
	single := filepath.Join(root, "single")
	if _, err := Run(t.Context(), cfg, Options{Binary: arenaBin, OutDir: single}); err != nil {
		t.Fatal(err)
	}
	var shards []string
	for i := range 3 {
		dir := filepath.Join(root, fmt.Sprint("shard", i))
		sum, err := Run(t.Context(), cfg, Options{Binary: arenaBin, OutDir: dir, Shard: record.Shard{Index: i, Count: 3}})
		if err != nil {
			t.Fatal(err)
		}
		if want := shardGames(20, record.Shard{Index: i, Count: 3}); sum.GamesPlayed != want || sum.Shard == nil || *sum.Shard != (record.Shard{Index: i, Count: 3}) {
			t.Errorf("shard %d: %d games, shard %v; want %d games", i, sum.GamesPlayed, sum.Shard, want)
		}
		shards = append(shards, dir)
	}
	merged := filepath.Join(root, "merged")
	sum, err := Merge(merged, []string{shards[2], shards[0], shards[1]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := gameKeys(t, single), gameKeys(t, merged); !reflect.DeepEqual(a, b) {
		t.Errorf("merged games differ from the single run:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	want, err := readSummary(single)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range sum.Engines {
		w := want.Engines[i]
		if e.Wins != w.Wins || e.Draws != w.Draws || e.Losses != w.Losses || e.Moves != w.Moves || e.MedianNodes != w.MedianNodes {
			t.Errorf("merged %s: %+v\nsingle: %+v", e.Name, e, w)
		}
	}
	pairs := func(ps []record.PairSummary) string {
		var out []string
		for _, p := range ps {
			out = append(out, fmt.Sprint(p.A, p.B, p.Elo.Wins, p.Elo.Draws, p.Elo.Losses))
			if p.Penta != nil {
				out = append(out, fmt.Sprint(p.Penta.Counts))
			}
		}
		return strings.Join(out, "; ")
	}
	if pairs(sum.Pairs) != pairs(want.Pairs) || !sum.Complete || sum.Shard != nil {
		t.Errorf("merged pairs %+v (complete %v, shard %v), single %+v", sum.Pairs, sum.Complete, sum.Shard, want.Pairs)
	}
	checkRunFiles(t, merged, 20)

	other := writeConfig(t, strings.Replace(nodeLimited, "nodes: 400", "nodes: 401", 1))
	otherShard := filepath.Join(root, "other")
	if _, err := Run(t.Context(), other, Options{Binary: arenaBin, OutDir: otherShard, Shard: record.Shard{Index: 1, Count: 3}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dirs []string
		want string
	}{
		{[]string{shards[0], otherShard, shards[2]}, "come from different configs"},
		{[]string{shards[0], shards[1], shards[1], shards[2]}, "overlapping shards"},
		{[]string{shards[0], shards[2]}, "shard(s) 1/3 missing"},
		{[]string{single, shards[0]}, "a whole run, not a shard"},
	} {
		_, err := Merge(filepath.Join(root, "refused"), c.dirs, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("merge %v: %v, want %q", c.dirs, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "refused")); !os.IsNotExist(err) {
		t.Errorf("a refused merge left its output directory behind")
	}
}

// Two runs on one directory at once: one is refused by the lock, and
// every game of the other is kept.
func TestTwoRunsOnOneDirectory(t *testing.T) {
	cfg := writeConfig(t, fmt.Sprintf(`
games: 4
max_moves: 20
judge: off
limits: {movetime: 1s}
engines:
  - {name: A, command: %q, args: ["-mode", "late", "-late", "10ms"]}
  - {name: B, command: %q, args: ["-mode", "late", "-late", "10ms"]}
`, fakeBin, fakeBin))
	dir := filepath.Join(t.TempDir(), "run")
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = Run(t.Context(), cfg, Options{Binary: arenaBin, OutDir: dir})
		}()
		time.Sleep(50 * time.Millisecond)
	}
	wg.Wait()
	var locked *LockedError
	refused := 0
	for _, err := range errs {
		if err != nil && (errors.As(err, &locked) || strings.Contains(err.Error(), "already holds a run")) {
			refused++
		} else if err != nil {
			t.Errorf("unexpected error: %v", err)
		}
	}
	if refused != 1 {
		t.Errorf("errors %v: want exactly one run refused", errs)
	}
	checkRunFiles(t, dir, 4)
	// A resume while a run holds the lock is refused too.
	l, err := lockDir(dir, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(t.Context(), dir, Options{Binary: arenaBin}); !errors.As(err, &locked) || locked.Holder.PID != os.Getpid() {
		t.Errorf("resume of a locked run: %v, want a LockedError naming this process", err)
	}
	l.unlock()
}

// A lock left by a process that died is taken over with a message naming it.
func TestStaleLockTakenOver(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	data, _ := json.Marshal(lockInfo{PID: dead.Process.Pid, Start: 12345, Host: host, Command: "arena run"})
	if err := os.WriteFile(filepath.Join(dir, LockFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	var msg bytes.Buffer
	l, err := lockDir(dir, "test", &msg)
	if err != nil {
		t.Fatal(err)
	}
	defer l.unlock()
	if !strings.Contains(msg.String(), fmt.Sprintf("stale lock of %s (pid %d", dir, dead.Process.Pid)) {
		t.Errorf("takeover message %q", msg.String())
	}
	if _, err := lockDir(dir, "second", nil); err == nil {
		t.Errorf("a second lock of a held directory succeeded")
	}
}

// kill -9 during a concurrency-2 run, then --resume: every game finished
// before the kill is kept exactly once and unchanged, the games in progress
// are replayed, and the outputs end in game order.
func TestKillAndResumeConcurrent(t *testing.T) {
	t.Parallel() // waits on fake engines' 15 ms moves, not the CPU: main_test.go
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "kill.yaml")
	run := filepath.Join(dir, "run")
	cfg := fmt.Sprintf(`
games: 8
max_moves: 30
concurrency: 2
judge: off
limits: {movetime: 1s}
engines:
  - {name: A, command: %q, args: ["-mode", "late", "-late", "15ms"]}
  - {name: B, command: %q, args: ["-mode", "late", "-late", "15ms"]}
`, fakeBin, fakeBin)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	out := killRunAfterGames(t, cfgPath, run, 3)
	games := filepath.Join(run, output.GamesFile)
	before, err := output.ReadGames(games)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) >= 8 {
		t.Fatalf("all games finished before the kill\n%s", out)
	}
	res, err := exec.Command(arenaBin, "run", "--resume", run).CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, res)
	}
	after, err := output.ReadGames(games)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != 8 {
		t.Fatalf("%d games after resume, want 8", len(after))
	}
	for _, g := range before {
		a := after[g.Game-1]
		if !a.Start.Equal(g.Start) || gameKey(a) != gameKey(g) {
			t.Errorf("game %d finished before the kill was replayed or changed (start %v -> %v)", g.Game, g.Start, a.Start)
		}
	}
	data, _ := os.ReadFile(games)
	for i, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var g record.GameRecord
		if err := json.Unmarshal(line, &g); err != nil || g.Game != i+1 {
			t.Errorf("%s line %d holds game %d (%v); a complete run is in game order", output.GamesFile, i+1, g.Game, err)
		}
	}
	checkRunFiles(t, run, 8)
	checkGameOrder(t, run)
}

// checkGameOrder checks that games.pgn and moves.csv hold the games in
// game order.
func checkGameOrder(t *testing.T, dir string) {
	t.Helper()
	pgn, err := os.ReadFile(filepath.Join(dir, output.PGNFile))
	if err != nil {
		t.Fatal(err)
	}
	round := 0
	for _, line := range strings.Split(string(pgn), "\n") {
		var n int
		if _, err := fmt.Sscanf(line, "[Round \"%d\"]", &n); err == nil {
			if n != round+1 {
				t.Fatalf("games.pgn: game %d after game %d", n, round)
			}
			round = n
		}
	}
	csvData, err := os.ReadFile(filepath.Join(dir, output.MovesFile))
	if err != nil {
		t.Fatal(err)
	}
	last := 0
	for _, line := range strings.Split(strings.TrimSpace(string(csvData)), "\n")[1:] {
		var n int
		fmt.Sscanf(line, "%d,", &n)
		if n < last {
			t.Fatalf("moves.csv: game %d after game %d", n, last)
		}
		last = n
	}
}

// A sweep shards per setting and per game, and its shards merge setting by
// setting into what the whole sweep plays.
func TestSweepShardsMerge(t *testing.T) {
	t.Parallel()
	cfg := writeConfig(t, `
games: 4
max_moves: 20
judge: off
limits: {nodes: 300}
engines:
  - {name: H, engine: heuristic}
  - {name: R, engine: random}
sweep: {max_moves: [10, 20]}
`)
	root := t.TempDir()
	whole := filepath.Join(root, "whole")
	if _, err := RunSweep(t.Context(), cfg, Options{Binary: arenaBin, OutDir: whole}); err != nil {
		t.Fatal(err)
	}
	var shards []string
	for i := range 2 {
		dir := filepath.Join(root, fmt.Sprint("shard", i))
		if _, err := RunSweep(t.Context(), cfg, Options{Binary: arenaBin, OutDir: dir, Shard: record.Shard{Index: i, Count: 2}}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, dir)
	}
	merged := filepath.Join(root, "merged")
	if _, err := Merge(merged, shards, nil); err != nil {
		t.Fatal(err)
	}
	ss, err := readSweep(merged)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range ss.Settings {
		if !st.Complete || st.GamesPlayed != 4 {
			t.Errorf("setting %s: complete %v, %d games", st.Value, st.Complete, st.GamesPlayed)
		}
		if a, b := gameKeys(t, filepath.Join(whole, st.Dir)), gameKeys(t, filepath.Join(merged, st.Dir)); !reflect.DeepEqual(a, b) {
			t.Errorf("setting %s: merged games differ from the whole sweep", st.Value)
		}
	}
}

// A lock held with an empty record (a holder between its flock and its
// write, or releasing; or this process's own released lock, shared for an
// instant by a child forked then) is waited out, not refused as "pid 0".
func TestLockWaitsOutAnEmptyRecord(t *testing.T) {
	dir := t.TempDir()
	other, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		other.Close()
	}()
	var msg bytes.Buffer
	l, err := lockDir(dir, "test", &msg)
	if err != nil {
		t.Fatalf("lock released 50 ms after the attempt: %v", err)
	}
	defer l.unlock()
	if msg.Len() != 0 {
		t.Errorf("an empty record reported as a stale lock: %q", msg.String())
	}
	if got := (&LockedError{Dir: dir}).Error(); strings.Contains(got, "pid 0") || !strings.Contains(got, "recorded no holder") {
		t.Errorf("a holder without a record is described as %q", got)
	}
}
