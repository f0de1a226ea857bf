package arena

import (
	"fmt"
	"slices"
	"strings"
	"syscall"
	"time"

	"arena/arena/output"
	"arena/arena/record"
)

// finish ends a complete run: games.jsonl is rewritten in game order with
// the games the run kept (an SPRT drops those after its decision), the
// summaries are written, and the results and the run's speed printed.
func (m *match) finish(sum *record.Summary) error {
	m.prog.clear()
	now := time.Now()
	wall := now.Sub(m.began)
	cpu := processCPU() - m.cpu0
	sn := m.st.snapshot(now, m.began)
	sum.Throughput = &record.Throughput{Games: m.played, WallS: wall.Seconds(), HarnessCPUS: cpu.Seconds(),
		GamesPerHour: float64(m.played) / wall.Hours(), HarnessShare: cpu.Seconds() / wall.Seconds(),
		PlayingS: sn.play.Seconds(), JudgingS: sn.judgeOnly.Seconds(), IdleS: sn.idle.Seconds(), JudgeBusyS: sn.judgeBusy.Seconds()}
	if err := m.out.Sync(); err != nil {
		return err
	}
	if err := output.RewriteLog(m.dir, sum.SPRT != nil, m.lines); err != nil {
		return err
	}
	if err := m.writeSummaries(sum, true); err != nil {
		return err
	}
	if sum.SPRT.Decided() {
		fmt.Fprintf(m.stdout, "Match stopped after %d of %d games: %s\n", sum.GamesPlayed, m.planned, sum.SPRT)
	}
	fmt.Fprintln(m.opt.chatter())
	fmt.Fprintln(m.stdout, "=== RESULTS ===")
	if err := output.WriteTableFit(m.stdout, sum, m.prog.cols()); err != nil {
		return err
	}
	for _, r := range m.workers {
		for _, p := range r.players {
			if w := p.infoWarning(); w != "" {
				fmt.Fprintln(m.opt.warnings(), w)
			}
		}
	}
	for _, w := range ponderMoveWarnings(m.workers) {
		fmt.Fprintln(m.stdout, w)
	}
	t := sum.Throughput
	fmt.Fprintf(m.stdout, "Speed: %d games in %s, %.0f games/hour at concurrency %d; the arena itself used %.1f s of CPU, %.1f%% of the wall time\n",
		t.Games, wall.Round(time.Second), t.GamesPerHour, m.n, t.HarnessCPUS, 100*t.HarnessShare)
	fmt.Fprintln(m.stdout, timeLine(sn, m.judge != nil))
	files := []string{output.PGNFile, output.MovesFile, output.SummaryJSON, output.SummaryMD, output.ConfigFile}
	if m.cfg.Output.EPD {
		files = append(files, output.EPDFile)
	}
	if m.cfg.Output.Compress { // run compresses them once this returns
		for i, f := range files {
			if slices.Contains(output.GameFiles, f) {
				files[i] += output.GzipExt
			}
		}
	}
	fmt.Fprintf(m.stdout, "Results in %s (%s)\n", m.dir, strings.Join(files, ", "))
	return nil
}

// timeLine says where the wall time went: "Time: 3m12s = playing 2m50s +
// judging only 15s + idle 7s (start-up, writing); the judge was busy
// 2m30s, 2m15s of it beside play".
func timeLine(sn snapshot, judge bool) string {
	r := func(d time.Duration) time.Duration { return d.Round(time.Second / 10) }
	line := fmt.Sprintf("Time: %s = playing %s + judging only %s + idle %s (start-up, writing)",
		r(sn.play+sn.judgeOnly+sn.idle), r(sn.play), r(sn.judgeOnly), r(sn.idle))
	if judge {
		line += fmt.Sprintf("; the judge was busy %s, %s of it beside play", r(sn.judgeBusy), r(sn.judgeBusy-sn.judgeOnly))
	}
	return line
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
