//go:build long

package arena

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/arena/config"
	"arena/arena/output"
	"arena/arena/record"
)

// writeSyntheticShards writes the n shards of a games-game match between two
// engines as arena run --shard would leave them (config.yaml, summary.json
// with its list of games, games.jsonl in game order), with made-up results
// and 4 made-up plies a game, so that arena merge can be measured on more
// games than can be played in a test.
func writeSyntheticShards(t testing.TB, root string, games, n int) []string {
	t.Helper()
	src := fmt.Sprintf("name: synthetic\ngames: %d\nmax_moves: 120\nseed: 1\njudge: off\n"+
		"limits: {nodes: 1000}\nengines:\n  - {name: A, engine: heuristic}\n  - {name: B, engine: heuristic}\n", games)
	cfg, err := config.Parse(filepath.Join(root, "synthetic.yaml"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	hash, err := ConfigHash(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	var logs []*bufio.Writer
	var files []*os.File
	counts := make([]int, n)
	summaries := make([][]record.GameSummary, n)
	for i := range n {
		d := filepath.Join(root, fmt.Sprintf("shard-%d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := cfg.MarshalIn(d)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, output.ConfigFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(d, output.GamesFile))
		if err != nil {
			t.Fatal(err)
		}
		dirs, files, logs = append(dirs, d), append(files, f), append(logs, bufio.NewWriter(f))
	}
	results := []string{"1-0", "0-1", "1/2-1/2", "1-0", "1/2-1/2"}
	it := newSchedule(cfg, nil, record.Shard{})
	start := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	for spec, ok := it.next(); ok; spec, ok = it.next() {
		g := record.GameRecord{Game: spec.Number, White: cfg.Engines[spec.White].Name, Black: cfg.Engines[spec.Black].Name,
			Pair: spec.Pair, Result: results[spec.Number%len(results)], Termination: "normal", Reason: "synthetic",
			Plies: 4, Start: start, Duration: 1}
		for p, m := range [][2]string{{"e2e4", "e4"}, {"e7e5", "e5"}, {"g1f3", "Nf3"}, {"b8c6", "Nc6"}} {
			side, engine := "white", g.White
			if p%2 == 1 {
				side, engine = "black", g.Black
			}
			g.Moves = append(g.Moves, record.MoveRecord{Ply: p + 1, Side: side, Engine: engine, UCI: m[0], SAN: m[1], Time: 0.01})
		}
		line, err := json.Marshal(&g)
		if err != nil {
			t.Fatal(err)
		}
		i := (spec.Number - 1) % n
		logs[i].Write(append(line, '\n'))
		counts[i]++
		summaries[i] = append(summaries[i], record.GameSummary{Game: g.Game, Pair: g.Pair, White: g.White, Black: g.Black,
			Result: g.Result, Termination: g.Termination, Reason: g.Reason, Plies: g.Plies, Duration: g.Duration})
	}
	for i := range n {
		if err := logs[i].Flush(); err != nil {
			t.Fatal(err)
		}
		files[i].Close()
		s := record.Summary{Name: cfg.Name, Started: start, Updated: start, Format: "match", Complete: true,
			GamesPlanned: counts[i], GamesPlayed: counts[i], ConfigHash: hash, Shard: &record.Shard{Index: i, Count: n},
			Games: summaries[i]}
		data, err := json.Marshal(&s)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dirs[i], output.SummaryJSON), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

// TestMergeHelperProcess is the merge TestMergeMemoryFlat measures, run in
// a process of its own so that its peak RSS is the merge's alone.
func TestMergeHelperProcess(t *testing.T) {
	root := os.Getenv(mergeMemDir)
	if root == "" {
		return // not a helper process
	}
	var dirs []string
	for i := 0; ; i++ {
		d := filepath.Join(root, fmt.Sprintf("shard-%d", i))
		if _, err := os.Stat(d); err != nil {
			break
		}
		dirs = append(dirs, d)
	}
	// The live heap after each collection, sampled while the merge runs:
	// what the merge keeps, which RSS shows only with the garbage
	// collector's timing mixed in.
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var peakLive uint64
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			metrics.Read(sample)
			peakLive = max(peakLive, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	_, err := Merge(filepath.Join(root, "merged"), dirs, nil)
	close(done)
	<-stopped
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("PEAK_LIVE_KB %d\n", peakLive/1024)
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			fmt.Printf("PEAK_RSS_KB %s\n", strings.Fields(l)[1])
		}
	}
}

// mergePeak merges the shards under root in a new process and returns its
// peak live heap and peak resident memory in MB.
func mergePeak(t *testing.T, root string) (live, rss float64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestMergeHelperProcess$", "-test.v")
	cmd.Env = append(os.Environ(), mergeMemDir+"="+root)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("merge of %s: %v\n%s", root, err, out)
	}
	got := map[string]float64{}
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) == 2 && strings.HasPrefix(f[0], "PEAK_") {
			kb, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatal(err)
			}
			got[f[0]] = float64(kb) / 1024
		}
	}
	if len(got) != 2 {
		t.Fatalf("no peak memory in the helper's output:\n%s", out)
	}
	return got["PEAK_LIVE_KB"], got["PEAK_RSS_KB"]
}

// TestMergeMemoryFlat: merging 100,000 games keeps no more memory than
// merging 2,000 (the merge streams the games; nothing it keeps grows with
// their number). The bound is on the live heap, which the garbage
// collector's timing does not blur as it does RSS (logged beside it).
func TestMergeMemoryFlat(t *testing.T) {
	small, large := t.TempDir(), t.TempDir()
	writeSyntheticShards(t, small, 2000, 4)
	writeSyntheticShards(t, large, 100000, 4)
	// The least of three merges each: the live heap is sampled after each
	// collection, and a collection that falls while a transient buffer is
	// live reports ~12 MB more once in a while, whatever the games (seen
	// for 2,000 as for 100,000); memory that grows with the games shows in
	// every merge.
	least := func(root string) (live, rss float64) {
		live, rss = mergePeak(t, root)
		for range 2 {
			l, r := mergePeak(t, root)
			live, rss = min(live, l), min(rss, r)
		}
		return live, rss
	}
	sl, sr := least(small)
	ll, lr := least(large)
	t.Logf("arena merge, least of 3 peaks of live heap / RSS: %.1f / %.1f MB for 2,000 games, %.1f / %.1f MB for 100,000", sl, sr, ll, lr)
	if ll > sl+4 { // the merge before streaming grew by 12 MB here
		t.Errorf("merging 100,000 games kept up to %.1f MB live, 2,000 games %.1f MB: memory grows with the games", ll, sl)
	}
}
