package arena

// The console printer: what a run writes to the terminal (a progress line
// per game or rewritten in place, the score line; the MATCH CONFIGURATION
// block before the first game is arena/output's, as summary.md starts with
// it too). It writes no file; the run directory's files are written by
// arena/output. (It was report.go, one of three things called "report":
// this one is console output, arena/report renders a run's HTML/Markdown
// report, and tracker/analysis.go the judge's analysis of a PGN.)

import (
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"arena/arena/output"
	"arena/arena/record"
)

// scoreLine is the match score: "A 2.5 - 1.5 B" for two engines, else
// every engine's points.
func scoreLine(s *record.Summary) string {
	if len(s.Engines) == 2 {
		a, b := s.Engines[0], s.Engines[1]
		return fmt.Sprintf("%s %s - %s %s", a.Name, record.FormatPoints(a.Points), record.FormatPoints(b.Points), b.Name)
	}
	var parts []string
	for _, e := range s.Engines {
		parts = append(parts, e.Name+" "+record.FormatPoints(e.Points))
	}
	return strings.Join(parts, ", ")
}

// progress reports the run: a live line rewritten in place on a terminal,
// else one line per finished game (logs and pipes get no control codes).
type progress struct {
	w        io.Writer
	terminal bool
	quiet    bool // no per-game lines (arena run --quiet); rating intervals still
	total    int
	start    time.Time
	done0    int // games finished before this session (resume)
	lineLen  int
	// width is the terminal's width in columns: the live line is cut to
	// one column less, so that it never wraps (a wrapped line is not
	// erased by \r and leaves a stale row per update). 0: 80.
	width int
	// ratingEvery, above 0, prints the ratings every ratingEvery finished
	// games (rating_interval).
	ratingEvery int
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
func (p *progress) live(done int, s *record.Summary, game, ply int) {
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
func (p *progress) gameDone(g *record.GameRecord, s *record.Summary) {
	p.plies.Add(int64(g.Plies))
	if p.terminal {
		p.clear()
	}
	if !p.quiet {
		p.gameLine(g, s)
	}
	if p.ratingEvery > 0 && s.GamesPlayed%p.ratingEvery == 0 {
		// Console write errors are ignored here as for the game line:
		// the run's files, not its terminal, must not fail.
		_ = output.WriteRatingInterval(p.w, s)
	}
}

// roundDone reports a decided round of a knockout: who went through, on
// what score.
func (p *progress) roundDone(r record.KnockoutRound) {
	if p.quiet {
		return
	}
	var parts []string
	for _, e := range r.Encounters {
		switch {
		case e.B == "":
			parts = append(parts, e.A+" (bye)")
		default:
			loser := e.B
			if e.Winner == e.B {
				loser = e.A
			}
			s := fmt.Sprintf("%s beat %s %s-%s", e.Winner, loser, record.FormatPoints(max(e.ScoreA, e.ScoreB)), record.FormatPoints(min(e.ScoreA, e.ScoreB)))
			if e.Decided == record.DecidedSeed {
				s = fmt.Sprintf("%s went through level with %s %s-%s (higher seed)", e.Winner, loser, record.FormatPoints(e.ScoreA), record.FormatPoints(e.ScoreB))
			}
			parts = append(parts, s)
		}
	}
	fmt.Fprintf(p.w, "Knockout round %d: %s\n", r.Round, strings.Join(parts, "; "))
}

// gameLine is a finished game's line: its result, the judge's verdict and
// the score so far.
func (p *progress) gameLine(g *record.GameRecord, s *record.Summary) {
	judge := ""
	if g.WhiteStats != nil && g.BlackStats != nil {
		judge = fmt.Sprintf(", ACPL %.0f/%.0f", g.WhiteStats.ACPL, g.BlackStats.ACPL)
	} else if g.JudgeError != "" {
		judge = ", judge failed: " + g.JudgeError
	}
	sprt := ""
	if s.SPRT != nil {
		sprt = fmt.Sprintf(" | LLR %s (%.2f, %+.2f)", record.FormatLLR(g.LLR), s.SPRT.Lower, s.SPRT.Upper)
	}
	fmt.Fprintf(p.w, "Game %d/%d: %s vs %s %s {%s} %d plies, %.1fs%s | %s%s\n",
		g.Game, p.total, g.White, g.Black, g.Result, g.Reason, g.Plies, g.Duration, judge, scoreLine(s), sprt)
}
