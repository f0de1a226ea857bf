package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"arena/arena/datagen"
	"arena/engines/giraffe"
	"arena/engines/nn/mlp"
)

func runTrainGiraffe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train giraffe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena train giraffe --data FILE[,FILE...] --out NET.safetensors [options]")
		fmt.Fprintln(stderr, "\nTrains the giraffe engine's evaluation net (architecture "+giraffe.Arch.Name+") on positions")
		fmt.Fprintln(stderr, "labelled by 'arena datagen', target White's tanh(cp/543.2) (±1 for mates), and saves")
		fmt.Fprintln(stderr, "the epoch with the lowest validation loss.")
		fmt.Fprintln(stderr, "\noptions:")
		fs.PrintDefaults()
	}
	cfg := giraffe.TrainConfig{}
	data := fs.String("data", "", "comma-separated datagen `files` (tab-separated, see docs/models.md)")
	out := fs.String("out", "", "net to write (`NET.safetensors`)")
	initPath := fs.String("init", "", "start from this net instead of fresh weights")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the initial weights, the validation split and the batch order")
	fs.IntVar(&cfg.Epochs, "epochs", 20, "passes over the training data")
	fs.IntVar(&cfg.Batch, "batch", 256, "positions per Adam step")
	fs.Float64Var(&cfg.LR, "lr", 1e-3, "Adam learning rate")
	fs.Float64Var(&cfg.ValFraction, "val", 0.1, "share of the positions held out for validation")
	fs.IntVar(&cfg.Workers, "workers", 2, "goroutines per training step")
	fs.BoolVar(&cfg.Mirror, "mirror", true, "also train on every training position with the colours swapped (score negated)")
	if code, ok := parseTrainFlags(fs, args, stderr); !ok {
		return code
	}
	if *data == "" || *out == "" {
		fmt.Fprintln(stderr, "arena train giraffe: --data and --out are required")
		return 2
	}
	var names []string
	for _, path := range strings.Split(*data, ",") {
		recs, err := datagen.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "arena train giraffe: %v\n", err)
			return 1
		}
		cfg.Records = append(cfg.Records, recs...)
		names = append(names, fmt.Sprintf("%s (%d)", filepath.Base(path), len(recs)))
	}
	if *initPath != "" {
		m, _, err := mlp.Load(*initPath, &giraffe.Arch)
		if err != nil {
			fmt.Fprintf(stderr, "arena train giraffe: --init: %v\n", err)
			return 1
		}
		cfg.Init = m
	}
	cfg.Progress = stderr
	ctx, stop := interruptContext()
	defer stop()
	res, err := giraffe.Train(ctx, cfg)
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "arena train giraffe: %v\n", err)
		return 1
	}
	if res.Model == nil {
		fmt.Fprintln(stderr, "arena train giraffe: interrupted before the first epoch ended; nothing saved")
		return 130
	}
	meta := map[string]string{
		"training": fmt.Sprintf("arena train giraffe: %d positions from %s (%d train, %d validation), target tanh(cp/543.2), "+
			"%d epochs of batch %d, Adam lr %g, mirrored copies %v, seed %d; best epoch %d, train MSE %.5f, validation MSE %.5f, %s",
			len(cfg.Records), strings.Join(names, ", "), res.Train, res.Val, cfg.Epochs, cfg.Batch, cfg.LR, cfg.Mirror, cfg.Seed,
			res.BestEpoch, res.TrainLoss, res.ValLoss, res.Elapsed.Round(time.Second)),
		"val_loss":  strconv.FormatFloat(res.ValLoss, 'f', 6, 64),
		"positions": strconv.Itoa(len(cfg.Records)),
	}
	if err := res.Model.Save(*out, meta); err != nil {
		fmt.Fprintf(stderr, "arena train giraffe: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: best epoch %d, train MSE %.5f, validation MSE %.5f, %d positions, %s\n",
		*out, res.BestEpoch, res.TrainLoss, res.ValLoss, len(cfg.Records), res.Elapsed.Round(time.Second))
	if err != nil {
		return 130
	}
	return 0
}
