package tracker

import (
	"cmp"
	"encoding/json"
	"errors"
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
	n := len(players)
	index := make(map[string]int, n)
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
	// Per ordered pair (i, j): games, i's points and i's sum of squared
	// game scores (for the sandwich covariance).
	games := newMatrix(n)
	points := newMatrix(n)
	squares := newMatrix(n)
	out := Ratings{Anchor: anchor, Method: RatingsMethod, Players: make([]Rating, n)}
	for _, r := range records {
		i, iok := index[r.A]
		j, jok := index[r.B]
		switch {
		case !iok || !jok:
			return Ratings{}, fmt.Errorf("ratings: result %s vs %s names a player not in %v", r.A, r.B, players)
		case i == j:
			return Ratings{}, fmt.Errorf("ratings: result of %s against itself", r.A)
		case r.Wins < 0 || r.Draws < 0 || r.Losses < 0:
			return Ratings{}, fmt.Errorf("ratings: %s vs %s: negative count (+%d =%d -%d)", r.A, r.B, r.Wins, r.Draws, r.Losses)
		}
		g := float64(r.Wins + r.Draws + r.Losses)
		w, d, l := float64(r.Wins), float64(r.Draws), float64(r.Losses)
		games[i][j] += g
		games[j][i] += g
		points[i][j] += w + d/2
		points[j][i] += l + d/2
		squares[i][j] += w + d/4
		squares[j][i] += l + d/4
	}
	for i := range players {
		out.Players[i] = Rating{Name: players[i]}
		for j := range players {
			out.Players[i].Games += int(games[i][j])
			out.Players[i].Points += points[i][j]
		}
	}

	if !bounded(reachability(points), games, a) {
		// Some player is ±Inf: add the prior's virtual draws to every
		// pairing so that all ratings are finite and ordered by results.
		out.Prior = PriorDraws
		out.Method = RatingsMethodPrior
		for i := range players {
			for j := range players {
				if i != j && games[i][j] > 0 {
					games[i][j] += PriorDraws
					points[i][j] += PriorDraws / 2
					squares[i][j] += PriorDraws / 4
				}
			}
		}
	}
	reach := reachability(points)
	var free []int // the anchor's component, without the anchor
	for i := range players {
		r := &out.Players[i]
		up, down := reach[i][a], reach[a][i]
		switch {
		case i == a:
			r.Elo, r.SE, r.Low, r.High = 0, 0, 0, 0
		case up && down:
			free = append(free, i)
		default: // no games link i to the anchor (with the prior, bounded)
			r.Elo, r.SE, r.Low, r.High = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		}
	}
	if len(free) == 0 {
		return out, nil
	}
	beta, iters, err := fitNewton(a, free, games, points)
	if err != nil {
		return Ratings{}, err
	}
	out.Iterations = iters
	cov, err := sandwich(a, free, beta, games, points, squares)
	if err != nil {
		return Ratings{}, err
	}
	for k, i := range free {
		r := &out.Players[i]
		r.Elo = beta[i] * eloPerNat
		r.SE = math.Sqrt(math.Max(cov[k][k], 0)) * eloPerNat
		r.Low, r.High = r.Elo-z95*r.SE, r.Elo+z95*r.SE
	}
	return out, nil
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

func newMatrix(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
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

// The fit stops when no rating moves by more than this (natural units,
// about 1e-8 Elo) or after maxNewton steps.
const (
	newtonTolerance = 1e-10
	maxNewton       = 200
)

// logLikelihood of the ratings over the games among the players in set
// (the anchor and free).
func logLikelihood(set []int, beta []float64, games, points [][]float64) float64 {
	ll := 0.0
	for x, i := range set {
		for _, j := range set[x+1:] {
			if games[i][j] == 0 {
				continue
			}
			d := beta[i] - beta[j]
			// ln p = -ln(1+e^-d), ln(1-p) = -ln(1+e^d), computed stably.
			ll -= points[i][j]*softplus(-d) + points[j][i]*softplus(d)
		}
	}
	return ll
}

// softplus is ln(1 + e^x) without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// fitNewton maximizes the likelihood over the free players' ratings (in
// natural units; the anchor's is 0) and returns all ratings by player index.
func fitNewton(anchor int, free []int, games, points [][]float64) ([]float64, int, error) {
	beta := make([]float64, len(games))
	set := append([]int{anchor}, free...)
	ll := logLikelihood(set, beta, games, points)
	for iter := 1; iter <= maxNewton; iter++ {
		grad, info := gradientAndInformation(free, set, beta, games, points, nil)
		step, err := solve(info, grad)
		if err != nil {
			return nil, 0, fmt.Errorf("ratings: %w", err)
		}
		// Halve the step until the likelihood does not fall (Newton's
		// full step can overshoot far from the maximum).
		next := slices.Clone(beta)
		for h := 0; ; h++ {
			for k, i := range free {
				next[i] = beta[i] + step[k]
			}
			nll := logLikelihood(set, next, games, points)
			if nll >= ll-1e-12*math.Abs(ll) || h == 50 {
				ll = nll
				break
			}
			for k := range step {
				step[k] /= 2
			}
		}
		beta = next
		biggest := 0.0
		for _, s := range step {
			biggest = math.Max(biggest, math.Abs(s))
		}
		if biggest < newtonTolerance {
			return beta, iter, nil
		}
	}
	return nil, 0, errors.New("ratings: the maximum-likelihood fit did not converge")
}

// gradientAndInformation returns the log-likelihood's gradient over the free
// players and the information matrix -H. With squares non-nil it returns J,
// the sum of the games' squared score deviations in H's shape, instead of
// -H (see FitRatings).
func gradientAndInformation(free, set []int, beta []float64, games, points, squares [][]float64) ([]float64, [][]float64) {
	pos := map[int]int{}
	for k, i := range free {
		pos[i] = k
	}
	grad := make([]float64, len(free))
	info := newMatrix(len(free))
	for x, i := range set {
		for _, j := range set[x+1:] {
			n := games[i][j]
			if n == 0 {
				continue
			}
			p := logistic(beta[i] - beta[j])
			w := n * p * (1 - p)
			if squares != nil {
				// Σ over the games of (s - p)² from i's side.
				w = squares[i][j] - 2*p*points[i][j] + n*p*p
			}
			g := points[i][j] - n*p
			ki, iFree := pos[i]
			kj, jFree := pos[j]
			if iFree {
				grad[ki] += g
				info[ki][ki] += w
			}
			if jFree {
				grad[kj] -= g
				info[kj][kj] += w
			}
			if iFree && jFree {
				info[ki][kj] -= w
				info[kj][ki] -= w
			}
		}
	}
	return grad, info
}

// sandwich returns the covariance H⁻¹·J·H⁻¹ of the free ratings at beta.
func sandwich(anchor int, free []int, beta []float64, games, points, squares [][]float64) ([][]float64, error) {
	set := append([]int{anchor}, free...)
	_, info := gradientAndInformation(free, set, beta, games, points, nil)
	_, j := gradientAndInformation(free, set, beta, games, points, squares)
	inv, err := invert(info)
	if err != nil {
		return nil, fmt.Errorf("ratings: %w", err)
	}
	return mul(mul(inv, j), inv), nil
}

// solve returns x with m·x = b (Gaussian elimination, partial pivoting).
func solve(m [][]float64, b []float64) ([]float64, error) {
	n := len(b)
	a := newMatrix(n)
	for i := range a {
		a[i] = append(slices.Clone(m[i]), b[i])
	}
	if err := eliminate(a); err != nil {
		return nil, err
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = a[i][n]
	}
	return x, nil
}

// invert returns m⁻¹.
func invert(m [][]float64) ([][]float64, error) {
	n := len(m)
	a := newMatrix(n)
	for i := range a {
		a[i] = append(slices.Clone(m[i]), make([]float64, n)...)
		a[i][n+i] = 1
	}
	if err := eliminate(a); err != nil {
		return nil, err
	}
	inv := newMatrix(n)
	for i := range inv {
		copy(inv[i], a[i][n:])
	}
	return inv, nil
}

// eliminate reduces the augmented matrix a (n rows) to [I | m⁻¹·rest] by
// Gauss-Jordan elimination with partial pivoting.
func eliminate(a [][]float64) error {
	n := len(a)
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-300 {
			return errors.New("singular information matrix (the games do not determine the ratings)")
		}
		a[c], a[p] = a[p], a[c]
		pivot := a[c][c]
		for k := range a[c] {
			a[c][k] /= pivot
		}
		for r := range n {
			if r == c || a[r][c] == 0 {
				continue
			}
			f := a[r][c]
			for k := range a[r] {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	return nil
}

func mul(x, y [][]float64) [][]float64 {
	n := len(x)
	out := newMatrix(n)
	for i := range n {
		for k := range n {
			if x[i][k] == 0 {
				continue
			}
			for j := range n {
				out[i][j] += x[i][k] * y[k][j]
			}
		}
	}
	return out
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
	return fmt.Sprintf("%s ± %.1f", fmtElo(r.Elo), z95*r.SE)
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
