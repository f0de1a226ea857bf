// Package termfit makes console output fit a terminal's width: a line made
// of parts drops its least important parts first, a table drops whole
// columns in a given order, and any other line is wrapped at spaces. A
// terminal line wider than the terminal wraps, and a live line rewritten
// with "\r" then leaves a stale row behind at every update; so every line
// meant for a terminal goes through here. Width counts runes (what the
// arena prints is ASCII plus engine names; East Asian wide characters
// would count as one column and are not handled). Width 0 means no limit:
// files and pipes get the full lines.
package termfit

import (
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Width is the number of columns s takes.
func Width(s string) int { return utf8.RuneCountInString(s) }

// Cut cuts s to at most width columns (no limit when width is 0).
func Cut(s string, width int) string {
	if width <= 0 || Width(s) <= width {
		return s
	}
	return string([]rune(s)[:width])
}

// Abbrev shortens a name to at most n columns, keeping its start and its
// end, which tell engines apart more often than the middle ("Stockfish
// Skill 0" and "Stockfish Skill 5" both end in their level): "Stockf~l 0".
func Abbrev(name string, n int) string {
	r := []rune(name)
	if n <= 0 || len(r) <= n {
		return name
	}
	if n < 4 {
		return string(r[:n])
	}
	tail := (n - 1) / 3
	return string(r[:n-1-tail]) + "~" + string(r[len(r)-tail:])
}

// Part is a piece of a line. Parts with a higher Drop go first when the
// line is too wide; Drop 0 is never dropped (the line is cut instead).
type Part struct {
	Text string
	Drop int
}

// Line joins the non-empty parts with sep, dropping parts (highest Drop
// first, the later part first among equals) until the line fits in width
// columns, and cuts it if even the parts that are never dropped do not.
func Line(parts []Part, sep string, width int) string {
	keep := slices.Clone(parts)
	for {
		var texts []string
		for _, p := range keep {
			if p.Text != "" {
				texts = append(texts, p.Text)
			}
		}
		line := strings.Join(texts, sep)
		if width <= 0 || Width(line) <= width {
			return line
		}
		worst := -1
		for i, p := range keep {
			if p.Text != "" && p.Drop > 0 && (worst < 0 || p.Drop >= keep[worst].Drop) {
				worst = i
			}
		}
		if worst < 0 {
			return Cut(line, width)
		}
		keep[worst].Text = ""
	}
}

// Wrap breaks every line of text wider than width at spaces, continuing
// it on the next line indented by two spaces; a word longer than a line
// is cut into pieces. Width 0 returns text unchanged.
func Wrap(text string, width int) string {
	if width <= 0 {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for _, line := range lines {
		body := strings.TrimSuffix(line, "\n")
		nl := line[len(body):]
		if Width(body) <= width {
			b.WriteString(line)
			continue
		}
		col := 0
		for i, word := range strings.Split(body, " ") {
			w := Width(word)
			if i > 0 && col+1+w <= width {
				b.WriteByte(' ')
				b.WriteString(word)
				col += 1 + w
				continue
			}
			if i > 0 {
				b.WriteString("\n  ")
				col = 2
			}
			for col+w > width && width > col {
				r := []rune(word)
				n := width - col
				b.WriteString(string(r[:n]))
				b.WriteString("\n  ")
				word, w, col = string(r[n:]), w-n, 2
			}
			b.WriteString(word)
			col += w
		}
		b.WriteString(nl)
	}
	return b.String()
}

// Table renders a table with render and fits it in width columns: it
// first shortens the names in column nameCol to nameWidth, then drops
// columns in the order drop lists (indices into header) until the widest
// line fits; if it still does not, its lines are wrapped. Width 0 renders
// it whole.
func Table(header []string, rows [][]string, width, nameCol, nameWidth int, drop []int, render func(header []string, rows [][]string) string) string {
	out := render(header, rows)
	if width <= 0 || Widest(out) <= width {
		return out
	}
	rows = slices.Clone(rows)
	for i, r := range rows {
		rows[i] = slices.Clone(r)
		rows[i][nameCol] = Abbrev(r[nameCol], nameWidth)
	}
	cols := make([]int, len(header))
	for i := range cols {
		cols[i] = i
	}
	for _, d := range append([]int{-1}, drop...) {
		if d >= 0 {
			cols = slices.DeleteFunc(cols, func(c int) bool { return c == d })
		}
		h := pick(header, cols)
		var rs [][]string
		for _, r := range rows {
			rs = append(rs, pick(r, cols))
		}
		if out = render(h, rs); Widest(out) <= width {
			return out
		}
	}
	return Wrap(out, width)
}

func pick(cells []string, cols []int) []string {
	out := make([]string, 0, len(cols))
	for _, c := range cols {
		if c < len(cells) {
			out = append(out, cells[c])
		}
	}
	return out
}

// Widest is the width of the widest line of text.
func Widest(text string) int {
	w := 0
	for line := range strings.SplitSeq(text, "\n") {
		w = max(w, Width(line))
	}
	return w
}

// Writer passes what is written to it to a terminal of width columns so
// that no row is wider: complete lines are wrapped (Wrap), a line still
// being written is cut at the terminal's edge. "\r" starts the row again
// (a live line rewritten in place) and escape sequences ("\033[K") take no
// column.
type Writer struct {
	w     io.Writer
	width int
	col   int // columns taken on the current row
}

// NewWriter returns a Writer to w for a terminal of width columns (0:
// no limit).
func NewWriter(w io.Writer, width int) *Writer { return &Writer{w: w, width: width} }

// Width is the terminal's width the Writer fits to.
func (t *Writer) Width() int { return t.width }

func (t *Writer) Write(p []byte) (int, error) {
	var out strings.Builder
	s := string(p)
	for s != "" {
		line, rest, nl := strings.Cut(s, "\n")
		out.WriteString(t.fit(line))
		if nl {
			out.WriteByte('\n')
			t.col = 0
		}
		s = rest
	}
	if _, err := io.WriteString(t.w, out.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// fit fits one row's text, which starts at column t.col.
func (t *Writer) fit(s string) string {
	if t.width <= 0 {
		return s
	}
	segs := strings.Split(s, "\r")
	for i, seg := range segs {
		if i > 0 {
			t.col = 0
		}
		vis := visible(seg)
		switch {
		case t.col+vis <= t.width:
			t.col += vis
		case t.col == 0 && vis == Width(seg):
			segs[i] = Wrap(seg, t.width)
			t.col = Width(segs[i][strings.LastIndexByte(segs[i], '\n')+1:])
		default:
			segs[i] = cutVisible(seg, t.width-t.col)
			t.col = t.width
		}
	}
	return strings.Join(segs, "\r")
}

// visible is the columns s takes on screen: escape sequences ("\033[" up
// to a letter) take none.
func visible(s string) int { return Width(escapes.ReplaceAllString(s, "")) }

var escapes = regexp.MustCompile("\033\\[[0-9;?]*[A-Za-z]")

// cutVisible cuts s to n visible columns, keeping its escape sequences.
func cutVisible(s string, n int) string {
	var b strings.Builder
	for s != "" {
		if loc := escapes.FindStringIndex(s); loc != nil && loc[0] == 0 {
			b.WriteString(s[:loc[1]])
			s = s[loc[1]:]
			continue
		}
		r, size := utf8.DecodeRuneInString(s)
		if n > 0 {
			b.WriteRune(r)
			n--
		}
		s = s[size:]
	}
	return b.String()
}
