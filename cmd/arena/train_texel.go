//go:build !worker

package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"arena/engines/heuristic"
	"arena/engines/heuristic/texel"
	"arena/internal/atomicfile"
)

func runTrainTexel(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train texel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena train texel --data FILE --out tuned.go [options]")
		fmt.Fprintln(stderr, "\nTexel tuning of the heuristic engine's evaluation (piece-square tables and eval_terms")
		fmt.Fprintln(stderr, "weights) from PeSTO's, to the game results of 'FEN | score | result' lines (arena")
		fmt.Fprintln(stderr, "datagen selfplay): K of sigmoid(K*eval) first, then full-batch Adam on the squared")
		fmt.Fprintln(stderr, "error. Writes the weights as engines/heuristic/tuned.go (option eval_weights=tuned).")
		fmt.Fprintln(stderr, "\noptions:")
		fs.PrintDefaults()
	}
	data := fs.String("data", "", "training data `FILE` (FEN | score | result, White's view)")
	out := fs.String("out", "", "Go file to write (`engines/heuristic/tuned.go`)")
	positions := fs.Int("positions", 0, "use the file's first N positions (0: all; a file with fewer is an error)")
	val := fs.Float64("val", 0.1, "share of the positions held out (the file's last ones)")
	cfg := texel.Config{Epochs: 50, LR: 1, Threads: runtime.GOMAXPROCS(0), ProgressEvery: 10}
	fs.IntVar(&cfg.Epochs, "epochs", cfg.Epochs, "full-batch Adam steps")
	fs.Float64Var(&cfg.LR, "lr", cfg.LR, "Adam step in centipawns")
	fs.IntVar(&cfg.Threads, "threads", cfg.Threads, "goroutines (the weights do not depend on it)")
	tables := fs.Bool("tables", true, "tune the piece-square tables too (false: only the eval_terms weights)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	if code, ok := parseTrainFlags(fs, args, stderr); !ok {
		return code
	}
	if *data == "" || *out == "" {
		fmt.Fprintln(stderr, "arena train texel: --data and --out are required")
		return 2
	}
	if *positions < 0 || *val <= 0 || *val >= 1 || cfg.Epochs < 1 || cfg.LR <= 0 {
		fmt.Fprintln(stderr, "arena train texel: expected --positions >= 0, 0 < --val < 1, --epochs >= 1, --lr > 0")
		return 2
	}
	if !*quiet {
		cfg.Progress = stderr
	}
	start, cpu0 := time.Now(), cpuSeconds()
	w := heuristic.PestoWeights()
	d, err := texel.ReadFile(*data, *positions, &w)
	if err != nil {
		fmt.Fprintf(stderr, "arena train texel: %v\n", err)
		return 1
	}
	read := time.Since(start)
	train, held := d.Split(*val)
	theta := texel.Theta(&w)
	if !*tables {
		for _, p := range w.Params() {
			cfg.Frozen = append(cfg.Frozen, strings.HasPrefix(p.Name, "pst."))
		}
	}
	k := train.FitK(theta)
	trainBefore, heldBefore := train.MSE(k, theta), held.MSE(k, theta)
	fmt.Fprintf(stdout, "%d positions (%d training, %d held out) traced in %s; K %.4f; MSE before: training %.6f, held-out %.6f\n",
		len(d.Pos), len(train.Pos), len(held.Pos), read.Round(time.Second), k, trainBefore, heldBefore)
	ctx, stop := interruptContext()
	defer stop()
	fitStart := time.Now()
	if err := texel.Fit(ctx, cfg, k, train, held, theta); err != nil {
		fmt.Fprintf(stderr, "arena train texel: %v; nothing written\n", err)
		return 130
	}
	fit := time.Since(fitStart)
	texel.SetWeights(&w, theta)
	// The held-out error of the rounded weights with the engine's own
	// evaluation: the held-out positions traced again with them.
	again, err := texel.ReadFile(*data, *positions, &w)
	if err != nil {
		fmt.Fprintf(stderr, "arena train texel: %v\n", err)
		return 1
	}
	_, heldAgain := again.Split(*val)
	heldAfter := heldAgain.MSE(k, texel.Theta(&w))
	src, err := texel.GoSource(&w, []string{
		fmt.Sprintf("tunedWeights were fitted by arena train texel --positions %d --val %g --epochs %d --lr %g --tables=%t", *positions, *val, cfg.Epochs, cfg.LR, *tables),
		fmt.Sprintf("on %s (%d training positions, %d held out), from PeSTO's: K %.4f,", filepath.Base(*data), len(train.Pos), len(held.Pos), k),
		fmt.Sprintf("held-out MSE %.6f before, %.6f after (docs/ablation.md).", heldBefore, heldAfter),
	})
	if err == nil {
		err = atomicfile.WriteFile(*out, src)
	}
	if err != nil {
		fmt.Fprintf(stderr, "arena train texel: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d epochs in %s (%.0f positions x epochs/s); MSE after: training %.6f (linear model), held-out %.6f (engine's evaluation, rounded weights); %s wall, %.1f CPU-seconds\n",
		*out, cfg.Epochs, fit.Round(time.Second), float64(len(train.Pos))*float64(cfg.Epochs)/fit.Seconds(),
		train.MSE(k, theta), heldAfter, time.Since(start).Round(time.Second), cpuSeconds()-cpu0)
	return 0
}

// cpuSeconds is the process's user and system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
