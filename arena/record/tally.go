package record

import (
	"fmt"
	"strings"

	"arena/arena/config"
	"arena/tracker"
)

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
	return fmt.Sprintf("%s/%d (+%d =%d -%d)", FormatPoints(c.Points), c.Games, c.Wins, c.Draws, c.Losses)
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
		if r == nil && cfg.Format == config.FormatKnockout {
			continue // engines that have not met (and may never)
		}
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

// FormatPoints is a points total without a trailing ".0" ("2.5", "3").
func FormatPoints(p float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", p), ".0") }
