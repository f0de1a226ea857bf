package heuristic

import (
	"context"
	"strings"
	"testing"

	"arena/engines"
)

func TestProbCost(t *testing.T) {
	for _, c := range []struct{ n, want int }{{1, 0}, {probBranching, probUnit}, {probBranching * probBranching, 2 * probUnit}, {2, 102}} {
		if c.n < len(probCost) && probCost[c.n] != c.want {
			t.Errorf("cost of %d moves: %d, expected %d", c.n, probCost[c.n], c.want)
		}
	}
}

// TestProbabilityFollowsForcedLines: Qg8+ Rxg8 Nf7# is a mate in 2 whose
// reply is forced. Depth-limited search to depth 3 stops at the mated
// position (quiescence does not look for mate); probability-limited search
// at iteration 3 does not charge the single reply and sees the mate.
func TestProbabilityFollowsForcedLines(t *testing.T) {
	pos := engines.Position{FEN: "5r1k/6pp/8/3QN3/2B5/8/6PP/6K1 w - - 0 1"}
	for _, c := range []struct {
		prob string
		mate int
	}{{"false", 0}, {"true", 2}} {
		e := newEngine(t, map[string]string{optProb: c.prob})
		res, err := e.Search(context.Background(), pos, engines.Limits{Depth: 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Score.Mate != c.mate || c.mate != 0 && res.Move != "d5g8" {
			t.Errorf("probability=%s, depth 3: %s score %+v, expected mate %d", c.prob, res.Move, res.Score, c.mate)
		}
	}
}

func TestProbabilityRefusesPlyOptions(t *testing.T) {
	_, err := engines.New(Name, map[string]string{optProb: "true", "lmr": "true"})
	if err == nil || !strings.Contains(err.Error(), "lmr") {
		t.Errorf("probability with lmr: error %v, expected one naming lmr", err)
	}
	if _, err := engines.New(Name, map[string]string{optProb: "true", "pvs": "true", "killers": "true", "aspiration": "true"}); err != nil {
		t.Errorf("probability with pvs, killers, aspiration: %v", err)
	}
}
