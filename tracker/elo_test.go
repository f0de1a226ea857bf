package tracker

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// statCase is one W-D-L or pentanomial record with its expected statistics,
// worked out by hand (the first case) and by testdata/stats_expected.py
// (fastchess's formulas, written independently in Python).
type statCase struct {
	name                    string
	score                   float64
	elo, eloLow, eloHigh    float64
	nelo, neloLow, neloHigh float64
	los                     float64
}

type statGot struct {
	score, elo, eloLow, eloHigh, nelo, neloLow, neloHigh, los float64
}

func (c statCase) check(t *testing.T, got statGot) {
	t.Helper()
	for _, v := range []struct {
		name      string
		got, want float64
	}{
		{"score", got.score, c.score},
		{"elo", got.elo, c.elo}, {"elo low", got.eloLow, c.eloLow}, {"elo high", got.eloHigh, c.eloHigh},
		{"nelo", got.nelo, c.nelo}, {"nelo low", got.neloLow, c.neloLow}, {"nelo high", got.neloHigh, c.neloHigh},
		{"los", got.los, c.los},
	} {
		if !near(v.got, v.want, 1e-9*max(1, math.Abs(v.want))) {
			t.Errorf("%s: %s = %.12g, want %.12g", c.name, v.name, v.got, v.want)
		}
	}
}

func TestEloByHand(t *testing.T) {
	cases := []struct {
		w, d, l   int
		drawRatio float64
		want      statCase
	}{
		// 10 wins, 5 draws, 5 losses: s = 12.5/20 = 0.625;
		// v = 0.5·0.375² + 0.25·0.125² + 0.25·0.625² = 0.171875;
		// Elo = -400·log10(1/0.625 - 1) = 88.7395;
		// s ± 1.959964·sqrt(0.171875/20) = 0.625 ± 0.181694 → -39.565, +248.185;
		// nElo = 0.125/sqrt(0.171875)·347.43559 = 0.301511·347.43559 = 104.756,
		// its interval (0.625 ± 0.181694 - 0.5)/0.414578·347.43559 → -47.512, +257.023;
		// LOS = (1 - erf(-0.125/sqrt(2·0.171875/20)))/2 = (1 + erf(0.953463))/2 = 0.911235.
		{10, 5, 5, 0.25, statCase{"10-5-5", 0.625,
			88.73949984654251, -39.564838560050845, 248.18486857316125,
			104.75577054508216, -47.511791710476366, 257.0233328006407, 0.9112350737939232}},
		{1200, 1800, 1000, 0.45, statCase{"1200-1800-1000", 0.525,
			17.386277512436145, 9.407267523338344, 25.383657069562076,
			23.477521172373333, 12.710578589808346, 34.244463754938316, 0.999990388873885}},
		{30, 0, 10, 0, statCase{"30-0-10", 0.75,
			190.848501887865, 81.96059393503243, 353.1190715427716,
			200.59202882752922, 92.92260300187897, 308.26145465317944, 0.9998696351835723}},
	}
	for _, c := range cases {
		r := Elo(c.w, c.d, c.l)
		c.want.check(t, statGot{r.Score, r.Elo, r.EloLow, r.EloHigh, r.NElo, r.NEloLow, r.NEloHigh, r.LOS})
		if r.Games != c.w+c.d+c.l || r.DrawRatio != c.drawRatio {
			t.Errorf("%s: games %d, draw ratio %v; want %d, %v", c.want.name, r.Games, r.DrawRatio, c.w+c.d+c.l, c.drawRatio)
		}
		if !near(r.EloError(), (c.want.eloHigh-c.want.eloLow)/2, 1e-9) || !near(r.NEloError(), (c.want.neloHigh-c.want.neloLow)/2, 1e-9) {
			t.Errorf("%s: ± %v, n± %v", c.want.name, r.EloError(), r.NEloError())
		}
		// The second engine's view negates the Elo, swaps the bounds and
		// complements the LOS.
		o := Elo(c.l, c.d, c.w)
		if !near(o.Elo, -r.Elo, 1e-9) || !near(o.EloLow, -r.EloHigh, 1e-9) || !near(o.NElo, -r.NElo, 1e-9) ||
			!near(o.NEloHigh, -r.NEloLow, 1e-9) || !near(o.LOS, 1-r.LOS, 1e-9) {
			t.Errorf("Elo(%d,%d,%d) = %+v, not the mirror of %+v", c.l, c.d, c.w, o, r)
		}
	}
	// nElo's interval is symmetric: ±1.959964·347.43559/sqrt(N) whatever the
	// results (20 games: ±152.267).
	if r := Elo(10, 5, 5); !near(r.NEloError(), Z95*neloPerT/math.Sqrt(20), 1e-9) || !near(r.NEloError(), 152.26756, 1e-4) {
		t.Errorf("nElo ± of 20 games = %v, want 152.26756", r.NEloError())
	}
	if s := Elo(10, 5, 5).String(); s != "Elo +88.7 [-39.6, +248.2] LOS 91.1% draws 25.0% (20 games)" {
		t.Errorf("String() = %q", s)
	}
}

func TestEloEdgeCases(t *testing.T) {
	// All wins: the score is 1 without variance: Elo and nElo unbounded,
	// LOS certain; the lower end is the exact binomial one, the score whose
	// chance of 3 wins in 3 is 2.5%: 0.025^(1/3) = 0.29240, Elo -153.52.
	r := Elo(3, 0, 0)
	if !math.IsInf(r.Elo, 1) || !near(r.EloLow, -153.5227, 1e-3) || !math.IsInf(r.EloHigh, 1) || !math.IsInf(r.NElo, 1) {
		t.Errorf("Elo(3,0,0) = %v [%v, %v] nElo %v, want +Inf [-153.52, +Inf]", r.Elo, r.EloLow, r.EloHigh, r.NElo)
	}
	if s := Elo(6, 0, 0).String(); s != "Elo > +28.4 (all won) LOS 100.0% draws 0.0% (6 games)" {
		t.Errorf("Elo(6,0,0).String() = %q", s)
	}
	if r.LOS != 1 {
		t.Errorf("LOS(3,0,0) = %v, want 1", r.LOS)
	}
	// 9-0-1: the upper score bound 1.086 is past 1: unbounded above only.
	r = Elo(9, 0, 1)
	if !math.IsInf(r.EloHigh, 1) || !near(r.EloLow, 158.98518382465204, 1e-6) || !strings.Contains(r.String(), "[+159.0, unbounded]") {
		t.Errorf("Elo(9,0,1) interval = [%v, %v] %q, want [158.985, +Inf]", r.EloLow, r.EloHigh, r)
	}
	// All draws: no variance, nElo and LOS undefined; Elo exactly 0.
	r = Elo(0, 4, 0)
	if r.Elo != 0 || r.EloLow != 0 || r.EloHigh != 0 || !math.IsNaN(r.LOS) || !math.IsNaN(r.NElo) {
		t.Errorf("Elo(0,4,0) = %+v, want Elo 0 [0, 0] and LOS, nElo NaN", r)
	}
	// No games.
	r = Elo(0, 0, 0)
	if !math.IsNaN(r.Elo) || !math.IsNaN(r.Score) || r.String() != "Elo n/a (no games)" {
		t.Errorf("Elo(0,0,0) = %+v %q", r, r.String())
	}
	// All losses.
	if r := Elo(0, 0, 2); !math.IsInf(r.Elo, -1) || !math.IsInf(r.NElo, -1) || r.LOS != 0 || !strings.HasPrefix(r.String(), "Elo < +290.5 (all lost)") {
		t.Errorf("Elo(0,0,2) = %+v %q, want -Inf and LOS 0", r, r.String())
	}
	// A negative count is no record.
	if r := Elo(3, -1, 2); !math.IsNaN(r.Elo) || !math.IsNaN(r.LOS) {
		t.Errorf("Elo(3,-1,2) = %+v, want NaN", r)
	}
}

func TestEloJSON(t *testing.T) {
	for _, r := range []EloResult{Elo(3, 0, 0), Elo(0, 0, 0), Elo(0, 4, 0), Elo(10, 5, 5)} {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("marshal %+v: %v", r, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		for _, k := range []string{"elo", "elo_low", "elo_high", "nelo", "nelo_low", "nelo_high", "los", "score"} {
			v, ok := m[k]
			if !ok {
				t.Errorf("%s: no %q", b, k)
				continue
			}
			if f, isNum := v.(float64); isNum && (math.IsNaN(f) || math.IsInf(f, 0)) {
				t.Errorf("%s: %q is not finite", b, k)
			}
		}
	}
	b, _ := json.Marshal(Elo(3, 0, 0))
	if !strings.Contains(string(b), `"elo":null`) || !strings.Contains(string(b), `"wins":3`) {
		t.Errorf("all-wins JSON %s: want elo null and wins 3", b)
	}
}
