//go:build !worker

package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"arena/engines/nn"
	"arena/engines/nn/nets"
	"arena/engines/nnue"
)

func init() {
	register("model", command{
		summary: "inspect a ValueNet weight file (info) or convert a PyTorch checkpoint to safetensors (convert)",
		run:     runModel,
	})
}

func runModel(args []string, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintln(stderr, "usage: arena model info [FILE|builtin:NAME]")
		fmt.Fprintln(stderr, "       arena model convert [--training TEXT] IN.pt OUT.safetensors")
		fmt.Fprintln(stderr, "\nFILE is a .safetensors file, a torch.save checkpoint (a state_dict or {m, g, best_wr}) or an NNUE net (docs/nnue.md);")
		fmt.Fprintf(stderr, "builtin:NAME a shipped net (%s). info without one describes %s.\n", strings.Join(names(nets.Prefix, append(nets.Names(), nets.NNUE)), ", "), defaultModel)
	}
	if len(args) == 0 {
		usage()
		return 2
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage()
		return 0
	case "info":
		return modelInfo(args[1:], stdout, stderr)
	case "convert":
		return modelConvert(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "arena model: unknown subcommand %q, expected info or convert\n", args[0])
	usage()
	return 2
}

func modelInfo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("model info", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: arena model info [FILE|builtin:NAME] (default %s)\n", defaultModel)
	}
	files, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) > 1 {
		fmt.Fprintf(stderr, "arena model info: expected one FILE or builtin:NAME, got %d arguments\n", len(files))
		return 2
	}
	spec := defaultModel
	if len(files) == 1 {
		spec = files[0]
	}
	describe := describeModel
	if isNNUE(spec) {
		describe = describeNNUE
	}
	if err := describe(stdout, spec); err != nil {
		fmt.Fprintf(stderr, "arena model info: %v\n", err)
		return 1
	}
	return 0
}

func modelConvert(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("model convert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	training := fs.String("training", "", "`TEXT` describing how the weights were trained, stored in the metadata")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena model convert [--training TEXT] IN.pt OUT.safetensors")
		fs.PrintDefaults()
	}
	files, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) != 2 {
		fmt.Fprintf(stderr, "arena model convert: expected IN and OUT files, got %d arguments\n", len(files))
		return 2
	}
	meta, err := nn.Convert(files[0], files[1], *training)
	if err != nil {
		fmt.Fprintf(stderr, "arena model convert: %v\n", err)
		return 1
	}
	gen := "-"
	if meta.HasGeneration {
		gen = fmt.Sprint(meta.Generation)
	}
	fmt.Fprintf(stdout, "wrote %s (%s, generation %s)\n", fs.Arg(1), meta.Architecture, gen)
	return 0
}

// isNNUE reports whether a model argument names an NNUE net: the shipped
// one, or a file that opens with the NNUE magic (whatever its version, so
// that the reader says which versions it knows).
func isNNUE(spec string) bool {
	if spec == nets.Prefix+nets.NNUE {
		return true
	}
	f, err := os.Open(spec)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 6)
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == nnue.Magic[:6]
}

// describeNNUE writes what "arena model info" shows about an NNUE net:
// shape, activation, quantisation, the accumulators' range and the CRC.
func describeNNUE(out io.Writer, spec string) error {
	n, err := nnue.LoadModel(spec)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", spec)
	fmt.Fprintf(tw, "format\tarena NNUE version %d (docs/nnue.md)\n", nnue.Magic[7])
	fmt.Fprintf(tw, "architecture\t%d -> %dx2 -> 1 (piece-square features from each side's perspective)\n", nnue.Inputs, n.Hidden)
	fmt.Fprintf(tw, "activation\t%v\n", n.Activation)
	fmt.Fprintf(tw, "quantisation\tQA %d, QB %d, scale %d (eval cp = output * %d / (QA*QB)); int16 weights, int32 output bias\n", n.QA, n.QB, n.Scale, n.Scale)
	fmt.Fprintf(tw, "parameters\t%s\n", thousands(nnue.Inputs*n.Hidden+n.Hidden+2*n.Hidden+1))
	bound, fits := n.AccumulatorBound(), "fits int16"
	if bound > math.MaxInt16 {
		fits = "may pass int16 and wrap in some positions"
	}
	fmt.Fprintf(tw, "accumulators\t|value| <= %s (bias + the 32 largest weights of a neuron): %s\n", thousands(bound), fits)
	fmt.Fprintf(tw, "crc32\t%08x (checked)\n", n.CRC)
	return tw.Flush()
}
