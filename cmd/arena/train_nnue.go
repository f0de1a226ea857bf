//go:build !worker

package main

import (
	"flag"
	"fmt"
	"io"

	"arena/engines/nnue"
	"arena/engines/nnuetrain"
)

func runTrainNNUE(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train nnue", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena train nnue --data FILE --out NET.nnue [options]")
		fmt.Fprintln(stderr, "\nTrains the nnue engine's net (768 -> N x 2 -> 1) on 'FEN | score | result' lines")
		fmt.Fprintln(stderr, "(arena datagen selfplay, or marlinflow/bullet text data) and writes it quantised in the")
		fmt.Fprintln(stderr, "format of docs/nnue.md. A checkpoint is written after every epoch; --resume continues")
		fmt.Fprintln(stderr, "it to the same net an uninterrupted run gives.")
		fmt.Fprintln(stderr, "\noptions:")
		fs.PrintDefaults()
	}
	cfg := nnuetrain.Config{LRFinal: 0.05, WeightDecay: 0.01}.Defaults()
	data := fs.String("data", "", "training data `FILE` (FEN | score | result, White's view)")
	out := fs.String("out", "", "net to write (`NET.nnue`)")
	positions := fs.Int("positions", 0, "train on the file's first N positions (0: all; a file with fewer is an error)")
	val := fs.Float64("val", 0.05, "share of the positions held out for validation (the file's last positions)")
	fs.IntVar(&cfg.Hidden, "hidden", cfg.Hidden, "hidden units per perspective")
	act := fs.String("activation", "screlu", "screlu or crelu")
	fs.Float64Var(&cfg.Scale, "scale", cfg.Scale, "centipawns per unit of output, and the targets' sigmoid scale")
	fs.Float64Var(&cfg.Lambda, "lambda", 0.5, "weight of the game result in the target (the rest: sigmoid(score/scale))")
	fs.IntVar(&cfg.Epochs, "epochs", cfg.Epochs, "passes over the training positions")
	fs.IntVar(&cfg.Batch, "batch", cfg.Batch, "positions per AdamW step")
	fs.Float64Var(&cfg.LR, "lr", cfg.LR, "peak learning rate")
	fs.Float64Var(&cfg.LRFinal, "lr-final", cfg.LRFinal, "final learning rate as a fraction of --lr (cosine decay)")
	fs.Float64Var(&cfg.WeightDecay, "wd", cfg.WeightDecay, "AdamW weight decay")
	fs.BoolVar(&cfg.Mirror, "mirror", false, "also train on every position with its files mirrored (a-h)")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the initial weights and the batch order")
	fs.IntVar(&cfg.Threads, "threads", cfg.Threads, "goroutines (the net does not depend on it)")
	fs.StringVar(&cfg.Checkpoint, "checkpoint", "", "checkpoint `FILE` (default: NET.nnue.ckpt)")
	fs.BoolVar(&cfg.Resume, "resume", false, "continue from the checkpoint")
	fs.IntVar(&cfg.StopAfter, "stop-after", 0, "stop after this many epochs in all, leaving the checkpoint for --resume (0: all)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	if code, ok := parseTrainFlags(fs, args, stderr); !ok {
		return code
	}
	if *data == "" || *out == "" {
		fmt.Fprintln(stderr, "arena train nnue: --data and --out are required")
		return 2
	}
	switch *act {
	case "screlu":
		cfg.Activation = nnue.SCReLU
	case "crelu":
		cfg.Activation = nnue.CReLU
	default:
		fmt.Fprintf(stderr, "arena train nnue: --activation %q: expected screlu or crelu\n", *act)
		return 2
	}
	if *positions < 0 {
		fmt.Fprintf(stderr, "arena train nnue: --positions %d: expected >= 0\n", *positions)
		return 2
	}
	if *val <= 0 || *val >= 1 {
		fmt.Fprintf(stderr, "arena train nnue: --val %v: expected 0 < val < 1\n", *val)
		return 2
	}
	if cfg.Checkpoint == "" {
		cfg.Checkpoint = *out + ".ckpt"
	}
	if !*quiet {
		cfg.Progress = stderr
	}
	if err := cfg.Validate(); err != nil {
		fmt.Fprintf(stderr, "arena train nnue: %v\n", err)
		return 2
	}
	d, err := nnuetrain.ReadDataFile(*data, *positions)
	if err != nil {
		fmt.Fprintf(stderr, "arena train nnue: %v\n", err)
		return 1
	}
	train, valSet := d.Split(*val)
	net, rep, err := nnuetrain.Train(cfg, train, valSet)
	if err != nil {
		fmt.Fprintf(stderr, "arena train nnue: %v\n", err)
		return 1
	}
	q, clamped := net.Quantise(int(cfg.Scale))
	if err := nnuetrain.WriteNet(*out, q); err != nil {
		fmt.Fprintf(stderr, "arena train nnue: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d epochs (%d resumed), %d samples in %s: %.0f samples/s, %.0f per CPU-second\n",
		*out, rep.ResumedEpoch+rep.Epochs, rep.ResumedEpoch, rep.Samples, rep.Elapsed.Round(1e7),
		float64(rep.Samples)/rep.Elapsed.Seconds(), float64(rep.Samples)/rep.CPU.Seconds())
	fmt.Fprintf(stdout, "validation loss %.6f (quantised %.6f; constant predictor %.6f), training loss %.6f; %d weights clamped to int16\n",
		rep.ValLoss, nnuetrain.QuantisedLoss(q, valSet, cfg.Lambda), rep.ConstLoss, rep.TrainLoss, clamped)
	return 0
}
