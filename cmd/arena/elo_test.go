package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestEloCommand(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		// Values worked out in tracker's tests (TestEloByHand, TestSPRTLLR).
		{[]string{"elo", "--wdl", "10,5,5"}, `games       20 (W 10, D 5, L 5)
score       0.6250
draw ratio  25.00%
Elo         +88.74 ± 143.87 (95%: -39.56 to +248.18)
nElo        +104.76 ± 152.27 (95%: -47.51 to +257.02)
LOS         91.12%
`},
		{[]string{"elo", "--wdl", "1200, 1800, 1000", "--sprt", "0,10"}, `games       4000 (W 1200, D 1800, L 1000)
score       0.5250
draw ratio  45.00%
Elo         +17.39 ± 7.99 (95%: +9.41 to +25.38)
nElo        +23.48 ± 10.77 (95%: +12.71 to +34.24)
LOS         100.00%
SPRT        normalized Elo [0, 10], alpha 0.05, beta 0.05
LLR         +6.11 (bounds -2.94, +2.94): H1 accepted
`},
		{[]string{"elo", "--penta", "10,40,200,50,20", "--sprt", "0,5,0.05,0.1", "--model", "logistic"}, `pairs       320 (LL 10, LD 40, DD+WL 200, WD 50, WW 20)
games       640
score       0.5234
Elo         +16.30 ± 15.36 (95%: +0.97 to +31.69)
nElo        +28.62 ± 26.92 (95%: +1.71 to +55.54)
LOS         98.14%
SPRT        logistic Elo [0, 5], alpha 0.05, beta 0.1
LLR         +1.13 (bounds -2.25, +2.89): continue
`},
		{[]string{"elo", "--wdl", "1000,1800,1200", "--sprt=0,10"}, "LLR         -9.42 (bounds -2.94, +2.94): H0 accepted\n"},
		{[]string{"elo", "--wdl", "0,4,0"}, "Elo         +0.00 ± 0.00 (95%: +0.00 to +0.00)\nnElo        n/a ± n/a (95%: n/a to n/a)\nLOS         n/a\n"},
		{[]string{"elo", "--wdl", "3,0,0"}, "Elo         > -153.52 (all won; 95% lower bound)\n"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != 0 || errb.Len() > 0 {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errb.String())
			continue
		}
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("%v: output\n%s\nwant it to contain\n%s", c.args, out.String(), c.want)
		}
	}
}

func TestEloCommandErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--wdl", "1,2"}, `--wdl "1,2": expected 3 comma-separated counts W,D,L, got 2`},
		{[]string{"--wdl", "1,x,3"}, `--wdl "1,x,3": D is "x", expected a whole number (counts W,D,L)`},
		{[]string{"--wdl", "1.5,2,3"}, `W is "1.5", expected a whole number`},
		{[]string{"--wdl", "1,-2,3"}, `--wdl "1,-2,3": D is -2, expected a count of at least 0`},
		{[]string{"--wdl", "0,0,0"}, `--wdl "0,0,0": all counts are 0, expected at least one game`},
		{[]string{"--penta", "1,2,3"}, `--penta "1,2,3": expected 5 comma-separated counts LL,LD,DD,WD,WW, got 3`},
		{[]string{"--penta", "1,2,3,4,-5"}, `--penta "1,2,3,4,-5": WW is -5, expected a count of at least 0`},
		{[]string{}, "expected exactly one of --wdl W,D,L and --penta LL,LD,DD,WD,WW"},
		{[]string{"--wdl", "1,2,3", "--penta", "1,2,3,4,5"}, "expected exactly one of --wdl"},
		{[]string{"--wdl", "1,2,3", "--model", "logistic"}, "--model applies only with --sprt"},
		{[]string{"--wdl", "1,2,3", "--sprt", "5"}, `--sprt "5": expected 2 or 4 comma-separated numbers elo0,elo1[,alpha,beta], got 1`},
		{[]string{"--wdl", "1,2,3", "--sprt", "0,5,0.05"}, "got 3"},
		{[]string{"--wdl", "1,2,3", "--sprt", "a,5"}, `--sprt "a,5": elo0 is "a", expected a number`},
		{[]string{"--wdl", "1,2,3", "--sprt", "5,1"}, "sprt elo0 5, elo1 1: expected elo0 < elo1"},
		{[]string{"--wdl", "1,2,3", "--sprt", "0,5,1,0.05"}, "sprt alpha: 1, expected a probability strictly between 0 and 1"},
		{[]string{"--wdl", "1,2,3", "--sprt", "0,5", "--model", "bayesian"}, `sprt model: "bayesian", expected "normalized" or "logistic"`},
		{[]string{"--wdl", "1,2,3", "extra"}, `unexpected argument "extra"`},
		{[]string{"--wdl"}, "flag needs an argument: -wdl"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(append([]string{"elo"}, c.args...), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) || out.Len() > 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out.String(), errb.String(), c.want)
		}
		if lines := strings.Count(strings.TrimSpace(errb.String()), "\n"); code == 2 && c.args != nil && len(c.args) > 1 && lines > 0 {
			t.Errorf("%v: error on %d lines, want one: %q", c.args, lines+1, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"elo", "-h"}, &out, &errb); code != 0 || !strings.Contains(errb.String(), "usage: arena elo --wdl W,D,L") {
		t.Errorf("-h: exit %d, stderr %q", code, errb.String())
	}
}
