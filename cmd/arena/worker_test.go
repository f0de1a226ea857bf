package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"arena/arena/output"
	"arena/engines/uci"
)

// The worker build (worker.go, make worker): a cluster node's binary that
// plays external UCI engines only. Built here as make builds it, then run as
// a user runs it: its commands, a real match of two Stockfish processes, the
// refusal of a built-in engine, and the packages it leaves out.
func TestWorkerBuild(t *testing.T) {
	sf, err := uci.LocateEngine("stockfish")
	if err != nil {
		t.Fatalf("stockfish not found (%v): install it with make test-tools (apt-get install -y stockfish)", err)
	}
	t.Chdir("../..")
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse HEAD: %v (the test needs the repository's git work tree)", err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "arena-worker")
	if out, err := exec.Command("make", "--no-print-directory", "worker", "WORKER_BIN="+bin).CombinedOutput(); err != nil {
		t.Fatalf("make worker: %v\n%s", err, out)
	}
	worker := func(env []string, args ...string) (stdout, stderr string, code int) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		var o, e strings.Builder
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("arena-worker %v: %v", args, err)
		}
		return o.String(), e.String(), code
	}

	t.Run("version", func(t *testing.T) {
		out, _, code := worker(nil, "--version")
		if code != 0 || !strings.HasPrefix(out, "arena-worker ") || !strings.Contains(out, "commit "+strings.TrimSpace(string(head))) ||
			!strings.Contains(out, "worker build: external UCI engines only") {
			t.Errorf("arena-worker --version: %q (exit %d); want the worker build and commit %s", out, code, head)
		}
	})

	t.Run("commands", func(t *testing.T) {
		out, _, code := worker(nil, "help")
		var names []string
		for _, m := range regexp.MustCompile(`(?m)^  (\S+) `).FindAllStringSubmatch(out, -1) {
			names = append(names, m[1])
		}
		if code != 0 || !slices.Equal(names, []string{"merge", "run", "version"}) {
			t.Errorf("arena-worker help: commands %v (exit %d), want [merge run version]:\n%s", names, code, out)
		}
		_, errOut, code := worker(nil, "report", "x")
		if code != 2 || !strings.Contains(errOut, `arena-worker: unknown command "report"`) || !strings.Contains(errOut, "full arena binary") {
			t.Errorf("arena-worker report: exit %d, stderr %q; want 2 and the note that the full arena binary has it", code, errOut)
		}
	})

	// Go's first GC cycle has the minimum heap target, 4 MB times GOGC/100:
	// "2 MB goal" in the trace is the worker's default GOGC of 50, "4 MB
	// goal" a GOGC=100 from the environment, which the worker obeys (an
	// empty GOGC is Go's default, so the worker's applies). The matches are
	// 4 and 6 full games: a shorter one may allocate too little for any
	// cycle.
	firstGoal := func(t *testing.T, trace string) string {
		m := regexp.MustCompile(`(?m)^gc 1 @.*, (\d+) MB goal`).FindStringSubmatch(trace)
		if m == nil {
			t.Fatalf("no first GC cycle in the gctrace output:\n%s", trace)
		}
		return m[1]
	}
	// play runs the worker with env and args, and checks the run it writes
	// in dir (the usual files, games played whole) and the first GC cycle's
	// goal in MB.
	play := func(t *testing.T, env, args []string, dir string, games int, goal string) {
		_, errOut, code := worker(append([]string{"GODEBUG=gctrace=1"}, env...), append(args, "--quiet", "--out", dir)...)
		if code != 0 {
			t.Fatalf("arena-worker %v: exit %d\n%s", args, code, errOut)
		}
		for _, f := range []string{"config.yaml", "games.jsonl", "games.pgn", "moves.csv", "summary.json", "summary.md"} {
			if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
				t.Errorf("%s: %v (size %v); want the file a run writes", f, err, fi)
			}
		}
		recs, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
		if err != nil {
			t.Fatal(err)
		}
		for i, g := range recs {
			if len(g.Moves) == 0 || g.Result == "" {
				t.Errorf("games.jsonl line %d: %d moves, result %q; want a played game", i+1, len(g.Moves), g.Result)
			}
		}
		if len(recs) != games {
			t.Errorf("games.jsonl: %d games, want %d", len(recs), games)
		}
		if g := firstGoal(t, errOut); g != goal {
			t.Errorf("first GC goal %s MB with %v, want %s", g, env, goal)
		}
	}

	t.Run("config", func(t *testing.T) {
		cfg := filepath.Join(tmp, "sf.yaml")
		if err := os.WriteFile(cfg, []byte("games: 4\nlimits: {nodes: 1000}\njudge: off\nengines:\n"+
			"  - {name: SF-A, command: "+sf+", options: {Threads: 1, Hash: 16}}\n"+
			"  - {name: SF-B, command: "+sf+", options: {Threads: 1, Hash: 16}}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		// An empty GOGC is Go's default, so the worker's 50 applies: 2 MB.
		play(t, []string{"GOGC="}, []string{"run", cfg}, filepath.Join(tmp, "run"), 4, "2")
	})

	t.Run("quick", func(t *testing.T) {
		// GOGC=100 from the environment wins: 4 MB.
		play(t, []string{"GOGC=100"}, []string{"run", "-engine", "cmd=" + sf, "name=A", "-engine", "cmd=" + sf, "name=B",
			"-each", "nodes=1000", "option.Hash=16", "-games", "6", "-judge", "off"}, filepath.Join(tmp, "quick"), 6, "4")
	})

	t.Run("built-in engine refused", func(t *testing.T) {
		cfg := filepath.Join(tmp, "builtin.yaml")
		if err := os.WriteFile(cfg, []byte("games: 2\nlimits: {nodes: 1000}\nengines:\n  - {engine: heuristic}\n  - {command: "+sf+"}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(tmp, "refused")
		_, errOut, code := worker(nil, "run", cfg, "--out", dir)
		want := `engines[0].engine: unknown engine "heuristic": this binary is arena-worker, which plays external UCI engines only (engine: uci with command:); use the full arena binary for the built-in engines`
		if code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("arena-worker run with engine: heuristic: exit %d, stderr %q; want 1 and %q", code, errOut, want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("the refused run made %s (%v)", dir, err)
		}
		_, errOut, code = worker(nil, "run", "-engine", "builtin=random", "-engine", "cmd="+sf, "-each", "nodes=10")
		if code != 1 || !strings.Contains(errOut, `unknown engine "random": this binary is arena-worker`) {
			t.Errorf("arena-worker run -engine builtin=random: exit %d, stderr %q; want 1 and the worker's refusal", code, errOut)
		}
	})

	// What the worker leaves out, by package: the plots, the HTTP server
	// (serve) and every built-in engine. The full build links them all, which
	// shows that the names checked are the real ones.
	t.Run("dependencies", func(t *testing.T) {
		heavy := func(p string) bool {
			switch {
			case p == "net/http", strings.HasPrefix(p, "gonum.org/v1/plot"):
				return true
			case strings.HasPrefix(p, "arena/engines/"):
				// run itself speaks UCI and keeps a board.
				return p != "arena/engines/uci" && p != "arena/engines/board"
			}
			return false
		}
		deps := func(tags ...string) []string {
			out, err := exec.Command("go", append(append([]string{"list", "-deps"}, tags...), "./cmd/arena")...).Output()
			if err != nil {
				t.Fatalf("go list -deps %v ./cmd/arena: %v", tags, err)
			}
			var hs []string
			for _, p := range strings.Fields(string(out)) {
				if heavy(p) {
					hs = append(hs, p)
				}
			}
			return hs
		}
		if hs := deps("-tags", "worker"); len(hs) != 0 {
			t.Errorf("the worker build links %v; it must not (no plots, no serve, no built-in engines)", hs)
		}
		full := deps()
		for _, p := range []string{"net/http", "gonum.org/v1/plot", "arena/engines/heuristic", "arena/engines/nnue"} {
			if !slices.Contains(full, p) {
				t.Errorf("the full build does not link %s: the worker's check of it proves nothing", p)
			}
		}
	})
}
