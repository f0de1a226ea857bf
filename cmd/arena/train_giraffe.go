//go:build !worker

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"arena/engines/giraffe"
	"arena/engines/nn/dataset"
	"arena/engines/nn/mlp"
	"arena/engines/nn/nets"
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
	td := tdLeafFlags(fs)
	if code, ok := parseTrainFlags(fs, args, stderr); !ok {
		return code
	}
	if *data == "" || *out == "" {
		fmt.Fprintln(stderr, "arena train giraffe: --data and --out are required")
		return 2
	}
	recs, names, err := readData(strings.Split(*data, ","))
	if err != nil {
		fmt.Fprintf(stderr, "arena train giraffe: %v\n", err)
		return 1
	}
	cfg.Records = recs
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
	if td.Iterations > 0 {
		td.Seed, td.Workers, td.Progress = cfg.Seed, cfg.Workers, stderr
		return runTDLeaf(ctx, *td, cfg, *out, strings.Join(names, ", "), stdout, stderr)
	}
	res, err := giraffe.Train(ctx, cfg)
	save := func() error { return res.Model.Save(*out, giraffeTrainingMeta(cfg, res, names)) }
	line := func() string {
		return fmt.Sprintf("%s: best epoch %d, train MSE %.5f, validation MSE %.5f, %d positions, %s",
			*out, res.BestEpoch, res.TrainLoss, res.ValLoss, len(cfg.Records), res.Elapsed.Round(time.Second))
	}
	return saveTrained("arena train giraffe", err, res.Model != nil, save, line, stdout, stderr)
}

// tdLeafFlags defines the --td-* flags of TD-Leaf training.
func tdLeafFlags(fs *flag.FlagSet) *giraffe.TDLeafConfig {
	td := &giraffe.TDLeafConfig{}
	fs.IntVar(&td.Iterations, "td-iterations", 0, "TD-Leaf(lambda) self-play iterations from the --data positions instead of supervised training (0: supervised)")
	fs.IntVar(&td.Batch, "td-batch", 256, "TD-Leaf: start positions per iteration")
	fs.IntVar(&td.Moves, "td-moves", 12, "TD-Leaf: self-play moves from each start position")
	fs.Float64Var(&td.Lambda, "td-lambda", 0.7, "TD-Leaf: lambda")
	fs.IntVar(&td.Nodes, "td-nodes", 500, "TD-Leaf: nodes a search")
	fs.Float64Var(&td.LR, "td-lr", 1e-4, "TD-Leaf: Adam learning rate")
	return td
}

// giraffeTrainingMeta is the saved net's metadata: how it was trained.
func giraffeTrainingMeta(cfg giraffe.TrainConfig, res giraffe.TrainResult, names []string) map[string]string {
	return map[string]string{
		"training": fmt.Sprintf("arena train giraffe: %d positions from %s (%d train, %d validation), target tanh(cp/543.2), "+
			"%d epochs of batch %d, Adam lr %g, mirrored copies %v, seed %d; best epoch %d, train MSE %.5f, validation MSE %.5f, %s",
			len(cfg.Records), strings.Join(names, ", "), res.Train, res.Val, cfg.Epochs, cfg.Batch, cfg.LR, cfg.Mirror, cfg.Seed,
			res.BestEpoch, res.TrainLoss, res.ValLoss, res.Elapsed.Round(time.Second)),
		"val_loss":  strconv.FormatFloat(res.ValLoss, 'f', 6, 64),
		"positions": strconv.Itoa(len(cfg.Records)),
	}
}

// runTDLeaf trains the --init net (default: the shipped one) by TD-Leaf
// from the positions of the data files and saves it.
func runTDLeaf(ctx context.Context, td giraffe.TDLeafConfig, cfg giraffe.TrainConfig, out, data string, stdout, stderr io.Writer) int {
	td.Model = cfg.Init
	if td.Model == nil {
		m, _, err := mlp.ReadSafetensors(nets.GiraffeFile())
		if err != nil {
			fmt.Fprintf(stderr, "arena train giraffe: shipped net: %v\n", err)
			return 1
		}
		td.Model = m
	}
	for _, r := range cfg.Records {
		td.Starts = append(td.Starts, r.FEN)
	}
	res, err := giraffe.TDLeaf(ctx, td)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	save := func() error {
		return td.Model.Save(out, map[string]string{"training": fmt.Sprintf("arena train giraffe --td-iterations: %d TD-Leaf(%g) iterations of %d start positions "+
			"(from %s) x %d moves at %d nodes, Adam lr %g, seed %d; last mean |TD error| %.4f, %s",
			res.Iterations, td.Lambda, td.Batch, data, td.Moves, td.Nodes, td.LR, td.Seed, res.MeanError, res.Elapsed.Round(time.Second))})
	}
	line := func() string {
		return fmt.Sprintf("%s: %d TD-Leaf iterations, last mean |TD error| %.4f, %s", out, res.Iterations, res.MeanError, res.Elapsed.Round(time.Second))
	}
	return saveTrained("arena train giraffe", err, res.Iterations > 0, save, line, stdout, stderr)
}

// readData reads datagen files and names each with its count.
func readData(paths []string) ([]dataset.Record, []string, error) {
	var all []dataset.Record
	var names []string
	for _, path := range paths {
		recs, err := dataset.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, recs...)
		names = append(names, fmt.Sprintf("%s (%d)", filepath.Base(path), len(recs)))
	}
	return all, names, nil
}
