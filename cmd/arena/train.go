//go:build !worker

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"time"

	"arena/arena/datagen"
	"arena/engines/nn"
	"arena/engines/nn/dataset"
	"arena/engines/nn/train"
)

func init() {
	register("train", command{
		summary: "train a ValueNet: 'train supervised' on datagen data, 'train selfplay' by reinforcement; 'train giraffe', 'train deepchess', 'train nnue': the giraffe, deepchess and nnue engines' nets; 'train texel': the heuristic engine's evaluation weights",
		run:     runTrain,
	})
}

func runTrain(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "supervised":
			return runTrainSupervised(args[1:], stdout, stderr)
		case "selfplay":
			return runTrainSelfPlay(args[1:], stdout, stderr)
		case "giraffe":
			return runTrainGiraffe(args[1:], stdout, stderr)
		case "deepchess":
			return runTrainDeepChess(args[1:], stdout, stderr)
		case "nnue":
			return runTrainNNUE(args[1:], stdout, stderr)
		case "texel":
			return runTrainTexel(args[1:], stdout, stderr)
		case "-h", "--help", "help":
			fmt.Fprintln(stdout, "usage: arena train supervised|selfplay|giraffe|deepchess|nnue|texel [options] (arena train MODE -h for the options)")
			return 0
		}
	}
	fmt.Fprintln(stderr, "usage: arena train supervised|selfplay|giraffe|deepchess|nnue|texel [options] (arena train MODE -h for the options)")
	return 2
}

// trainFlags registers the options both modes share.
func trainFlags(fs *flag.FlagSet, c *train.Config) {
	fs.IntVar(&c.Epochs, "epochs", c.Epochs, "passes over the training data")
	fs.IntVar(&c.Batch, "batch", 256, "positions per step (a multiple of 8)")
	fs.Float64Var(&c.LR, "lr", 1e-3, "Adam learning rate")
	fs.BoolVar(&c.Cosine, "cosine", false, "anneal the learning rate to 0 over the run (cosine)")
	fs.Float64Var(&c.ValFraction, "val", 0.1, "share of the positions held out for validation")
	fs.IntVar(&c.Workers, "workers", 0, "goroutines per training step (0: all CPUs)")
}

func parseTrainFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	extra, code, ok := parseArgs(fs, args)
	if !ok {
		return code, false
	}
	if len(extra) > 0 {
		fmt.Fprintf(stderr, "arena train: unexpected argument %q\n", extra[0])
		return 2, false
	}
	return 0, true
}

func runTrainSupervised(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train supervised", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena train supervised --data FILE --out NET.safetensors [options]")
		fmt.Fprintln(stderr, "\nTrains the ValueNet on positions labelled by 'arena datagen' with the target")
		fmt.Fprintf(stderr, "tanh(cp/%.1f) (±1 for mates) and saves the epoch with the lowest validation loss.\n", train.CPScale)
		fmt.Fprintln(stderr, "\noptions:")
		fs.PrintDefaults()
	}
	cfg := train.Config{Epochs: 10}
	data := fs.String("data", "", "datagen `FILE` (tab-separated, see docs/models.md)")
	out := fs.String("out", "", "weights to write (`NET.safetensors`)")
	initPath := fs.String("init", "", "start from these weights instead of a fresh net")
	seed := fs.Uint64("seed", 1, "seed of the initial weights, the validation split and the batch order")
	trainFlags(fs, &cfg)
	if code, ok := parseTrainFlags(fs, args, stderr); !ok {
		return code
	}
	cfg.Seed = *seed
	if *data == "" || *out == "" {
		fmt.Fprintln(stderr, "arena train supervised: --data and --out are required")
		return 2
	}
	recs, err := dataset.ReadFile(*data)
	if err != nil {
		fmt.Fprintf(stderr, "arena train supervised: %v\n", err)
		return 1
	}
	samples, err := datagen.Samples(recs)
	if err != nil {
		fmt.Fprintf(stderr, "arena train supervised: %s: %v\n", *data, err)
		return 1
	}
	if *initPath != "" {
		if cfg.Init, err = loadModel(*initPath); err != nil {
			fmt.Fprintf(stderr, "arena train supervised: %v\n", err)
			return 1
		}
	}
	cfg.Progress = stderr
	ctx, stop := interruptContext()
	defer stop()
	res, err := train.Fit(ctx, samples, cfg)
	schedule := ""
	if cfg.Cosine {
		schedule = " (cosine)"
	}
	save := func() error {
		meta := nn.Meta{
			Training: fmt.Sprintf("arena train supervised: %d positions from %s (%d train, %d validation), target tanh(cp/%.1f), "+
				"%d epochs of batch %d, Adam lr %g%s, seed %d; best epoch %d, validation MSE %.5f",
				len(samples), filepath.Base(*data), res.Train, res.Val, train.CPScale, len(res.Epochs), cfg.Batch, cfg.LR, schedule, cfg.Seed, res.BestEpoch, res.BestVal),
			Extra: map[string]string{"val_loss": strconv.FormatFloat(res.BestVal, 'f', 6, 64), "epochs": strconv.Itoa(len(res.Epochs)),
				"positions": strconv.Itoa(len(samples))},
		}
		return nn.SaveSafetensors(*out, res.Best.Weights(), meta)
	}
	line := func() string {
		return fmt.Sprintf("%s: best epoch %d of %d, validation MSE %.5f, %d positions, %s",
			*out, res.BestEpoch, len(res.Epochs), res.BestVal, len(samples), res.Elapsed.Round(time.Second))
	}
	return saveTrained("arena train supervised", err, res.Best != nil, save, line, stdout, stderr)
}

// saveTrained ends every trainer the same way: a failed fit exits 1; one
// interrupted before its first epoch (or iteration) saves nothing (130);
// otherwise the net is saved and its line printed, and an interrupted fit
// still exits 130 so that scripts see the interruption.
func saveTrained(cmd string, fitErr error, trained bool, save func() error, line func() string, stdout, stderr io.Writer) int {
	if fitErr != nil && !errors.Is(fitErr, context.Canceled) {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, fitErr)
		return 1
	}
	if !trained {
		fmt.Fprintf(stderr, "%s: interrupted before the first epoch or iteration ended; nothing saved\n", cmd)
		return 130
	}
	if err := save(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
		return 1
	}
	fmt.Fprintln(stdout, line())
	if fitErr != nil {
		return 130
	}
	return 0
}

func runTrainSelfPlay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train selfplay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena train selfplay --out NET.safetensors [options]")
		fmt.Fprintln(stderr, "\nThe thesis's reinforcement loop: each generation the best net plays itself (1-ply,")
		fmt.Fprintln(stderr, "softmax exploration), a candidate is trained on the games' outcomes and replaces the")
		fmt.Fprintln(stderr, "best when it scores at least --threshold against it. The best net is saved after")
		fmt.Fprintln(stderr, "every generation with its generation and best_wr.")
		fmt.Fprintln(stderr, "\noptions:")
		fs.PrintDefaults()
	}
	cfg := train.SelfPlayConfig{Train: train.Config{Epochs: 2}}
	out := fs.String("out", "", "weights to write (`NET.safetensors`)")
	initPath := fs.String("init", "", "start from these weights (default: a fresh net); a self-play file's generation and best_wr carry on")
	fs.IntVar(&cfg.Generations, "generations", 5, "candidates to train and gate")
	fs.IntVar(&cfg.Games, "games", 200, "self-play games per generation")
	fs.IntVar(&cfg.RandomPlies, "random-plies", 4, "random opening plies per game")
	fs.Float64Var(&cfg.Temperature, "temperature", 0.1, "softmax temperature over move values (exploration)")
	fs.Float64Var(&cfg.Epsilon, "epsilon", 0.05, "chance of a random move")
	fs.IntVar(&cfg.MaxPlies, "max-plies", 160, "adjudicate a game by material after N plies")
	fs.IntVar(&cfg.Window, "window", 2, "generations of games each candidate trains on")
	fs.Float64Var(&cfg.Discount, "discount", 0, "target = outcome * discount^(plies to the end) (0: the plain outcome)")
	fs.IntVar(&cfg.GateGames, "gate-games", 20, "candidate vs best games (even)")
	fs.Float64Var(&cfg.Threshold, "threshold", 0.55, "score the candidate needs to replace the best")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed")
	trainFlags(fs, &cfg.Train)
	if code, ok := parseTrainFlags(fs, args, stderr); !ok {
		return code
	}
	if *out == "" {
		fmt.Fprintln(stderr, "arena train selfplay: --out is required")
		return 2
	}
	cfg.Workers = cfg.Train.Workers
	if *initPath != "" {
		w, meta, err := nn.ReadFile(*initPath)
		if err == nil {
			cfg.Init, err = train.FromWeights(w)
		}
		if err != nil {
			fmt.Fprintf(stderr, "arena train selfplay: %v\n", err)
			return 1
		}
		cfg.InitGeneration, cfg.InitBestWR = meta.Generation, meta.BestWR
	}
	discount, from := "", ""
	if cfg.Discount > 0 && cfg.Discount < 1 {
		discount = fmt.Sprintf(" discounted by %g per ply", cfg.Discount)
	}
	if *initPath != "" {
		from = ", continued from " + filepath.Base(*initPath)
	}
	start := time.Now()
	cfg.Progress = stderr
	cfg.Checkpoint = func(best *train.Model, gen int, wr float64) error {
		meta := nn.Meta{
			Generation: gen, HasGeneration: true, BestWR: wr, HasBestWR: true,
			Training: fmt.Sprintf("arena train selfplay: %d games per generation, outcome targets%s, gate %d games at %.2f, "+
				"%d epochs per candidate, seed %d%s; best is generation %d (scored %.3f against its predecessor)",
				cfg.Games, discount, cfg.GateGames, cfg.Threshold, cfg.Train.Epochs, cfg.Seed, from, gen, wr),
		}
		return nn.SaveSafetensors(*out, best.Weights(), meta)
	}
	ctx, stop := interruptContext()
	defer stop()
	res, err := train.SelfPlay(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "arena train selfplay: %v\n", err)
		if errors.Is(err, context.Canceled) {
			return 130
		}
		return 1
	}
	fmt.Fprintf(stdout, "%s: generation %d (best_wr %.3f) after %d generations, %s\n",
		*out, res.Generation, res.BestWR, len(res.Generations), time.Since(start).Round(time.Second))
	return 0
}

func loadModel(path string) (*train.Model, error) {
	w, _, err := nn.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return train.FromWeights(w)
}
