package table

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func render(t *testing.T, markdown bool, header []string, rows [][]string, right int) string {
	t.Helper()
	var b bytes.Buffer
	if err := Render(&b, markdown, header, rows, right); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The layout byte for byte: the results table's (engine names left,
// numbers right, headers centred), on the terminal and in Markdown, and
// the cases tablewriter, which rendered the tables before, laid out so:
// wide characters, a multi-line cell, a cell's spaces and tab, no rows.
func TestRenderGolden(t *testing.T) {
	header := []string{"Engine", "Games", "Score %"}
	rows := [][]string{{"SF1", "40", "50.0"}, {"No-late_move_pruning", "1000", "7.5"}}
	cases := []struct {
		markdown bool
		header   []string
		rows     [][]string
		right    int
		want     string
	}{
		{false, header, rows, 1, `┌──────────────────────┬───────┬─────────┐
│        Engine        │ Games │ Score % │
├──────────────────────┼───────┼─────────┤
│ SF1                  │    40 │    50.0 │
│ No-late_move_pruning │  1000 │     7.5 │
└──────────────────────┴───────┴─────────┘
`},
		{true, header, rows, 1, `|        Engine        | Games | Score % |
|:---------------------|------:|--------:|
| SF1                  |    40 |    50.0 |
| No-late_move_pruning |  1000 |     7.5 |
`},
		{false, []string{"Rank", "± 95%"}, [][]string{{"中文", "½"}, {" a\tb ", "x\n\nyy"}}, 3, `┌────────┬───────┐
│  Rank  │ ± 95% │
├────────┼───────┤
│ 中文   │ ½     │
│ a    b │ x     │
│        │ yy    │
└────────┴───────┘
`},
		{false, []string{"A", ""}, nil, 0, `┌───┬──┐
│ A │  │
└───┴──┘
`},
		{true, []string{"A", ""}, nil, 0, `| A |   |
|:-:|:-:|
`},
	}
	for _, c := range cases {
		if got := render(t, c.markdown, c.header, c.rows, c.right); got != c.want {
			t.Errorf("markdown %v, header %q, rows %q:\ngot\n%s\nwant\n%s", c.markdown, c.header, c.rows, got, c.want)
		}
	}
}

func TestWidth(t *testing.T) {
	for s, want := range map[string]int{"": 0, "abc": 3, "é": 1, "e\u0301": 1, "中文": 4, "Ａ": 2, "½±": 2,
		"\x1b[31mred\x1b[0m": 3, "a\x00b": 2, "한국": 4, "→": 1} {
		if got := Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}

// Random tables: on the terminal every line is as wide as the others;
// every cell shows in its column, at its edge (left- or right-aligned,
// headers centred); the Markdown rule under the header says each
// column's alignment.
func TestRenderRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	chars := []string{"a", "B", "7", "-", ".", "%", "_", "|", "é", "中", "½", "#"}
	cell := func() string {
		var b strings.Builder
		for range rng.IntN(9) {
			b.WriteString(chars[rng.IntN(len(chars))])
		}
		return b.String()
	}
	for range 2000 {
		cols := 1 + rng.IntN(5)
		header := make([]string, cols)
		for i := range header {
			header[i] = cell()
		}
		rows := make([][]string, 1+rng.IntN(4))
		for i := range rows {
			rows[i] = make([]string, cols)
			for j := range rows[i] {
				rows[i][j] = cell()
			}
		}
		right := rng.IntN(cols + 1)

		box := render(t, false, header, rows, right)
		lines := strings.Split(strings.TrimSuffix(box, "\n"), "\n")
		if len(lines) != len(rows)+4 {
			t.Fatalf("%d lines for %d rows:\n%s", len(lines), len(rows), box)
		}
		for _, l := range lines {
			if Width(l) != Width(lines[0]) {
				t.Fatalf("ragged table:\n%s", box)
			}
		}
		check := func(line string, cells []string, header bool) {
			got := strings.Split(line, "│")
			got = got[1 : len(got)-1]
			for i, c := range cells {
				g := got[i]
				if strings.TrimSpace(g) != c || !strings.HasPrefix(g, " ") || !strings.HasSuffix(g, " ") {
					t.Fatalf("cell %q shows as %q:\n%s", c, g, box)
				}
				left := len(g) - len(strings.TrimLeft(g, " "))
				rightPad := len(g) - len(strings.TrimRight(g, " "))
				switch {
				case c == "":
				case header && (left-rightPad < -1 || left-rightPad > 0):
					t.Fatalf("header %q not centred in %q:\n%s", c, g, box)
				case !header && i >= right && rightPad != 1:
					t.Fatalf("cell %q not right-aligned in %q:\n%s", c, g, box)
				case !header && i < right && left != 1:
					t.Fatalf("cell %q not left-aligned in %q:\n%s", c, g, box)
				}
			}
		}
		check(lines[1], header, true)
		for i, r := range rows {
			check(lines[3+i], r, false)
		}

		md := render(t, true, header, rows, right)
		mdLines := strings.Split(strings.TrimSuffix(md, "\n"), "\n")
		rule := strings.Split(mdLines[1], "|")
		rule = rule[1 : len(rule)-1]
		for i, r := range rule {
			if want := i >= right; strings.HasSuffix(r, "-:") != want || strings.HasPrefix(r, ":-") == want {
				t.Fatalf("column %d (right from %d) has rule %q:\n%s", i, right, r, md)
			}
		}
	}
}

// The tables in the summary.md files committed under results/ re-render
// byte for byte from their cells and alignment: the files a run writes
// keep their form.
func TestRenderCommittedTables(t *testing.T) {
	tables := 0
	err := filepath.WalkDir("../../results", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(path) != "summary.md" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lines := strings.SplitAfter(string(data), "\n")
		cells := func(l string) []string {
			p := strings.Split(strings.TrimSuffix(l, "\n"), "|")
			p = p[1 : len(p)-1]
			for k := range p {
				p[k] = strings.TrimSpace(p[k])
			}
			return p
		}
		for i := 0; i < len(lines); i++ {
			if !strings.HasPrefix(lines[i], "|") {
				continue
			}
			j := i
			for j < len(lines) && strings.HasPrefix(lines[j], "|") {
				j++
			}
			header, rule := cells(lines[i]), cells(lines[i+1])
			if strings.Trim(lines[i+1], "|-\n") == "" {
				// The games table ("|---|---|"), which GameLines writes
				// a row at a time, not through Render.
				i = j
				continue
			}
			right := len(rule)
			for k, r := range rule {
				if strings.HasSuffix(r, "-:") {
					right = k
					break
				}
			}
			var rows [][]string
			for _, l := range lines[i+2 : j] {
				rows = append(rows, cells(l))
			}
			want := strings.Join(lines[i:j], "")
			if got := render(t, true, header, rows, right); got != want {
				t.Errorf("%s, line %d:\ncommitted\n%s\nre-rendered\n%s", path, i+1, want, got)
			}
			tables++
			i = j
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if tables < 60 {
		t.Fatalf("only %d tables found under results/", tables)
	}
	t.Logf("%d tables", tables)
}
