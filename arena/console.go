package arena

// The console printer: what a run writes to the terminal (a progress line
// per game or rewritten in place, the score line; the MATCH CONFIGURATION
// block before the first game is arena/output's, as summary.md starts with
// it too). It writes no file; the run directory's files are written by
// arena/output. (It was report.go, one of three things called "report":
// this one is console output, arena/report renders a run's HTML/Markdown
// report, and tracker/analysis.go the judge's analysis of a PGN.)

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"arena/arena/output"
	"arena/arena/record"
	"arena/internal/termfit"
	"arena/tracker"
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

// progress reports the run: on a terminal a live line, rewritten in place
// every second by its own goroutine whatever the concurrency, with every
// game line printed above it; else one full line per finished game (logs
// and pipes get no control codes). On a terminal every line is fitted to
// its width (internal/termfit): the live line and the game lines drop
// their parts in the order liveLine and gameLine state.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	terminal bool
	quiet    bool // no per-game lines (arena run --quiet); rating intervals still
	total    int  // games of the whole schedule (game numbers)
	planned  int  // games of this run (its shard)
	prior    int  // games finished before this session (resume)
	// width is the terminal's width in columns (0: 80); the live line
	// takes one column less, so that it never wraps (a wrapped line is
	// not erased by \r and leaves a stale row per update). Game lines
	// are fitted only on a terminal.
	width int
	// ratingEvery, above 0, prints the ratings every ratingEvery finished
	// games (rating_interval).
	ratingEvery int
	began       time.Time // of this session
	st          *status
	sum         *record.Summary // the latest, for the live line
	shown       bool            // a live line is on the screen
}

// cols is the width lines are fitted to: the terminal's, none elsewhere.
func (p *progress) cols() int {
	if !p.terminal {
		return 0
	}
	if p.width <= 0 {
		return 80
	}
	return p.width
}

// run redraws the live line every second until ctx ends.
func (p *progress) run(ctx context.Context) {
	if !p.terminal {
		return
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	p.redraw()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			p.redraw()
		}
	}
}

func (p *progress) redraw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draw()
}

// draw writes the live line (p.mu held).
func (p *progress) draw() {
	if !p.terminal {
		return
	}
	fmt.Fprint(p.w, "\r\033[K"+p.liveLine(p.st.snapshot(time.Now(), p.began)))
	p.shown = true
}

func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.erase()
}

func (p *progress) erase() {
	if p.terminal && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

// Drop ranks of the live line's parts: the higher goes first when the
// terminal is too narrow. docs/watch.md lists them; keep the two in step.
const (
	dropRate    = 7 // games/hour
	dropElapsed = 6 // time since the start
	dropElo     = 5 // Elo and its interval
	dropScore   = 4 // the score (two engines) or the leader's points
	dropJudged  = 3 // positions judged: the judge's progress, kept long
	dropLLR     = 2 // the SPRT's LLR
)

// liveLine is "12/40 games | judged 830/3200 | A 6.5-5.5 B | Elo +29 ±120
// | LLR 1.21 (-2.94, 2.94) | 45 games/h | 4m10s | ETA 12m30s", fitted to
// the terminal: games and ETA stay, the other parts go in the order of
// their drop ranks, names are shortened first.
func (p *progress) liveLine(sn snapshot) string {
	done := 0
	if p.sum != nil {
		done = p.sum.GamesPlayed
	}
	left := p.planned - p.prior - sn.played
	parts := []termfit.Part{{Text: fmt.Sprintf("%d/%d games", done, p.planned)}}
	if sn.judge {
		parts = append(parts, termfit.Part{Text: fmt.Sprintf("judged %d/%d", sn.judged, sn.positions), Drop: dropJudged})
	}
	var full, short []termfit.Part
	if s := p.sum; s != nil && s.GamesPlayed > 0 {
		full = scoreParts(s, 0)
		short = scoreParts(s, 10)
	}
	rate := ""
	if h := sn.elapsed.Hours(); done > p.prior && h > 0 {
		rate = fmt.Sprintf("%.0f games/h", float64(done-p.prior)/h)
	}
	eta := "ETA after game 1"
	if d, ok := sn.eta(left); ok {
		eta = "ETA " + d.Round(time.Second).String()
	} else if sn.played > 0 {
		eta = "ETA after the first judged position"
	}
	tail := []termfit.Part{{Text: rate, Drop: dropRate}, {Text: sn.elapsed.Round(time.Second).String(), Drop: dropElapsed}, {Text: eta}}
	width := p.cols() - 1
	if line := termfit.Line(slices.Concat(parts, full, tail), " | ", 0); termfit.Width(line) <= width || short == nil {
		return termfit.Line(slices.Concat(parts, full, tail), " | ", width)
	}
	return termfit.Line(slices.Concat(parts, short, tail), " | ", width)
}

// scoreParts are the live line's score, Elo and LLR, names cut to name
// columns (0: whole): with two engines the first one's Elo over the
// second, with more the leader on points and its rating.
func scoreParts(s *record.Summary, name int) []termfit.Part {
	var parts []termfit.Part
	ab := func(n string) string { return termfit.Abbrev(n, name) }
	switch {
	case len(s.Engines) == 2:
		a, b := s.Engines[0], s.Engines[1]
		parts = append(parts, termfit.Part{Text: fmt.Sprintf("%s %s-%s %s", ab(a.Name), record.FormatPoints(a.Points), record.FormatPoints(b.Points), ab(b.Name)), Drop: dropScore})
		if len(s.Pairs) > 0 && s.Pairs[0].Elo.Games > 0 {
			parts = append(parts, termfit.Part{Text: "Elo " + eloPM(s.Pairs[0].Elo.Elo, s.Pairs[0].Elo.EloLow, s.Pairs[0].Elo.EloHigh), Drop: dropElo})
		}
	case len(s.Engines) > 2:
		lead := s.Engines[0]
		for _, e := range s.Engines[1:] {
			if e.Points > lead.Points {
				lead = e
			}
		}
		parts = append(parts, termfit.Part{Text: fmt.Sprintf("lead %s %s/%d", ab(lead.Name), record.FormatPoints(lead.Points), lead.Games), Drop: dropScore})
		if r := s.Ratings; r != nil {
			// The leader's rating over the anchor's; when the leader is
			// the anchor, over the best of the others (the same interval:
			// each rating's is that of its difference with the anchor).
			var lr, other *tracker.Rating
			for i := range r.Players {
				switch pl := &r.Players[i]; {
				case pl.Name == lead.Name:
					lr = pl
				case pl.Name != r.Anchor && (other == nil || pl.Elo > other.Elo):
					other = pl
				}
			}
			if lr != nil && lead.Name != r.Anchor {
				parts = append(parts, termfit.Part{Text: fmt.Sprintf("Elo %s vs %s", eloPM(lr.Elo, lr.Low, lr.High), ab(r.Anchor)), Drop: dropElo})
			} else if lr != nil && other != nil {
				parts = append(parts, termfit.Part{Text: fmt.Sprintf("Elo %s vs %s", eloPM(-other.Elo, -other.High, -other.Low), ab(other.Name)), Drop: dropElo})
			}
		}
	}
	if s.SPRT != nil && s.SPRT.LLR != nil {
		parts = append(parts, termfit.Part{Text: fmt.Sprintf("LLR %s (%.2f, %+.2f)", record.FormatLLR(s.SPRT.LLR), s.SPRT.Lower, s.SPRT.Upper), Drop: dropLLR})
	}
	return parts
}

// eloPM is "+29 ±120": an Elo and half its 95% interval, "+381 (>+159)"
// when the interval has no upper end.
func eloPM(elo, low, high float64) string {
	switch {
	case math.IsNaN(elo):
		return "n/a"
	case math.IsInf(elo, 0) || math.IsInf(low, 0) || math.IsInf(high, 0) || math.IsNaN(low) || math.IsNaN(high):
		return fmt.Sprintf("%s (unbounded)", tracker.FormatSigned(elo, 0))
	}
	return fmt.Sprintf("%s ±%.0f", tracker.FormatSigned(elo, 0), (high-low)/2)
}

// setPlanned updates the games of the schedule and of this run (a
// knockout's grow as its rounds are decided).
func (p *progress) setPlanned(total, planned int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.planned = total, planned
}

// gameDone reports a finished game: its line above the live line.
func (p *progress) gameDone(g *record.GameRecord, s *record.Summary) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sum = s
	p.erase()
	if !p.quiet {
		fmt.Fprintln(p.w, p.gameLine(g, s))
	}
	if p.ratingEvery > 0 && s.GamesPlayed%p.ratingEvery == 0 {
		// Console write errors are ignored here as for the game line:
		// the run's files, not its terminal, must not fail.
		_ = output.WriteRatingInterval(p.w, s, p.cols())
	}
	p.draw()
}

// roundDone reports a decided round of a knockout: who went through, on
// what score.
func (p *progress) roundDone(r record.KnockoutRound) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.erase()
	defer p.draw()
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
// the score so far. Fitted to a terminal, it shortens the names, then
// drops the score, the LLR, the reason, the plies and time, the ACPL.
func (p *progress) gameLine(g *record.GameRecord, s *record.Summary) string {
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
	line := func(name, width int, score bool) string {
		parts := []termfit.Part{
			{Text: fmt.Sprintf("Game %d/%d: %s vs %s %s", g.Game, p.total, termfit.Abbrev(g.White, name), termfit.Abbrev(g.Black, name), g.Result)},
			{Text: " {" + g.Reason + "}", Drop: 4},
			{Text: fmt.Sprintf(" %d plies, %.1fs", g.Plies, g.Duration), Drop: 3},
			{Text: judge, Drop: 2},
		}
		if score {
			parts = append(parts, termfit.Part{Text: " | " + scoreLine(s), Drop: 6}, termfit.Part{Text: sprt, Drop: 5})
		}
		return termfit.Line(parts, "", width)
	}
	// Whole names while dropping the score and the LLR, which the live
	// line shows, is enough; else shortened names.
	if p.cols() == 0 || termfit.Width(line(0, 0, false)) <= p.cols() {
		return line(0, p.cols(), true)
	}
	return line(12, p.cols(), true)
}
