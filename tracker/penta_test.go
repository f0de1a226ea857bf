package tracker

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestEloPentaByHand(t *testing.T) {
	cases := []struct {
		p    Penta
		want statCase
	}{
		// 320 pairs: s = (¼·40 + ½·200 + ¾·50 + 20)/320 = 167.5/320 = 0.5234375;
		// v = (10·0.5234375² + 40·0.2734375² + 200·0.0234375² + 50·0.2265625²
		//      + 20·0.4765625²)/320 = 12.94921875/320 = 0.04046630859375;
		// Elo = -400·log10(1/0.5234375 - 1) = 16.298;
		// s ± 1.959964·sqrt(v/320) = 0.5234375 ± 0.0220395 → +0.971, +31.689;
		// nElo = 0.0234375/sqrt(2v)·347.43559 = 0.0823848·347.43559 = 28.624;
		// LOS = (1 + erf(0.0234375/sqrt(2v/320)))/2 = (1 + erf(1.474065))/2 = 0.981429.
		{Penta{LL: 10, LD: 40, DD: 200, WD: 50, WW: 20}, statCase{"10-40-200-50-20", 0.5234375,
			16.297987076023766, 0.9707919532905288, 31.68887733820041,
			28.623569468188684, 1.706213011776136, 55.54092592460123, 0.981429029843182}},
		{Penta{LL: 0, LD: 3, DD: 10, WD: 4, WW: 3}, statCase{"0-3-10-4-3", 0.5875,
			61.43356722313199, -8.457079655502277, 136.70095512456473,
			94.52427251285734, -13.145153312792837, 202.19369833850752, 0.9573451614277033}},
	}
	for _, c := range cases {
		r := EloPenta(c.p)
		c.want.check(t, statGot{r.Score, r.Elo, r.EloLow, r.EloHigh, r.NElo, r.NEloLow, r.NEloHigh, r.LOS})
		if r.Pairs != c.p.Pairs() || r.Games != 2*c.p.Pairs() || r.Counts != c.p {
			t.Errorf("%s: pairs %d games %d counts %+v", c.want.name, r.Pairs, r.Games, r.Counts)
		}
		if !near(r.EloError(), (c.want.eloHigh-c.want.eloLow)/2, 1e-9) || !near(r.NEloError(), (c.want.neloHigh-c.want.neloLow)/2, 1e-9) {
			t.Errorf("%s: ± %v, n± %v", c.want.name, r.EloError(), r.NEloError())
		}
		m := EloPenta(Penta{LL: c.p.WW, LD: c.p.WD, DD: c.p.DD, WD: c.p.LD, WW: c.p.LL})
		if !near(m.Elo, -r.Elo, 1e-9) || !near(m.NEloLow, -r.NEloHigh, 1e-9) || !near(m.LOS, 1-r.LOS, 1e-9) {
			t.Errorf("%s: mirror %+v of %+v", c.want.name, m, r)
		}
	}
	if s := EloPenta(cases[0].p).String(); s != "Elo +16.3 [+1.0, +31.7] LOS 98.1% (320 pairs)" {
		t.Errorf("String() = %q", s)
	}
}

// TestPentaNarrowerThanTrinomial: when most pairs are a win and a loss (the
// opening decides), the pairs carry little variance while the same games'
// W-D-L have nearly the largest possible one. Per pair v = (5·¼ + 10·¹⁄₁₆ +
// 10·¹⁄₁₆ + 5·¼)/100 = 0.0375, a game's share 2v = 0.075, against the
// trinomial (90·¼ + 90·¼)/200 = 0.225: the interval shrinks by about
// sqrt(0.075/0.225) = 0.577.
func TestPentaNarrowerThanTrinomial(t *testing.T) {
	p := EloPenta(Penta{LL: 5, LD: 10, DD: 70, WD: 10, WW: 5})
	// The same games: LL 5 → 10 L; LD 10 → 10 L 10 D; DD 70 taken as WL
	// → 70 W 70 L; WD 10 → 10 W 10 D; WW 5 → 10 W.
	g := Elo(90, 20, 90)
	if p.Games != g.Games || p.Score != g.Score {
		t.Fatalf("penta %d games score %v, W-D-L %d games score %v", p.Games, p.Score, g.Games, g.Score)
	}
	if ratio := p.EloError() / g.EloError(); !near(ratio, 0.577, 0.01) {
		t.Errorf("pentanomial ± %v / trinomial ± %v = %v, want about 0.577", p.EloError(), g.EloError(), ratio)
	}
}

func TestEloPentaEdgeCases(t *testing.T) {
	r := EloPenta(Penta{})
	if !math.IsNaN(r.Score) || !math.IsNaN(r.Elo) || r.String() != "Elo n/a (no pairs)" {
		t.Errorf("no pairs: %+v %q", r, r.String())
	}
	if r := EloPenta(Penta{LL: 1, WW: -2, DD: 4}); !math.IsNaN(r.Elo) || !math.IsNaN(r.LOS) {
		t.Errorf("negative count: %+v, want NaN", r)
	}
	// Only 1-point pairs: score ½ without variance.
	r = EloPenta(Penta{DD: 12})
	if r.Elo != 0 || !math.IsNaN(r.NElo) || !math.IsNaN(r.LOS) || r.Games != 24 || r.FewPairs {
		t.Errorf("all DD: %+v, want Elo 0, nElo and LOS NaN, 24 games", r)
	}
	r = EloPenta(Penta{WW: 3})
	if !math.IsInf(r.Elo, 1) || r.LOS != 1 {
		t.Errorf("all WW: %+v, want +Inf and LOS 1", r)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"elo":null`) || !strings.Contains(string(b), `"counts":{"ll":0,"ld":0,"dd":0,"wd":0,"ww":3}`) ||
		!strings.Contains(string(b), `"los":1`) {
		t.Errorf("JSON %s: want elo null, the counts and los 1", b)
	}
}

// With few pairs the pair variance is not trusted below independent games':
// two WD pairs (no pair variance at all) get the interval of the four games
// W 2 D 2 as independent games, the same as the trinomial one.
func TestEloPentaFewPairs(t *testing.T) {
	p := EloPenta(Penta{WD: 2})
	g := Elo(2, 2, 0)
	if !p.FewPairs || p.EloLow >= p.Elo || !near(p.EloLow, g.EloLow, 1e-9) || !near(p.EloHigh, g.EloHigh, 1e-9) {
		t.Errorf("2 WD pairs: %s (%v), trinomial %s: want the same interval", p, p.FewPairs, g)
	}
	if !strings.Contains(p.String(), "too few") {
		t.Errorf("String %q does not say the pairs are too few", p)
	}
	// Never narrower than the trinomial interval on few pairs, whatever the
	// DD pairs were.
	for _, c := range []Penta{{WD: 1}, {DD: 1, WD: 1}, {LD: 1, WD: 1}, {LL: 1, WW: 2, DD: 3}} {
		p := EloPenta(c)
		wins, losses := 2*c.WW+c.WD, 2*c.LL+c.LD
		for _, decisive := range []int{0, c.DD} {
			g := Elo(wins+decisive, c.LD+c.WD+2*(c.DD-decisive), losses+decisive)
			if p.EloHigh-p.EloLow < g.EloHigh-g.EloLow-1e-9 {
				t.Errorf("%+v: penta %s narrower than trinomial %s", c, p, g)
			}
		}
	}
	// Enough pairs: the pair variance stands even where it is smaller.
	if r := EloPenta(Penta{DD: 8, WD: 4}); r.FewPairs {
		t.Errorf("12 pairs: %s, want the pentanomial variance", r)
	}
}

func TestAddPair(t *testing.T) {
	cases := []struct {
		first, second float64
		want          Penta
	}{
		{0, 0, Penta{LL: 1}},
		{0, 0.5, Penta{LD: 1}},
		{0.5, 0, Penta{LD: 1}},
		{0.5, 0.5, Penta{DD: 1}},
		{1, 0, Penta{DD: 1}},
		{0, 1, Penta{DD: 1}},
		{1, 0.5, Penta{WD: 1}},
		{0.5, 1, Penta{WD: 1}},
		{1, 1, Penta{WW: 1}},
	}
	for _, c := range cases {
		var p Penta
		if err := p.AddPair(c.first, c.second); err != nil || p != c.want {
			t.Errorf("AddPair(%v, %v) = %+v, %v; want %+v", c.first, c.second, p, err, c.want)
		}
	}
	var p Penta
	for _, bad := range [][2]float64{{0.25, 0.75}, {2, 0}, {1, -1}, {math.NaN(), 0}} {
		err := p.AddPair(bad[0], bad[1])
		if err == nil || !strings.Contains(err.Error(), "expected a game score of 0, 0.5 or 1") {
			t.Errorf("AddPair(%v, %v): error %v", bad[0], bad[1], err)
		}
	}
	if p != (Penta{}) {
		t.Errorf("bad pairs were counted: %+v", p)
	}
}
