package tracker

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestEloByHand(t *testing.T) {
	// 10 wins, 5 draws, 5 losses: s = 12.5/20 = 0.625;
	// v = 0.5·0.375² + 0.25·0.125² + 0.25·0.625² = 0.171875;
	// Elo = -400·log10(1/0.625 - 1) = 88.7395;
	// s ± 1.959964·sqrt(0.171875/20) = 0.625 ± 0.181694 → -39.565, +248.185;
	// LOS = 0.5·(1 + erf(5/sqrt(30))) = 0.901647.
	r := Elo(10, 5, 5)
	checks := []struct {
		name      string
		got, want float64
	}{
		{"score", r.Score, 0.625},
		{"draw ratio", r.DrawRatio, 0.25},
		{"elo", r.Elo, 88.73949984654251},
		{"elo low", r.EloLow, -39.564838560050845},
		{"elo high", r.EloHigh, 248.18486857316125},
		{"los", r.LOS, 0.9016471987705266},
	}
	for _, c := range checks {
		if !near(c.got, c.want, 1e-6) {
			t.Errorf("Elo(10,5,5) %s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if r.Games != 20 {
		t.Errorf("games = %d, want 20", r.Games)
	}
	if s := r.String(); s != "Elo +88.7 [-39.6, +248.2] LOS 90.2% draws 25.0% (20 games)" {
		t.Errorf("String() = %q", s)
	}
	// Symmetry: the second engine's view negates the Elo and swaps the bounds.
	o := Elo(5, 5, 10)
	if !near(o.Elo, -r.Elo, 1e-9) || !near(o.EloLow, -r.EloHigh, 1e-9) || !near(o.LOS, 1-r.LOS, 1e-9) {
		t.Errorf("Elo(5,5,10) = %+v, not the mirror of Elo(10,5,5)", o)
	}
}

func TestEloEdgeCases(t *testing.T) {
	// All wins: the score is 1, Elo unbounded, LOS 0.5·(1+erf(3/sqrt 6)).
	r := Elo(3, 0, 0)
	if !math.IsInf(r.Elo, 1) || !math.IsInf(r.EloLow, 1) || !math.IsInf(r.EloHigh, 1) {
		t.Errorf("Elo(3,0,0) = %v [%v, %v], want +Inf everywhere", r.Elo, r.EloLow, r.EloHigh)
	}
	if !near(r.LOS, 0.9583677416682248, 1e-9) {
		t.Errorf("LOS(3,0,0) = %v, want 0.95837", r.LOS)
	}
	// 9-0-1: the upper score bound 1.086 is past 1: unbounded above only.
	r = Elo(9, 0, 1)
	if !math.IsInf(r.EloHigh, 1) || !near(r.EloLow, 158.98518382465204, 1e-6) {
		t.Errorf("Elo(9,0,1) interval = [%v, %v], want [158.985, +Inf]", r.EloLow, r.EloHigh)
	}
	// All draws: no decisive game, LOS undefined; Elo exactly 0.
	r = Elo(0, 4, 0)
	if r.Elo != 0 || r.EloLow != 0 || r.EloHigh != 0 || !math.IsNaN(r.LOS) {
		t.Errorf("Elo(0,4,0) = %+v, want Elo 0 [0, 0] and LOS NaN", r)
	}
	// No games.
	r = Elo(0, 0, 0)
	if !math.IsNaN(r.Elo) || !math.IsNaN(r.Score) || r.String() != "Elo n/a (no games)" {
		t.Errorf("Elo(0,0,0) = %+v %q", r, r.String())
	}
	// All losses.
	if r := Elo(0, 0, 2); !math.IsInf(r.Elo, -1) || !strings.Contains(r.String(), "-inf") {
		t.Errorf("Elo(0,0,2) = %v %q, want -Inf", r.Elo, r.String())
	}
}

func TestEloJSON(t *testing.T) {
	for _, r := range []EloResult{Elo(3, 0, 0), Elo(0, 0, 0), Elo(0, 4, 0), Elo(10, 5, 5)} {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("marshal %+v: %v", r, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		for _, k := range []string{"elo", "elo_low", "elo_high", "los", "score"} {
			v, ok := m[k]
			if !ok {
				t.Errorf("%s: no %q", b, k)
				continue
			}
			if f, isNum := v.(float64); isNum && (math.IsNaN(f) || math.IsInf(f, 0)) {
				t.Errorf("%s: %q is not finite", b, k)
			}
		}
	}
	b, _ := json.Marshal(Elo(3, 0, 0))
	if !strings.Contains(string(b), `"elo":null`) || !strings.Contains(string(b), `"wins":3`) {
		t.Errorf("all-wins JSON %s: want elo null and wins 3", b)
	}
}
