package output

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// renderSimple writes the bytes tablewriter writes for every table it
// takes (random ones, and the results table of a run), and leaves the
// others to tablewriter.
func TestRenderSimpleIsTablewriters(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	plain := []string{"a", "B", "7", " ", "-", "+", ".", "%", "(", ")", "=", "/", ":", ",", "~", "'", "\"", "!", "?", "@", "$", "^", "{", "}", ";"}
	special := []string{"é", "|", "\t", "中", "_", "*", "\n", "`", "<", "&", "#", "\\", "[", "\x1b[31m"}
	cell := func(maxLen int) string {
		var b strings.Builder
		for range rng.IntN(maxLen + 1) {
			if rng.IntN(40) == 0 {
				b.WriteString(special[rng.IntN(len(special))])
			} else {
				b.WriteString(plain[rng.IntN(len(plain))])
			}
		}
		return b.String()
	}
	tables := []struct {
		header []string
		rows   [][]string
	}{
		{tableHeader, [][]string{{"SF1", "40", "16", "8", "16", "50.0", "0.002", "0.001", "999", "1003", "7.4", "134.8", "-", "-"},
			{"SF2", "40", "16", "8", "16", "50.0", "0.002", "0.001", "999", "1003", "7.4", "134.9", "-", "-"}}},
		{[]string{"a", "long header", "c"}, [][]string{{"x", "", "zzzzzzzzzzzz"}}},
		{[]string{"a", "b"}, nil},
	}
	for range 3000 {
		cols := 1 + rng.IntN(5)
		h := make([]string, cols)
		for i := range h {
			h[i] = cell(8)
		}
		rows := make([][]string, rng.IntN(4))
		for i := range rows {
			rows[i] = make([]string, cols)
			for j := range rows[i] {
				rows[i][j] = cell(10)
			}
		}
		tables = append(tables, struct {
			header []string
			rows   [][]string
		}{h, rows})
	}
	simple := 0
	for _, tc := range tables {
		for _, markdown := range []bool{false, true} {
			for right := range len(tc.header) + 1 {
				var got bytes.Buffer
				ok, err := renderSimple(&got, markdown, tc.header, tc.rows, right)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					continue
				}
				simple++
				var want bytes.Buffer
				if err := renderTablewriter(&want, markdown, tc.header, tc.rows, right); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Fatalf("markdown %v, right from %d, header %q, rows %q:\nrenderSimple:\n%s\ntablewriter:\n%s", markdown, right, tc.header, tc.rows, got.String(), want.String())
				}
			}
		}
	}
	t.Logf("%d tables compared", simple)
	if simple < 1000 {
		t.Fatalf("only %d tables rendered by renderSimple: the test compares too few", simple)
	}
}
