package arena

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"syscall"
	"time"

	"arena/internal/atomicfile"
)

// finish ends a complete run: games.jsonl is rewritten in game order with
// the games the run kept (an SPRT drops those after its decision), the
// summaries are written, and the results and the run's speed printed.
func (m *match) finish(sum *Summary) error {
	m.prog.clear()
	wall := time.Since(m.began)
	cpu := processCPU() - m.cpu0
	sum.Throughput = &Throughput{Games: m.played, WallS: wall.Seconds(), HarnessCPUS: cpu.Seconds(),
		GamesPerHour: float64(m.played) / wall.Hours(), HarnessShare: cpu.Seconds() / wall.Seconds()}
	if err := rewriteLog(m.dir, sum); err != nil {
		return err
	}
	if err := m.writeSummaries(sum, true); err != nil {
		return err
	}
	if sum.SPRT.Decided() {
		fmt.Fprintf(m.stdout, "Match stopped after %d of %d games: %s\n", sum.GamesPlayed, m.planned, sum.SPRT)
	}
	fmt.Fprintln(m.stdout)
	fmt.Fprintln(m.stdout, "=== RESULTS ===")
	if err := sum.WriteTable(m.stdout); err != nil {
		return err
	}
	for _, r := range m.workers {
		for _, p := range r.players {
			if w := p.infoWarning(); w != "" {
				fmt.Fprintln(m.stdout, w)
			}
		}
	}
	t := sum.Throughput
	fmt.Fprintf(m.stdout, "Speed: %d games in %s, %.0f games/hour at concurrency %d; the arena itself used %.1f s of CPU, %.1f%% of the wall time\n",
		t.Games, wall.Round(time.Second), t.GamesPerHour, m.n, t.HarnessCPUS, 100*t.HarnessShare)
	fmt.Fprintf(m.stdout, "Results in %s (%s, %s, %s, %s, %s)\n", m.dir, PGNFile, MovesFile, SummaryJSON, SummaryMD, ConfigFile)
	return nil
}

// rewriteLog rewrites dir/games.jsonl in game order with the games of sum
// (and their LLR).
func rewriteLog(dir string, sum *Summary) error {
	path := filepath.Join(dir, GamesFile)
	idx := logIndex{}
	f, err := idx.add(path)
	if err != nil || f == nil {
		return err
	}
	defer f.Close()
	if sum.SPRT == nil && inGameOrder(idx, sum) {
		return nil // nothing to change: a run at concurrency 1 is already in order
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		for _, gs := range sum.Games {
			ref, ok := idx[gs.Game]
			if !ok {
				return fmt.Errorf("%s: game %d is in the summary but not in %s", dir, gs.Game, GamesFile)
			}
			g, err := ref.read()
			if err != nil {
				return err
			}
			g.LLR, g.Pair = gs.LLR, gs.Pair
			line, err := json.Marshal(g)
			if err != nil {
				return err
			}
			if _, err := bw.Write(append(line, '\n')); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
}

// inGameOrder reports whether the log holds exactly sum's games, in order.
func inGameOrder(idx logIndex, sum *Summary) bool {
	if len(idx) != len(sum.Games) {
		return false
	}
	for i, gs := range sum.Games {
		if ref, ok := idx[gs.Game]; !ok || ref.line != i+1 {
			return false
		}
	}
	return true
}

// processCPU is the CPU time (user and system) of the arena process
// itself; engines and the judge are separate processes and not counted.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
