// Command thesis-report writes the thesis comparison (docs/reproduction.md)
// from run directories of the thesis study: the runs of the thesis's
// experiments next to the thesis's tables, with plots in img/reproduction
// beside the file. `make reproduce` and `make reproduce-fast` run it over
// every set under results/thesis/.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	arep "arena/arena/report"
	"arena/studies/thesis/report"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("thesis-report", flag.ContinueOnError)
	out := fs.String("out", "docs/reproduction.md", "write the comparison to `FILE`")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: thesis-report [--out FILE] DIR...")
		fmt.Fprintln(os.Stderr, "\nReads run directories (a directory holding run directories stands for all of them) and")
		fmt.Fprintln(os.Stderr, "writes the comparison with the thesis's tables to FILE, plots in img/reproduction beside it.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	runs, err := arep.Load(fs.Args()...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "thesis-report: %v\n", err)
		return 1
	}
	if err := report.WriteReproduction(runs, *out); err != nil {
		fmt.Fprintf(os.Stderr, "thesis-report: %v\n", err)
		return 1
	}
	fmt.Printf("Thesis comparison in %s (plots in %s)\n", *out, filepath.Join(filepath.Dir(*out), report.ReproductionPlotsDir))
	return 0
}
