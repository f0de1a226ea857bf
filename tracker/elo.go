package tracker

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

const (
	// neloPerT converts a t-value (score excess over its standard deviation
	// per game) to normalized Elo: fishtest's nelo_divided_by_nt, 800/ln 10.
	neloPerT = 800 / math.Ln10
)

// EloResult is the match statistics of the first engine against the second
// from their wins, draws and losses (from the first engine's side), computed
// as fastchess app/src/matchmaking/elo/elo_wdl.cpp does (trinomial model):
//
//   - score s = (W + D/2)/N; per-game variance v = w(1-s)² + d(0.5-s)² +
//     l(0-s)² with w, d, l the outcome frequencies;
//   - Elo = -400·log10(1/s - 1); the 95% interval maps s ± 1.959964·sqrt(v/N)
//     through the same function (fastchess prints half its width as "±");
//   - normalized Elo nElo = (s - 0.5)/sqrt(v) · 800/ln 10, and its interval
//     the same map of the score bounds (the variance held fixed); 800/ln 10
//     is fishtest's nelo_divided_by_nt (server/fishtest/stats/LLRcalc.py);
//   - LOS (likelihood of superiority) = (1 - erf(-(s - 0.5)/sqrt(2v/N)))/2,
//     the normal approximation of P(true score > 0.5), which counts draws
//     through the variance (rather than the draw-blind
//     0.5·(1 + erf((W-L)/sqrt(2(W+L))))).
//
// A quantity that the data do not bound is not a number: Elo of a 100% or 0%
// score is ±Inf, and so is an interval end whose score bound reaches 1 or 0;
// nElo and LOS without variance (all games won, lost or drawn) are ±Inf/1/0,
// or NaN when the score is exactly 0.5. Such values are reported as JSON
// null and "n/a" or "+inf"/"-inf" by String, never as a bogus number.
type EloResult struct {
	Wins      int     `json:"wins"`
	Draws     int     `json:"draws"`
	Losses    int     `json:"losses"`
	Games     int     `json:"games"`
	Score     float64 `json:"score"`      // points per game in [0, 1] (NaN without games)
	DrawRatio float64 `json:"draw_ratio"` // draws per game (NaN without games)
	Elo       float64 `json:"elo"`
	EloLow    float64 `json:"elo_low"`  // lower end of the 95% interval
	EloHigh   float64 `json:"elo_high"` // upper end of the 95% interval
	NElo      float64 `json:"nelo"`     // normalized Elo
	NEloLow   float64 `json:"nelo_low"`
	NEloHigh  float64 `json:"nelo_high"`
	LOS       float64 `json:"los"` // in [0, 1]
}

// Elo computes the statistics of a W-D-L record.
func Elo(wins, draws, losses int) EloResult {
	r := EloResult{Wins: wins, Draws: draws, Losses: losses, Games: wins + draws + losses}
	if r.Games <= 0 || wins < 0 || draws < 0 || losses < 0 {
		nan := math.NaN()
		r.Score, r.DrawRatio = nan, nan
		r.setEstimate(estimate{nan, nan, nan, nan, nan, nan, nan})
		return r
	}
	n := float64(r.Games)
	w, d, l := float64(wins)/n, float64(draws)/n, float64(losses)/n
	s := w + d/2
	v := w*(1-s)*(1-s) + d*(0.5-s)*(0.5-s) + l*s*s
	r.Score, r.DrawRatio = s, d
	r.setEstimate(estimateScore(s, v, n, v))
	return r
}

func (r *EloResult) setEstimate(e estimate) {
	r.Elo, r.EloLow, r.EloHigh = e.elo, e.eloLow, e.eloHigh
	r.NElo, r.NEloLow, r.NEloHigh = e.nelo, e.neloLow, e.neloHigh
	r.LOS = e.los
}

// EloError is fastchess's "±" of the Elo difference: half the width of the
// 95% interval (+Inf or NaN when the interval is unbounded).
func (r EloResult) EloError() float64 { return (r.EloHigh - r.EloLow) / 2 }

// NEloError is the "±" of the normalized Elo, half its interval's width.
func (r EloResult) NEloError() float64 { return (r.NEloHigh - r.NEloLow) / 2 }

// estimate is what fastchess derives from a mean score and its variance, the
// same for games (elo_wdl.cpp) and game pairs (elo_pentanomial.cpp).
type estimate struct {
	elo, eloLow, eloHigh    float64
	nelo, neloLow, neloHigh float64
	los                     float64
}

// estimateScore takes the mean score s of n units (games or pairs), the
// variance v of one unit's score, and the per-game variance pv that
// normalizes the Elo: v itself for games, 2v for pairs (fastchess's
// scoreToNeloDiff; a pair's score is the mean of two games, so a game's
// variance is twice the pair's when the games are independent).
//
// A perfect score has no variance, so the normal interval would be the single
// point ±Inf; the finite end is then the exact binomial one instead: n units
// all won are at least as likely as 2.5% only when the true score is at least
// 0.025^(1/n), so Elo > scoreToElo(0.025^(1/n)) (+28.4 for 6 games won), and
// symmetrically for all lost.
func estimateScore(s, v, n, pv float64) estimate {
	margin := Z95 * math.Sqrt(v/n)
	nelo := func(x float64) float64 { return (x - 0.5) / math.Sqrt(pv) * neloPerT }
	e := estimate{
		elo:      scoreToElo(s),
		eloLow:   scoreToElo(s - margin),
		eloHigh:  scoreToElo(s + margin),
		nelo:     nelo(s),
		neloLow:  nelo(s - margin),
		neloHigh: nelo(s + margin),
		los:      (1 - math.Erf(-(s-0.5)/math.Sqrt(2*v/n))) / 2,
	}
	tail := math.Pow((1-0.95)/2, 1/n)
	switch {
	case s >= 1:
		e.eloLow = scoreToElo(tail)
	case s <= 0:
		e.eloHigh = scoreToElo(1 - tail)
	}
	return e
}

// scoreToElo is -400·log10(1/s - 1), with the limits ±Inf at s ≥ 1 and s ≤ 0
// (where the formula would give NaN past the ends).
func scoreToElo(s float64) float64 {
	switch {
	case s >= 1:
		return math.Inf(1)
	case s <= 0:
		return math.Inf(-1)
	}
	return -400 * math.Log10(1/s-1)
}

// String formats the result as "Elo +88.7 [-39.6, +248.2] LOS 91.1% draws
// 25.0% (20 games)", or "Elo > +28.6 (all won) ..." when the score is perfect.
func (r EloResult) String() string {
	if r.Games == 0 {
		return "Elo n/a (no games)"
	}
	return fmt.Sprintf("Elo %s LOS %s draws %.1f%% (%d games)",
		fmtEstimate(r.Elo, r.EloLow, r.EloHigh), fmtPercent(r.LOS), 100*r.DrawRatio, r.Games)
}

// Estimate is the Elo with its 95% interval, as String prints it.
func (r EloResult) Estimate() string {
	if r.Games == 0 {
		return "n/a"
	}
	return fmtEstimate(r.Elo, r.EloLow, r.EloHigh)
}

// fmtEstimate formats Elo with its 95% interval without printing an
// infinity: "+88.7 [-39.6, +248.2]", "+381.7 [+159.0, unbounded]" when the
// interval has no upper end, "> +28.6 (all won)" when the score is perfect.
func fmtEstimate(elo, low, high float64) string {
	end := func(x float64) string {
		if math.IsInf(x, 0) {
			return "unbounded"
		}
		return fmtElo(x)
	}
	switch {
	case math.IsInf(elo, 1):
		return fmt.Sprintf("> %s (all won)", fmtElo(low))
	case math.IsInf(elo, -1):
		return fmt.Sprintf("< %s (all lost)", fmtElo(high))
	}
	return fmt.Sprintf("%s [%s, %s]", fmtElo(elo), end(low), end(high))
}

// Report is the statistics as `arena elo --wdl` prints them, one
// "name  value" line each, with fastchess's "±" (half the interval's width)
// and the interval itself since Elo's is not symmetric.
func (r EloResult) Report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-11s %d (W %d, D %d, L %d)\n", "games", r.Games, r.Wins, r.Draws, r.Losses)
	fmt.Fprintf(&b, "%-11s %s\n", "score", fmtFixed(r.Score, 4))
	fmt.Fprintf(&b, "%-11s %s\n", "draw ratio", fmtPercentDigits(r.DrawRatio, 2))
	writeEstimateLines(&b, r.Elo, r.EloLow, r.EloHigh, r.NElo, r.NEloLow, r.NEloHigh, r.LOS)
	return b.String()
}

// writeEstimateLines writes the Elo, nElo and LOS lines of a report.
func writeEstimateLines(b *strings.Builder, elo, eloLow, eloHigh, nelo, neloLow, neloHigh, los float64) {
	line := func(name string, x, lo, hi float64) {
		fmt.Fprintf(b, "%-11s %s ± %s (95%%: %s to %s)\n", name,
			FormatSigned(x, 2), fmtError((hi-lo)/2), FormatSigned(lo, 2), FormatSigned(hi, 2))
	}
	switch {
	case math.IsInf(elo, 1):
		fmt.Fprintf(b, "%-11s > %s (all won; 95%% lower bound)\n", "Elo", FormatSigned(eloLow, 2))
	case math.IsInf(elo, -1):
		fmt.Fprintf(b, "%-11s < %s (all lost; 95%% upper bound)\n", "Elo", FormatSigned(eloHigh, 2))
	default:
		line("Elo", elo, eloLow, eloHigh)
	}
	line("nElo", nelo, neloLow, neloHigh)
	fmt.Fprintf(b, "%-11s %s\n", "LOS", fmtPercentDigits(los, 2))
}

func fmtElo(x float64) string { return FormatSigned(x, 1) }

// FormatSigned formats x with a sign and the given decimals, non-finite
// values as "n/a", "+inf" or "-inf".
func FormatSigned(x float64, digits int) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	case x == 0:
		x = 0 // -0 (Elo of an even score) prints as +0
	}
	return fmt.Sprintf("%+.*f", digits, x)
}

// fmtError formats a "±" half-width: "inf" when unbounded, "n/a" when
// undefined.
func fmtError(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.IsInf(x, 0):
		return "inf"
	}
	return fmt.Sprintf("%.2f", x)
}

func fmtFixed(x float64, digits int) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return fmt.Sprintf("%.*f", digits, x)
}

func fmtPercent(x float64) string { return fmtPercentDigits(x, 1) }

func fmtPercentDigits(x float64, digits int) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return fmt.Sprintf("%.*f%%", digits, 100*x)
}

// MarshalJSON writes non-finite values (unbounded Elo, undefined LOS) as null,
// since JSON has no infinities and encoding/json refuses them.
func (r EloResult) MarshalJSON() ([]byte, error) {
	type plain struct {
		Wins      int      `json:"wins"`
		Draws     int      `json:"draws"`
		Losses    int      `json:"losses"`
		Games     int      `json:"games"`
		Score     *float64 `json:"score"`
		DrawRatio *float64 `json:"draw_ratio"`
		Elo       *float64 `json:"elo"`
		EloLow    *float64 `json:"elo_low"`
		EloHigh   *float64 `json:"elo_high"`
		NElo      *float64 `json:"nelo"`
		NEloLow   *float64 `json:"nelo_low"`
		NEloHigh  *float64 `json:"nelo_high"`
		LOS       *float64 `json:"los"`
		Text      string   `json:"text"`
	}
	return json.Marshal(plain{
		Wins: r.Wins, Draws: r.Draws, Losses: r.Losses, Games: r.Games,
		Score: finite(r.Score), DrawRatio: finite(r.DrawRatio),
		Elo: finite(r.Elo), EloLow: finite(r.EloLow), EloHigh: finite(r.EloHigh),
		NElo: finite(r.NElo), NEloLow: finite(r.NEloLow), NEloHigh: finite(r.NEloHigh),
		LOS: finite(r.LOS), Text: r.String(),
	})
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}
