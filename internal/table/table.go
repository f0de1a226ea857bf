// Package table renders the project's text tables: boxed in box-drawing
// characters for the terminal, or in Markdown (summary.md, the reports).
//
// It replaced github.com/olekukonko/tablewriter, which rendered them
// before and whose layout it keeps byte for byte, so the summary.md files
// committed under results/ re-render unchanged: tablewriter built a 400 KB
// cache for every table it made (13% of a run's allocation in games of a
// few milliseconds a move), and linking it cost every arena process
// 0.7 MB of heap at start-up (its display-width tables) and the pages of
// its code (docs/reference.md, "The arena's own cost, beside fastchess").
//
// The layout: every cell is padded with one space on each side; header
// cells are centred, body cells left-aligned up to column rightFrom and
// right-aligned from there. A cell's spaces at either end are trimmed, a
// tab is four spaces, and a line break starts a new line inside the cell
// (the row's other cells are blank there). Widths are display columns: an
// East Asian wide or fullwidth character takes two, a combining mark, a
// format character and a terminal escape sequence none. A row shorter
// than the widest row or the header is filled with empty cells. In
// Markdown, the rule under the header marks each column's alignment
// (":---" or "---:"); a table without rows has no rule under the header
// on the terminal, and a centred one (":-:") in Markdown.
package table

import (
	"bufio"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Render writes the table with header and rows to w; columns from
// rightFrom on are right-aligned.
func Render(w io.Writer, markdown bool, header []string, rows [][]string, rightFrom int) error {
	n, body := len(header), 0
	for _, r := range rows {
		n = max(n, len(r))
		if len(r) > 0 {
			body++
		}
	}
	if n == 0 {
		return nil
	}
	widths := make([]int, n)
	if markdown {
		for i := range widths {
			widths[i] = 1 // an empty column is as wide as one character
		}
	}
	// lines splits a row's cells into their lines, trimmed, and widens
	// the columns to them. A cell of one plain line, the common case,
	// allocates nothing.
	lines := func(cells []string, header, grow bool) [][]string {
		out := make([][]string, n)
		for i := range n {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			c = strings.TrimSpace(c)
			if strings.ContainsAny(c, "\n\t") {
				c = strings.ReplaceAll(c, "\t", "    ")
				out[i] = strings.Split(c, "\n")
				if !header { // a body cell's empty lines are dropped
					out[i] = slices.DeleteFunc(out[i], func(l string) bool { return l == "" })
				}
			} else {
				out[i] = []string{c}
			}
			if grow {
				for _, l := range out[i] {
					widths[i] = max(widths[i], Width(l))
				}
			}
		}
		return out
	}
	lines(header, true, true)
	for _, r := range rows {
		lines(r, false, true)
	}

	// Written as it is rendered: a table of a run's games grows with the
	// games, and a string of it all would too (TestMergeMemoryFlat).
	b := bufio.NewWriter(w)
	align := func(i int) byte {
		if i >= rightFrom {
			return 'r'
		}
		return 'l'
	}
	pad := func(s string, w int, align byte) {
		extra := w - Width(s)
		left := 0
		switch align {
		case 'r':
			left = extra
		case 'c':
			left = extra / 2
		}
		spaces(b, left+1)
		b.WriteString(s)
		spaces(b, extra-left+1)
	}
	rule := func(l, m, r string) {
		b.WriteString(l)
		for i, w := range widths {
			if i > 0 {
				b.WriteString(m)
			}
			for range w + 2 {
				b.WriteString("─")
			}
		}
		b.WriteString(r)
		b.WriteByte('\n')
	}
	bar := "│"
	if markdown {
		bar = "|"
	} else {
		rule("┌", "┬", "┐")
	}
	row := func(cells []string, header bool) {
		ls := lines(cells, header, false)
		height := 0
		for _, l := range ls {
			height = max(height, len(l))
		}
		for k := range height {
			for i, l := range ls {
				b.WriteString(bar)
				a := align(i)
				if header {
					a = 'c'
				}
				c := ""
				if k < len(l) {
					c = l[k]
				}
				pad(c, widths[i], a)
			}
			b.WriteString(bar)
			b.WriteByte('\n')
		}
	}
	row(header, true)
	switch {
	case markdown:
		for i, w := range widths {
			b.WriteByte('|')
			switch {
			case body == 0:
				b.WriteByte(':')
				b.WriteString(strings.Repeat("-", w))
				b.WriteByte(':')
			case align(i) == 'r':
				b.WriteString(strings.Repeat("-", w+1))
				b.WriteByte(':')
			default:
				b.WriteByte(':')
				b.WriteString(strings.Repeat("-", w+1))
			}
		}
		b.WriteString("|\n")
	case body > 0:
		rule("├", "┼", "┤")
	}
	for _, r := range rows {
		if len(r) > 0 { // a row of no cells is no line
			row(r, false)
		}
	}
	if !markdown {
		rule("└", "┴", "┘")
	}
	return b.Flush()
}

func spaces(b *bufio.Writer, n int) {
	for range n {
		b.WriteByte(' ')
	}
}

// Width is the columns s takes on a terminal: two for an East Asian wide
// or fullwidth character, none for a combining mark, a format or control
// character or an escape sequence ("\033[31m"), one for anything else.
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= ' ' && c <= '~' { // ASCII, the common case
			n++
			i++
			continue
		}
		if c == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			// A CSI sequence: parameters and intermediates, then a
			// final byte in @ to ~.
			i += 2
			for i < len(s) && (s[i] < '@' || s[i] > '~') {
				i++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case r < ' ' || r == 0x7f || unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Cc):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}
