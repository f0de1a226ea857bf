//go:build !worker

package main

import (
	"flag"
	"fmt"
	"io"

	"arena/arena/config"
	"arena/arena/output"
)

func init() {
	register("check", command{summary: "validate a YAML config without playing it and print it resolved", run: checkConfig})
}

// checkConfig loads a config through the same loader as run (every
// validation run does before its first game) and prints the resolved config,
// every default filled in, as the run directory's config.yaml would hold it.
func checkConfig(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena check CONFIG.yaml")
		fmt.Fprintln(stderr, "\nValidates the config as 'arena run' would, without starting a game, and prints")
		fmt.Fprintln(stderr, "the resolved config (defaults filled in, built-in engine options resolved, paths")
		fmt.Fprintln(stderr, "made absolute); for a sweep, one resolved config per setting. Exit status 1 on")
		fmt.Fprintln(stderr, "the first error, which names the file, line and key.")
	}
	positional, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(positional) != 1 {
		fs.Usage()
		return 2
	}
	cfg, err := config.Load(positional[0])
	if err != nil {
		fmt.Fprintf(stderr, "arena check: %v\n", err)
		return 1
	}
	configs, headers := []*config.Config{cfg}, []string{""}
	if s := cfg.Sweep; s != nil {
		configs, headers = s.Configs, nil
		for i, v := range s.Values {
			headers = append(headers, fmt.Sprintf("# sweep setting %d of %d: %s = %s\n", i+1, len(s.Values), s.Key, v))
		}
	}
	fmt.Fprintf(stdout, "# %s: valid; resolved config:\n", positional[0])
	for i, c := range configs {
		data, err := c.Marshal()
		if err != nil {
			fmt.Fprintf(stderr, "arena check: %v\n", err)
			return 1
		}
		if i > 0 {
			fmt.Fprintln(stdout, "---")
		}
		fmt.Fprint(stdout, headers[i])
		fmt.Fprintf(stdout, "# max_moves: %s\n", output.MaxMovesNote(c))
		stdout.Write(data)
	}
	return 0
}
