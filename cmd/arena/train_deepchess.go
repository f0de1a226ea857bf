//go:build !worker

package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"arena/arena/output"
	"arena/engines/deepchess"
	"arena/engines/deepchess/dctrain"
)

const trainDeepChessUsage = `usage: arena train deepchess --games GAMES.jsonl[,...] --out DIR [options]

DeepChess's comparison net from the decisive games of arena runs: positions after
the first 5 moves that do not follow a capture; Pos2Vec pre-trained layer by layer as
autoencoders, then Pos2Vec and the head trained on pairs (one position from a game White
won, one from a game Black won), drawn anew each epoch. Every --held-every-th opening is
held out; the accuracy on pairs from those games is printed after each epoch. DIR gets
pos2vec.safetensors and head.safetensors after every epoch.

An interrupted run keeps its last epoch k in DIR; to go on, run the same command
with --init DIR --first-epoch k+1 (no pre-training; the learning-rate schedule goes
on where it stopped, the pairs drawn and Adam's moments do not).

options:
`

// runTrainDeepChess is "arena train deepchess": DeepChess's net from the
// decisive games of arena runs (docs/models.md, "deepchess").
func runTrainDeepChess(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("train deepchess", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, trainDeepChessUsage)
		fs.PrintDefaults()
	}
	cfg := dctrain.Config{Log: stderr}
	games := fs.String("games", "", "comma-separated games.jsonl `FILES` of arena runs (or their games.jsonl.gz)")
	out := fs.String("out", "", "net `DIR` to write")
	p2v := fs.String("pos2vec", "600,400,200,100", "Pos2Vec hidden `WIDTHS`")
	head := fs.String("head", "400,200,100", "comparison head hidden `WIDTHS` (then 2 outputs)")
	fs.IntVar(&cfg.PretrainEpochs, "pretrain-epochs", 2, "autoencoder epochs per Pos2Vec layer (0: no pre-training)")
	fs.IntVar(&cfg.PretrainPositions, "pretrain-positions", 200000, "training positions sampled for pre-training (0: all)")
	fs.Float64Var(&cfg.PretrainLR, "pretrain-lr", 1e-3, "Adam learning rate of the autoencoders")
	fs.IntVar(&cfg.Epochs, "epochs", 10, "pair epochs")
	fs.IntVar(&cfg.PairsPerEpoch, "pairs", 200000, "pairs drawn per epoch")
	fs.Float64Var(&cfg.LR, "lr", 1e-3, "Adam learning rate of the pair training")
	fs.Float64Var(&cfg.LRDecay, "lr-decay", 0.9, "learning-rate factor after each epoch")
	fs.IntVar(&cfg.Batch, "batch", 256, "pairs (pre-training: positions) per step")
	fs.IntVar(&cfg.Workers, "workers", 2, "goroutines per step")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the weights, pairs and order")
	heldEvery := fs.Int("held-every", 10, "hold out every N-th opening (game pair)")
	mirror := fs.Bool("mirror", true, "add every training position's colour-flipped mirror to the other side's positions")
	fs.IntVar(&cfg.HeldPairs, "held-pairs", 20000, "held-out pairs measured")
	initDir := fs.String("init", "", "start from the net in `DIR` (e.g. an interrupted run's checkpoint), without pre-training")
	fs.IntVar(&cfg.FirstEpoch, "first-epoch", 1, "number of the first pair epoch: continuing a run whose last checkpoint is epoch k, k+1")
	if code, ok := parseTrainFlags(fs, args, stderr); !ok {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "arena train deepchess: %v\n", err)
		return 1
	}
	if *games == "" || *out == "" {
		fmt.Fprintln(stderr, "arena train deepchess: --games and --out are required")
		return 2
	}
	var err error
	if cfg.Pos2Vec, err = parseWidths("pos2vec", *p2v); err != nil {
		return fail(err)
	}
	if cfg.Head, err = parseWidths("head", *head); err != nil {
		return fail(err)
	}
	if (*initDir == "") != (cfg.FirstEpoch <= 1) {
		fmt.Fprintln(stderr, "arena train deepchess: --init and --first-epoch (above 1) go together")
		return 2
	}
	var initMeta map[string]string
	if *initDir != "" {
		if cfg.Init, initMeta, err = deepchess.LoadModels(*initDir); err != nil {
			return fail(err)
		}
	}
	files := strings.Split(*games, ",")
	start := time.Now()
	data, err := dctrain.ReadGames(files, *heldEvery, func(path string) (io.ReadCloser, error) { return output.Open(path) })
	if err != nil {
		return fail(err)
	}
	mirrored := ""
	if *mirror {
		data.AddMirrors()
		mirrored = " (training positions doubled by their colour-flipped mirrors)"
	}
	source := fmt.Sprintf("%d decisive games (%d drawn skipped) from %s: %d+%d train positions (White won + Black won) from %d games, "+
		"%d+%d held-out positions from %d games (every %d-th opening)%s",
		data.Train.Games+data.Held.Games, data.Draws, strings.Join(files, ", "), data.Train.WhiteWon.Len(), data.Train.BlackWon.Len(), data.Train.Games,
		data.Held.WhiteWon.Len(), data.Held.BlackWon.Len(), data.Held.Games, *heldEvery, mirrored)
	fmt.Fprintf(stderr, "data: %s (read in %v)\n", source, time.Since(start).Round(time.Millisecond))
	cfg.Checkpoint = func(r *dctrain.Result) error {
		return r.Net.Save(*out, deepchessMeta(&cfg, r, source, *p2v, *initDir, initMeta))
	}
	res, err := dctrain.Train(data, cfg)
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "%s: held-out accuracy %.4f on %d pairs after %d epochs; pre-training %v, pair training %v\n",
		*out, res.HeldAccuracy, res.HeldPairs, res.Epochs, res.Pretrain.Round(time.Second), res.PairTraining.Round(time.Second))
	return 0
}

func parseWidths(name, s string) ([]int, error) {
	var ws []int
	for _, f := range strings.Split(s, ",") {
		w, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || w < 1 {
			return nil, fmt.Errorf("--%s %q: expected comma-separated positive widths, e.g. 600,400,200,100", name, s)
		}
		ws = append(ws, w)
	}
	return ws, nil
}

// deepchessMeta is the metadata saved with a net: how it was made and how
// good it is.
// A continued run (initDir set) names the net it started from and adds that
// net's training time.
func deepchessMeta(cfg *dctrain.Config, r *dctrain.Result, source, p2v, initDir string, initMeta map[string]string) map[string]string {
	training := fmt.Sprintf("arena train deepchess: %s; Pos2Vec %s pre-trained %d epochs on %d positions, then %d epochs of %d pairs, "+
		"batch %d, Adam lr %g decay %g, seed %d", source, p2v, cfg.PretrainEpochs, cfg.PretrainPositions, r.Epochs, cfg.PairsPerEpoch,
		cfg.Batch, cfg.LR, cfg.LRDecay, cfg.Seed)
	seconds := int((r.Pretrain + r.PairTraining).Seconds())
	if initDir != "" {
		training += fmt.Sprintf("; epochs %d-%d continued from the net in %s", cfg.FirstEpoch, r.Epochs, initDir)
		before, _ := strconv.Atoi(initMeta["train_seconds"])
		seconds += before
	}
	return map[string]string{
		"training":      training,
		"held_accuracy": strconv.FormatFloat(r.HeldAccuracy, 'f', 4, 64),
		"held_pairs":    strconv.Itoa(r.HeldPairs),
		"train_seconds": strconv.Itoa(seconds),
	}
}
