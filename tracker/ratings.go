package tracker

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// eloPerNat converts a logistic rating difference in natural units (the
// log-odds of the expected score) to Elo: 400/ln 10.
const eloPerNat = 400 / math.Ln10

// PairRecord is the result of the games between two players, counted from
// A's side.
type PairRecord struct {
	A, B   string
	Wins   int // games A won
	Draws  int
	Losses int // games A lost
}

// Rating is one player's fitted rating.
//
// Elo is relative to the anchor (0). It is always finite (see FitRatings
// for results that have no finite maximum-likelihood fit) except NaN when the
// games do not compare the player with the anchor at all; SE and the
// interval are then NaN too.
type Rating struct {
	Name   string  `json:"name"`
	Elo    float64 `json:"elo"`
	SE     float64 `json:"se"`       // standard error of Elo
	Low    float64 `json:"elo_low"`  // Elo - 1.959964·SE
	High   float64 `json:"elo_high"` // Elo + 1.959964·SE
	Games  int     `json:"games"`
	Points float64 `json:"points"`
}

// Ratings is the result of FitRatings.
type Ratings struct {
	Anchor     string `json:"anchor"`
	Method     string `json:"method"`
	Iterations int    `json:"iterations"` // Newton steps of the fit
	// Prior is the number of virtual draws added to each pairing (0 or
	// PriorDraws; see FitRatings).
	Prior   int      `json:"prior_draws,omitempty"`
	Players []Rating `json:"players"` // in the order given to FitRatings
}

// RatingsMethod describes the model and the error bars (Ratings.Method).
const RatingsMethod = "maximum likelihood, logistic (Bradley-Terry) with draws as half points; " +
	"95% intervals from the sandwich covariance"

// RatingsMethodPrior is Ratings.Method when the prior was needed.
const RatingsMethodPrior = "maximum a posteriori, logistic (Bradley-Terry) with draws as half points " +
	"and 2 virtual draws per pairing (the results alone leave some rating unbounded); " +
	"95% intervals from the sandwich covariance"

// PriorDraws is the number of virtual draws added to every pairing that
// played when the maximum-likelihood fit is unbounded, BayesElo's default
// prior.
const PriorDraws = 2.0

// FitRatings fits logistic (Bradley-Terry) ratings to every game by maximum
// likelihood, one player held at 0 as the anchor.
//
// Model: the expected score of i against j is p = 1/(1 + e^-(βi-βj)), Elo
// = β·400/ln 10, and a game scoring s ∈ {0, ½, 1} for i adds
// s·ln p + (1-s)·ln(1-p) to the log-likelihood (draws are half a win and half
// a loss, as BayesElo's default and the Elo formula itself treat them). The
// maximum satisfies, for every player, points scored = expected points
// (Σj nij·pij = Σj Sij), which is solved by Newton's method (the
// log-likelihood is concave; steps are halved if it would fall).
//
// For two players this gives Elo = -400·log10(1/s - 1) of the score s, the
// same as Elo. The error bars are the sandwich (Huber-White) covariance
// H⁻¹·J·H⁻¹ of the estimate, where H is the Hessian (the Fisher information
// of the binomial model) and J the sum over games of the outer products of
// each game's score gradient, (s - p)²(ei - ej)(ei - ej)ᵀ. Unlike H⁻¹ alone
// it measures the spread of the actual results, so draws, which vary less
// than half a win and half a loss, narrow the interval; for two players it is
// the delta-method version of Elo's interval, Elo ± 1.959964·sqrt(v/N)/(s(1-s))
// · 400/ln 10 with v the per-game variance (Elo maps the score interval's
// ends instead, which is not symmetric).
//
// A finite maximum exists only among players who are strongly connected by
// scoring: i → j when i scored a point or half against j. When some player
// who met the anchor's group is outside it (the anchor won every game, say),
// the maximum-likelihood ratings would be ±Inf and every such player tied
// there, whatever they scored among themselves. The fit then adds BayesElo's
// default prior, PriorDraws virtual draws to every pairing that played (also
// counted in the sandwich covariance as half points), which keeps each
// rating finite and orders players by their results: with the anchor winning
// all, a player with 4 of 6 points ranks above one with ½. Ratings.Prior and
// Method say so; without the need the fit is the plain maximum likelihood.
// Players not compared with the anchor by any games stay NaN (see Rating).
func FitRatings(players []string, records []PairRecord, anchor string) (Ratings, error) {
	index := make(map[string]int, len(players))
	for i, p := range players {
		if _, dup := index[p]; dup {
			return Ratings{}, fmt.Errorf("ratings: player %q listed twice", p)
		}
		index[p] = i
	}
	a, ok := index[anchor]
	if !ok {
		return Ratings{}, fmt.Errorf("ratings: anchor %q is not one of the players %v", anchor, players)
	}
	t, err := tallyRecords(index, players, records)
	if err != nil {
		return Ratings{}, err
	}
	out := Ratings{Anchor: anchor, Method: RatingsMethod, Players: make([]Rating, len(players))}
	for i := range players {
		out.Players[i] = Rating{Name: players[i]}
		for j := range players {
			out.Players[i].Games += int(t.games[i][j])
			out.Players[i].Points += t.points[i][j]
		}
	}
	if !bounded(reachability(t.points), t.games, a) {
		// Some player is ±Inf: add the prior's virtual draws to every
		// pairing so that all ratings are finite and ordered by results.
		out.Prior = PriorDraws
		out.Method = RatingsMethodPrior
		t.addDraws(PriorDraws)
	}
	free := out.anchorComponent(reachability(t.points), a)
	if len(free) == 0 {
		return out, nil
	}
	beta, iters, err := fitNewton(a, free, t.games, t.points)
	if err != nil {
		return Ratings{}, err
	}
	out.Iterations = iters
	cov, err := sandwich(a, free, beta, t.games, t.points, t.squares)
	if err != nil {
		return Ratings{}, err
	}
	for k, i := range free {
		r := &out.Players[i]
		r.Elo = beta[i] * eloPerNat
		r.SE = math.Sqrt(math.Max(cov[k][k], 0)) * eloPerNat
		r.Low, r.High = r.Elo-Z95*r.SE, r.Elo+Z95*r.SE
	}
	return out, nil
}

// pairTally holds, per ordered pair of players (i, j), the games, i's points
// and i's sum of squared game scores (for the sandwich covariance).
type pairTally struct {
	games, points, squares [][]float64
}

// tallyRecords checks the records against the players and adds them up.
func tallyRecords(index map[string]int, players []string, records []PairRecord) (pairTally, error) {
	n := len(players)
	t := pairTally{games: newMatrix(n), points: newMatrix(n), squares: newMatrix(n)}
	for _, r := range records {
		i, iok := index[r.A]
		j, jok := index[r.B]
		switch {
		case !iok || !jok:
			return pairTally{}, fmt.Errorf("ratings: result %s vs %s names a player not in %v", r.A, r.B, players)
		case i == j:
			return pairTally{}, fmt.Errorf("ratings: result of %s against itself", r.A)
		case r.Wins < 0 || r.Draws < 0 || r.Losses < 0:
			return pairTally{}, fmt.Errorf("ratings: %s vs %s: negative count (+%d =%d -%d)", r.A, r.B, r.Wins, r.Draws, r.Losses)
		}
		g := float64(r.Wins + r.Draws + r.Losses)
		w, d, l := float64(r.Wins), float64(r.Draws), float64(r.Losses)
		t.games[i][j] += g
		t.games[j][i] += g
		t.points[i][j] += w + d/2
		t.points[j][i] += l + d/2
		t.squares[i][j] += w + d/4
		t.squares[j][i] += l + d/4
	}
	return t, nil
}

// addDraws adds d virtual draws to every pairing that played.
func (t pairTally) addDraws(d float64) {
	for i := range t.games {
		for j := range t.games {
			if i != j && t.games[i][j] > 0 {
				t.games[i][j] += d
				t.points[i][j] += d / 2
				t.squares[i][j] += d / 4
			}
		}
	}
}

// anchorComponent returns the players other than the anchor whose ratings the
// fit determines (scoring links them to the anchor both ways). It sets the
// anchor's rating to 0 and those of players it cannot rate to NaN.
func (r *Ratings) anchorComponent(reach [][]bool, anchor int) []int {
	var free []int
	for i := range r.Players {
		p := &r.Players[i]
		switch {
		case i == anchor:
			p.Elo, p.SE, p.Low, p.High = 0, 0, 0, 0
		case reach[i][anchor] && reach[anchor][i]:
			free = append(free, i)
		default: // no games link i to the anchor (with the prior, bounded)
			p.Elo, p.SE, p.Low, p.High = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		}
	}
	return free
}

// bounded reports whether every player who is compared with the anchor by
// some chain of games has a finite maximum-likelihood rating (scoring leads
// from them to the anchor and back).
func bounded(reach [][]bool, games [][]float64, anchor int) bool {
	n := len(games)
	met := make([]bool, n) // connected to the anchor by games at all
	met[anchor] = true
	for changed := true; changed; {
		changed = false
		for i := range n {
			for j := range n {
				if met[i] && !met[j] && games[i][j] > 0 {
					met[j], changed = true, true
				}
			}
		}
	}
	for i := range n {
		if met[i] && !(reach[i][anchor] && reach[anchor][i]) {
			return false
		}
	}
	return true
}

// reachability[i][j] reports a chain of players from i to j, each scoring
// against the next (Floyd-Warshall; tournaments are small).
func reachability(points [][]float64) [][]bool {
	n := len(points)
	r := make([][]bool, n)
	for i := range r {
		r[i] = make([]bool, n)
		r[i][i] = true
		for j := range r[i] {
			if points[i][j] > 0 {
				r[i][j] = true
			}
		}
	}
	for k := range n {
		for i := range n {
			for j := range n {
				if r[i][k] && r[k][j] {
					r[i][j] = true
				}
			}
		}
	}
	return r
}

// MarshalJSON writes non-finite values (unbounded or undefined ratings) as
// null, since JSON has no infinities.
func (r Rating) MarshalJSON() ([]byte, error) {
	type plain struct {
		Name   string   `json:"name"`
		Elo    *float64 `json:"elo"`
		SE     *float64 `json:"se"`
		Low    *float64 `json:"elo_low"`
		High   *float64 `json:"elo_high"`
		Games  int      `json:"games"`
		Points float64  `json:"points"`
		Text   string   `json:"text"`
	}
	return json.Marshal(plain{Name: r.Name, Elo: finite(r.Elo), SE: finite(r.SE), Low: finite(r.Low), High: finite(r.High),
		Games: r.Games, Points: r.Points, Text: r.String()})
}

// String formats the rating as "+120.4 ± 45.1" (the 95% half-width) or
// "n/a".
func (r Rating) String() string {
	if math.IsNaN(r.Elo) || math.IsNaN(r.SE) {
		return "n/a"
	}
	return fmt.Sprintf("%s ± %.1f", fmtElo(r.Elo), Z95*r.SE)
}

// Ranked returns the players best first: by rating, ties and unrated (NaN)
// players by points per game, unrated after rated ones.
func (r Ratings) Ranked() []Rating {
	out := slices.Clone(r.Players)
	score := func(x Rating) float64 {
		if x.Games == 0 {
			return -1
		}
		return x.Points / float64(x.Games)
	}
	slices.SortStableFunc(out, func(x, y Rating) int {
		xn, yn := math.IsNaN(x.Elo), math.IsNaN(y.Elo)
		switch {
		case xn != yn:
			if xn {
				return 1
			}
			return -1
		case !xn && x.Elo != y.Elo:
			return cmp.Compare(y.Elo, x.Elo)
		}
		return cmp.Compare(score(y), score(x))
	})
	return out
}
