package arena

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// heapAt records the live heap when the progress line of chosen games is
// printed. That line is written by the goroutine that holds the run's
// state, between one game's bookkeeping and the next, so what a full
// collection leaves then is what the run retains.
type heapAt struct {
	games map[int]uint64 // game number -> live heap bytes; zero until seen
	buf   []byte
}

func (h *heapAt) Write(b []byte) (int, error) {
	h.buf = append(h.buf, b...)
	for {
		i := bytes.IndexByte(h.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		line := h.buf[:i]
		h.buf = h.buf[i+1:]
		num, _, ok := bytes.Cut(bytes.TrimPrefix(line, []byte("Game ")), []byte("/"))
		n, err := strconv.Atoi(string(num))
		if _, want := h.games[n]; !ok || err != nil || !want || !bytes.HasPrefix(line, []byte("Game ")) {
			continue
		}
		// Twice: the first collection only moves sync.Pool's buffers
		// (encoding/json's among them) to its victim cache.
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		h.games[n] = ms.HeapAlloc
	}
}

// The arena's memory is bounded by the concurrency, not by the games
// played: between game 300 and game 800 of a run of the random mover (8
// plies a game) the live heap grows by less than 64 KB. The arena that kept
// every game's line of summary.json in memory grew by 93 KB here (191 bytes
// a game); this one by 9 KB. The first measurement comes after the median
// sketches have held their 1,024 exact values per engine (4 moves a game)
// and keep bins instead. Concurrency 1 keeps the moment of measurement the
// same from game to game (no other game half-recorded). The heap measured
// is the process's, so the test runs in a process of its own (the test
// binary re-executed for it alone, with the binaries TestMain built), and
// that lets it run beside the package's parallel tests: 800 games, 3.5 s
// at load 10, most of it the fsyncs of each game's records.
func TestMemoryDoesNotGrowWithGames(t *testing.T) {
	if os.Getenv(memoryChild) == "" {
		t.Parallel()
		cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryDoesNotGrowWithGames$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), memoryChild+"="+filepath.Dir(arenaBin))
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("--- PASS: TestMemoryDoesNotGrowWithGames")) {
			t.Fatalf("TestMemoryDoesNotGrowWithGames in a fresh process: %v\n%s", err, out)
		}
		t.Logf("in a fresh process:\n%s", out)
		return
	}
	const first, last, bound = 300, 800, 64 << 10
	cfg := writeConfig(t, fmt.Sprintf(`
games: %d
max_moves: 8
concurrency: 1
judge: off
limits: {nodes: 1}
engines:
  - {name: R1, engine: random}
  - {name: R2, engine: random}
`, last))
	h := &heapAt{games: map[int]uint64{first: 0, last: 0}}
	if _, err := Run(t.Context(), cfg, Options{Binary: arenaBin, OutDir: filepath.Join(t.TempDir(), "run"), Stdout: h}); err != nil {
		t.Fatal(err)
	}
	a, b := h.games[first], h.games[last]
	if a == 0 || b == 0 {
		t.Fatalf("live heap not measured at games %d and %d: %v", first, last, h.games)
	}
	t.Logf("live heap %d KB at game %d, %d KB at game %d", a>>10, first, b>>10, last)
	if b > a+bound {
		t.Errorf("live heap grew by %d KB from game %d to game %d (%.0f bytes a game), more than %d KB",
			(b-a)>>10, first, last, float64(b-a)/(last-first), bound>>10)
	}
}

// memoryChild, in the environment of the re-executed test binary, names the
// directory of the binaries TestMain built.
const memoryChild = "ARENA_TEST_MEMORY_CHILD"
