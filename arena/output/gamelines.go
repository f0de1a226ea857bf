package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	"arena/arena/record"
)

// GameLines holds the per-game part of summary.json (the games array) and
// of summary.md (the games table) for a run: each game's entry is encoded
// once, when the game is taken in game order, and appended to a scratch
// file instead of being kept in memory; every rewrite of the summaries
// copies those bytes after the aggregates. The arena's memory is then
// bounded by the concurrency, not by the number of games (the entries of
// a 10,000-game run are 3.8 MB of summary.json), and a rewrite copies the
// entries instead of encoding every game again.
//
// The scratch files are unlinked as soon as they are created: they live in
// the run directory (beside the files they feed, not in a memory-backed
// /tmp) and vanish with the process however it ends. A resumed run
// rebuilds them from games.jsonl, as it rebuilds the other outputs.
type GameLines struct {
	json, md         *os.File // the entries joined by ",\n"; the table's rows
	jsonSize, mdSize int64
	n                int
	llr              bool // summary.md has the LLR column (the config has sprt:)
	buf              bytes.Buffer
	row              []string
}

// NewGameLines starts empty scratch files in dir; llr adds summary.md's LLR
// column.
func NewGameLines(dir string, llr bool) (*GameLines, error) {
	l := &GameLines{llr: llr}
	for _, f := range []**os.File{&l.json, &l.md} {
		fh, err := os.CreateTemp(dir, ".summary-games-*")
		if err != nil {
			l.Close()
			return nil, fmt.Errorf("scratch file for the summaries' games: %w", err)
		}
		*f = fh
		if err := os.Remove(fh.Name()); err != nil {
			l.Close()
			return nil, fmt.Errorf("scratch file for the summaries' games: %w", err)
		}
	}
	return l, nil
}

// Add appends the next game in game order.
func (l *GameLines) Add(gs record.GameSummary) error {
	b := &l.buf
	b.Reset()
	if l.n > 0 {
		b.WriteString(",\n")
	}
	if err := writeGameEntry(b, gs); err != nil {
		return err
	}
	if _, err := l.json.Write(b.Bytes()); err != nil {
		return fmt.Errorf("scratch file for the summaries' games: %w", err)
	}
	l.jsonSize += int64(b.Len())
	b.Reset()
	l.row = markdownGameRow(l.row[:0], gs, l.llr)
	writeMarkdownRow(b, l.row)
	if _, err := l.md.Write(b.Bytes()); err != nil {
		return fmt.Errorf("scratch file for the summaries' games: %w", err)
	}
	l.mdSize += int64(b.Len())
	l.n++
	return nil
}

// Len is the number of games added.
func (l *GameLines) Len() int { return l.n }

// Size is the bytes the games add to summary.json and summary.md.
func (l *GameLines) Size() int64 { return l.jsonSize + l.mdSize }

// Each decodes the games back, in game order.
func (l *GameLines) Each(fn func(record.GameSummary) error) error {
	src := io.MultiReader(bytes.NewReader([]byte("[")), io.NewSectionReader(l.json, 0, l.jsonSize), bytes.NewReader([]byte("]")))
	dec := json.NewDecoder(bufio.NewReaderSize(src, 1<<16))
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("scratch file for the summaries' games: %w", err)
	}
	for dec.More() {
		var gs record.GameSummary
		if err := dec.Decode(&gs); err != nil {
			return fmt.Errorf("scratch file for the summaries' games: %w", err)
		}
		if err := fn(gs); err != nil {
			return err
		}
	}
	return nil
}

// Close closes the scratch files, which frees their space (they are
// unlinked already).
func (l *GameLines) Close() {
	for _, f := range []*os.File{l.json, l.md} {
		if f != nil {
			f.Close()
		}
	}
}

// copyJSON writes the games array's entries; copyMarkdown the table's rows.
func (l *GameLines) copyJSON(w io.Writer) error {
	_, err := io.Copy(w, io.NewSectionReader(l.json, 0, l.jsonSize))
	return err
}

func (l *GameLines) copyMarkdown(w io.Writer) error {
	_, err := io.Copy(w, io.NewSectionReader(l.md, 0, l.mdSize))
	return err
}

// writeGameEntry writes gs as json.MarshalIndent(summary, "", "  ") writes
// an element of the games array, so that the summary streamed from the
// entries has the bytes of the summary marshalled whole.
func writeGameEntry(b *bytes.Buffer, gs record.GameSummary) error {
	e, err := json.MarshalIndent(gs, gameIndent, "  ")
	if err != nil {
		return err
	}
	b.WriteString(gameIndent)
	b.Write(e)
	return nil
}

// gameIndent is the indentation of an element of summary.json's games.
const gameIndent = "    "

// markdownGameRow is the game's row of summary.md's games table.
func markdownGameRow(row []string, g record.GameSummary, llr bool) []string {
	pair := "-"
	if g.Pair > 0 {
		pair = strconv.Itoa(g.Pair)
	}
	row = append(row, strconv.Itoa(g.Game), pair, g.White, g.Black, g.Opening, g.Result, g.Termination,
		g.Reason, strconv.Itoa(g.Plies), FormatOpt(g.WhiteACPL, "%.1f"), FormatOpt(g.BlackACPL, "%.1f"))
	if llr {
		row = append(row, record.FormatLLR(g.LLR))
	}
	return row
}
