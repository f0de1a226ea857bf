package tracker

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func rating(t *testing.T, r Ratings, name string) Rating {
	t.Helper()
	for _, p := range r.Players {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no rating for %s in %+v", name, r)
	return Rating{}
}

// Two players: the ML rating difference is -400·log10(1/s - 1) of the score,
// and the sandwich error is the delta-method one of the score's standard
// error. Worked by hand for +6 =2 -2: s = 0.7, Elo = 400·log10(7/3) =
// 147.1907; v = 0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.16, SE = sqrt(0.16/10)/
// (0.7·0.3)·400/ln 10 = 104.6369.
func TestRatingsTwoPlayers(t *testing.T) {
	for _, anchor := range []string{"A", "B"} {
		r, err := FitRatings([]string{"A", "B"}, []PairRecord{{A: "A", B: "B", Wins: 6, Draws: 2, Losses: 2}}, anchor)
		if err != nil {
			t.Fatal(err)
		}
		a, b := rating(t, r, "A"), rating(t, r, "B")
		if diff := a.Elo - b.Elo; !near(diff, 147.1907, 1e-4) || !near(diff, -400*math.Log10(1/0.7-1), 1e-8) {
			t.Errorf("anchor %s: A - B = %.6f, want 147.1907", anchor, diff)
		}
		other := a
		if anchor == "A" {
			other = b
		}
		if !near(other.SE, 104.6369, 1e-4) || !near(other.High-other.Low, 2*1.959964*other.SE, 1e-9) {
			t.Errorf("anchor %s: SE %.6f [%.3f, %.3f], want 104.6369 with a symmetric 95%% interval", anchor, other.SE, other.Low, other.High)
		}
		if x := rating(t, r, anchor); x.Elo != 0 || x.SE != 0 {
			t.Errorf("anchor %s rated %v ± %v, want 0 ± 0", anchor, x.Elo, x.SE)
		}
		if a.Games != 10 || a.Points != 7 || b.Points != 3 {
			t.Errorf("games/points: A %d/%v, B %v", a.Games, a.Points, b.Points)
		}
	}
	// Agrees with the W-D-L statistics of the same record.
	r, _ := FitRatings([]string{"A", "B"}, []PairRecord{{A: "B", B: "A", Wins: 3, Draws: 4, Losses: 1}}, "A")
	if got, want := rating(t, r, "B").Elo, Elo(3, 4, 1).Elo; !near(got, want, 1e-8) {
		t.Errorf("B over A: %.6f, tracker.Elo %.6f", got, want)
	}
}

// Three players whose results agree exactly with ratings 0, -400·log10 3 and
// -800·log10 3 (expected scores 3/4 between neighbours and 9/10 between the
// ends): A-B +3 -1, B-C +2 =2 -0, A-C +9 -1. The score equations hold there,
// so that is the maximum. For the error bars the information matrix over
// (B, C) with A anchored is [[1.5, -0.75], [-0.75, 1.65]] (weights
// n·p(1-p): 0.75, 0.75, 0.9); J equals it on the decisive pairs and is 0.25
// instead of 0.75 for B-C, whose two draws vary less:
// J = [[1.0, -0.25], [-0.25, 1.15]]. H⁻¹JH⁻¹ was multiplied out by hand:
// H⁻¹ = [[1.65, 0.75], [0.75, 1.5]]/1.9125.
func TestRatingsThreePlayersKnownSolution(t *testing.T) {
	records := []PairRecord{
		{A: "A", B: "B", Wins: 3, Losses: 1},
		{A: "C", B: "B", Draws: 2, Losses: 2},
		{A: "A", B: "C", Wins: 9, Losses: 1},
	}
	r, err := FitRatings([]string{"A", "B", "C"}, records, "A")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"A": 0, "B": -190.848502, "C": -381.697004}
	for name, elo := range want {
		if got := rating(t, r, name).Elo; !near(got, elo, 1e-5) {
			t.Errorf("%s: Elo %.6f, want %.6f", name, got, elo)
		}
	}
	// H⁻¹ J H⁻¹ by hand, in natural units, times (400/ln 10)².
	hinv := [2][2]float64{{1.65 / 1.9125, 0.75 / 1.9125}, {0.75 / 1.9125, 1.5 / 1.9125}}
	j := [2][2]float64{{1.0, -0.25}, {-0.25, 1.15}}
	var cov [2][2]float64
	for a := range 2 {
		for b := range 2 {
			for k := range 2 {
				for l := range 2 {
					cov[a][b] += hinv[a][k] * j[k][l] * hinv[l][b]
				}
			}
		}
	}
	k := 400 / math.Ln10
	for i, name := range []string{"B", "C"} {
		if got, want := rating(t, r, name).SE, math.Sqrt(cov[i][i])*k; !near(got, want, 1e-6) {
			t.Errorf("%s: SE %.6f, want %.6f", name, got, want)
		}
	}
	// Spot value: B's variance is 0.752018 (natural units²), SE
	// sqrt(0.752018)·173.7178 = 150.646.
	if got := rating(t, r, "B").SE; !near(got, 150.646, 0.001) {
		t.Errorf("B: SE %.4f, want 150.646", got)
	}
	if r.Iterations < 1 || r.Method != RatingsMethod || r.Anchor != "A" {
		t.Errorf("fit metadata %+v", r)
	}
}

// A cycle where every player beats the next 3-1 is a three-way tie.
func TestRatingsCycle(t *testing.T) {
	r, err := FitRatings([]string{"A", "B", "C"}, []PairRecord{
		{A: "A", B: "B", Wins: 3, Losses: 1},
		{A: "B", B: "C", Wins: 3, Losses: 1},
		{A: "C", B: "A", Wins: 3, Losses: 1},
	}, "B")
	if err != nil {
		t.Fatal(err)
	}
	a, c := rating(t, r, "A"), rating(t, r, "C")
	if !near(a.Elo, 0, 1e-8) || !near(c.Elo, 0, 1e-8) || !near(a.SE, c.SE, 1e-8) || !(a.SE > 0) {
		t.Errorf("cycle: A %v ± %v, C %v ± %v; want both 0 with equal positive SE", a.Elo, a.SE, c.Elo, c.SE)
	}
}

// At the maximum every player's expected points equal the points scored,
// also for a record with no closed form.
func TestRatingsScoreEquations(t *testing.T) {
	players := []string{"A", "B", "C", "D"}
	records := []PairRecord{
		{A: "A", B: "B", Wins: 5, Draws: 3, Losses: 2},
		{A: "A", B: "C", Wins: 2, Draws: 6, Losses: 2},
		{A: "B", B: "C", Wins: 1, Draws: 1, Losses: 4},
		{A: "D", B: "A", Wins: 1, Draws: 2, Losses: 7},
		{A: "D", B: "C", Wins: 2, Draws: 2, Losses: 2},
	}
	r, err := FitRatings(players, records, "C")
	if err != nil {
		t.Fatal(err)
	}
	expected := map[string]float64{}
	for _, rec := range records {
		ra, rb := rating(t, r, rec.A).Elo, rating(t, r, rec.B).Elo
		p := 1 / (1 + math.Pow(10, -(ra-rb)/400))
		n := float64(rec.Wins + rec.Draws + rec.Losses)
		expected[rec.A] += n * p
		expected[rec.B] += n * (1 - p)
	}
	for _, p := range r.Players {
		if !near(expected[p.Name], p.Points, 1e-8) {
			t.Errorf("%s: expected points %.10f, scored %v", p.Name, expected[p.Name], p.Points)
		}
	}
}

// Without a finite maximum-likelihood fit (A won every game) the prior's
// virtual draws keep every rating finite; players the games do not link to
// the anchor are undefined, written as null in JSON.
func TestRatingsUnbounded(t *testing.T) {
	players := []string{"A", "B", "C", "D", "E"}
	records := []PairRecord{
		{A: "A", B: "B", Wins: 2},
		{A: "A", B: "C", Wins: 1, Draws: 0},
		{A: "B", B: "C", Wins: 1, Losses: 1},
		{A: "D", B: "E", Wins: 1, Losses: 1},
	}
	r, err := FitRatings(players, records, "B")
	if err != nil {
		t.Fatal(err)
	}
	if r.Prior != PriorDraws || r.Method != RatingsMethodPrior {
		t.Errorf("prior %d, method %q: want the virtual draws said", r.Prior, r.Method)
	}
	a, c := rating(t, r, "A"), rating(t, r, "C")
	if math.IsInf(a.Elo, 0) || math.IsNaN(a.SE) || a.Elo <= c.Elo || a.Elo <= 0 {
		t.Errorf("A won every game: %v ± %v, C %v: want finite and above B and C", a.Elo, a.SE, c.Elo)
	}
	if a.Points != 3 || a.Games != 3 {
		t.Errorf("A's points %v/%d: the virtual draws must not be counted", a.Points, a.Games)
	}
	for _, name := range []string{"D", "E"} {
		if x := rating(t, r, name); !math.IsNaN(x.Elo) || x.String() != "n/a" {
			t.Errorf("%s never met the anchor's group: %v, want NaN", name, x.Elo)
		}
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `{"name":"D","elo":null,"se":null,"elo_low":null,"elo_high":null,"games":2,"points":1,"text":"n/a"}`) ||
		strings.Contains(string(data), "inf") {
		t.Errorf("JSON: %s", data)
	}
}

// The anchor wins every game: the maximum-likelihood ratings of the others
// would all be -inf and tie; with the prior they are finite and the player
// who scored 3.5 of 6 ranks above the one with 0.5 of 6, whatever the
// config order.
func TestRatingsAnchorWinsAll(t *testing.T) {
	records := []PairRecord{
		{A: "A", B: "W", Wins: 2},
		{A: "A", B: "S", Wins: 2},
		{A: "S", B: "W", Wins: 3, Draws: 1},
	}
	r, err := FitRatings([]string{"A", "W", "S"}, records, "A")
	if err != nil {
		t.Fatal(err)
	}
	ranked := r.Ranked()
	var names []string
	for _, p := range ranked {
		names = append(names, p.Name)
		if math.IsInf(p.Elo, 0) || math.IsNaN(p.Elo) || math.IsNaN(p.SE) || strings.Contains(p.String(), "inf") {
			t.Errorf("%s: %v (%s), want a finite rating", p.Name, p.Elo, p)
		}
	}
	if strings.Join(names, " ") != "A S W" {
		t.Errorf("ranked %v, want A S W", names)
	}
	if s, w := rating(t, r, "S"), rating(t, r, "W"); s.Points != 3.5 || w.Points != 0.5 || s.Elo >= 0 {
		t.Errorf("S %v points at %v, W %v points: want 3.5 below the anchor, 0.5", s.Points, s.Elo, w.Points)
	}
}

// Ranked breaks rating ties (and orders unrated players) by score.
func TestRatingsRankedTies(t *testing.T) {
	r := Ratings{Players: []Rating{
		{Name: "x", Elo: math.NaN(), Games: 2, Points: 0},
		{Name: "y", Elo: math.NaN(), Games: 2, Points: 2},
		{Name: "z", Elo: 10, Games: 4, Points: 1},
		{Name: "w", Elo: 10, Games: 4, Points: 3},
	}}
	var names []string
	for _, p := range r.Ranked() {
		names = append(names, p.Name)
	}
	if strings.Join(names, " ") != "w z y x" {
		t.Errorf("ranked %v, want w z y x", names)
	}
}

func TestRatingsErrors(t *testing.T) {
	ok := []PairRecord{{A: "A", B: "B", Wins: 1, Losses: 1}}
	for _, tt := range []struct {
		players []string
		records []PairRecord
		anchor  string
		want    string
	}{
		{[]string{"A", "B"}, ok, "Z", `anchor "Z" is not one of the players`},
		{[]string{"A", "A"}, ok, "A", `player "A" listed twice`},
		{[]string{"A", "B"}, []PairRecord{{A: "A", B: "C", Wins: 1}}, "A", "names a player not in"},
		{[]string{"A", "B"}, []PairRecord{{A: "A", B: "A", Wins: 1}}, "A", "against itself"},
		{[]string{"A", "B"}, []PairRecord{{A: "A", B: "B", Wins: -1}}, "A", "negative count"},
	} {
		if _, err := FitRatings(tt.players, tt.records, tt.anchor); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("FitRatings(%v, %v, %q) = %v, want an error containing %q", tt.players, tt.records, tt.anchor, err, tt.want)
		}
	}
}
