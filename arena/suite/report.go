package suite

import (
	"encoding/csv"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"arena/internal/atomicfile"
)

// Tally is a column's score over a set of positions.
type Tally struct {
	Positions, Done, Solved, Errors int
	Points, Max                     int
	Time                            time.Duration
	Nodes                           int64
}

func (t *Tally) add(p *Position, r Result) {
	t.Positions++
	t.Max += p.Max
	if !r.Done {
		return
	}
	t.Done++
	t.Points += r.Points
	t.Time += r.Time
	t.Nodes += r.Nodes
	if r.Solved {
		t.Solved++
	}
	if r.Err != "" {
		t.Errors++
	}
}

// Theme is one theme's tallies, one per column.
type Theme struct {
	Name    string
	Tallies []Tally
}

var versionTag = regexp.MustCompile(`^\S*\([^)]*\)\s`)

// themeKey groups ids that begin with the same version tag ("STS(v3.0) ")
// whatever follows it.
func themeKey(name string) string {
	if m := versionTag.FindString(name); m != "" {
		return m
	}
	return name
}

// Tallies sums the results per theme (in the order themes first appear)
// and in total.
func Tallies(positions []*Position, results [][]Result) (themes []Theme, total []Tally) {
	index := map[string]int{}
	total = make([]Tally, len(results))
	for i, p := range positions {
		k := themeKey(p.Theme)
		t, ok := index[k]
		if !ok {
			t = len(themes)
			index[k] = t
			themes = append(themes, Theme{Name: p.Theme, Tallies: make([]Tally, len(results))})
		}
		for c := range results {
			themes[t].Tallies[c].add(p, results[c][i])
			total[c].add(p, results[c][i])
		}
	}
	return themes, total
}

// WriteTable writes the per-theme and total scores as a Markdown table,
// one column per engine and limits, then one line per column with its
// speed.
func WriteTable(w io.Writer, cols []Column, positions []*Position, results [][]Result) {
	themes, total := Tallies(positions, results)
	header := []string{"theme", "positions", "max"}
	for _, c := range cols {
		header = append(header, c.Label)
	}
	rows := [][]string{header}
	row := func(name string, ts []Tally) []string {
		r := []string{name, strconv.Itoa(ts[0].Positions), strconv.Itoa(ts[0].Max)}
		for _, t := range ts {
			cell := fmt.Sprintf("%d (%d)", t.Points, t.Solved)
			if t.Done < t.Positions {
				cell += fmt.Sprintf(" [%d run]", t.Done)
			}
			r = append(r, cell)
		}
		return r
	}
	for _, th := range themes {
		rows = append(rows, row(th.Name, th.Tallies))
	}
	rows = append(rows, row("total", total))
	fmt.Fprintln(w, "points (positions solved) per theme:")
	writeMarkdown(w, rows)
	fmt.Fprintln(w)
	for c, col := range cols {
		t := total[c]
		pct := 0.0
		if t.Max > 0 {
			pct = 100 * float64(t.Points) / float64(t.Max)
		}
		fmt.Fprintf(w, "%s: %d/%d points (%.1f%%), %d/%d solved", col.Label, t.Points, t.Max, pct, t.Solved, t.Positions)
		if t.Done > 0 {
			fmt.Fprintf(w, ", %.0f ms and %.0f nodes a position", float64(t.Time.Milliseconds())/float64(t.Done), float64(t.Nodes)/float64(t.Done))
			if t.Time > 0 {
				fmt.Fprintf(w, " (%.0f nodes/s)", float64(t.Nodes)/t.Time.Seconds())
			}
		}
		if t.Errors > 0 {
			fmt.Fprintf(w, ", %d errors (see the CSV)", t.Errors)
		}
		if t.Done < t.Positions {
			fmt.Fprintf(w, ", only %d of %d positions run", t.Done, t.Positions)
		}
		fmt.Fprintln(w)
	}
}

func writeMarkdown(w io.Writer, rows [][]string) {
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	for n, r := range rows {
		for i, c := range r {
			if i == 0 {
				fmt.Fprintf(w, "| %-*s ", width[i], c)
			} else {
				fmt.Fprintf(w, "| %*s ", width[i], c)
			}
		}
		fmt.Fprintln(w, "|")
		if n == 0 {
			for i := range r {
				if i == 0 {
					fmt.Fprintf(w, "|%s", strings.Repeat("-", width[i]+2))
				} else {
					fmt.Fprintf(w, "|%s:", strings.Repeat("-", width[i]+1))
				}
			}
			fmt.Fprintln(w, "|")
		}
	}
}

var csvHeader = []string{"engine", "limits", "file", "line", "id", "theme", "fen", "move", "san", "points", "max", "solved",
	"bm", "am", "c0", "time_ms", "nodes", "depth", "score", "error"}

// WriteCSV writes one row per column and position searched to path,
// atomically.
func WriteCSV(path string, cols []Column, positions []*Position, results [][]Result) error {
	err := atomicfile.Write(path, func(f io.Writer) error {
		w := csv.NewWriter(f)
		w.Write(csvHeader)
		for c, col := range cols {
			for i, p := range positions {
				if r := results[c][i]; r.Done {
					w.Write(csvRow(col, p, r))
				}
			}
		}
		w.Flush()
		return w.Error()
	})
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func csvRow(col Column, p *Position, r Result) []string {
	score := ""
	if r.Move != "" {
		score = r.Score.String()
	}
	return []string{col.Engine.Name, DescribeLimits(col.Limits), p.File, strconv.Itoa(p.Line), p.ID, p.Theme, p.FEN,
		r.Move, r.SAN, strconv.Itoa(r.Points), strconv.Itoa(p.Max), strconv.FormatBool(r.Solved),
		p.BM, p.AM, p.C0, strconv.FormatInt(r.Time.Milliseconds(), 10), strconv.FormatInt(r.Nodes, 10),
		strconv.Itoa(r.Depth), score, r.Err}
}
