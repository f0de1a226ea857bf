package tracker

import (
	"encoding/json"
	"fmt"
	"math"
)

// z95 is the two-sided 95% quantile of the normal distribution (fastchess's
// CI95ZSCORE).
const z95 = 1.959964

// EloResult is the match statistics of the first engine against the second
// from their wins, draws and losses (from the first engine's side).
//
// Elo follows fastchess app/src/matchmaking/elo/elo_wdl.cpp (trinomial
// model): score s = (W + D/2)/N; per-game variance v = w(1-s)² + d(0.5-s)² +
// l(0-s)² with w, d, l the outcome frequencies; Elo = -400·log10(1/s - 1);
// the 95% interval maps s ± 1.959964·sqrt(v/N) through the same function.
// LOS (likelihood of superiority) is the usual 0.5·(1 + erf((W-L)/sqrt(2(W+L))))
// (chessprogramming.org, Match Statistics), which ignores draws.
//
// A quantity that the data do not bound is not a number: Elo of a 100% or 0%
// score is ±Inf, and so is an interval end whose score bound reaches 1 or 0;
// LOS without decisive games is NaN. Such values are reported as JSON null
// and "n/a" or "+inf"/"-inf" by String, never as a bogus number.
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
	LOS       float64 `json:"los"`      // in [0, 1]
}

// Elo computes the statistics of a W-D-L record.
func Elo(wins, draws, losses int) EloResult {
	r := EloResult{Wins: wins, Draws: draws, Losses: losses, Games: wins + draws + losses}
	nan := math.NaN()
	if r.Games <= 0 || wins < 0 || draws < 0 || losses < 0 {
		r.Score, r.DrawRatio, r.Elo, r.EloLow, r.EloHigh, r.LOS = nan, nan, nan, nan, nan, nan
		return r
	}
	n := float64(r.Games)
	w, d, l := float64(wins)/n, float64(draws)/n, float64(losses)/n
	s := w + d/2
	v := w*(1-s)*(1-s) + d*(0.5-s)*(0.5-s) + l*s*s
	margin := z95 * math.Sqrt(v/n)
	r.Score, r.DrawRatio = s, d
	r.Elo = scoreToElo(s)
	r.EloLow = scoreToElo(s - margin)
	r.EloHigh = scoreToElo(s + margin)
	if wins+losses > 0 {
		r.LOS = 0.5 * (1 + math.Erf(float64(wins-losses)/math.Sqrt(2*float64(wins+losses))))
	} else {
		r.LOS = nan
	}
	return r
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

// String formats the result as "Elo +88.7 [-39.4, +248.7] LOS 90.2% draws 25.0% (20 games)".
func (r EloResult) String() string {
	if r.Games == 0 {
		return "Elo n/a (no games)"
	}
	return fmt.Sprintf("Elo %s [%s, %s] LOS %s draws %.1f%% (%d games)",
		fmtElo(r.Elo), fmtElo(r.EloLow), fmtElo(r.EloHigh), fmtPercent(r.LOS), 100*r.DrawRatio, r.Games)
}

func fmtElo(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.1f", x)
}

func fmtPercent(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
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
		LOS       *float64 `json:"los"`
		Text      string   `json:"text"`
	}
	return json.Marshal(plain{
		Wins: r.Wins, Draws: r.Draws, Losses: r.Losses, Games: r.Games,
		Score: finite(r.Score), DrawRatio: finite(r.DrawRatio),
		Elo: finite(r.Elo), EloLow: finite(r.EloLow), EloHigh: finite(r.EloHigh),
		LOS: finite(r.LOS), Text: r.String(),
	})
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}
