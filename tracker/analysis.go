package tracker

import (
	"encoding/json"
	"fmt"
	"io"

	"arena/internal/atomicfile"
	"arena/internal/table"
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

	// The headers as tablewriter, which rendered these tables before,
	// formatted them (upper case, "%" spaced off), and every column
	// left-aligned as it did: the report reads as it always has.
	fmt.Fprintln(w, "Games (errors = inaccuracies/mistakes/blunders)")
	header := []string{"#", "WHITE", "BLACK", "RESULT", "PLIES", "W ACPL", "W ACC %", "W ERRORS", "B ACPL", "B ACC %", "B ERRORS"}
	var rows [][]string
	for _, g := range rep.Games {
		rows = append(rows, []string{fmt.Sprint(g.Number), g.White, g.Black, g.Result, fmt.Sprint(g.Plies),
			acpl(g.WhiteStats), acc(g.WhiteStats), errs(g.WhiteStats),
			acpl(g.BlackStats), acc(g.BlackStats), errs(g.BlackStats)})
	}
	if err := table.Render(w, false, header, rows, len(header)); err != nil {
		return err
	}

	fmt.Fprintln(w, "\nPlayers")
	header = []string{"PLAYER", "GAMES", "MOVES", "ACPL", "ACCURACY %", "INACCURACIES", "MISTAKES", "BLUNDERS"}
	rows = rows[:0]
	for _, p := range rep.Players {
		rows = append(rows, []string{p.Name, fmt.Sprint(p.Games), fmt.Sprint(p.Moves), acpl(p.PlayerStats), acc(p.PlayerStats),
			fmt.Sprint(p.Inaccuracies), fmt.Sprint(p.Mistakes), fmt.Sprint(p.Blunders)})
	}
	if err := table.Render(w, false, header, rows, len(header)); err != nil {
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
