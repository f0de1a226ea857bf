package arena

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/arena/output"
	"arena/arena/record"
)

// A config cannot inject UCI commands through an engine option: a value or
// name with a line break (or any control character), or a name with the
// word "value", is refused at load, with the file, the line and the
// option, by arena run and in a sweep's values; no run directory is made.
func TestOptionInjectionRefused(t *testing.T) {
	dir := t.TempDir()
	for i, tc := range []struct{ options, sweep, want string }{
		{`{SyzygyPath: "x\nquit"}`, "", `:8: engines[0].options.SyzygyPath: option "SyzygyPath": its value holds the control character '\n'`},
		{`{"Hash\r\ngo infinite": "1"}`, "", `its name holds the control character '\r'`},
		{`{"Skill value Level": "3"}`, "", `its name holds the word "value"`},
		{`{Hash: "16"}`, "sweep:\n  engines[0].options.SyzygyPath: [\"a\", \"b\\nquit\"]", `engines[0].options.SyzygyPath: option "SyzygyPath": its value holds the control character '\n'`},
	} {
		path := filepath.Join(dir, fmt.Sprintf("inject%d.yaml", i))
		cfg := fmt.Sprintf(`games: 2
judge: off
limits: {depth: 1}
%s
engines:
  - name: SF
    command: %q
    options: %s
  - name: B
    command: %q
`, tc.sweep, fakeBin, tc.options, fakeBin)
		if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, fmt.Sprintf("run%d", i))
		rc, text := runArena(t, "run", path, "--out", out)
		if rc != 1 || !strings.Contains(text, path) || !strings.Contains(text, tc.want) {
			t.Errorf("%s: rc %d, want 1 with %q:\n%s", tc.options, rc, tc.want, text)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: the refused config made %s", tc.options, out)
		}
	}
}

// playSmallRun plays a 2-game run of the fake engines into a new
// directory, with extra config lines, and returns the directory.
func playSmallRun(t *testing.T, extra string) string {
	t.Helper()
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "small.yaml")
	cfg := fmt.Sprintf(`games: 2
max_moves: 20
judge: off
limits: {depth: 1}
%s
engines:
  - name: A
    command: %q
  - name: B
    command: %q
`, extra, fakeBin, fakeBin)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	if rc, out := runArena(t, "run", cfgPath, "--out", run, "--quiet"); rc != 0 {
		t.Fatalf("run: rc %d\n%s", rc, out)
	}
	return run
}

// writeBomb writes path as gzip of size zero bytes (512 MiB compress to
// about 500 KB).
func writeBomb(t *testing.T, path string, size int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for n := int64(0); n < size; n += int64(len(zeros)) {
		if _, err := zw.Write(zeros); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// runArenaRSS is runArena that also returns the peak RSS of the arena
// process in MB.
func runArenaRSS(t *testing.T, args ...string) (int, string, float64) {
	t.Helper()
	cmd := exec.Command(arenaBin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The child's own high-water mark, polled from /proc while it runs:
	// rusage's maxrss of a child started from this (large) test process
	// counts the parent's memory it was cloned from.
	var peakKB int
	done := make(chan struct{})
	go func() {
		defer close(done)
		status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
		for {
			data, err := os.ReadFile(status)
			if err != nil {
				return
			}
			for _, l := range strings.Split(string(data), "\n") {
				if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
					if kb, err := strconv.Atoi(f[1]); err == nil {
						peakKB = max(peakKB, kb)
					}
				}
				if f := strings.Fields(l); len(f) >= 2 && f[0] == "State:" && f[1] == "Z" {
					return
				}
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	err := cmd.Wait()
	<-done
	rc := 0
	if ee, ok := err.(*exec.ExitError); ok {
		rc = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return rc, out.String(), float64(peakKB) / 1024
}

// A decompression bomb as games.jsonl.gz or moves.csv.gz (512 MiB of
// zeros) is refused by arena report (games.jsonl) and arena run --resume with the file
// and the limit named, in bounded memory, and --resume leaves every .gz
// untouched and writes nothing large.
func TestGzipBombRefused(t *testing.T) {
	t.Parallel()
	// One bomb, copied: compressing 512 MiB costs 1.5 s of CPU.
	bomb := filepath.Join(t.TempDir(), "bomb.gz")
	writeBomb(t, bomb, 512<<20)
	data, err := os.ReadFile(bomb)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{output.GamesFile, output.MovesFile} {
		run := playSmallRun(t, "output: {compress: true}")
		gz := filepath.Join(run, name+output.GzipExt)
		if err := os.WriteFile(gz, data, 0o644); err != nil {
			t.Fatal(err)
		}
		before := dirSizes(t, run)

		// The report reads games.jsonl, never moves.csv.
		if name == output.GamesFile {
			rc, out, rss := runArenaRSS(t, "report", run, "--out", filepath.Join(t.TempDir(), "report"))
			if rc != 1 || !strings.Contains(out, gz) || !strings.Contains(out, "more than 64 times") {
				t.Errorf("report with %s a bomb: rc %d, want 1 naming the file and the limit:\n%s", name, rc, out)
			}
			if rss > 200 {
				t.Errorf("report with %s a bomb: peak RSS %.0f MB, want bounded (under 200 MB)", name, rss)
			}
		}
		rc, out, rss := runArenaRSS(t, "run", "--resume", run, "--quiet")
		if rc != 1 || !strings.Contains(out, gz) || !strings.Contains(out, "more than 64 times") {
			t.Errorf("resume with %s a bomb: rc %d, want 1 naming the file and the limit:\n%s", name, rc, out)
		}
		if rss > 200 {
			t.Errorf("resume with %s a bomb: peak RSS %.0f MB, want bounded (under 200 MB)", name, rss)
		}
		after := dirSizes(t, run)
		for f, size := range before {
			if strings.HasSuffix(f, output.GzipExt) && after[f] != size {
				t.Errorf("resume with %s a bomb: %s was %d bytes, now %d (want untouched)", name, f, size, after[f])
			}
		}
		for f, size := range after {
			if size > 8<<20 {
				t.Errorf("resume with %s a bomb wrote %s of %d bytes", name, f, size)
			}
		}
	}
}

// dirSizes maps the names of dir's files to their sizes.
func dirSizes(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int64{}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && !e.IsDir() {
			sizes[e.Name()] = info.Size()
		}
	}
	return sizes
}

// hungEngine is a UCI engine that forks a grandchild into a session of its
// own (setsid), which lives until its stdin (the engine's, from the arena)
// is closed, and on "go" writes DIR/go and hangs: it ignores its input,
// SIGTERM and the end of its stdin.
const hungEngine = `import os, select, signal, sys, time
if os.fork() == 0:
    os.setsid()
    p = select.poll()
    p.register(0, 0)
    while not any(ev & (select.POLLHUP | select.POLLERR) for _, ev in p.poll()):
        pass
    os._exit(0)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        print("id name hung\nuciok", flush=True)
    elif cmd[0] == "isready":
        print("readyok", flush=True)
    elif cmd[0] == "go":
        open(os.path.join(sys.argv[1], "go"), "w").close()
        while True:
            time.sleep(1000)
`

// markedProcesses lists the pids of the processes whose environment holds
// mark (the arena's children and their children inherit it).
func markedProcesses(t *testing.T, mark string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []string
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(env, []byte(mark)) {
			continue
		}
		// A zombie has left nothing running.
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		pids = append(pids, e.Name()+" "+strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	return pids
}

// kill -9 of arena run leaves no process behind: not the hung engine (in
// its own process group, ignoring SIGTERM and its input), not the other
// engine, not the judge's Stockfish, not the grandchild in a session of
// its own. The kernel kills the children (PR_SET_PDEATHSIG); the
// grandchild sees its stdin closed.
func TestKill9LeavesNoProcess(t *testing.T) {
	t.Parallel() // finds its processes by their environment mark, not by name
	needStockfish(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "hung.py")
	if err := os.WriteFile(script, []byte(hungEngine), 0o644); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "kill.yaml")
	cfg := fmt.Sprintf(`games: 2
judge: {depth: 1}
limits: {nodes: 1000}
engines:
  - name: Hung
    command: python3
    args: [%q, %q]
  - name: B
    command: %q
`, script, dir, fakeBin)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	mark := "ARENA_KILL_TEST=" + dir
	cmd := exec.Command(arenaBin, "run", cfgPath, "--out", filepath.Join(dir, "run"))
	cmd.Env = append(os.Environ(), mark)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, p := range markedProcesses(t, mark) {
			var pid int
			fmt.Sscan(p, &pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "go")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the hung engine never got go:\n%s", out.String())
		}
	}
	running := markedProcesses(t, mark)
	// The arena, 2 engines, the grandchild and the judge's Stockfish.
	if len(running) < 5 || !strings.Contains(strings.Join(running, "\n"), "stockfish") {
		cmd.Process.Kill()
		t.Fatalf("before the kill: %d processes, want the arena, two engines, a grandchild and the judge:\n%s", len(running), strings.Join(running, "\n"))
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	var left []string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if left = markedProcesses(t, mark); len(left) == 0 {
			return
		}
	}
	t.Fatalf("after kill -9 of the arena, %d of its %d processes still run (10 s later):\n%s", len(left), len(running), strings.Join(left, "\n"))
}

// An engine that writes its bestmove twice has the second one discarded
// (the isready before each go synchronises), not taken as its answer to
// the next position, where it is illegal or, worse, legal and played:
// its games end as they would without the stale line.
func TestStaleBestmoveDiscarded(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "twice.yaml")
	cfg := fmt.Sprintf(`games: 4
max_moves: 40
judge: off
limits: {depth: 1}
engines:
  - name: Twice
    command: %q
    args: ["-mode", "twice", "-spread"]
  - name: B
    command: %q
    args: ["-spread"]
`, fakeBin, fakeBin)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	if rc, out := runArena(t, "run", cfgPath, "--out", run, "--quiet"); rc != 0 {
		t.Fatalf("run: rc %d\n%s", rc, out)
	}
	games, err := output.ReadGames(filepath.Join(run, output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 4 {
		t.Fatalf("%d games, want 4", len(games))
	}
	for _, g := range games {
		if g.Termination == record.TermIllegalMove || len(g.Moves) < 10 {
			t.Errorf("game %d: %s after %d plies (%s): the stale bestmove was taken", g.Game, g.Termination, len(g.Moves), g.Reason)
		}
	}
}

// arena merge run a second time on the same output (a re-run Kubernetes
// Job) succeeds with "nothing to do", for a run and for a sweep; an output
// holding another run is refused with what to do.
func TestMergeTwice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, sweep := range []string{"", "sweep: {max_moves: [10, 12]}"} {
		cfgPath := filepath.Join(dir, "merge.yaml")
		cfg := fmt.Sprintf(`games: 4
max_moves: 20
judge: off
limits: {depth: 1}
%s
engines:
  - name: A
    command: %q
    args: ["-spread"]
  - name: B
    command: %q
`, sweep, fakeBin, fakeBin)
		if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		base := filepath.Join(dir, fmt.Sprintf("s%d", len(sweep)))
		var shards []string
		for i := range 2 {
			d := fmt.Sprintf("%s-shard%d", base, i)
			if rc, out := runArena(t, "run", cfgPath, "--out", d, "--quiet", "--shard", fmt.Sprintf("%d/2", i)); rc != 0 {
				t.Fatalf("shard %d: rc %d\n%s", i, rc, out)
			}
			shards = append(shards, d)
		}
		merged := base + "-merged"
		for i := range 2 {
			rc, out := runArena(t, "merge", merged, shards[0], shards[1])
			if rc != 0 || i == 1 && !strings.Contains(out, "nothing to do") {
				t.Fatalf("merge %d (sweep %q): rc %d, want 0 (the second: nothing to do):\n%s", i+1, sweep, rc, out)
			}
		}
	}
	other := playSmallRun(t, "")
	rc, out := runArena(t, "merge", other, filepath.Join(dir, "s0-shard0"), filepath.Join(dir, "s0-shard1"))
	if rc != 1 || !strings.Contains(out, "already holds a run of another config") || !strings.Contains(out, "give a new output directory, or remove "+other) {
		t.Fatalf("merge into another run: rc %d, want 1 saying what to do:\n%s", rc, out)
	}
}

// A full disk (here: a file size limit, prlimit --fsize) stops the run
// with an error naming the file as it is in the run directory, not the
// temporary name it was rebuilt under; the games already on disk are kept
// and --resume finishes the run.
func TestFileSizeLimitNamesTheFile(t *testing.T) {
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Fatal("prlimit not found: install util-linux")
	}
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "full.yaml")
	cfg := fmt.Sprintf(`games: 20
max_moves: 60
judge: off
limits: {depth: 1}
engines:
  - name: A
    command: %q
    args: ["-spread"]
  - name: B
    command: %q
    args: ["-spread"]
`, fakeBin, fakeBin)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	rc, out := runCommand(t, "prlimit", "--fsize=40000", arenaBin, "run", cfgPath, "--out", run, "--quiet")
	games := filepath.Join(run, output.GamesFile)
	if rc != 1 || !strings.Contains(out, "append "+games+": file too large") || strings.Contains(out, ".rebuild") {
		t.Fatalf("run under a file size limit: rc %d, want 1 naming %s:\n%s", rc, games, out)
	}
	if rc, out := runArena(t, "run", "--resume", run, "--quiet"); rc != 0 {
		t.Fatalf("resume without the limit: rc %d\n%s", rc, out)
	}
	if got, err := output.ReadGames(games); err != nil || len(got) != 20 {
		t.Fatalf("%d games after the resume (%v), want 20", len(got), err)
	}
}
