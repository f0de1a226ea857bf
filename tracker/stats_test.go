package tracker

import (
	"math"
	"testing"
)

// Student's t quantiles as scipy.stats.t.ppf(0.975, df) gives them, and
// the normal limit.
func TestTQuantile(t *testing.T) {
	for _, c := range []struct{ df, want float64 }{
		{1, 12.7062047}, {2, 4.3026527}, {5, 2.5705818}, {30, 2.0422725}, {math.Inf(1), Z95},
	} {
		if got := T95(c.df); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("T95(%v) = %.7f, want %.7f", c.df, got, c.want)
		}
	}
	if !math.IsNaN(T95(0)) {
		t.Error("T95(0) is a number; one unit has no interval")
	}
}

// Two-sided p-values from the closed forms of df 1 (Cauchy: 1 - 2 atan(t)/π)
// and df 2 (1 - t/sqrt(2 + t²)), and at the 95% quantile.
func TestTwoSidedP(t *testing.T) {
	for _, c := range []struct{ t, df, want float64 }{
		{1, 1, 0.5}, {-1, 1, 0.5}, {2, 2, 1 - 2/math.Sqrt(6)}, {2.5705818, 5, 0.05}, {0, 7, 1},
	} {
		if got := TwoSidedP(c.t, c.df); math.Abs(got-c.want) > 1e-7 {
			t.Errorf("TwoSidedP(%v, %v) = %.8f, want %.8f", c.t, c.df, got, c.want)
		}
	}
}

// Holm by hand: p = 0.01, 0.04, 0.03, 0.005 (m = 4) sorted 0.005, 0.01,
// 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04, the last raised to
// 0.06 to keep the order; a NaN is no test and not counted; 1 caps.
func TestHolm(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct{ ps, want []float64 }{
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		{[]float64{0.01, nan, 0.04}, []float64{0.02, nan, 0.04}},
		{[]float64{0.5, 0.6}, []float64{1, 1}},
		{nil, []float64{}},
	} {
		got := Holm(c.ps)
		if len(got) != len(c.want) {
			t.Fatalf("Holm(%v) = %v", c.ps, got)
		}
		for i := range got {
			if math.IsNaN(c.want[i]) != math.IsNaN(got[i]) || math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("Holm(%v) = %v, want %v", c.ps, got, c.want)
				break
			}
		}
	}
}

// Mean, ratio and difference with their t intervals, by hand.
func TestEstimates(t *testing.T) {
	// 1, 2, 3, 6: mean 3, sd sqrt(14/3), SE sqrt(14/3)/2, 3 df.
	m := Mean([]float64{1, 2, 3, 6})
	if m.Value != 3 || math.Abs(m.SE-math.Sqrt(14.0/3)/2) > 1e-12 || m.DF != 3 || m.N != 4 {
		t.Errorf("Mean = %+v", m)
	}
	if one := Mean([]float64{5}); one.Value != 5 || !math.IsNaN(one.Half()) {
		t.Errorf("Mean of one unit = %+v, half %v; want no interval", one, one.Half())
	}
	// Games (30 cp, 2 moves), (50, 1), (30, 3): ACPL 110/6; residuals
	// -6.67, 31.67, -25: SE sqrt(3/2 · 1672.2)/6 = 8.347, 2 df, so the
	// 95% half-width is 4.3027 · 8.347 = 35.92 (1.96 would say 16.36).
	r := Ratio([]Cluster{{30, 2}, {50, 1}, {30, 3}})
	if math.Abs(r.Value-110.0/6) > 1e-12 || math.Abs(r.SE-8.347) > 1e-3 || r.DF != 2 || math.Abs(r.Half()-35.92) > 0.01 {
		t.Errorf("Ratio = %+v, half %.3f", r, r.Half())
	}
	// SE 3 (4 df) minus SE 4 (9 df): SE 5, Welch-Satterthwaite df
	// 625/(81/4 + 256/9) = 12.835.
	d := Estimate{Value: 10, SE: 3, DF: 4, N: 5}.Minus(Estimate{Value: 4, SE: 4, DF: 9, N: 10})
	if d.Value != 6 || d.SE != 5 || math.Abs(d.DF-12.835) > 1e-3 || d.N != 15 {
		t.Errorf("Minus = %+v", d)
	}
	if p := d.P(0); math.Abs(p-TwoSidedP(1.2, d.DF)) > 1e-15 {
		t.Errorf("P = %v", p)
	}
	// Six games all won: no spread, so the sign test: 2 · 0.5^6 = 0.03125.
	if p := Mean([]float64{100, 100, 100, 100, 100, 100}).P(50); p != 0.03125 {
		t.Errorf("P without spread = %v, want 0.03125", p)
	}
}
