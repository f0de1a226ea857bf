//go:build !worker

package main

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"arena/engines/board"
	"arena/engines/nn"
	"arena/engines/nn/nets"
)

// defaultModel is the net eval and model info use without --model: the
// shipped self-play net, the default of the nn and mcts engines.
const defaultModel = nets.Prefix + nets.SelfPlay

// modelHelp describes a --model argument, as the engines' model option.
var modelHelp = fmt.Sprintf("weight `FILE` (.safetensors or torch.save checkpoint) or a shipped net %s (%s)",
	nets.Prefix+"NAME", strings.Join(names(nets.Prefix, nets.Names()), ", "))

func names(prefix string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = prefix + s
	}
	return out
}

// readModel reads the weights a model argument names: a shipped net
// ("builtin:NAME") or a file.
func readModel(spec string) (*nn.Weights, nn.Meta, error) {
	if strings.HasPrefix(spec, nets.Prefix) {
		return nets.Weights(spec)
	}
	return nn.ReadFile(spec)
}

// describeModel writes what "arena model info" shows about a net: format,
// architecture, parameter counts, metadata and the tensors.
func describeModel(out io.Writer, spec string) error {
	w, meta, err := readModel(spec)
	if err != nil {
		return err
	}
	trainable, buffers := w.ParamCounts()
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", spec)
	fmt.Fprintf(tw, "format\t%s\n", meta.Format)
	fmt.Fprintf(tw, "architecture\t%s\n", meta.Architecture)
	fmt.Fprintf(tw, "parameters\t%s trainable, %s BatchNorm running statistics\n", thousands(trainable), thousands(buffers))
	fmt.Fprintf(tw, "generation\t%s\n", known(meta.HasGeneration, strconv.Itoa(meta.Generation)))
	fmt.Fprintf(tw, "best_wr\t%s\n", known(meta.HasBestWR, strconv.FormatFloat(meta.BestWR, 'g', -1, 64)))
	fmt.Fprintf(tw, "training\t%s\n", known(meta.Training != "", meta.Training))
	if meta.Source != "" {
		fmt.Fprintf(tw, "source\t%s\n", meta.Source)
	}
	for _, k := range slices.Sorted(maps.Keys(meta.Extra)) {
		fmt.Fprintf(tw, "metadata %s\t%s\n", k, meta.Extra[k])
	}
	fmt.Fprintf(tw, "tensors\t%d\n", len(w.Tensors))
	for _, t := range w.Tensors {
		fmt.Fprintf(tw, "  %s\t%s %v\n", t.Name, t.DType, t.Shape)
	}
	return tw.Flush()
}

// known is s, or "-" when the metadata lacks the field.
func known(ok bool, s string) string {
	if ok {
		return s
	}
	return "-"
}

// thousands formats n as 757,985.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// readPositions reads positions to evaluate with board.ReadEPD (a FEN or
// EPD line each, every one checked with board.ParseFEN; errors name the file
// and line; no position is an error) and returns them as written.
func readPositions(r io.Reader, name string) ([]string, error) {
	entries, err := board.ReadEPD(r, name)
	if err != nil {
		return nil, err
	}
	fens := make([]string, len(entries))
	for i, e := range entries {
		fens[i] = e.FEN
	}
	return fens, nil
}

// readPositionsFile is readPositions on the file at path.
func readPositionsFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readPositions(f, path)
}

// writeValues evaluates the positions (FENs, validated with board.ParseFEN)
// in one batch and writes one line each: the FEN, a tab, and the value from
// White's point of view with 6 decimals.
func writeValues(out io.Writer, n *nn.Net, fens []string) error {
	inputs := make([]nn.Input, len(fens))
	for i, fen := range fens {
		p, err := board.ParseFEN(fen)
		if err != nil {
			return err
		}
		inputs[i].SetPosition(p)
	}
	values := make([]float32, len(inputs))
	n.EvaluateBatch(inputs, values)
	bw := bufio.NewWriter(out)
	for i, fen := range fens {
		fmt.Fprintf(bw, "%s\t%.6f\n", fen, values[i])
	}
	return bw.Flush()
}
