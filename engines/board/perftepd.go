package board

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// PerftCount is one expected perft result: the node count at a depth.
type PerftCount struct {
	Depth int
	Nodes uint64
}

// PerftLine is one line of a perft EPD file: "FEN ;D1 20 ;D2 400 ...".
type PerftLine struct {
	Line   int // 1-based line number in the file
	FEN    string
	Counts []PerftCount
}

// ParsePerftEPD reads perft test positions with ReadEPD; every operation
// must be a count "D<depth> <nodes>", and every line needs one.
func ParsePerftEPD(r io.Reader, name string) ([]PerftLine, error) {
	entries, err := ReadEPD(r, name)
	if err != nil {
		return nil, err
	}
	out := make([]PerftLine, 0, len(entries))
	for _, e := range entries {
		l := PerftLine{Line: e.Line, FEN: e.FEN}
		for _, op := range e.Ops {
			c, err := parsePerftCount(op)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, e.Line, err)
			}
			l.Counts = append(l.Counts, c)
		}
		if len(l.Counts) == 0 {
			return nil, fmt.Errorf("%s:%d: no perft counts, expected \"FEN ;D1 <nodes> ;D2 <nodes> ...\"", name, e.Line)
		}
		out = append(out, l)
	}
	return out, nil
}

func parsePerftCount(op EPDOp) (PerftCount, error) {
	bad := func() (PerftCount, error) {
		return PerftCount{}, fmt.Errorf("%q: expected \"D<depth> <nodes>\" with depth >= 1", ";"+op.Code+" "+op.Operand)
	}
	if len(op.Code) < 2 || op.Code[0] != 'D' {
		return bad()
	}
	depth, err := strconv.Atoi(op.Code[1:])
	if err != nil || depth < 1 {
		return bad()
	}
	nodes, err := strconv.ParseUint(op.Operand, 10, 64)
	if err != nil {
		return bad()
	}
	return PerftCount{depth, nodes}, nil
}

// ReadPerftFile parses the perft EPD file at path (see ParsePerftEPD).
func ReadPerftFile(path string) ([]PerftLine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParsePerftEPD(f, path)
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
// not parse (not possible for lines from ParsePerftEPD).
func CheckEPD(lines []PerftLine, maxNodes uint64, report func(PerftCheck)) (int, error) {
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
