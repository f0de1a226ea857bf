package board

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// PerftCount is one expected perft result: the node count at a depth.
type PerftCount struct {
	Depth int
	Nodes uint64
}

// EPDLine is one line of a perft EPD file: "FEN ;D1 20 ;D2 400 ...".
type EPDLine struct {
	Line   int // 1-based line number in the file
	FEN    string
	Counts []PerftCount
}

// ParseEPD reads perft test positions. Blank lines and lines starting with
// '#' are ignored. Errors name the file (name), the line and the bad part;
// every FEN is validated with ParseFEN.
func ParseEPD(r io.Reader, name string) ([]EPDLine, error) {
	var out []EPDLine
	sc := bufio.NewScanner(r)
	for lineNo := 1; sc.Scan(); lineNo++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		parts := strings.Split(text, ";")
		e := EPDLine{Line: lineNo, FEN: strings.TrimSpace(parts[0])}
		if _, err := ParseFEN(e.FEN); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, lineNo, err)
		}
		for _, part := range parts[1:] {
			c, err := parsePerftCount(part)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, lineNo, err)
			}
			e.Counts = append(e.Counts, c)
		}
		if len(e.Counts) == 0 {
			return nil, fmt.Errorf("%s:%d: no perft counts, expected \"FEN ;D1 <nodes> ;D2 <nodes> ...\"", name, lineNo)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

func parsePerftCount(part string) (PerftCount, error) {
	f := strings.Fields(part)
	bad := func() (PerftCount, error) {
		return PerftCount{}, fmt.Errorf("%q: expected \"D<depth> <nodes>\" with depth >= 1", ";"+part)
	}
	if len(f) != 2 || len(f[0]) < 2 || f[0][0] != 'D' {
		return bad()
	}
	depth, err := strconv.Atoi(f[0][1:])
	if err != nil || depth < 1 {
		return bad()
	}
	nodes, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return bad()
	}
	return PerftCount{depth, nodes}, nil
}

// ReadEPDFile parses the perft EPD file at path (see ParseEPD).
func ReadEPDFile(path string) ([]EPDLine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseEPD(f, path)
}

// PerftCheck is the outcome of checking one expected count.
type PerftCheck struct {
	Line     int
	FEN      string
	Depth    int
	Expected uint64
	Got      uint64        // 0 when skipped
	Skipped  bool          // expected count above the node limit: not run
	Elapsed  time.Duration // time spent in Perft
}

// OK reports whether the check passed (skipped checks are not failures).
func (c PerftCheck) OK() bool { return c.Skipped || c.Got == c.Expected }

// CheckEPD runs Perft for every count of every line, in file order, calling
// report after each; counts above maxNodes (if > 0) are reported as skipped.
// It returns the number of mismatches, or an error for a line whose FEN does
// not parse (not possible for lines from ParseEPD).
func CheckEPD(lines []EPDLine, maxNodes uint64, report func(PerftCheck)) (int, error) {
	mismatches := 0
	for _, l := range lines {
		p, err := ParseFEN(l.FEN)
		if err != nil {
			return mismatches, fmt.Errorf("line %d: %w", l.Line, err)
		}
		for _, c := range l.Counts {
			r := PerftCheck{Line: l.Line, FEN: l.FEN, Depth: c.Depth, Expected: c.Nodes}
			if maxNodes > 0 && c.Nodes > maxNodes {
				r.Skipped = true
			} else {
				start := time.Now()
				r.Got = Perft(p, c.Depth)
				r.Elapsed = time.Since(start)
			}
			if !r.OK() {
				mismatches++
			}
			report(r)
		}
	}
	return mismatches, nil
}
