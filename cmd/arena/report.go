package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"arena/arena/report"
)

func init() {
	register("report", command{summary: "report.md, self-contained report.html and plots from run directories", run: runReport})
}

func runReport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "report `DIR` (default: the directory given, when there is one)")
	thesis := fs.String("thesis", "", "also write `FILE`: the runs of the thesis's experiments next to the thesis's tables (docs/reproduction.md)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena report DIR... [--out DIR] [--thesis FILE]")
		fmt.Fprintln(stderr, "\nReads run directories of arena run (summary.json, moves.csv, config.yaml; a directory")
		fmt.Fprintln(stderr, "holding run directories, like a sweep's, stands for all of them) and writes report.md,")
		fmt.Fprintln(stderr, "report.html and plots/ (PNG and SVG) into the report directory (see docs/report.md).")
		fs.PrintDefaults()
	}
	// Flags may come before or after the directories.
	var dirs []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		dirs = append(dirs, args[0])
		args = args[1:]
	}
	switch {
	case len(dirs) == 0:
		fs.Usage()
		return 2
	case *out == "" && len(dirs) > 1:
		fmt.Fprintln(stderr, "arena report: several directories: name the report directory with --out DIR")
		return 2
	case *out == "":
		*out = dirs[0]
	}
	runs, err := report.Load(dirs...)
	if err != nil {
		fmt.Fprintf(stderr, "arena report: %v\n", err)
		return 1
	}
	if _, err := report.Write(runs, *out); err != nil {
		fmt.Fprintf(stderr, "arena report: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "Report of %d run(s) in %s (%s, %s, %s/)\n", len(runs), *out, report.MarkdownFile, report.HTMLFile, report.PlotsDir)
	if *thesis != "" {
		if err := report.WriteReproduction(runs, *thesis); err != nil {
			fmt.Fprintf(stderr, "arena report: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "Thesis comparison in %s (plots in %s)\n", *thesis, filepath.Join(filepath.Dir(*thesis), report.ReproductionPlotsDir))
	}
	return 0
}
