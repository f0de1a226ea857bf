package output

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"arena/arena/config"
	"arena/arena/record"
	"arena/tracker/pgn"
)

// WritePGN writes one game in PGN export format: the Seven Tag Roster, then
// SetUp/FEN for a game from an opening position, PlyCount, Termination and
// the time control; per-move comments (moveComment); and the reason the
// game ended as a comment before the result.
func WritePGN(w io.Writer, cfg *config.Config, g *record.GameRecord) error {
	e := pgn.Export{FEN: g.FEN, Final: g.Reason, Result: g.Result}
	tag := func(k, v string) { e.Tags = append(e.Tags, pgn.Tag{Name: k, Value: v}) }
	tag("Event", cfg.Name)
	tag("Site", "arena")
	tag("Date", g.Start.Format("2006.01.02"))
	tag("Round", strconv.Itoa(g.Game))
	tag("White", g.White)
	tag("Black", g.Black)
	tag("Result", g.Result)
	if g.FEN != "" {
		tag("SetUp", "1")
		tag("FEN", g.FEN)
	}
	if g.Opening != "" {
		tag("Opening", g.Opening)
	}
	tag("PlyCount", strconv.Itoa(g.Plies))
	tag("Termination", g.Termination)
	wtc, btc := pgnTimeControl(engineLimits(cfg, g.White)), pgnTimeControl(engineLimits(cfg, g.Black))
	if wtc == btc {
		tag("TimeControl", wtc)
	} else {
		tag("WhiteTimeControl", wtc)
		tag("BlackTimeControl", btc)
	}
	tag("GameStartTime", g.Start.Format(time.RFC3339))
	tag("GameDuration", fmtClock(time.Duration(g.Duration*float64(time.Second))))
	fields := cfg.Output.PGNComments()
	for _, m := range g.Moves {
		mv := pgn.Move{SAN: m.SAN}
		if !fields.None {
			mv.Comment = moveComment(m, fields)
		}
		e.Moves = append(e.Moves, mv)
	}
	return pgn.Write(w, e)
}

// moveComment annotates one move as cutechess-cli and fastchess do: the
// score from the mover's side / depth and the move's time, then the chosen
// fields with fastchess's keys (tl= time left, n= nodes, sd= selective
// depth, nps=, pv=) and arena's own (mem= the engine process's peak RSS,
// cpl= the judge's centipawn loss), space-separated:
// "{+0.32/12 0.51s tl=59.49s n=12345 sd=20 mem=35MB cpl=12}". A field with
// nothing to say (no clock, not judged, no PV) is left out.
func moveComment(m record.MoveRecord, c config.PGNComments) string {
	if m.Book {
		return "book" // as cutechess marks the moves it plays from an engine's book
	}
	score := fmt.Sprintf("%+.2f", float64(m.ScoreCP)/100)
	if m.Mate > 0 {
		score = fmt.Sprintf("+M%d", m.Mate)
	} else if m.Mate < 0 {
		score = fmt.Sprintf("-M%d", -m.Mate)
	}
	s := fmt.Sprintf("%s/%d %.2fs", score, m.Depth, m.Time)
	for _, f := range config.CommentFields {
		if !c.Has(f) {
			continue
		}
		switch {
		case f == config.CommentTimeLeft && m.TimeLeft != nil:
			s += fmt.Sprintf(" tl=%.2fs", *m.TimeLeft)
		case f == config.CommentNodes:
			s += fmt.Sprintf(" n=%d", m.Nodes)
		case f == config.CommentSelDepth:
			s += fmt.Sprintf(" sd=%d", m.SelDepth)
		case f == config.CommentNPS:
			nps := 0.0
			if m.Time > 0 {
				nps = float64(m.Nodes) / m.Time
			}
			s += fmt.Sprintf(" nps=%.0f", nps)
		case f == config.CommentPV && len(m.PV) > 0:
			s += fmt.Sprintf(" pv=%q", strings.Join(m.PV, " "))
		case f == config.CommentMem:
			s += fmt.Sprintf(" mem=%.0fMB", m.PeakMB)
		case f == config.CommentCPL && m.CPL != nil:
			s += fmt.Sprintf(" cpl=%d", *m.CPL)
		}
	}
	return s
}

// engineLimits returns the limits of the engine with the given name.
func engineLimits(cfg *config.Config, name string) config.Limits {
	for _, e := range cfg.Engines {
		if e.Name == name {
			return e.Limits
		}
	}
	return cfg.Limits
}

// pgnTimeControl renders limits as a TimeControl tag: the clock
// ("40/60+0.6"), "N/move" for a fixed time per move as cutechess writes it,
// or "-" when only nodes or depth bound the engine.
func pgnTimeControl(l config.Limits) string {
	switch {
	case l.TC != nil:
		return l.TC.String()
	case l.MoveTime > 0:
		return strconv.FormatFloat(l.MoveTime.D().Seconds(), 'f', -1, 64) + "/move"
	}
	return "-"
}

func fmtClock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}
