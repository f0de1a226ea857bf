package arena

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"arena/arena/config"
	_ "arena/engines/heuristic" // the built-in engines the configs name
	_ "arena/engines/neural"
	_ "arena/engines/nnue"
	"arena/engines/uci"
)

// Binaries built once for all tests: the arena CLI (which serves built-in
// engines as "arena uci ENGINE") and the fake UCI engine of testdata.
//
// The tests that cost the most CPU (games in child processes, each in its
// own temporary directory) call t.Parallel, so that the package uses both
// cores of a small machine, and so do those that mostly wait (on a timeout,
// a sleeping fake engine, a start-up): go test runs them after the
// sequential tests, which may set package variables (peerPoll). Tests that
// measure this process (its heap, its RSS) or a clock that a busy machine
// could push past a limit they must stay within stay sequential.
var (
	arenaBin string
	fakeBin  string
)

func TestMain(m *testing.M) {
	// A fuzz worker runs only the fuzz target, which plays no game.
	if slices.Contains(os.Args, "-test.fuzzworker") {
		os.Exit(m.Run())
	}
	// TestMemoryDoesNotGrowWithGames re-executed alone: the binaries are built.
	if dir := os.Getenv(memoryChild); dir != "" {
		arenaBin, fakeBin = filepath.Join(dir, "arena"), filepath.Join(dir, "fakeengine")
		os.Exit(m.Run())
	}
	// Four parallel tests at a time, not GOMAXPROCS (2 on a small machine):
	// several of them mostly sleep (the timeout and kill tests: 1 to 3 s
	// each, under a tenth of it on the CPU), and two such in the two slots
	// would leave the CPU idle.
	// An explicit -parallel is kept, and so are the defaults of the merge
	// helper process of TestMergeMemoryFlat (make test-long): with
	// -test.parallel raised there, the merge's sampled peak live heap came out
	// 12 MB higher in every run (25.8 MB for 100,000 games, against 13.4 to
	// 14.4 without), which failed that test. The growth itself was the table
	// renderer building a merged run's whole games table in one string (now
	// written as rendered); the helper keeps the defaults all the same.
	flag.Parse()
	parallelSet := false
	flag.Visit(func(f *flag.Flag) { parallelSet = parallelSet || f.Name == "test.parallel" })
	if !parallelSet && os.Getenv(mergeMemDir) == "" {
		flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0))))
	}
	dir, err := os.MkdirTemp("", "arena-test-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	arenaBin = filepath.Join(dir, "arena")
	fakeBin = filepath.Join(dir, "fakeengine")
	for _, b := range []struct{ out, pkg string }{
		{arenaBin, "arena/cmd/arena"},
		{fakeBin, "arena/arena/testdata/fakeengine"},
	} {
		cmd := exec.Command("go", "build", "-o", b.out, b.pkg)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "build %s: %v\n", b.pkg, err)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// mergeMemDir, in the environment of the test binary re-executed as
// TestMergeHelperProcess (mergemem_test.go, make test-long), names the
// shards it merges.
const mergeMemDir = "ARENA_MERGE_MEM_DIR"

// needStockfish fails a test when Stockfish is not installed, saying what to install.
func needStockfish(t testing.TB) {
	t.Helper()
	if _, err := uci.LocateEngine("stockfish"); err != nil {
		t.Fatalf("stockfish not found (%v): install it with make test-tools (apt-get install -y stockfish)", err)
	}
}

// writeConfig writes a config file into a test directory and loads it.
func writeConfig(t testing.TB, text string) *config.Config {
	t.Helper()
	path := filepath.Join(t.TempDir(), "match.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatalf("load config: %v\n%s", err, text)
	}
	return cfg
}

// fakeMatch is a config of games between two fake engines, 10 moves at
// most, unjudged: the quickest run that writes every file.
func fakeMatch(t testing.TB, games int) *config.Config {
	t.Helper()
	return writeConfig(t, fmt.Sprintf(`
games: %d
max_moves: 10
judge: off
limits: {movetime: 1s}
engines:
  - {name: A, command: %q}
  - {name: B, command: %q}
`, games, fakeBin, fakeBin))
}

// twoEngines is the engines: section of a minimal two-engine config.
const twoEngines = `engines:
  - name: A
    engine: heuristic
  - name: B
    command: stockfish
`
