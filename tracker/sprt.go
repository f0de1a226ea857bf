package tracker

import (
	"errors"
	"fmt"
	"math"
)

// Model is the Elo scale of an SPRT's hypotheses.
type Model string

const (
	// ModelNormalized: elo0 and elo1 are normalized Elo (fishtest's and
	// fastchess's default), a difference measured in standard deviations of
	// the result, so that a test's length hardly depends on the draw ratio.
	ModelNormalized Model = "normalized"
	// ModelLogistic: elo0 and elo1 are the usual (logistic) Elo, the score
	// 1/(1 + 10^(-elo/400)).
	ModelLogistic Model = "logistic"
)

// SPRT defaults (fastchess's).
const (
	DefaultSPRTAlpha = 0.05
	DefaultSPRTBeta  = 0.05
	DefaultSPRTModel = ModelNormalized
)

// maxLogisticElo bounds |elo0| and |elo1| of the logistic model: a score
// within 1e-5 of 0 or 1 (2000 Elo) is no hypothesis a match can test, and
// beyond about 6000 Elo the score rounds to 1.
const maxLogisticElo = 2000

// maxNormalizedElo bounds |elo0| and |elo1| of the normalized model: from
// a t-value of about 1 (between 340 and 350 nElo for games, between 200 and
// 250 for pairs, whose t-value is √2 times larger) the maximum-likelihood
// equations, which start from the uniform distribution, have no solution;
// an SPRT is meant for differences far smaller than that.
const maxNormalizedElo = 200

// SPRT is a sequential probability ratio test of H0: Elo = Elo0 against
// H1: Elo = Elo1 (from the first engine's side), with false-positive rate
// Alpha (accepting H1 when H0 holds) and false-negative rate Beta. Zero
// Alpha, Beta and Model take the defaults (0.05, 0.05, normalized). The yaml
// names are those of the arena config's `sprt:` section.
//
// It follows fastchess app/src/matchmaking/sprt/sprt.cpp, itself a port of
// fishtest server/fishtest/stats/LLRcalc.py: the bounds are
// lower = ln(β/(1-α)) and upper = ln((1-β)/α); the log-likelihood ratio is
// the generalized one (GSPRT) of the results' empirical distribution (W-D-L,
// or pentanomial pair counts), with every zero count replaced by 0.001, and
// the maximum-likelihood distributions under H0 and H1 found as in Michel
// Van den Bergh's notes: with expectation L(elo) for the logistic model
// (LLRcalc.MLE_expected, support_MLE_multinomial.pdf proposition 1.1) and
// with t-value (μ - ½)/σ = nElo/(800/ln 10) (×√2 for pairs) for the
// normalized one (LLRcalc.MLE_t_value, normalized_elo_practical.pdf section
// 4.1). The logistic LLR is that exact maximum-likelihood ratio, as
// fastchess computes it, not the Brownian approximation
// (s1-s0)(2s-s0-s1)/(2σ²) of fishtest's LLR_alt2, which it approaches for
// many games. fastchess's root finder stops at a tolerance of 1e-3 to 1e-7
// and fishtest's iteration after 10 rounds; here the equations are solved to
// machine precision (the tests agree with fishtest's formulas to 1e-6).
type SPRT struct {
	Elo0  float64 `yaml:"elo0" json:"elo0"`
	Elo1  float64 `yaml:"elo1" json:"elo1"`
	Alpha float64 `yaml:"alpha" json:"alpha"`
	Beta  float64 `yaml:"beta" json:"beta"`
	Model Model   `yaml:"model" json:"model"`
}

// WithDefaults fills the zero fields with the defaults.
func (s SPRT) WithDefaults() SPRT {
	if s.Alpha == 0 {
		s.Alpha = DefaultSPRTAlpha
	}
	if s.Beta == 0 {
		s.Beta = DefaultSPRTBeta
	}
	if s.Model == "" {
		s.Model = DefaultSPRTModel
	}
	return s
}

// Validate reports the invalid fields, naming each, its value and what was
// expected (fastchess's SPRT::isValid checks). It checks the values as
// given: apply WithDefaults first to give omitted (zero) fields their
// defaults.
func (s SPRT) Validate() error {
	type field struct {
		name string
		v    float64
	}
	elos := []field{{"elo0", s.Elo0}, {"elo1", s.Elo1}}
	probabilities := []field{{"alpha", s.Alpha}, {"beta", s.Beta}}
	var errs []error
	for _, f := range append(elos, probabilities...) {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			errs = append(errs, fmt.Errorf("sprt %s: %v, expected a finite number", f.name, f.v))
		}
	}
	if s.Elo0 >= s.Elo1 {
		errs = append(errs, fmt.Errorf("sprt elo0 %g, elo1 %g: expected elo0 < elo1", s.Elo0, s.Elo1))
	}
	for _, f := range probabilities {
		if !(f.v > 0 && f.v < 1) {
			errs = append(errs, fmt.Errorf("sprt %s: %g, expected a probability strictly between 0 and 1 (e.g. 0.05)", f.name, f.v))
		}
	}
	if s.Alpha+s.Beta >= 1 {
		errs = append(errs, fmt.Errorf("sprt alpha %g + beta %g: expected a sum below 1", s.Alpha, s.Beta))
	}
	limit := 0.0
	switch s.Model {
	case ModelNormalized:
		limit = maxNormalizedElo
	case ModelLogistic:
		limit = maxLogisticElo
	default:
		errs = append(errs, fmt.Errorf("sprt model: %q, expected %q or %q", s.Model, ModelNormalized, ModelLogistic))
	}
	for _, f := range elos {
		if limit > 0 && math.Abs(f.v) > limit {
			errs = append(errs, fmt.Errorf("sprt %s: %g, expected -%g..%g for the %s model", f.name, f.v, limit, limit, s.Model))
		}
	}
	return errors.Join(errs...)
}

// Bounds returns the LLR thresholds: lower = ln(β/(1-α)) accepts H0, upper =
// ln((1-β)/α) accepts H1 (defaults applied).
func (s SPRT) Bounds() (lower, upper float64) {
	s = s.WithDefaults()
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// String describes the test, e.g. "normalized Elo [0, 10], alpha 0.05, beta 0.05".
func (s SPRT) String() string {
	s = s.WithDefaults()
	return fmt.Sprintf("%s Elo [%g, %g], alpha %g, beta %g", s.Model, s.Elo0, s.Elo1, s.Alpha, s.Beta)
}

// Report is the test and its state as `arena elo --sprt` prints them: the
// hypotheses, then the LLR against the bounds and the verdict.
func (s SPRT) Report(llr float64, st Status) string {
	lower, upper := s.Bounds()
	return fmt.Sprintf("%-11s %s\n%-11s %s (bounds %.2f, %+.2f): %s\n",
		"SPRT", s, "LLR", FormatSigned(llr, 2), lower, upper, st)
}

// Status is the state of an SPRT.
type Status int

const (
	Continue Status = iota // the LLR is between the bounds: play on
	AcceptH0               // the LLR reached the lower bound: Elo0 is the likelier
	AcceptH1               // the LLR reached the upper bound: Elo1 is the likelier
)

func (st Status) String() string {
	switch st {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "continue"
}

// MarshalText gives the status in JSON and yaml as its String.
func (st Status) MarshalText() ([]byte, error) { return []byte(st.String()), nil }

// LLR is the log-likelihood ratio of W-D-L results (the first engine's). It
// is NaN when the test is invalid (see Validate, after WithDefaults) or a
// count is negative.
func (s SPRT) LLR(wins, draws, losses int) float64 {
	// fishtest orders the outcomes by ascending score.
	return s.llr([]int{losses, draws, wins}, 1)
}

// LLRPenta is the log-likelihood ratio of pentanomial pair counts (NaN as
// for LLR). The normalized model scales the t-values by √2 since the pair
// score's deviation is the per-game one over √2 (fastchess getLLR, fishtest
// LLR_normalized).
func (s SPRT) LLRPenta(p Penta) float64 {
	c := p.counts()
	return s.llr(c[:], math.Sqrt2)
}

// Decide returns the LLR of W-D-L results and the test's verdict; it stays
// Continue while the test is invalid or the LLR undefined.
func (s SPRT) Decide(wins, draws, losses int) (float64, Status) {
	llr := s.LLR(wins, draws, losses)
	return llr, s.status(llr)
}

// DecidePenta is Decide for pentanomial pair counts.
func (s SPRT) DecidePenta(p Penta) (float64, Status) {
	llr := s.LLRPenta(p)
	return llr, s.status(llr)
}

// status compares the LLR with the bounds as fastchess's getResult does
// (reaching a bound decides).
func (s SPRT) status(llr float64) Status {
	lower, upper := s.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue // including NaN
}

// llr computes the GSPRT log-likelihood ratio of counts of outcomes with
// equally spaced scores 0..1 (3 for games, 5 for pairs); tScale converts a
// per-game t-value to the unit's.
func (s SPRT) llr(counts []int, tScale float64) float64 {
	s = s.WithDefaults()
	if s.Validate() != nil {
		return math.NaN()
	}
	n := len(counts)
	scores := make([]float64, n)
	probs := make([]float64, n)
	total := 0.0
	for i, c := range counts {
		if c < 0 {
			return math.NaN()
		}
		// fishtest's regularize and fastchess's: a zero count would give a
		// zero probability and an infinite log-likelihood.
		x := float64(c)
		if c == 0 {
			x = 1e-3
		}
		scores[i] = float64(i) / float64(n-1)
		probs[i] = x
		total += x
	}
	for i := range probs {
		probs[i] /= total
	}
	var p0, p1 []float64
	switch s.Model {
	case ModelNormalized:
		p0 = mleTValue(scores, probs, 0.5, tScale*s.Elo0/neloPerT)
		p1 = mleTValue(scores, probs, 0.5, tScale*s.Elo1/neloPerT)
	default:
		p0 = mleExpected(scores, probs, logisticScore(s.Elo0))
		p1 = mleExpected(scores, probs, logisticScore(s.Elo1))
	}
	if p0 == nil || p1 == nil {
		return math.NaN()
	}
	sum := 0.0
	for i, p := range probs {
		sum += p * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return total * sum
}

// logisticScore is the expected score of an Elo difference, 1/(1 + 10^(-elo/400))
// (fastchess leloToScore, fishtest L_).
func logisticScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// mleExpected is the maximum-likelihood distribution on the scores with
// expectation s given the empirical probabilities phat (fishtest
// MLE_expected): pᵢ = p̂ᵢ/(1 + θ(aᵢ - s)) with θ solving the secular
// equation Σ p̂ᵢ(aᵢ - s)/(1 + θ(aᵢ - s)) = 0. Nil if there is no solution.
func mleExpected(scores, phat []float64, s float64) []float64 {
	shifted := make([]float64, len(scores))
	for i, a := range scores {
		shifted[i] = a - s
	}
	theta, ok := secular(shifted, phat)
	if !ok {
		return nil
	}
	p := make([]float64, len(scores))
	for i := range p {
		p[i] = phat[i] / (1 + theta*shifted[i])
	}
	return p
}

// mleTValue is the maximum-likelihood distribution on the scores with
// t-value (μ - ref)/σ = t given the empirical probabilities phat (fishtest
// MLE_t_value): a fixed-point iteration from the uniform distribution, each
// round solving the secular equation for φᵢ = aᵢ - ref - t·σ·(1 + ((aᵢ-μ)/σ)²)/2
// with μ, σ of the previous round. Nil if an equation has no solution.
func mleTValue(scores, phat []float64, ref, t float64) []float64 {
	n := len(scores)
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	phi := make([]float64, n)
	// fishtest stops after 10 rounds or at a change below 1e-9; the
	// iteration converges geometrically, and going on to 1e-13 keeps the LLR
	// exact to its printed precision.
	for range 100 {
		var mu, variance float64
		for i, a := range scores {
			mu += p[i] * a
		}
		for i, a := range scores {
			variance += p[i] * (a - mu) * (a - mu)
		}
		sigma := math.Sqrt(variance)
		for i, a := range scores {
			z := (a - mu) / sigma
			phi[i] = a - ref - t*sigma*(1+z*z)/2
		}
		theta, ok := secular(phi, phat)
		if !ok {
			return nil
		}
		change := 0.0
		for i := range p {
			next := phat[i] / (1 + theta*phi[i])
			change = max(change, math.Abs(next-p[i]))
			p[i] = next
		}
		if change < 1e-13 {
			break
		}
	}
	return p
}

// secular solves Σ pᵢaᵢ/(1 + x·aᵢ) = 0 for x (fishtest secular). The sum
// falls strictly from +∞ to -∞ between its poles -1/max(a) and -1/min(a),
// so there is exactly one root when the aᵢ take both signs (and none
// otherwise: ok false); bisection finds it to 1e-15, well below what
// changes 1 + x·aᵢ with |aᵢ| ≤ 1.
func secular(a, p []float64) (x float64, ok bool) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, ai := range a {
		lo, hi = min(lo, ai), max(hi, ai)
	}
	if !(lo < 0 && hi > 0) {
		return 0, false
	}
	f := func(x float64) float64 {
		sum := 0.0
		for i, ai := range a {
			sum += p[i] * ai / (1 + x*ai)
		}
		return sum
	}
	left, right := -1/hi, -1/lo
	for right-left > 1e-15 {
		mid := left + (right-left)/2
		if mid <= left || mid >= right {
			break
		}
		if f(mid) > 0 {
			left = mid
		} else {
			right = mid
		}
	}
	return left + (right-left)/2, true
}
