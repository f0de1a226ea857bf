package arena

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"arena/arena/config"
)

// pgnLineWidth is where movetext lines are wrapped (PGN export format asks
// for lines under 80 characters).
const pgnLineWidth = 79

// WritePGN writes one game in PGN export format: the Seven Tag Roster, then
// SetUp/FEN for a game from an opening position, PlyCount, Termination and
// the time control; per-move comments in the cutechess style
// "{+0.32/12 0.51s n=12345 mem=35MB cpl=12}" (score from the mover's side /
// depth, wall time, nodes, the engine process's peak RSS, the judge's
// centipawn loss); and the
// reason the game ended as a comment before the result.
func WritePGN(w io.Writer, cfg *config.Config, g *GameRecord) error {
	var b strings.Builder
	tag := func(k, v string) { fmt.Fprintf(&b, "[%s \"%s\"]\n", k, tagValue(v)) }
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
	b.WriteString("\n")

	moveNo, blackFirst := 1, false
	if g.FEN != "" {
		f := strings.Fields(g.FEN)
		blackFirst = len(f) > 1 && f[1] == "b"
		if len(f) > 5 {
			if n, err := strconv.Atoi(f[5]); err == nil && n > 0 {
				moveNo = n
			}
		}
	}
	var tokens []string
	for i, m := range g.Moves {
		black := (i%2 == 1) != blackFirst
		switch {
		case !black:
			tokens = append(tokens, fmt.Sprintf("%d.", moveNo))
		case i == 0:
			tokens = append(tokens, fmt.Sprintf("%d...", moveNo))
		}
		if black {
			moveNo++
		}
		tokens = append(tokens, m.SAN, "{"+moveComment(m)+"}")
	}
	if g.Reason != "" {
		tokens = append(tokens, "{"+strings.ReplaceAll(g.Reason, "}", ")")+"}")
	}
	tokens = append(tokens, g.Result)
	line := 0
	for i, t := range tokens {
		if i > 0 {
			if line+1+len(t) > pgnLineWidth {
				b.WriteString("\n")
				line = 0
			} else {
				b.WriteString(" ")
				line++
			}
		}
		b.WriteString(t)
		line += len(t)
	}
	b.WriteString("\n\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// moveComment is the cutechess-style annotation of one move.
func moveComment(m MoveRecord) string {
	score := fmt.Sprintf("%+.2f", float64(m.ScoreCP)/100)
	if m.Mate > 0 {
		score = fmt.Sprintf("+M%d", m.Mate)
	} else if m.Mate < 0 {
		score = fmt.Sprintf("-M%d", -m.Mate)
	}
	s := fmt.Sprintf("%s/%d %.2fs n=%d mem=%.0fMB", score, m.Depth, m.Time, m.Nodes, m.PeakMB)
	if m.CPL != nil {
		s += fmt.Sprintf(" cpl=%d", *m.CPL)
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

// tagValue escapes a PGN tag value: quotes and backslashes as the standard
// says, and control characters (a newline in a match or engine name would
// end the tag and start a line a reader takes for movetext) as spaces.
func tagValue(v string) string {
	v = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, v)
	return strings.ReplaceAll(strings.ReplaceAll(v, `\`, `\\`), `"`, `\"`)
}
