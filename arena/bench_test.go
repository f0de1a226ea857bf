package arena

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkArenaOverheadPerMove plays games between two near-instant fake
// UCI engines (judge off) and reports the arena's cost per move: ms/move is
// the game loop's wall time per ply (UCI round trip, rules, RSS sampling,
// recording), engine-ms/move the part from "go" to "bestmove" (pipe round
// trip and the fake's own work), overhead-ms/move the rest, which is the
// arena's own work, and run-ms/move the whole run per ply (engine start-up,
// per-game fsyncs and summaries included). arena-cpu-ms/move is the CPU
// time (user and system) of the arena itself per ply, which unlike the wall
// times hardly depends on what else the machine runs.
func BenchmarkArenaOverheadPerMove(b *testing.B) {
	cfg := writeConfig(b, fmt.Sprintf(`
games: 2
max_moves: 100
judge: off
limits: {depth: 1}
engines:
  - {name: A, command: %q, args: ["-spread"]}
  - {name: B, command: %q, args: ["-spread"]}
`, fakeBin, fakeBin))
	var plies int
	var engine, total float64
	var run time.Duration
	cpu0 := processCPU()
	b.ResetTimer()
	for i := range b.N {
		dir := filepath.Join(b.TempDir(), fmt.Sprint(i))
		start := time.Now()
		sum, err := Run(b.Context(), cfg, Options{Binary: arenaBin, OutDir: dir})
		run += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		saved, err := readSummary(dir) // the games' lines are in summary.json, not in memory
		if err != nil {
			b.Fatal(err)
		}
		for _, g := range saved.Games {
			plies += g.Plies
			total += g.Duration
		}
		for _, e := range sum.Engines {
			engine += e.AvgTime * float64(e.Moves)
		}
	}
	b.StopTimer()
	cpu := processCPU() - cpu0
	if plies == 0 {
		b.Fatal("no moves played")
	}
	b.ReportMetric(1000*total/float64(plies), "ms/move")
	b.ReportMetric(1000*engine/float64(plies), "engine-ms/move")
	b.ReportMetric(1000*(total-engine)/float64(plies), "overhead-ms/move")
	b.ReportMetric(float64(run.Milliseconds())/float64(plies), "run-ms/move")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(plies), "arena-cpu-ms/move")
}
