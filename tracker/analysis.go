package tracker

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/olekukonko/tablewriter"

	"arena/internal/atomicfile"
)

// Render prints the report as tables: one row per game, one per player, then
// the judge's settings and cost.
func (rep Analysis) Render(w io.Writer) error {
	errs := func(p PlayerStats) string {
		return fmt.Sprintf("%d/%d/%d", p.Inaccuracies, p.Mistakes, p.Blunders)
	}
	acpl := func(p PlayerStats) string {
		if p.Moves == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f", p.ACPL)
	}
	acc := func(p PlayerStats) string {
		if p.Games == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f", p.Accuracy)
	}

	fmt.Fprintln(w, "Games (errors = inaccuracies/mistakes/blunders)")
	t := tablewriter.NewWriter(w)
	t.Header("#", "White", "Black", "Result", "Plies", "W ACPL", "W Acc%", "W errors", "B ACPL", "B Acc%", "B errors")
	for _, g := range rep.Games {
		if err := t.Append(fmt.Sprint(g.Number), g.White, g.Black, g.Result, fmt.Sprint(g.Plies),
			acpl(g.WhiteStats), acc(g.WhiteStats), errs(g.WhiteStats),
			acpl(g.BlackStats), acc(g.BlackStats), errs(g.BlackStats)); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}

	fmt.Fprintln(w, "\nPlayers")
	t = tablewriter.NewWriter(w)
	t.Header("Player", "Games", "Moves", "ACPL", "Accuracy%", "Inaccuracies", "Mistakes", "Blunders")
	for _, p := range rep.Players {
		if err := t.Append(p.Name, fmt.Sprint(p.Games), fmt.Sprint(p.Moves), acpl(p.PlayerStats), acc(p.PlayerStats),
			fmt.Sprint(p.Inaccuracies), fmt.Sprint(p.Mistakes), fmt.Sprint(p.Blunders)); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}

	j := rep.Judge
	fmt.Fprintf(w, "\nJudge: %s, depth %d, %s protocol, cap %d, mate score %d, %d worker(s); run %s.\n",
		j.Engine, j.Depth, j.Protocol, j.Cap, j.MateScore, j.Workers, j.Schedule)
	fmt.Fprintf(w, "Cost: %d Stockfish evaluations for %d plies (%.3f per ply; %d cache hits, %d terminal positions scored by the rules).\n",
		j.Evaluations, j.Plies, j.EvaluationsPerPly, j.CacheHits, j.TerminalPositions)
	return nil
}

// WriteFile writes the report as indented JSON to path atomically: a
// temporary file in the same directory, synced, then renamed over path.
func (rep Analysis) WriteFile(path string) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	if err := atomicfile.WriteFile(path, append(data, '\n')); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
