package record

import (
	"fmt"
	"math"

	"arena/arena/config"
	"arena/tracker"
)

// SPRTSummary is the state of the match's SPRT (summary.json "sprt").
type SPRTSummary struct {
	tracker.SPRT
	// Unit is what the test counts: "pairs" (pentanomial, with pairs: true)
	// or "games" (W-D-L); Count how many.
	Unit   string   `json:"unit"`
	Count  int      `json:"count"`
	LLR    *float64 `json:"llr"`
	Lower  float64  `json:"lower"`
	Upper  float64  `json:"upper"`
	Status string   `json:"status"` // "continue", "H0 accepted" or "H1 accepted"
}

// Decided reports whether the test has accepted a hypothesis.
func (s *SPRTSummary) Decided() bool {
	return s != nil && s.Status != tracker.Continue.String()
}

func (s *SPRTSummary) String() string {
	return fmt.Sprintf("SPRT %s: LLR %s (bounds %.2f, %+.2f) after %d %s: %s",
		s.SPRT, FormatLLR(s.LLR), s.Lower, s.Upper, s.Count, s.Unit, s.Status)
}

// FormatLLR is an SPRT log-likelihood ratio with its sign, "n/a" when
// undefined.
func FormatLLR(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return fmt.Sprintf("%+.2f", *p)
}

// sprtState decides the SPRT of a two-engine match from the first
// engine's results, game by game in game order: from the pentanomial counts
// of the complete game pairs when games are played in pairs, else from
// W-D-L. It keeps counts only (and the first score of each open pair).
type sprtState struct {
	cfg                 *config.Config
	wins, draws, losses int
	penta               tracker.Penta
	open                map[int]float64 // first game of each pair not yet complete
}

func newSPRTState(cfg *config.Config) *sprtState {
	if cfg.SPRT == nil {
		return nil
	}
	return &sprtState{cfg: cfg, open: map[int]float64{}}
}

func (s *sprtState) add(g *GameRecord) {
	sc := g.Score(s.cfg.Engines[0].Name)
	switch sc {
	case 1:
		s.wins++
	case 0.5:
		s.draws++
	default:
		s.losses++
	}
	if g.Pair == 0 {
		return
	}
	if prev, ok := s.open[g.Pair]; ok {
		// Scores are 0, 0.5 or 1, which AddPair accepts.
		_ = s.penta.AddPair(prev, sc)
		delete(s.open, g.Pair)
	} else {
		s.open[g.Pair] = sc
	}
}

// status is the test's state after the games added; nil without an SPRT.
func (s *sprtState) status() *SPRTSummary {
	if s == nil {
		return nil
	}
	sp := s.cfg.SPRT
	st := &SPRTSummary{SPRT: *sp}
	st.Lower, st.Upper = sp.Bounds()
	var llr float64
	var status tracker.Status
	if s.cfg.Pairs {
		st.Unit, st.Count = "pairs", s.penta.Pairs()
		llr, status = sp.DecidePenta(s.penta)
	} else {
		st.Unit, st.Count = "games", s.wins+s.draws+s.losses
		llr, status = sp.Decide(s.wins, s.draws, s.losses)
	}
	st.LLR = finiteOrNil(llr)
	st.Status = status.String()
	return st
}

func finiteOrNil(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// SPRTTally counts an SPRT's games in any order: the shards of one SPRT run
// (arena run --shard) add their own games and their peers' as they find
// them, each game once, and read the combined test. Its counts, and so its
// LLR, are those a Builder reaches on the same games, since neither the
// W-D-L nor the pentanomial counts depend on the order games are added in.
type SPRTTally struct{ s *sprtState }

// NewSPRTTally is an empty tally of cfg's SPRT; nil without one.
func NewSPRTTally(cfg *config.Config) *SPRTTally {
	if cfg.SPRT == nil {
		return nil
	}
	return &SPRTTally{newSPRTState(cfg)}
}

// Add counts a finished game (its names, result and pair are what is read).
func (t *SPRTTally) Add(g *GameRecord) { t.s.add(g) }

// Status is the test's state after the games added.
func (t *SPRTTally) Status() *SPRTSummary { return t.s.status() }
