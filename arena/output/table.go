package output

import (
	"bufio"
	"io"
	"strings"
)

// renderSimple renders what RenderTable renders through tablewriter, for
// the tables the arena writes in a run (summary.md after every game, at
// most once a second, and the results at the end): tablewriter allocates
// a 400 KB cache for every table it makes: 13% of a run's allocation in
// games of a few milliseconds a move, and 2.4% of its CPU. It covers only tables whose every cell is printable
// ASCII without a Markdown special character, leading or trailing
// spaces, and rows as long as the header, where a character is a column
// of the terminal; it reports false for any other table, which
// tablewriter then renders. TestRenderSimpleIsTablewriters holds the two
// to the same bytes.
func renderSimple(w io.Writer, markdown bool, header []string, rows [][]string, rightFromCol int) (bool, error) {
	n := len(header)
	if n == 0 || len(rows) == 0 {
		return false, nil
	}
	width := make([]int, n)
	for i, h := range header {
		if !simpleCell(h) || h == "" {
			return false, nil
		}
		width[i] = len(h)
	}
	for _, r := range rows {
		if len(r) != n {
			return false, nil
		}
		for i, c := range r {
			if !simpleCell(c) {
				return false, nil
			}
			width[i] = max(width[i], len(c))
		}
	}
	// Written as it is rendered: a table of a run's games grows with the
	// games, and a string of it all would too (TestMergeMemoryFlat).
	b := bufio.NewWriter(w)
	pad := func(s string, w int, align byte) {
		extra := w - len(s)
		left := 0
		switch align {
		case 'r':
			left = extra
		case 'c':
			left = extra / 2
		}
		b.WriteString(strings.Repeat(" ", left+1))
		b.WriteString(s)
		b.WriteString(strings.Repeat(" ", extra-left+1))
	}
	align := func(i int) byte {
		if i >= rightFromCol {
			return 'r'
		}
		return 'l'
	}
	bar, rule := "│", func(l, m, r string) {
		b.WriteString(l)
		for i, w := range width {
			if i > 0 {
				b.WriteString(m)
			}
			b.WriteString(strings.Repeat("─", w+2))
		}
		b.WriteString(r)
		b.WriteByte('\n')
	}
	if markdown {
		bar = "|"
	} else {
		rule("┌", "┬", "┐")
	}
	line := func(cells []string, header bool) {
		for i, c := range cells {
			b.WriteString(bar)
			a := align(i)
			if header {
				a = 'c'
			}
			pad(c, width[i], a)
		}
		b.WriteString(bar)
		b.WriteByte('\n')
	}
	line(header, true)
	if markdown {
		for i, w := range width {
			b.WriteByte('|')
			if align(i) == 'r' {
				b.WriteString(strings.Repeat("-", w+1))
				b.WriteByte(':')
			} else {
				b.WriteByte(':')
				b.WriteString(strings.Repeat("-", w+1))
			}
		}
		b.WriteString("|\n")
	} else {
		rule("├", "┼", "┤")
	}
	for _, r := range rows {
		line(r, false)
	}
	if !markdown {
		rule("└", "┴", "┘")
	}
	return true, b.Flush()
}

// simpleCell reports whether renderSimple renders s as tablewriter does:
// printable ASCII, no Markdown or escape character, no space at either
// end.
func simpleCell(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c > '~' || strings.IndexByte("|\\`*_[]<>&#", c) >= 0 {
			return false
		}
	}
	return s == "" || (s[0] != ' ' && s[len(s)-1] != ' ')
}
