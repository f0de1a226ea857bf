package output

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"arena/arena/config"
	"arena/arena/record"
	"arena/engines"
)

// WriteMatchConfig prints the thesis's MATCH CONFIGURATION block, extended
// with what our runs add (openings, margins, judge timing, output).
func WriteMatchConfig(w io.Writer, cfg *config.Config, date time.Time, games int, dir string) {
	fmt.Fprintln(w, "=== MATCH CONFIGURATION ===")
	fmt.Fprintf(w, "Date: %s\n", date.Local().Format("2006-01-02 15:04:05"))
	for i, e := range cfg.Engines {
		fmt.Fprintf(w, "Engine %d: %s (%s)\n", i+1, e.Name, engineDescription(e))
	}
	fmt.Fprintf(w, "Format: %s\n", formatLine(cfg))
	fmt.Fprintf(w, "Games: %d\n", games)
	fmt.Fprintf(w, "Time Limit: %s\n", timeLimitLine(cfg))
	fmt.Fprintf(w, "Max Moves: %s\n", MaxMovesNote(cfg))
	if a := cfg.Adjudicate.Draw; a != nil {
		fmt.Fprintf(w, "Draw Adjudication: both scores within %d cp for %d moves each, from move %d\n", a.Score, a.MoveCount, a.MoveNumber)
	}
	if a := cfg.Adjudicate.Resign; a != nil {
		how := "an engine's own score"
		if a.TwoSided {
			how = "both engines agreeing"
		}
		fmt.Fprintf(w, "Resign Adjudication: %s at -%d cp or worse for %d moves\n", how, a.Score, a.MoveCount)
	}
	if cfg.GameEnd == config.GameEndFivefold {
		fmt.Fprintln(w, "Game End: fivefold (no draw claimed: played on to fivefold repetition and 75 moves)")
	}
	fmt.Fprintf(w, "Openings: %s\n", openingsLine(cfg))
	if line := coloursLine(cfg); line != "" {
		fmt.Fprintf(w, "Colours: %s\n", line)
	}
	if s := cfg.SPRT; s != nil {
		unit := "W-D-L"
		if cfg.Pairs {
			unit = "game pairs (pentanomial)"
		}
		fmt.Fprintf(w, "SPRT: %s, from %s; the match stops when it decides\n", s, unit)
	}
	if cfg.Judge.Off {
		fmt.Fprintln(w, "Stockfish Eval Depth: off (judge: off, no ACPL)")
	} else {
		fmt.Fprintf(w, "Stockfish Eval Depth: %d (judge: %s; %s; %s protocol; cap %d, mate score %d)\n",
			cfg.Judge.Depth, record.JudgeTiming, cfg.Judge.Command, cfg.Judge.Protocol, cfg.Judge.Cap, cfg.Judge.MateScore)
	}
	if models := modelFiles(cfg); len(models) > 0 {
		fmt.Fprintf(w, "Model File: %s\n", strings.Join(models, ", "))
	}
	if dir != "" {
		fmt.Fprintf(w, "Output: %s\n", dir)
	}
}

// MaxMovesNote says loudly that max_moves counts plies, where fastchess's
// and cutechess-cli's -maxmoves count full moves.
func MaxMovesNote(cfg *config.Config) string {
	if cfg.MaxMoves <= 0 {
		return "none"
	}
	full := fmt.Sprintf("%d full moves", cfg.MaxMoves/2)
	if cfg.MaxMoves%2 == 1 {
		full = fmt.Sprintf("%.1f full moves", float64(cfg.MaxMoves)/2)
	}
	return fmt.Sprintf("%d plies = %s (then adjudicated a draw; max_moves counts plies, fastchess/cutechess -maxmoves counts full moves)", cfg.MaxMoves, full)
}

// formatLine describes the tournament format and its pairings.
func formatLine(cfg *config.Config) string {
	f := cfg.ResolvedFormat()
	n := len(cfg.Pairings())
	switch f {
	case config.FormatMatch:
		return fmt.Sprintf("match (%d games)", cfg.Games)
	case config.FormatKnockout:
		return knockoutLine(cfg)
	case config.FormatGauntlet:
		return fmt.Sprintf("gauntlet: %s against each of the %d others, %d games per pairing", cfg.Engines[0].Name, n, cfg.Games)
	}
	return fmt.Sprintf("round-robin: %d engines, %d pairings, %d games per pairing", len(cfg.Engines), n, cfg.Games)
}

// openingsLine describes the book and how it is used.
func openingsLine(cfg *config.Config) string {
	pairs := "game pairs: each opening played with both colours"
	if !cfg.Pairs {
		pairs = "one opening per game, colours alternating"
	}
	o := cfg.Openings
	if o == nil {
		if cfg.Pairs {
			return "none (standard start position; games in pairs with the colours swapped)"
		}
		return "none (standard start position; colours alternating)"
	}
	how := o.Order
	if o.Start > 1 {
		how += fmt.Sprintf(" from opening %d", o.Start)
	}
	if o.Plies > 0 {
		how += fmt.Sprintf(", first %d plies of each game", o.Plies)
	}
	return fmt.Sprintf("%s (%s; %s)", o.File, how, pairs)
}

// engineDescription names what runs behind an engine entry and the options
// the user set (a preset counts as one; what it switches on is in
// `arena engines`).
func engineDescription(e config.EngineConfig) string {
	desc := "uci: " + strings.Join(append([]string{e.Command}, e.Args...), " ")
	if e.Builtin() {
		desc = "built-in " + e.Engine
	}
	names := make([]string, 0, len(e.Options))
	for n := range e.Options {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		names[i] = n + "=" + e.Options[n]
	}
	if len(names) > 0 {
		desc += "; " + strings.Join(names, ", ")
	}
	if e.Ponder {
		desc += "; ponder"
	}
	if b := e.Book; b != nil {
		desc += "; own book " + filepath.Base(b.File)
		if b.Depth > 0 {
			desc += fmt.Sprintf(" for %d moves", b.Depth)
		}
	}
	return desc
}

// timeLimitLine describes the limits: one line when every engine has the
// same, else per engine.
func timeLimitLine(cfg *config.Config) string {
	same := true
	for _, e := range cfg.Engines[1:] {
		if e.Limits.String() != cfg.Engines[0].Limits.String() {
			same = false
		}
	}
	margin := fmt.Sprintf(" (a move later than the limit + %s loses on time)", cfg.TimeMargin)
	if !cfg.TimeForfeit.On() {
		margin = " (time_forfeit off: a late move is played, its overrun recorded"
		if cfg.MoveTimeout > 0 {
			margin += fmt.Sprintf("; one taking over the limit + %s loses on time", max(cfg.TimeMargin, cfg.MoveTimeout))
		}
		margin += ")"
	}
	hasTime := false
	var parts []string
	for _, e := range cfg.Engines {
		hasTime = hasTime || e.Limits.MoveTime > 0 || e.Limits.TC != nil
		parts = append(parts, e.Name+": "+e.Limits.String())
	}
	if !hasTime {
		margin = ""
		if cfg.MoveTimeout > 0 {
			margin = fmt.Sprintf(" (a move taking over %s loses on time)", cfg.MoveTimeout)
		}
	}
	if same {
		return cfg.Engines[0].Limits.String() + margin
	}
	return strings.Join(parts, "; ") + margin
}

// modelFiles lists the built-in engines' model files: string options whose
// name mentions a model or weights.
func modelFiles(cfg *config.Config) []string {
	var out []string
	for _, e := range cfg.Engines {
		if !e.Builtin() {
			continue
		}
		spec, err := engines.Lookup(e.Engine)
		if err != nil {
			continue
		}
		for _, o := range spec.Options {
			n := strings.ToLower(o.Name)
			if o.Type == engines.String && (strings.Contains(n, "model") || strings.Contains(n, "weights")) && e.Resolved[o.Name] != "" {
				out = append(out, e.Name+": "+e.Resolved[o.Name])
			}
		}
	}
	return out
}

// coloursLine describes noswap and reverse for the run header ("" when
// colours alternate from the first engine).
func coloursLine(cfg *config.Config) string {
	first, second := cfg.Engines[0].Name, cfg.Engines[1].Name
	if len(cfg.Engines) > 2 {
		first, second = "each pairing's first engine", "each pairing's second engine"
	}
	switch {
	case cfg.NoSwap && cfg.Reverse:
		return second + " White in every game (noswap, reverse)"
	case cfg.NoSwap:
		return first + " White in every game (noswap)"
	case cfg.Reverse:
		return "alternating, " + second + " White first (reverse)"
	}
	return ""
}
