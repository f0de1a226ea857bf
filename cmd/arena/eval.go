//go:build !worker

package main

import (
	"flag"
	"fmt"
	"io"

	"arena/engines/board"
	"arena/engines/nn"
	"arena/engines/nnue"
)

func init() {
	register("eval", command{
		summary: "print the ValueNet (or NNUE net) value of positions (--fen FEN or --epd FILE; --model FILE|builtin:NAME)",
		run:     runEval,
	})
}

func runEval(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", defaultModel, modelHelp)
	fen := fs.String("fen", "", "position to evaluate")
	epd := fs.String("epd", "", "`FILE` of positions, one FEN or EPD line each")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena eval [--model FILE|builtin:NAME] (--fen FEN | --epd FILE)")
		fmt.Fprintln(stderr, "\nPrints each position, a tab and its value in [-1, 1] (positive: good for White);")
		fmt.Fprintln(stderr, "for an NNUE net (docs/nnue.md) the value is in centipawns, also from White's side.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	extra, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(extra) > 0 {
		fmt.Fprintf(stderr, "arena eval: unexpected argument %q (quote the FEN given with --fen)\n", extra[0])
		return 2
	}
	if (*fen == "") == (*epd == "") {
		fmt.Fprintln(stderr, "arena eval: give exactly one of --fen FEN and --epd FILE")
		return 2
	}
	var fens []string
	if *fen != "" {
		if _, err := board.ParseFEN(*fen); err != nil {
			fmt.Fprintf(stderr, "arena eval: --fen: %v\n", err)
			return 2
		}
		fens = []string{*fen}
	} else {
		var err error
		if fens, err = readPositionsFile(*epd); err != nil {
			fmt.Fprintf(stderr, "arena eval: --epd: %v\n", err)
			return 2
		}
	}
	if isNNUE(*model) {
		if err := writeNNUEValues(stdout, *model, fens); err != nil {
			fmt.Fprintf(stderr, "arena eval: %v\n", err)
			return 1
		}
		return 0
	}
	w, _, err := readModel(*model)
	var net *nn.Net
	if err == nil {
		net, err = nn.New(w)
	}
	if err != nil {
		fmt.Fprintf(stderr, "arena eval: %v\n", err)
		return 1
	}
	if err := writeValues(stdout, net, fens); err != nil {
		fmt.Fprintf(stderr, "arena eval: %v\n", err)
		return 2
	}
	return 0
}

// writeNNUEValues prints each position and the NNUE net's value of it in
// centipawns from White's point of view.
func writeNNUEValues(out io.Writer, model string, fens []string) error {
	net, err := nnue.LoadModel(model)
	if err != nil {
		return err
	}
	for _, fen := range fens {
		p, err := board.ParseFEN(fen)
		if err != nil {
			return err
		}
		v := net.Evaluate(p)
		if p.SideToMove() == board.Black {
			v = -v
		}
		fmt.Fprintf(out, "%s\t%d\n", fen, v)
	}
	return nil
}
