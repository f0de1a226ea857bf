package output

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"arena/arena/config"
	"arena/arena/record"
	"arena/internal/atomicfile"
	"arena/internal/table"
	"arena/internal/termfit"
	"arena/tracker"
)

// WriteSummaryFiles replaces dir's summary.json and summary.md: the
// aggregates of s followed by the games of lines.
func WriteSummaryFiles(dir string, cfg *config.Config, s *record.Summary, lines *GameLines) error {
	err := atomicfile.Write(filepath.Join(dir, SummaryJSON), func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := writeJSON(bw, s, lines); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("write %s: %w", SummaryJSON, err)
	}
	err = atomicfile.Write(filepath.Join(dir, SummaryMD), func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := writeMarkdown(bw, s, cfg, lines); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("write %s: %w", SummaryMD, err)
	}
	return nil
}

// writeJSON writes summary.json: s marshalled with its games array (the
// last field) taken from lines, byte for byte what marshalling s with
// those games in s.Games would give.
func writeJSON(w io.Writer, s *record.Summary, lines *GameLines) error {
	head := *s
	head.Games = []record.GameSummary{}
	b, err := json.MarshalIndent(&head, "", "  ")
	if err != nil {
		return err
	}
	const noGames = "[]\n}"
	if !bytes.HasSuffix(b, []byte(noGames)) {
		return fmt.Errorf("%s: the games are not the summary's last field", SummaryJSON)
	}
	if lines.Len() == 0 {
		_, err := w.Write(append(b, '\n'))
		return err
	}
	if _, err := w.Write(append(b[:len(b)-len(noGames)], "[\n"...)); err != nil {
		return err
	}
	if err := lines.copyJSON(w); err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n  ]\n}\n")
	return err
}

var tableHeader = []string{"Engine", "Games", "Wins", "Draws", "Losses", "Score %", "Avg Time (s)", "Median Time (s)",
	"Avg Nodes", "Median Nodes", "Avg Depth", "Avg RAM (MB)", "Avg ACPL", "Accuracy"}

func tableRows(s *record.Summary) [][]string {
	var rows [][]string
	for _, e := range s.Engines {
		rows = append(rows, []string{
			e.Name, fmt.Sprint(e.Games), fmt.Sprint(e.Wins), fmt.Sprint(e.Draws), fmt.Sprint(e.Losses),
			fmt.Sprintf("%.1f", e.ScorePct), fmt.Sprintf("%.3f", e.AvgTime), fmt.Sprintf("%.3f", e.MedianTime),
			fmt.Sprintf("%.0f", e.AvgNodes), fmt.Sprintf("%.0f", e.MedianNodes),
			fmt.Sprintf("%.1f", e.AvgDepth), fmt.Sprintf("%.1f", e.AvgRAMMB), FormatOpt(e.ACPL, "%.1f"), FormatOpt(e.Accuracy, "%.1f"),
		})
	}
	return rows
}

// FormatOpt formats an optional value, "-" when absent.
func FormatOpt(p *float64, format string) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf(format, *p)
}

// RenderTable prints a table: boxed for the terminal, or in Markdown.
// Columns from rightFromCol on are right-aligned (internal/table).
func RenderTable(w io.Writer, markdown bool, header []string, rows [][]string, rightFromCol int) error {
	return table.Render(w, markdown, header, rows, rightFromCol)
}

// WriteTable prints the results table and, per pairing, the Elo difference
// with its 95% interval and the likelihood of superiority (and the same from
// the game pairs); for more than two engines the crosstable and the rating
// table; and the SPRT's state.
func WriteTable(w io.Writer, s *record.Summary) error {
	return writeResults(w, s, false, 0)
}

// WriteTableFit is WriteTable for a terminal of width columns: no line
// is wider. The results table first shortens the engine names, then drops
// columns in the order of resultsDrop; a crosstable too wide shows only
// points/games in its cells, under the engines' numbers; other lines wrap. The files keep every column.
func WriteTableFit(w io.Writer, s *record.Summary, width int) error {
	if width > 0 {
		w = termfit.NewWriter(w, width)
	}
	return writeResults(w, s, false, width)
}

// resultsDrop is the order in which a terminal too narrow loses the
// results table's columns (indices into tableHeader): the medians, the
// W/D/L counts (Score % stays), accuracy (ACPL stays), depth, RAM, nodes,
// games. docs/watch.md lists it.
var resultsDrop = []int{9, 7, 2, 3, 4, 13, 10, 11, 8, 1}

// fitTable renders a table for the terminal, fitted to width (0: whole).
func fitTable(w io.Writer, header []string, rows [][]string, rightFromCol, width, nameCol int, drop []int) error {
	if width <= 0 {
		return RenderTable(w, false, header, rows, rightFromCol)
	}
	var err error
	out := termfit.Table(header, rows, width, nameCol, 16, drop, func(h []string, rs [][]string) string {
		var b bytes.Buffer
		right := rightFromCol
		if len(h) < len(header) { // keep the alignment of the columns kept
			right = min(rightFromCol, len(h))
		}
		if rerr := RenderTable(&b, false, h, rs, right); rerr != nil {
			err = rerr
		}
		return b.String()
	})
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, out)
	return err
}

// writeResults writes what WriteTable prints, or its Markdown version,
// fitted to a terminal of width columns (0: whole).
func writeResults(w io.Writer, s *record.Summary, markdown bool, width int) error {
	bullet := ""
	if markdown {
		bullet = "- "
	}
	if markdown {
		width = 0
	}
	if err := fitTable(w, tableHeader, tableRows(s), 1, width, 0, resultsDrop); err != nil {
		return err
	}
	if markdown && len(s.Pairs) > 0 {
		fmt.Fprintln(w)
	}
	writePairs(w, s, bullet)
	if s.Knockout != nil {
		if err := writeBracket(w, s.Knockout, markdown); err != nil {
			return err
		}
	}
	if len(s.Engines) > 2 && s.Crosstable != nil {
		fmt.Fprintf(w, "\nCrosstable (points/games (+wins =draws -losses) of the row engine):\n")
		if markdown {
			fmt.Fprintln(w)
		}
		header, rows := crosstableHeader(s.Crosstable), crosstableRows(s.Crosstable, false)
		if markdown {
			if err := RenderTable(w, true, header, rows, 1); err != nil {
				return err
			}
		} else {
			var full bytes.Buffer
			if err := RenderTable(&full, false, header, rows, 1); err != nil {
				return err
			}
			if width > 0 && termfit.Widest(full.String()) > width {
				// Numbered columns, points/games cells.
				header, rows = []string{"Engine"}, crosstableRows(s.Crosstable, true)
				for i := range s.Crosstable.Engines {
					header = append(header, fmt.Sprint(i+1))
					rows[i][0] = fmt.Sprintf("%d %s", i+1, rows[i][0])
				}
				header = append(header, "Points", "Games")
			}
			if err := fitTable(w, header, rows, 1, width, 0, []int{len(header) - 1}); err != nil {
				return err
			}
		}
	}
	if err := writeRatings(w, s, markdown, width); err != nil {
		return err
	}
	if s.RatingsError != "" {
		fmt.Fprintf(w, "%sRatings: %s\n", bullet, s.RatingsError)
	}
	if line := adjudicationLine(s); line != "" {
		fmt.Fprintf(w, "%s%s\n", bullet, line)
	}
	if s.SPRT != nil {
		if markdown {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s%s\n", bullet, s.SPRT)
	}
	return nil
}

// writePairs writes each pairing's Elo line and, with complete game pairs,
// its pentanomial line.
func writePairs(w io.Writer, s *record.Summary, bullet string) {
	for _, p := range s.Pairs {
		fmt.Fprintf(w, "%s%s\n", bullet, eloLine(p))
		if p.Penta != nil {
			fmt.Fprintf(w, "%s%s\n", bullet, pentaLine(p))
		}
	}
}

// writeRatings writes the rating table of more than two engines.
func writeRatings(w io.Writer, s *record.Summary, markdown bool, width int) error {
	if len(s.Engines) <= 2 || s.Ratings == nil {
		return nil
	}
	fit := "maximum likelihood"
	if s.Ratings.Prior > 0 {
		// The results alone leave a rating unbounded (someone won or lost every game).
		fit = fmt.Sprintf("maximum a posteriori with %d virtual draws per pairing", s.Ratings.Prior)
	}
	fmt.Fprintf(w, "\nRatings (%s over all games, %s = 0; ± is half the 95%% interval):\n", fit, s.Ratings.Anchor)
	if markdown {
		fmt.Fprintln(w)
	}
	if markdown {
		return RenderTable(w, true, ratingsHeader, ratingRows(s.Ratings), 2)
	}
	return fitTable(w, ratingsHeader, ratingRows(s.Ratings), 2, width, 1, []int{6, 4, 0})
}

// WriteRatingInterval prints what a rating interval shows while a run
// goes on (cutechess-cli's and fastchess's -ratinginterval): each
// pairing's W-D-L with its Elo, 95% interval, LOS and draw ratio, the
// pentanomial counts of its complete game pairs with their Elo, and for
// more than two engines the rating table. The numbers are the summary's,
// computed by tracker's statistics.
//
// On a terminal of width columns (0: none) no line is wider.
func WriteRatingInterval(w io.Writer, s *record.Summary, width int) error {
	if width > 0 {
		w = termfit.NewWriter(w, width)
	}
	fmt.Fprintf(w, "--- Ratings after %d of %d games ---\n", s.GamesPlayed, s.GamesPlanned)
	writePairs(w, s, "")
	if err := writeRatings(w, s, false, width); err != nil {
		return err
	}
	if s.RatingsError != "" {
		fmt.Fprintf(w, "Ratings: %s\n", s.RatingsError)
	}
	return nil
}

func crosstableHeader(c *record.Crosstable) []string {
	return append(append([]string{"Engine"}, c.Engines...), "Points", "Games")
}

// crosstableRows are the crosstable's rows; short cells are points/games
// only, for a narrow terminal.
func crosstableRows(c *record.Crosstable, short bool) [][]string {
	var rows [][]string
	for _, r := range c.Rows {
		row := []string{r.Engine}
		for _, cell := range r.Cells {
			if short && cell != nil {
				row = append(row, fmt.Sprintf("%s/%d", record.FormatPoints(cell.Points), cell.Games))
				continue
			}
			row = append(row, cell.String())
		}
		rows = append(rows, append(row, record.FormatPoints(r.Points), fmt.Sprint(r.Games)))
	}
	return rows
}

var ratingsHeader = []string{"Rank", "Engine", "Elo", "± 95%", "Games", "Points", "Score %"}

// ratingRows lists the ratings best first (undefined ones last).
func ratingRows(r *tracker.Ratings) [][]string {
	players := slices.Clone(r.Players)
	key := func(x tracker.Rating) float64 {
		if math.IsNaN(x.Elo) {
			return math.Inf(-1)
		}
		return x.Elo
	}
	slices.SortStableFunc(players, func(a, b tracker.Rating) int { return cmp.Compare(key(b), key(a)) })
	var rows [][]string
	for i, p := range players {
		name, margin := p.Name, "-"
		switch {
		case p.Name == r.Anchor:
			name += " (anchor)"
		case !math.IsNaN(p.SE) && !math.IsInf(p.Elo, 0) && !math.IsNaN(p.Elo):
			margin = fmt.Sprintf("%.1f", (p.High-p.Low)/2)
		}
		score := "-"
		if p.Games > 0 {
			score = fmt.Sprintf("%.1f", 100*p.Points/float64(p.Games))
		}
		rows = append(rows, []string{fmt.Sprint(i + 1), name, fmtRating(p.Elo), margin, fmt.Sprint(p.Games), record.FormatPoints(p.Points), score})
	}
	return rows
}

// fmtRating is an Elo value with its sign; the anchor's, 0 by definition,
// prints as "0".
func fmtRating(x float64) string {
	if x == 0 {
		return "0"
	}
	return tracker.FormatSigned(x, 1)
}

// eloLine is "A vs B: +3 -1 =2, Elo +88.7 [-39.4, +248.7] LOS 90.2% draws
// 33.3% (6 games)": the Elo difference of A over B with its 95% interval.
func eloLine(p record.PairSummary) string {
	r := p.Elo
	return fmt.Sprintf("%s vs %s: +%d -%d =%d, %s", p.A, p.B, r.Wins, r.Losses, r.Draws, r)
}

// pentaLine is the same from the game pairs: "A vs B pairs: LL 0, LD 1,
// DD+WL 2, WD 1, WW 0, Elo +0.0 [-97.3, +97.3] LOS 50.0% (4 pairs)".
func pentaLine(p record.PairSummary) string {
	c := p.Penta.Counts
	return fmt.Sprintf("%s vs %s pairs: LL %d, LD %d, DD+WL %d, WD %d, WW %d, %s", p.A, p.B, c.LL, c.LD, c.DD, c.WD, c.WW, p.Penta)
}

// writeMarkdownRow writes one Markdown table row; "|" in a cell becomes "/".
func writeMarkdownRow(b *bytes.Buffer, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" ")
		b.WriteString(strings.ReplaceAll(c, "|", "/"))
		b.WriteString(" |")
	}
	b.WriteString("\n")
}

// writeMarkdown writes summary.md: the configuration, the results table,
// the pairings' Elo and one line per game (from lines).
func writeMarkdown(w io.Writer, s *record.Summary, cfg *config.Config, lines *GameLines) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n", s.Name)
	fmt.Fprintf(&b, "```\n")
	WriteMatchConfig(&b, cfg, s.Started, s.GamesPlanned, s.RunDir)
	fmt.Fprintf(&b, "```\n\n")
	status := "complete"
	if !s.Complete {
		status = "in progress or interrupted"
	}
	fmt.Fprintf(&b, "%d of %d games played (%s); updated %s.\n\n", s.GamesPlayed, s.GamesPlanned, status, s.Updated.Format(time.RFC3339))
	if s.Stopped != "" {
		fmt.Fprintf(&b, "Stopped early: %s.\n\n", s.Stopped)
	}
	if err := writeResults(&b, s, true, 0); err != nil {
		return err
	}
	b.WriteString("\n")
	b.WriteString("## Games\n\n")
	// The rows are written directly (GameLines), not by RenderTable,
	// which pads every column to its widest cell and so would need every
	// row at once.
	header := []string{"Game", "Pair", "White", "Black", "Opening", "Result", "Termination", "Reason", "Plies", "White ACPL", "Black ACPL"}
	if s.SPRT != nil {
		header = append(header, "LLR")
	}
	writeMarkdownRow(&b, header)
	for i := range header {
		if i == 0 {
			b.WriteString("|")
		}
		b.WriteString("---|")
	}
	b.WriteString("\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	return lines.copyMarkdown(w)
}

// adjudicationLine says how many games the adjudication rules ended
// ("Adjudicated: 3 of 10 games (2 draw, 1 resign)"); "" when none.
func adjudicationLine(s *record.Summary) string {
	total := 0
	var parts []string
	for _, rule := range []string{config.AdjudicateDraw, config.AdjudicateResign, config.AdjudicateMaxMoves} {
		if n := s.Adjudications[rule]; n > 0 {
			total += n
			parts = append(parts, fmt.Sprintf("%d %s", n, rule))
		}
	}
	if total == 0 {
		return ""
	}
	return fmt.Sprintf("Adjudicated: %d of %d games (%s)", total, s.GamesPlayed, strings.Join(parts, ", "))
}
