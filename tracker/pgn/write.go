package pgn

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// LineWidth is where movetext lines are wrapped (PGN export format asks for
// lines under 80 characters).
const LineWidth = 79

// Tag is one tag pair of a game to write.
type Tag struct{ Name, Value string }

// Move is one move of a game to write: its SAN and a comment (none when
// empty).
type Move struct{ SAN, Comment string }

// Export is one game to write in PGN export format.
type Export struct {
	Tags []Tag // in the order written; values are escaped by Write
	// FEN is the start position (its side to move and move number number
	// the movetext); empty for the standard start.
	FEN    string
	Moves  []Move
	Final  string // a comment after the last move (why the game ended); none when empty
	Result string // the game termination marker
}

// Write writes g in PGN export format, movetext wrapped at LineWidth, so
// that Read reads it back.
func Write(w io.Writer, g Export) error {
	var b strings.Builder
	for _, t := range g.Tags {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", t.Name, tagValue(t.Value))
	}
	b.WriteString("\n")
	line := 0
	for i, t := range movetext(g) {
		if i > 0 {
			if line+1+len(t) > LineWidth {
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

// movetext is g's movetext as tokens: move numbers (N... for a game that
// starts with Black to move), moves, comments and the result.
func movetext(g Export) []string {
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
		tokens = append(tokens, m.SAN)
		if m.Comment != "" {
			tokens = append(tokens, comment(m.Comment))
		}
	}
	if g.Final != "" {
		tokens = append(tokens, comment(g.Final))
	}
	return append(tokens, g.Result)
}

// comment is a brace comment; a "}" inside would end it early, so it becomes
// ")".
func comment(s string) string { return "{" + strings.ReplaceAll(s, "}", ")") + "}" }

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
