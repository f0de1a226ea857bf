package tracker

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestSPRTBounds(t *testing.T) {
	cases := []struct {
		s            SPRT
		lower, upper float64
	}{
		// ln(0.05/0.95) = -ln 19 = -2.944439, ln(0.95/0.05) = ln 19.
		{SPRT{Elo0: 0, Elo1: 5}, -math.Log(19), math.Log(19)},
		{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}, -2.9444389791664403, 2.9444389791664403},
		// ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = ln 18 = 2.890372.
		{SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.1}, -2.2512917986064953, 2.8903717578961645},
	}
	for _, c := range cases {
		lo, hi := c.s.Bounds()
		if !near(lo, c.lower, 1e-12) || !near(hi, c.upper, 1e-12) {
			t.Errorf("%v: bounds %v, %v; want %v, %v", c.s, lo, hi, c.lower, c.upper)
		}
	}
}

// TestSPRTLLR checks the log-likelihood ratios against
// testdata/stats_expected.py, an independent Python version of fishtest's
// LLRcalc.py (run it to see these numbers).
func TestSPRTLLR(t *testing.T) {
	cases := []struct {
		elo0, elo1           float64
		counts               []int // W, D, L or LL, LD, DD, WD, WW
		normalized, logistic float64
	}{
		{0, 10, []int{1200, 1800, 1000}, 6.106484379083406, 7.460092080425765},
		{0, 10, []int{1000, 1800, 1200}, -9.416277975075959, -13.46016523685624},
		{0, 10, []int{30, 0, 10}, 0.5590120580914684, 0.5590937921237406}, // a zero count, regularized
		{-5, 5, []int{1200, 1800, 1000}, 7.761854928839004, 10.464751182823347},
		{0, 10, []int{0, 0, 0}, -1.2422465134001026e-06, -1.8634985046344106e-06},
		{0, 5, []int{10, 40, 200, 50, 20}, 0.6904727744224326, 1.1256969293870922},
		{0, 5, []int{0, 30, 100, 40, 5}, 0.5473515671819181, 1.031635356377778},
	}
	for _, c := range cases {
		for _, m := range []struct {
			model Model
			want  float64
		}{{ModelNormalized, c.normalized}, {ModelLogistic, c.logistic}} {
			s := SPRT{Elo0: c.elo0, Elo1: c.elo1, Model: m.model}
			var got float64
			if n := c.counts; len(n) == 3 {
				got = s.LLR(n[0], n[1], n[2])
			} else {
				got = s.LLRPenta(Penta{LL: n[0], LD: n[1], DD: n[2], WD: n[3], WW: n[4]})
			}
			if !near(got, m.want, 1e-6*max(1, math.Abs(m.want))) {
				t.Errorf("%v on %v: LLR %.10g, want %.10g", s, c.counts, got, m.want)
			}
		}
	}
}

// TestSPRTMirror: testing [e0, e1] on the first engine's results is testing
// [-e1, -e0] on the second's with the hypotheses swapped, so the LLR changes
// sign.
func TestSPRTMirror(t *testing.T) {
	for _, model := range []Model{ModelNormalized, ModelLogistic} {
		a := SPRT{Elo0: 0, Elo1: 10, Model: model}
		b := SPRT{Elo0: -10, Elo1: 0, Model: model}
		if x, y := a.LLR(130, 200, 100), b.LLR(100, 200, 130); !near(x, -y, 1e-9) || x <= 0 {
			t.Errorf("%s: LLR %v and mirrored %v", model, x, y)
		}
		p := Penta{LL: 3, LD: 20, DD: 50, WD: 25, WW: 6}
		q := Penta{LL: 6, LD: 25, DD: 50, WD: 20, WW: 3}
		if x, y := a.LLRPenta(p), b.LLRPenta(q); !near(x, -y, 1e-9) || x <= 0 {
			t.Errorf("%s: penta LLR %v and mirrored %v", model, x, y)
		}
	}
}

func TestSPRTDecide(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10}
	cases := []struct {
		w, d, l int
		want    Status
	}{
		{1200, 1800, 1000, AcceptH1}, // LLR 6.11 ≥ 2.94
		{1000, 1800, 1200, AcceptH0},
		{30, 0, 10, Continue}, // LLR 0.56
		{0, 0, 0, Continue},
		{-1, 3, 3, Continue}, // no LLR for a negative count
	}
	for _, c := range cases {
		llr, st := s.Decide(c.w, c.d, c.l)
		if st != c.want {
			t.Errorf("Decide(%d, %d, %d) = %v, %v; want %v", c.w, c.d, c.l, llr, st, c.want)
		}
	}
	if _, st := s.DecidePenta(Penta{LL: 10, LD: 40, DD: 200, WD: 50, WW: 20}); st != Continue {
		t.Errorf("DecidePenta(LLR 0.69) = %v, want continue", st)
	}
	if llr, st := s.DecidePenta(Penta{LL: 100, LD: 400, DD: 2000, WD: 500, WW: 200}); st != AcceptH1 || llr < 2.95 {
		t.Errorf("DecidePenta(×10) = %v, %v; want H1", llr, st)
	}
	if llr, st := s.DecidePenta(Penta{LL: 200, LD: 500, DD: 2000, WD: 400, WW: 100}); st != AcceptH0 || llr > -2.95 {
		t.Errorf("DecidePenta(mirrored ×10) = %v, %v; want H0", llr, st)
	}
	// Reaching a bound decides (fastchess's getResult); NaN never does.
	lower, upper := s.Bounds()
	for _, c := range []struct {
		llr  float64
		want Status
	}{
		{upper, AcceptH1}, {math.Nextafter(upper, 0), Continue},
		{lower, AcceptH0}, {math.Nextafter(lower, 0), Continue},
		{math.NaN(), Continue}, {math.Inf(1), AcceptH1},
	} {
		if st := s.status(c.llr); st != c.want {
			t.Errorf("status(%v) = %v, want %v (bounds %v, %v)", c.llr, st, c.want, lower, upper)
		}
	}
	for st, text := range map[Status]string{Continue: "continue", AcceptH0: "H0 accepted", AcceptH1: "H1 accepted"} {
		if b, _ := st.MarshalText(); st.String() != text || string(b) != text {
			t.Errorf("status %d: %q %q, want %q", int(st), st.String(), b, text)
		}
	}
}

func TestSPRTValidate(t *testing.T) {
	good := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: ModelNormalized}
	if err := good.Validate(); err != nil {
		t.Fatalf("%+v: %v", good, err)
	}
	if d := (SPRT{Elo0: -3, Elo1: 1}).WithDefaults(); d != (SPRT{Elo0: -3, Elo1: 1, Alpha: 0.05, Beta: 0.05, Model: ModelNormalized}) {
		t.Errorf("WithDefaults = %+v", d)
	}
	if s := good.String(); s != "normalized Elo [0, 5], alpha 0.05, beta 0.05" {
		t.Errorf("String() = %q", s)
	}
	cases := []struct {
		change func(*SPRT)
		want   []string
	}{
		{func(s *SPRT) { s.Elo0 = 5 }, []string{"elo0 5, elo1 5: expected elo0 < elo1"}},
		{func(s *SPRT) { s.Elo1 = math.NaN() }, []string{"elo1: NaN, expected a finite number"}},
		{func(s *SPRT) { s.Alpha = 0 }, []string{"alpha: 0, expected a probability strictly between 0 and 1"}},
		{func(s *SPRT) { s.Beta = 1.5 }, []string{"beta: 1.5, expected a probability", "alpha 0.05 + beta 1.5: expected a sum below 1"}},
		{func(s *SPRT) { s.Alpha, s.Beta = 0.5, 0.6 }, []string{"alpha 0.5 + beta 0.6: expected a sum below 1"}},
		{func(s *SPRT) { s.Model = "bayesian" }, []string{`sprt model: "bayesian", expected "normalized" or "logistic"`}},
		{func(s *SPRT) { s.Model = "" }, []string{`sprt model: "", expected`}},
		{func(s *SPRT) { s.Elo1 = 250 }, []string{"elo1: 250, expected -200..200 for the normalized model"}},
		{func(s *SPRT) { s.Model, s.Elo0 = ModelLogistic, -2500 }, []string{"elo0: -2500, expected -2000..2000 for the logistic model"}},
	}
	for _, c := range cases {
		s := good
		c.change(&s)
		err := s.Validate()
		if err == nil {
			t.Errorf("%+v: no error, want %q", s, c.want)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: error %q lacks %q", s, err, w)
			}
		}
		// An invalid test has no LLR and never decides.
		if s.WithDefaults().Validate() != nil {
			if llr, st := s.Decide(1000, 0, 0); !math.IsNaN(llr) || st != Continue {
				t.Errorf("%+v: Decide = %v, %v; want NaN, continue", s, llr, st)
			}
		}
	}
	// Within the range, no result leaves the equations without a solution.
	for _, s := range []SPRT{{Elo0: -200, Elo1: 200}, {Elo0: -2000, Elo1: 2000, Model: ModelLogistic}} {
		for _, p := range []Penta{{WW: 5000}, {LL: 5000}, {DD: 5000}, {LL: 1, WW: 1}, {}} {
			if x, y := s.LLRPenta(p), s.LLR(p.WW, p.DD, p.LL); math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
				t.Errorf("%v on %+v: LLR %v (penta), %v (W-D-L)", s, p, x, y)
			}
		}
	}
}

// results draws games with a true logistic Elo difference elo and a draw
// ratio draws: score s = 1/(1 + 10^(-elo/400)), P(win) = s - draws/2.
type results struct {
	rng         *rand.Rand
	win, loss   float64
	wins, draws int
	losses      int
	pairs       Penta
}

func newResults(seed uint64, elo, draws float64) *results {
	s := logisticScore(elo)
	return &results{rng: rand.New(rand.NewPCG(seed, 1)), win: s - draws/2, loss: 1 - s - draws/2}
}

func (r *results) game() float64 {
	switch x := r.rng.Float64(); {
	case x < r.win:
		r.wins++
		return 1
	case x < r.win+r.loss:
		r.losses++
		return 0
	}
	r.draws++
	return 0.5
}

func (r *results) pair() error { return r.pairs.AddPair(r.game(), r.game()) }

// TestSPRTStopsOnStream plays seeded streams of games and checks that the
// test stops with the right verdict: a true +50 Elo edge accepts H1 of
// [0, 10], a true -20 Elo accepts H0, in both models and from W-D-L as well
// as from pairs.
func TestSPRTStopsOnStream(t *testing.T) {
	const maxGames = 20000
	cases := []struct {
		trueElo float64
		sprt    SPRT
		want    Status
	}{
		{50, SPRT{Elo0: 0, Elo1: 10, Model: ModelNormalized}, AcceptH1},
		{-20, SPRT{Elo0: 0, Elo1: 10, Model: ModelNormalized}, AcceptH0},
		{50, SPRT{Elo0: 0, Elo1: 10, Model: ModelLogistic}, AcceptH1},
		{-20, SPRT{Elo0: 0, Elo1: 10, Model: ModelLogistic}, AcceptH0},
	}
	for i, c := range cases {
		for _, penta := range []bool{false, true} {
			r := newResults(uint64(i+1), c.trueElo, 0.4)
			st, llr, games := Continue, 0.0, 0
			for st == Continue && games < maxGames {
				if penta {
					if err := r.pair(); err != nil {
						t.Fatal(err)
					}
					games += 2
					llr, st = c.sprt.DecidePenta(r.pairs)
				} else {
					r.game()
					games++
					llr, st = c.sprt.Decide(r.wins, r.draws, r.losses)
				}
			}
			t.Logf("true Elo %+g, %v, pairs %v: %v after %d games (LLR %.3f, %s)",
				c.trueElo, c.sprt, penta, st, games, llr, Elo(r.wins, r.draws, r.losses))
			if st != c.want {
				t.Errorf("true Elo %+g, %v, pairs %v: %v after %d games (LLR %.3f), want %v",
					c.trueElo, c.sprt, penta, st, games, llr, c.want)
			}
		}
	}
}

// TestSPRTErrorRates runs the test on many seeded streams at the boundaries
// of its hypotheses: at Elo0 it may accept H1 in about alpha of the runs, at
// Elo1 accept H0 in about beta of them (Wald's bounds make both rates at
// most their nominal values, less the overshoot of the bounds).
func TestSPRTErrorRates(t *testing.T) {
	const runs = 100
	s := SPRT{Elo0: 0, Elo1: 30, Model: ModelLogistic}
	for _, c := range []struct {
		trueElo float64
		wrong   Status
	}{{0, AcceptH1}, {30, AcceptH0}} {
		wrong := 0
		for seed := range uint64(runs) {
			r := newResults(1000+seed, c.trueElo, 0.3)
			st := Continue
			for n := 1; st == Continue; n++ {
				r.game()
				// Deciding every 8 games keeps the test quick; the
				// overshoot only lowers the error rates.
				if n%8 == 0 {
					_, st = s.Decide(r.wins, r.draws, r.losses)
				}
			}
			if st == c.wrong {
				wrong++
			}
		}
		t.Logf("true Elo %g: %v in %d of %d runs", c.trueElo, c.wrong, wrong, runs)
		// The nominal rate is 5%; more than 12 of 100 happens by chance with
		// probability 0.15% (binomial), so it would mean a biased LLR.
		if wrong > 12 {
			t.Errorf("true Elo %g: %v in %d of %d runs, want about 5", c.trueElo, c.wrong, wrong, runs)
		}
	}
}

// BenchmarkSPRTDecide measures one verdict, what a match runner pays after
// each game or pair.
func BenchmarkSPRTDecide(b *testing.B) {
	for _, model := range []Model{ModelNormalized, ModelLogistic} {
		s := SPRT{Elo0: 0, Elo1: 5, Model: model}
		b.Run(string(model)+"/wdl", func(b *testing.B) {
			for b.Loop() {
				s.Decide(1200, 1800, 1000)
			}
		})
		b.Run(string(model)+"/penta", func(b *testing.B) {
			p := Penta{LL: 10, LD: 40, DD: 200, WD: 50, WW: 20}
			for b.Loop() {
				s.DecidePenta(p)
			}
		})
	}
}
