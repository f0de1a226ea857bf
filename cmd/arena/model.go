package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"arena/engines/nn"
	"arena/engines/nn/nets"
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
		fmt.Fprintln(stderr, "\nFILE is a .safetensors file or a torch.save checkpoint (a state_dict or {m, g, best_wr});")
		fmt.Fprintf(stderr, "builtin:NAME a shipped net (%s). info without one describes %s.\n", strings.Join(names(nets.Prefix, nets.Names()), ", "), defaultModel)
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
	if err := describeModel(stdout, spec); err != nil {
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
