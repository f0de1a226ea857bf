package engines

import (
	"testing"
	"time"
)

func TestBudget(t *testing.T) {
	const ms = time.Millisecond
	tests := []struct {
		name       string
		lim        Limits
		white      bool
		soft, hard time.Duration
	}{
		{"nothing set is unlimited", Limits{}, true, 0, 0},
		{"depth only is unlimited in time", Limits{Depth: 8}, true, 0, 0},
		{"nodes only is unlimited in time", Limits{Nodes: 1000}, false, 0, 0},
		{"infinite beats movetime", Limits{Infinite: true, MoveTime: time.Second}, true, 0, 0},
		{"movetime exactly", Limits{MoveTime: 1500 * ms}, true, 1500 * ms, 1500 * ms},
		{"movetime beats the clock", Limits{MoveTime: time.Second, WTime: time.Minute}, true, time.Second, time.Second},
		{"white clock over 30 moves", Limits{WTime: time.Minute, BTime: time.Second}, true, 2 * time.Second, 6 * time.Second},
		{"black uses btime", Limits{WTime: time.Minute, BTime: 30 * time.Second}, false, time.Second, 3 * time.Second},
		{"increment adds three quarters", Limits{WTime: 9 * time.Second, WInc: time.Second, BInc: time.Hour}, true, 1050 * ms, 3150 * ms},
		{"black increment", Limits{BTime: 9 * time.Second, BInc: 2 * time.Second, WInc: time.Hour}, false, 1800 * ms, 4500 * ms},
		{"movestogo spreads the time", Limits{WTime: 10 * time.Second, MovesToGo: 5}, true, 2 * time.Second, 5 * time.Second},
		{"the overhead comes off the clock first", Limits{WTime: 10*time.Second + 100*ms, MovesToGo: 5, Overhead: 100 * ms}, true, 2 * time.Second, 5 * time.Second},
		{"last move before the control may use all but the overhead", Limits{WTime: 5 * time.Second, MovesToGo: 1, Overhead: 50 * ms}, true, 4950 * ms, 4950 * ms},
		{"low clock keeps half back", Limits{WTime: 90 * ms}, true, 3 * ms, 9 * ms},
		{"huge increment is capped by half the clock", Limits{WTime: 100 * ms, WInc: 2 * time.Second}, true, 50 * ms, 50 * ms},
		{"a clock within the overhead answers at once", Limits{WTime: 100 * ms, Overhead: 100 * ms}, true, ms, ms},
		{"own clock at zero answers at once", Limits{BTime: time.Minute}, true, ms, ms},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			soft, hard := tc.lim.Budget(tc.white)
			if soft != tc.soft || hard != tc.hard {
				t.Errorf("Budget(%+v, white=%v) = (%v, %v), want (%v, %v)", tc.lim, tc.white, soft, hard, tc.soft, tc.hard)
			}
		})
	}
}

// TestBudgetNeverFlags checks the invariants over a grid of clocks and
// overheads: the target never exceeds the hard limit, and the hard limit
// leaves the overhead on the clock whenever the clock holds more than it
// and the minimum think time.
func TestBudgetNeverFlags(t *testing.T) {
	clocks := []time.Duration{3 * time.Millisecond, 40 * time.Millisecond, 200 * time.Millisecond, time.Second, 10 * time.Second, time.Minute, time.Hour}
	incs := []time.Duration{0, 10 * time.Millisecond, time.Second, 30 * time.Second}
	for _, rem := range clocks {
		for _, inc := range incs {
			for _, mtg := range []int{0, 1, 2, 10, 40} {
				for _, over := range []time.Duration{0, 10 * time.Millisecond, 100 * time.Millisecond} {
					lim := Limits{WTime: rem, WInc: inc, MovesToGo: mtg, Overhead: over}
					soft, hard := lim.Budget(true)
					if soft <= 0 || soft > hard {
						t.Errorf("%+v: soft %v, hard %v: want 0 < soft <= hard", lim, soft, hard)
					}
					if hard > max(rem-over, minThink) {
						t.Errorf("%+v: hard %v would eat into the overhead %v of the clock %v", lim, hard, over, rem)
					}
				}
			}
		}
	}
}
