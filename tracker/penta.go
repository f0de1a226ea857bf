package tracker

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Penta counts game pairs (one opening played with both colours) by the
// first engine's points in the pair, the pentanomial distribution of
// fastchess and fishtest. A win and a loss score one point like two draws;
// fastchess keeps them apart (penta_WL, penta_DD) only to report their
// ratio and always adds them up for the statistics, so DD holds both.
type Penta struct {
	LL int `json:"ll"` // 0 points of 2
	LD int `json:"ld"` // ½ point: a loss and a draw
	DD int `json:"dd"` // 1 point: two draws, or a win and a loss
	WD int `json:"wd"` // 1½ points: a win and a draw
	WW int `json:"ww"` // 2 points
}

// Pairs is the number of game pairs counted.
func (p Penta) Pairs() int { return p.LL + p.LD + p.DD + p.WD + p.WW }

// counts is the pair counts in ascending order of points, as fishtest's
// results list them (LL, LD+DL, LW+DD+WL, DW+WD, WW).
func (p Penta) counts() [5]int { return [5]int{p.LL, p.LD, p.DD, p.WD, p.WW} }

// AddPair counts one game pair from the first engine's score in each game
// (1 win, 0.5 draw, 0 loss).
func (p *Penta) AddPair(first, second float64) error {
	for _, s := range [2]float64{first, second} {
		if s != 0 && s != 0.5 && s != 1 {
			return fmt.Errorf("pair result %v: expected a game score of 0, 0.5 or 1", s)
		}
	}
	switch first + second {
	case 0:
		p.LL++
	case 0.5:
		p.LD++
	case 1:
		p.DD++
	case 1.5:
		p.WD++
	default:
		p.WW++
	}
	return nil
}

// PentaResult is the match statistics of the first engine from pentanomial
// pair counts, computed as fastchess app/src/matchmaking/elo/elo_pentanomial.cpp
// does. The unit is the pair: its score is the mean of its two games, so
// s = (¼·LD + ½·DD + ¾·WD + WW)/pairs, and the per-pair variance
// v = Σ fᵢ(aᵢ - s)² over the five outcomes aᵢ ∈ {0, ¼, ½, ¾, 1}. Elo, its
// 95% interval (s ± 1.959964·sqrt(v/pairs)) and LOS are then as for games
// (see EloResult); normalized Elo divides by the per-game deviation
// sqrt(2v): nElo = (s - 0.5)/sqrt(2v) · 800/ln 10.
//
// Pairs capture the correlation between the two games of an opening (an
// unbalanced opening tends to give each side its win, a WL pair scoring
// exactly ½), which the trinomial model ignores; from the same games the
// pentanomial interval is therefore usually the narrower one.
type PentaResult struct {
	Counts   Penta   `json:"counts"`
	Pairs    int     `json:"pairs"`
	Games    int     `json:"games"`
	Score    float64 `json:"score"` // points per game in [0, 1] (NaN without pairs)
	Elo      float64 `json:"elo"`
	EloLow   float64 `json:"elo_low"`
	EloHigh  float64 `json:"elo_high"`
	NElo     float64 `json:"nelo"`
	NEloLow  float64 `json:"nelo_low"`
	NEloHigh float64 `json:"nelo_high"`
	LOS      float64 `json:"los"`
	// FewPairs is set when, with fewer than MinPentaPairs pairs, the pair
	// variance was raised to that of independent games (counting a DD pair
	// as a win and a loss, the wider reading), so the interval is never
	// narrower than the games alone justify.
	FewPairs bool `json:"few_pairs,omitempty"`
}

// EloPenta computes the statistics of pentanomial pair counts. Non-finite
// values follow EloResult's conventions; a negative count gives NaN.
func EloPenta(p Penta) PentaResult {
	r := PentaResult{Counts: p, Pairs: p.Pairs()}
	r.Games = 2 * r.Pairs
	c := p.counts()
	negative := false
	for _, x := range c {
		negative = negative || x < 0
	}
	if r.Pairs <= 0 || negative {
		nan := math.NaN()
		r.Score = nan
		r.setEstimate(estimate{nan, nan, nan, nan, nan, nan, nan})
		return r
	}
	n := float64(r.Pairs)
	var s, v float64
	for i, x := range c {
		s += pentaScores[i] * float64(x) / n
	}
	for i, x := range c {
		d := pentaScores[i] - s
		v += float64(x) / n * d * d
	}
	if r.Pairs < MinPentaPairs {
		// The pair variance of a handful of pairs is mostly luck (two WD
		// pairs have none at all); never claim more than the games would
		// tell if they were independent: a game's variance over two.
		wins := float64(2*p.WW + p.WD + p.DD)
		draws := float64(p.LD + p.WD)
		losses := float64(2*p.LL + p.LD + p.DD)
		game := (wins*(1-s)*(1-s) + draws*(0.5-s)*(0.5-s) + losses*s*s) / (2 * n)
		if game/2 > v {
			v, r.FewPairs = game/2, true
		}
	}
	r.Score = s
	r.setEstimate(estimateScore(s, v, n, 2*v))
	return r
}

// MinPentaPairs is the number of pairs below which the pentanomial variance
// is not trusted to be smaller than independent games' (see
// PentaResult.FewPairs).
const MinPentaPairs = 10

// pentaScores is a pair's score (points/2) for LL, LD, DD, WD, WW.
var pentaScores = [5]float64{0, 0.25, 0.5, 0.75, 1}

func (r *PentaResult) setEstimate(e estimate) {
	r.Elo, r.EloLow, r.EloHigh = e.elo, e.eloLow, e.eloHigh
	r.NElo, r.NEloLow, r.NEloHigh = e.nelo, e.neloLow, e.neloHigh
	r.LOS = e.los
}

// EloError is half the width of the Elo interval, fastchess's "±".
func (r PentaResult) EloError() float64 { return (r.EloHigh - r.EloLow) / 2 }

// NEloError is half the width of the normalized Elo interval.
func (r PentaResult) NEloError() float64 { return (r.NEloHigh - r.NEloLow) / 2 }

// Estimate is the Elo with its 95% interval, as String prints it.
func (r PentaResult) Estimate() string {
	if r.Pairs == 0 {
		return "n/a"
	}
	return fmtEstimate(r.Elo, r.EloLow, r.EloHigh)
}

// String formats the result as "Elo +16.3 [+1.0, +31.7] LOS 98.1% (320 pairs)".
func (r PentaResult) String() string {
	if r.Pairs == 0 {
		return "Elo n/a (no pairs)"
	}
	few := ""
	if r.FewPairs {
		few = ", too few for the pair variance: interval as for independent games"
	}
	return fmt.Sprintf("Elo %s LOS %s (%d pairs%s)", fmtEstimate(r.Elo, r.EloLow, r.EloHigh), fmtPercent(r.LOS), r.Pairs, few)
}

// Report is the statistics as `arena elo --penta` prints them (see
// EloResult.Report). The draw ratio is not among them: DD counts two draws
// and a win and a loss alike.
func (r PentaResult) Report() string {
	var b strings.Builder
	c := r.Counts
	fmt.Fprintf(&b, "%-11s %d (LL %d, LD %d, DD+WL %d, WD %d, WW %d)\n", "pairs", r.Pairs, c.LL, c.LD, c.DD, c.WD, c.WW)
	fmt.Fprintf(&b, "%-11s %d\n", "games", r.Games)
	fmt.Fprintf(&b, "%-11s %s\n", "score", fmtFixed(r.Score, 4))
	writeEstimateLines(&b, r.Elo, r.EloLow, r.EloHigh, r.NElo, r.NEloLow, r.NEloHigh, r.LOS)
	return b.String()
}

// MarshalJSON writes non-finite values as null, like EloResult's.
func (r PentaResult) MarshalJSON() ([]byte, error) {
	type plain struct {
		Counts   Penta    `json:"counts"`
		Pairs    int      `json:"pairs"`
		Games    int      `json:"games"`
		Score    *float64 `json:"score"`
		Elo      *float64 `json:"elo"`
		EloLow   *float64 `json:"elo_low"`
		EloHigh  *float64 `json:"elo_high"`
		NElo     *float64 `json:"nelo"`
		NEloLow  *float64 `json:"nelo_low"`
		NEloHigh *float64 `json:"nelo_high"`
		LOS      *float64 `json:"los"`
		FewPairs bool     `json:"few_pairs,omitempty"`
		Text     string   `json:"text"`
	}
	return json.Marshal(plain{
		Counts: r.Counts, Pairs: r.Pairs, Games: r.Games, Score: finite(r.Score),
		Elo: finite(r.Elo), EloLow: finite(r.EloLow), EloHigh: finite(r.EloHigh),
		NElo: finite(r.NElo), NEloLow: finite(r.NEloLow), NEloHigh: finite(r.NEloHigh),
		LOS: finite(r.LOS), FewPairs: r.FewPairs, Text: r.String(),
	})
}
