// Command harness-cost measures what the arena itself costs beside
// fastchess (docs/reference.md, "The arena's own cost, beside fastchess"): the
// same 40 games of Stockfish against itself at 1,000 nodes per move, played
// by each harness in turn for a number of rounds. Measured is the harness
// process alone, not its engines: its user and system CPU, read from
// /proc/PID/stat once it has exited but before it is reaped (a reaped
// process's times include the engines it waited for), and its peak RSS
// (VmHWM, sampled every 5 ms). CPU seconds rather than wall time, because
// the machine is shared; compare the harnesses by their ratio in the same
// round.
//
//	go run ./scripts/harness-cost -rounds 3 bin/arena [other arena binaries]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

func main() {
	rounds := flag.Int("rounds", 3, "rounds; each plays the games once with every harness")
	fastchess := flag.String("fastchess", "/tmp/fastchess/fastchess", "the fastchess binary")
	stockfish := flag.String("stockfish", "/usr/games/stockfish", "the engine both harnesses run")
	book := flag.String("book", "configs/openings/balanced.epd", "the openings, played in order")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: harness-cost [-rounds N] ARENA_BINARY...")
		os.Exit(2)
	}
	dir, err := os.MkdirTemp("", "harness-cost")
	check(err)
	defer os.RemoveAll(dir)
	bookAbs := abs(*book)
	cfg := filepath.Join(dir, "m40.yaml")
	check(os.WriteFile(cfg, fmt.Appendf(nil, `name: m40
games: 40
pairs: true
max_moves: 0
concurrency: 1
judge: off
limits: {nodes: 1000}
engines:
  - {name: SF1, command: %s}
  - {name: SF2, command: %s}
openings: {file: %s, order: sequential}
`, *stockfish, *stockfish, bookAbs), 0o644))
	cpu, _ := exec.Command("sh", "-c", "lscpu | sed -n 's/^Model name: *//p'").Output()
	fmt.Printf("CPU: %s", cpu)
	for r := 1; r <= *rounds; r++ {
		pgn := filepath.Join(dir, fmt.Sprintf("fc%d.pgn", r))
		m := measure(dir, abs(*fastchess), "-engine", "cmd="+*stockfish, "name=SF1", "-engine", "cmd="+*stockfish, "name=SF2",
			"-each", "tc=inf", "nodes=1000", "-rounds", "20", "-games", "2", "-repeat",
			"-openings", "file="+bookAbs, "format=epd", "order=sequential", "-concurrency", "1", "-pgnout", "file="+pgn)
		report(r, "fastchess", m, pgnPlies(pgn))
		for _, a := range flag.Args() {
			out := filepath.Join(dir, fmt.Sprintf("run%d-%s", r, filepath.Base(a)))
			m := measure(dir, abs(a), "run", cfg, "--out", out, "--quiet")
			report(r, a, m, pgnPlies(filepath.Join(out, "games.pgn")))
		}
	}
}

type measurement struct {
	cpu, user, sys float64 // seconds
	hwmMB          float64
	wall           time.Duration
}

// measure runs the command and returns its own CPU time and peak RSS.
func measure(dir, name string, args ...string) measurement {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	start := time.Now()
	check(cmd.Start())
	pid := cmd.Process.Pid
	var m measurement
	for {
		var info unix.Siginfo
		check(unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil))
		if info.Signo != 0 { // exited, not yet reaped
			break
		}
		if kb := statusKB(pid, "VmHWM:"); kb > 0 {
			m.hwmMB = kb / 1024
		}
		time.Sleep(5 * time.Millisecond)
	}
	m.wall = time.Since(start)
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	check(err)
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	ticks := 100.0 // USER_HZ, which Linux fixes at 100 for /proc
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	m.user, m.sys = utime/ticks, stime/ticks
	m.cpu = m.user + m.sys
	if err := cmd.Wait(); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
	return m
}

func statusKB(pid int, key string) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key); ok {
			kb, _ := strconv.ParseFloat(strings.Fields(v)[0], 64)
			return kb
		}
	}
	return 0
}

var plyCount = regexp.MustCompile(`\[PlyCount "(\d+)"\]`)

// pgnPlies sums the PlyCount tags both harnesses write.
func pgnPlies(path string) int {
	b, err := os.ReadFile(path)
	check(err)
	n := 0
	for _, m := range plyCount.FindAllSubmatch(b, -1) {
		k, _ := strconv.Atoi(string(m[1]))
		n += k
	}
	return n
}

func report(round int, name string, m measurement, plies int) {
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("round %d %-28s cpu %.2f s (user %.2f, sys %.2f) %.3f ms/ply over %d plies, peak RSS %.1f MB, wall %.1f s, load %s\n",
		round, name, m.cpu, m.user, m.sys, 1000*m.cpu/float64(max(plies, 1)), plies, m.hwmMB, m.wall.Seconds(), strings.Fields(string(load))[0])
}

// abs makes a binary's path independent of the directory the harnesses
// run in.
func abs(path string) string {
	if !strings.Contains(path, "/") {
		return path // found through PATH
	}
	p, err := filepath.Abs(path)
	check(err)
	return p
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness-cost:", err)
		os.Exit(1)
	}
}
