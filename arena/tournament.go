package arena

import (
	"fmt"
	"math"

	"arena/arena/config"
	"arena/tracker"
)

// score is the named engine's points in the game: 1, 0.5 or 0.
func (g *GameRecord) score(name string) float64 {
	switch w := g.winner(); {
	case w == -1:
		return 0.5
	case (w == 0) == (g.White == name):
		return 1
	}
	return 0
}

// Crosstable is every pairing's record, from the row engine's side.
type Crosstable struct {
	Engines []string        `json:"engines"`
	Rows    []CrosstableRow `json:"rows"`
}

// CrosstableRow is one engine against each of the others.
type CrosstableRow struct {
	Engine string  `json:"engine"`
	Games  int     `json:"games"`
	Points float64 `json:"points"`
	// Cells follow Engines: the row engine's record against that engine;
	// null on the diagonal and for engines the format does not pair it with.
	Cells []*CrossCell `json:"cells"`
}

// CrossCell is one engine's record against another.
type CrossCell struct {
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Games  int     `json:"games"`
	Points float64 `json:"points"`
}

func (c *CrossCell) String() string {
	if c == nil {
		return "-"
	}
	return fmt.Sprintf("%s/%d (+%d =%d -%d)", fmtPoints(c.Points), c.Games, c.Wins, c.Draws, c.Losses)
}

// crosstable builds the crosstable from the W-D-L of each pairing (a < b,
// from a's side).
func crosstable(cfg *config.Config, wdl map[[2]int]*[3]int) *Crosstable {
	n := len(cfg.Engines)
	ct := &Crosstable{Engines: make([]string, n), Rows: make([]CrosstableRow, n)}
	for i, e := range cfg.Engines {
		ct.Engines[i] = e.Name
		ct.Rows[i] = CrosstableRow{Engine: e.Name, Cells: make([]*CrossCell, n)}
	}
	for _, p := range cfg.Pairings() {
		r := wdl[p]
		if r == nil {
			r = &[3]int{}
		}
		a, b := p[0], p[1]
		ct.Rows[a].Cells[b] = newCell(r[0], r[1], r[2])
		ct.Rows[b].Cells[a] = newCell(r[2], r[1], r[0])
	}
	for i := range ct.Rows {
		for _, c := range ct.Rows[i].Cells {
			if c != nil {
				ct.Rows[i].Games += c.Games
				ct.Rows[i].Points += c.Points
			}
		}
	}
	return ct
}

func newCell(w, d, l int) *CrossCell {
	return &CrossCell{Wins: w, Draws: d, Losses: l, Games: w + d + l, Points: float64(w) + float64(d)/2}
}

// fitRatings fits the engines' ratings to every game (tracker.FitRatings),
// the anchor at 0. It returns nil before the first game.
func fitRatings(cfg *config.Config, wdl map[[2]int]*[3]int) (*tracker.Ratings, error) {
	names := make([]string, len(cfg.Engines))
	for i, e := range cfg.Engines {
		names[i] = e.Name
	}
	var records []tracker.PairRecord
	for _, p := range cfg.Pairings() {
		if r := wdl[p]; r != nil {
			records = append(records, tracker.PairRecord{A: names[p[0]], B: names[p[1]], Wins: r[0], Draws: r[1], Losses: r[2]})
		}
	}
	if len(records) == 0 {
		return nil, nil
	}
	r, err := tracker.FitRatings(names, records, cfg.ResolvedAnchor())
	if err != nil {
		return nil, err
	}
	return &r, nil
}

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
		s.SPRT, fmtLLR(s.LLR), s.Lower, s.Upper, s.Count, s.Unit, s.Status)
}

func fmtLLR(p *float64) string {
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
	sc := g.score(s.cfg.Engines[0].Name)
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
