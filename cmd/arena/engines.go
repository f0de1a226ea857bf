//go:build !worker

package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"arena/engines"
)

func init() {
	register("engines", command{
		summary: "list the built-in engines with their descriptions and options",
		run:     runEngines,
	})
}

func runEngines(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("engines", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena engines [ENGINE ...]")
		fmt.Fprintln(stderr, "\nLists every built-in engine (or the ones named) with its description and options;")
		fmt.Fprintln(stderr, "options are set with --option NAME=VALUE in 'arena uci' and 'arena bench', or in a config.")
	}
	names, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	specs := engines.List()
	if len(names) > 0 {
		specs = specs[:0:0]
		for _, name := range names {
			s, err := engines.Lookup(name)
			if err != nil {
				fmt.Fprintf(stderr, "arena engines: %v\n", err)
				return 2
			}
			specs = append(specs, s)
		}
	}
	for i, s := range specs {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		writeSpec(stdout, s)
	}
	return 0
}

// writeSpec prints one engine: its name and description, then a table of
// its options.
func writeSpec(w io.Writer, s engines.Spec) {
	fmt.Fprintf(w, "%s: %s\n", s.Name, s.Description)
	if len(s.Options) == 0 {
		fmt.Fprintln(w, "  (no options)")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  OPTION\tTYPE\tDEFAULT\tRANGE\tHELP")
	for _, o := range s.Options {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", o.Name, o.Type, orDash(o.Default), optionRange(o), o.Help)
	}
	tw.Flush()
}

// optionRange is what an option accepts: min..max for a spin, the choices of
// a combo, and for check and string options the obvious.
func optionRange(o engines.Option) string {
	switch o.Type {
	case engines.Spin:
		return fmt.Sprintf("%d..%d", o.Min, o.Max)
	case engines.Combo:
		return strings.Join(o.Vars, "|")
	case engines.Check:
		return "true|false"
	default:
		return "text"
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
