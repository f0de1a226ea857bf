package arena

// The console printer: what a run writes to the terminal (the MATCH
// CONFIGURATION block before the first game, a progress line per game or
// rewritten in place, the score line). It writes no file; the run
// directory's files are written by output.go, pgn.go and summary.go. (It was
// report.go, one of three things called "report": this one is console
// output, arena/report renders a run's HTML/Markdown report, and
// tracker/report.go the analysis summary of a PGN.)

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"arena/arena/config"
	"arena/engines"
)

// writeMatchConfig prints the thesis's MATCH CONFIGURATION block, extended
// with what our runs add (openings, margins, judge timing, output).
func writeMatchConfig(w io.Writer, cfg *config.Config, date time.Time, games int, dir string) {
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
			cfg.Judge.Depth, JudgeTiming, cfg.Judge.Command, cfg.Judge.Protocol, cfg.Judge.Cap, cfg.Judge.MateScore)
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

// scoreLine is the match score: "A 2.5 - 1.5 B" for two engines, else
// every engine's points.
func scoreLine(s *Summary) string {
	if len(s.Engines) == 2 {
		a, b := s.Engines[0], s.Engines[1]
		return fmt.Sprintf("%s %s - %s %s", a.Name, fmtPoints(a.Points), fmtPoints(b.Points), b.Name)
	}
	var parts []string
	for _, e := range s.Engines {
		parts = append(parts, e.Name+" "+fmtPoints(e.Points))
	}
	return strings.Join(parts, ", ")
}

func fmtPoints(p float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", p), ".0") }

// progress reports the run: a live line rewritten in place on a terminal,
// else one line per finished game (logs and pipes get no control codes).
type progress struct {
	w        io.Writer
	terminal bool
	total    int
	start    time.Time
	done0    int // games finished before this session (resume)
	lineLen  int
	// width is the terminal's width in columns: the live line is cut to
	// one column less, so that it never wraps (a wrapped line is not
	// erased by \r and leaves a stale row per update). 0: 80.
	width int
	// plies played in the games finished this session, for the ETA.
	// Written when a game is reported, read by the live line (another
	// goroutine).
	plies atomic.Int64
}

func (p *progress) clear() {
	if p.terminal && p.lineLen > 0 {
		fmt.Fprint(p.w, "\r\033[K")
		p.lineLen = 0
	}
}

// live rewrites the terminal line during a game.
func (p *progress) live(done int, s *Summary, game, ply int) {
	if !p.terminal {
		return
	}
	line := fmt.Sprintf("[%d/%d games] game %d ply %d | %s | %s", done, p.total, game, ply, scoreLine(s), p.eta(done, ply, time.Since(p.start)))
	line = cutLine(line, p.width)
	fmt.Fprint(p.w, "\r\033[K"+line)
	p.lineLen = len(line)
}

// cutLine cuts line to width-1 columns (runes), 80 when width is 0.
func cutLine(line string, width int) string {
	if width <= 0 {
		width = 80
	}
	r := []rune(line)
	if len(r) < width {
		return line
	}
	return string(r[:max(width-1, 0)])
}

// eta is the elapsed time and, once a game of this session has finished,
// the time left estimated from plies: the time per ply played so far
// (the current game's ply plies included) times the plies left, the
// unplayed games counted at the finished games' mean length. Counting
// games only would make the estimate grow with every ply of a long game.
func (p *progress) eta(done, ply int, elapsed time.Duration) string {
	s := "elapsed " + elapsed.Round(time.Second).String()
	n, plies := done-p.done0, float64(p.plies.Load())
	if n <= 0 || done >= p.total || plies+float64(ply) <= 0 {
		return s
	}
	perPly := float64(elapsed) / (plies + float64(ply))
	left := max(plies/float64(n)*float64(p.total-done)-float64(ply), 0)
	return s + ", ETA " + time.Duration(perPly*left).Round(time.Second).String()
}

// gameDone reports a finished game.
func (p *progress) gameDone(g *GameRecord, s *Summary) {
	p.plies.Add(int64(g.Plies))
	if p.terminal {
		p.clear()
	}
	judge := ""
	if g.WhiteStats != nil && g.BlackStats != nil {
		judge = fmt.Sprintf(", ACPL %.0f/%.0f", g.WhiteStats.ACPL, g.BlackStats.ACPL)
	} else if g.JudgeError != "" {
		judge = ", judge failed: " + g.JudgeError
	}
	sprt := ""
	if s.SPRT != nil {
		sprt = fmt.Sprintf(" | LLR %s (%.2f, %+.2f)", fmtLLR(g.LLR), s.SPRT.Lower, s.SPRT.Upper)
	}
	fmt.Fprintf(p.w, "Game %d/%d: %s vs %s %s {%s} %d plies, %.1fs%s | %s%s\n",
		g.Game, p.total, g.White, g.Black, g.Result, g.Reason, g.Plies, g.Duration, judge, scoreLine(s), sprt)
}
