package output

import (
	"fmt"
	"io"

	"arena/arena/config"
	"arena/arena/record"
)

var bracketHeader = []string{"Round", "Higher seed", "Lower seed", "Goes through", "Score", "Games"}

// writeBracket writes a knockout's bracket: one row per encounter, round
// by round, with its score and who went through (and why, when not on
// score), then the winner.
func writeBracket(w io.Writer, k *record.KnockoutSummary, markdown bool) error {
	fmt.Fprintf(w, "\nKnockout bracket (seeds in config order):\n")
	if markdown {
		fmt.Fprintln(w)
	}
	var rows [][]string
	for _, r := range k.Rounds {
		for _, e := range r.Encounters {
			rows = append(rows, bracketRow(r.Round, e))
		}
	}
	if err := RenderTable(w, markdown, bracketHeader, rows, 4); err != nil {
		return err
	}
	if k.Winner != "" {
		if markdown {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "Winner: %s\n", k.Winner)
	}
	return nil
}

func bracketRow(round int, e record.KnockoutEncounter) []string {
	a := fmt.Sprintf("#%d %s", e.SeedA, e.A)
	if e.B == "" {
		return []string{fmt.Sprint(round), a, "bye", e.A + " (bye)", "-", "0"}
	}
	games := fmt.Sprint(e.Games)
	if e.TieBreak > 0 {
		games += fmt.Sprintf(" (%d tie-break)", e.TieBreak)
	}
	through := e.Winner
	switch {
	case e.Winner == "":
		through = "..."
	case e.Decided == record.DecidedSeed:
		through += " (level: higher seed)"
	}
	return []string{fmt.Sprint(round), a, fmt.Sprintf("#%d %s", e.SeedB, e.B), through,
		record.FormatPoints(e.ScoreA) + "-" + record.FormatPoints(e.ScoreB), games}
}

// knockoutLine describes a knockout's bracket for the configuration block.
func knockoutLine(cfg *config.Config) string {
	n := len(cfg.Engines)
	size := 1
	for size < n {
		size *= 2
	}
	unit := "game pairs"
	if !cfg.Pairs {
		unit = "single games"
	}
	return fmt.Sprintf("knockout: %d engines seeded in config order, a bracket of %d (%d bye(s) to the top seeds), %d games per encounter; a tie is broken by extra %s (at most %d games), then the higher seed goes through",
		n, size, size-n, cfg.Games, unit, record.MaxTieBreakGames(cfg))
}
