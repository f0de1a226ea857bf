//go:build !worker

package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"arena/engines"
	"arena/engines/uci"
)

func init() {
	register("uci", command{
		summary: "speak UCI on stdin/stdout as a built-in engine (for cutechess-cli, fastchess, GUIs)",
		run:     runUCI,
	})
}

// optionFlags collects repeated --option NAME=VALUE flags; a later value for
// the same name replaces an earlier one.
type optionFlags map[string]string

func (o optionFlags) String() string {
	parts := make([]string, 0, len(o))
	for k, v := range o {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

func (o optionFlags) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("%q: expected NAME=VALUE (e.g. --option \"max_depth=6\")", s)
	}
	o[name] = value
	return nil
}

func runUCI(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("uci", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opts := optionFlags{}
	fs.Var(opts, "option", "engine option `NAME=VALUE` (repeatable); the engine's options are listed by its UCI handshake")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena uci ENGINE [--option NAME=VALUE ...]")
		fmt.Fprintf(stderr, "\nRuns built-in engine ENGINE as a UCI engine on stdin/stdout.\nbuilt-in engines: %s\n\n", strings.Join(engines.Names(), ", "))
		fs.PrintDefaults()
	}
	positional, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(positional) == 0 {
		fmt.Fprintf(stderr, "arena uci: no engine given (built-in engines: %s)\n", strings.Join(engines.Names(), ", "))
		return 2
	}
	name := positional[0]
	if len(positional) > 1 {
		fmt.Fprintf(stderr, "arena uci: unexpected arguments %q after engine %s (options go in --option NAME=VALUE)\n", positional[1:], name)
		return 2
	}
	spec, err := engines.Lookup(name)
	if err != nil {
		fmt.Fprintf(stderr, "arena uci: %v\n", err)
		return 2
	}
	if _, err := spec.Resolve(opts); err != nil {
		fmt.Fprintf(stderr, "arena uci: %v\n", err)
		return 2
	}
	if err := uci.Serve(spec, opts, os.Stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "arena uci: %v\n", err)
		return 1
	}
	return 0
}
