package termfit

import (
	"bytes"
	"strings"
	"testing"
)

func TestAbbrev(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Stockfish", 12, "Stockfish"},
		{"Stockfish Skill Level 0", 10, "Stockf~l 0"},
		{"Ünïcode engine", 6, "Ünïc~e"},
		{"abcdef", 3, "abc"},
		{"abcdef", 0, "abcdef"},
	} {
		if got := Abbrev(c.in, c.n); got != c.want {
			t.Errorf("Abbrev(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// Parts go highest Drop first, the later among equals; Drop 0 parts stay
// and are cut when they alone are too wide.
func TestLine(t *testing.T) {
	parts := []Part{{Text: "games 3/4"}, {Text: "rate", Drop: 2}, {Text: "elo", Drop: 1}, {Text: "elapsed", Drop: 2}, {Text: "ETA 5s"}}
	for _, c := range []struct {
		width int
		want  string
	}{
		{0, "games 3/4 | rate | elo | elapsed | ETA 5s"},
		{40, "games 3/4 | rate | elo | ETA 5s"},
		{31, "games 3/4 | rate | elo | ETA 5s"},
		{30, "games 3/4 | elo | ETA 5s"},
		{20, "games 3/4 | ETA 5s"},
		{10, "games 3/4 "},
	} {
		if got := Line(parts, " | ", c.width); got != c.want {
			t.Errorf("width %d: %q, want %q", c.width, got, c.want)
		}
	}
}

func TestWrap(t *testing.T) {
	got := Wrap("short\nA vs B: +3 -1 =2, Elo +88.7 [-39.4, +248.7]\nabcdefghijklmnopqrstuvwxyz\n", 16)
	want := "short\nA vs B: +3 -1\n  =2, Elo +88.7\n  [-39.4,\n  +248.7]\nabcdefghijklmnop\n  qrstuvwxyz\n"
	if got != want {
		t.Errorf("Wrap:\n%s\nwant\n%s", got, want)
	}
	for line := range strings.SplitSeq(got, "\n") {
		if Width(line) > 16 {
			t.Errorf("line of %d columns: %q", Width(line), line)
		}
	}
}

// Table shortens names first, then drops columns in the given order.
func TestTable(t *testing.T) {
	render := func(h []string, rows [][]string) string {
		var b strings.Builder
		for _, r := range append([][]string{h}, rows...) {
			b.WriteString(strings.Join(r, " ") + "\n")
		}
		return b.String()
	}
	h := []string{"Engine", "Games", "Score", "Nodes"}
	rows := [][]string{{"A long engine name", "10", "55.0", "123456"}}
	if got := Table(h, rows, 0, 0, 8, []int{3, 1}, render); got != "Engine Games Score Nodes\nA long engine name 10 55.0 123456\n" {
		t.Errorf("no width: %q", got)
	}
	if got := Table(h, rows, 30, 0, 8, []int{3, 1}, render); got != "Engine Games Score Nodes\nA lon~me 10 55.0 123456\n" {
		t.Errorf("width 30: %q", got)
	}
	if got := Table(h, rows, 20, 0, 8, []int{3, 1}, render); got != "Engine Games Score\nA lon~me 10 55.0\n" {
		t.Errorf("width 20: %q", got)
	}
	if got := Table(h, rows, 15, 0, 8, []int{3, 1}, render); got != "Engine Score\nA lon~me 55.0\n" {
		t.Errorf("width 15: %q", got)
	}
}

// The Writer wraps complete lines, cuts a line rewritten with \r and
// counts no column for escape sequences.
func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b, 10)
	for _, s := range []string{"one two three four\n", "\r\033[K0123456789abc", "\r\033[Kshort", "\r\033[K", "ab", "cdefghijkl\n"} {
		if _, err := w.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	want := "one two\n  three\n  four\n\r\033[K0123456789\r\033[Kshort\r\033[Kab" + "cdefghij\n"
	if got := b.String(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
