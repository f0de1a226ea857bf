//go:build !worker

package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"arena/tracker"
)

func init() {
	register("elo", command{
		summary: "Elo, nElo, LOS and an SPRT verdict from W-D-L (--wdl) or game-pair counts (--penta)",
		run:     runElo,
	})
}

func runElo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("elo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	wdl := fs.String("wdl", "", "the first engine's wins, draws and losses, `W,D,L`")
	penta := fs.String("penta", "", "game pairs by the first engine's points: `LL,LD,DD,WD,WW` (DD includes win+loss pairs)")
	sprt := fs.String("sprt", "", "also run an SPRT of H0 Elo=elo0 against H1 Elo=elo1: `elo0,elo1[,alpha,beta]` (alpha, beta default 0.05)")
	model := fs.String("model", string(tracker.DefaultSPRTModel), "with --sprt: the Elo scale of elo0 and elo1, `normalized|logistic`")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena elo --wdl W,D,L [--sprt elo0,elo1[,alpha,beta] [--model normalized|logistic]]")
		fmt.Fprintln(stderr, "       arena elo --penta LL,LD,DD,WD,WW [--sprt ...] [--model ...]")
		fmt.Fprintln(stderr, "\nPrints the first engine's score, Elo and normalized Elo with 95% intervals and")
		fmt.Fprintln(stderr, "its likelihood of superiority, as fastchess computes them (docs/stats.md).")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	extra, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "arena elo: "+format+"\n", a...)
		return 2
	}
	if len(extra) > 0 {
		return fail("unexpected argument %q (the counts are given with --wdl or --penta)", extra[0])
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["wdl"] == set["penta"] {
		return fail("expected exactly one of --wdl W,D,L and --penta LL,LD,DD,WD,WW")
	}
	if set["model"] && !set["sprt"] {
		return fail("--model applies only with --sprt")
	}
	var test *tracker.SPRT
	if set["sprt"] {
		s, err := parseSPRT(*sprt, *model)
		if err != nil {
			return fail("%v", err)
		}
		test = &s
	}

	if set["wdl"] {
		c, err := parseCounts("wdl", *wdl, []string{"W", "D", "L"})
		if err != nil {
			return fail("%v", err)
		}
		fmt.Fprint(stdout, tracker.Elo(c[0], c[1], c[2]).Report())
		if test != nil {
			llr, st := test.Decide(c[0], c[1], c[2])
			fmt.Fprint(stdout, test.Report(llr, st))
		}
		return 0
	}
	c, err := parseCounts("penta", *penta, []string{"LL", "LD", "DD", "WD", "WW"})
	if err != nil {
		return fail("%v", err)
	}
	p := tracker.Penta{LL: c[0], LD: c[1], DD: c[2], WD: c[3], WW: c[4]}
	fmt.Fprint(stdout, tracker.EloPenta(p).Report())
	if test != nil {
		llr, st := test.DecidePenta(p)
		fmt.Fprint(stdout, test.Report(llr, st))
	}
	return 0
}

// parseCounts reads the comma-separated counts of --name, one per name:
// non-negative integers, not all zero.
func parseCounts(flagName, value string, names []string) ([]int, error) {
	want := strings.Join(names, ",")
	fields := strings.Split(value, ",")
	if len(fields) != len(names) {
		return nil, fmt.Errorf("--%s %q: expected %d comma-separated counts %s, got %d", flagName, value, len(names), want, len(fields))
	}
	counts := make([]int, len(names))
	total := 0
	for i, f := range fields {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("--%s %q: %s is %q, expected a whole number (counts %s)", flagName, value, names[i], f, want)
		}
		if n < 0 {
			return nil, fmt.Errorf("--%s %q: %s is %d, expected a count of at least 0", flagName, value, names[i], n)
		}
		counts[i] = n
		total += n
	}
	if total == 0 {
		return nil, fmt.Errorf("--%s %q: all counts are 0, expected at least one game", flagName, value)
	}
	return counts, nil
}

// parseSPRT reads --sprt elo0,elo1[,alpha,beta] and --model into a
// validated test.
func parseSPRT(value, model string) (tracker.SPRT, error) {
	names := []string{"elo0", "elo1", "alpha", "beta"}
	fields := strings.Split(value, ",")
	if len(fields) != 2 && len(fields) != 4 {
		return tracker.SPRT{}, fmt.Errorf("--sprt %q: expected 2 or 4 comma-separated numbers elo0,elo1[,alpha,beta], got %d", value, len(fields))
	}
	x := make([]float64, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return tracker.SPRT{}, fmt.Errorf("--sprt %q: %s is %q, expected a number", value, names[i], f)
		}
		x[i] = v
	}
	s := tracker.SPRT{Elo0: x[0], Elo1: x[1], Alpha: tracker.DefaultSPRTAlpha, Beta: tracker.DefaultSPRTBeta, Model: tracker.Model(model)}
	if len(x) == 4 {
		s.Alpha, s.Beta = x[2], x[3]
	}
	if err := s.Validate(); err != nil {
		// One line per error would lose the "arena elo:" prefix.
		return tracker.SPRT{}, fmt.Errorf("--sprt %q --model %s: %s", value, model, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return s, nil
}
