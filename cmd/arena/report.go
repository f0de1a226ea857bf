//go:build !worker

package main

import (
	"flag"
	"fmt"
	"io"

	"arena/arena/report"
)

func init() {
	register("report", command{summary: "report.md, self-contained report.html and plots from run directories", run: runReport})
}

func runReport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "report `DIR` (default: the directory given, when there is one)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena report DIR... [--out DIR]")
		fmt.Fprintln(stderr, "\nReads run directories of arena run (summary.json, config.yaml, games.jsonl; a sweep's")
		fmt.Fprintln(stderr, "directory, or any directory holding run directories, stands for all of them) and writes")
		fmt.Fprintln(stderr, "report.md, report.html and plots/ (PNG and SVG) into the report directory (see docs/report.md).")
		fs.PrintDefaults()
	}
	dirs, code, ok := parseArgs(fs, args)
	if !ok {
		return code
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
	return 0
}
