// Package suite runs EPD test suites (the Strategic Test Suite, WAC,
// Bratko-Kopec, ...) through engines and scores the moves they choose.
//
// Engines are started with launch.StartEngine, the code arena run starts its
// players with: a built-in engine is the arena binary re-executed as
// "arena uci ENGINE", an external one is its UCI command. A suite's score is
// therefore the score of the same process, with the same options, that plays
// in a match.
//
// Scoring. A position's answers come from its EPD operations: bm (best
// moves), am (moves to avoid) and STS's c0 point list ("f5=10, Bf2=3"). A
// move solves a position when it is one of the bm moves (any move when there
// is no bm) and none of the am moves; with only c0, when it earns c0's
// highest points. It earns its c0 points, or without c0 10 points when it
// solves the position, so suites with and without point lists share one
// scale (STS: 10 a position, 15,000 in all). Moves are written in SAN, as EPD
// prescribes (checks, captures and promotion signs are optional), or in UCI
// notation; a move that is not legal in its position is an error naming the
// file and line, so a wrong answer key cannot silently score zero.
//
// Themes. A position's theme is its id without the trailing number
// ("STS(v1.0) Undermine.001" is in "STS(v1.0) Undermine"), or its file's
// name when it has no id. Ids that begin with the same version tag, such as
// STS's "STS(v3.0)", share a theme named after the first of them: the
// distributed STS file spells one theme two ways.
package suite

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/notnil/chess"

	"arena/engines/board"
)

// FullPoints is what a position without a c0 point list is worth.
const FullPoints = 10

// Position is one test position and its answer key.
type Position struct {
	File  string
	Line  int
	ID    string
	Theme string
	FEN   string // six fields (EPD lines get the clocks "0 1")

	Best   []string       // bm, in UCI notation
	Avoid  []string       // am, in UCI notation
	Points map[string]int // c0, UCI move -> points; nil without c0
	Max    int            // the points of the best answer

	BM, AM, C0 string // the operands as written, for the CSV

	san map[string]string // UCI -> SAN of every legal move
}

// Score returns the points move (UCI) earns and whether it solves the
// position (see the package comment).
func (p *Position) Score(move string) (points int, solved bool) {
	solved = len(p.Best) == 0 || contains(p.Best, move)
	if contains(p.Avoid, move) {
		solved = false
	}
	if p.Points == nil {
		if solved {
			return FullPoints, true
		}
		return 0, false
	}
	points = p.Points[move]
	if len(p.Best) == 0 && len(p.Avoid) == 0 {
		solved = points == p.Max
	}
	return points, solved
}

// SAN returns move (UCI) in SAN, or "" when it is not legal here.
func (p *Position) SAN(move string) string { return p.san[move] }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// LoadFiles reads the positions of every file, in order.
func LoadFiles(paths ...string) ([]*Position, error) {
	var out []*Position
	for _, path := range paths {
		ps, err := LoadFile(path)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return out, nil
}

// LoadFile reads a test suite with the board package's EPD reader (the
// one every EPD and FEN list goes through: blank lines and '#' comments
// skipped, every position checked); every position needs bm, am or c0.
func LoadFile(path string) ([]*Position, error) {
	lines, err := board.ReadEPDFile(path)
	if err != nil {
		return nil, err
	}
	out := make([]*Position, 0, len(lines))
	for _, e := range lines {
		p, err := newPosition(e)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, e.Line, err)
		}
		p.File, p.Line = path, e.Line
		if p.Theme == "" {
			p.Theme = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		}
		out = append(out, p)
	}
	return out, nil
}

var trailingNumber = regexp.MustCompile(`^(.*?)[.\s_-]*\d+$`)

// newPosition reads the answer key of one EPD line.
func newPosition(e board.EPD) (*Position, error) {
	op := func(code string) string { v, _ := e.Op(code); return v }
	p := &Position{FEN: e.FullFEN(), ID: op("id"), BM: op("bm"), AM: op("am"), C0: op("c0")}
	if p.BM == "" && p.AM == "" && p.C0 == "" {
		return nil, fmt.Errorf("no bm, am or c0 operation: nothing to score a move against")
	}
	if m := trailingNumber.FindStringSubmatch(p.ID); m != nil && m[1] != "" {
		p.Theme = m[1]
	} else {
		p.Theme = p.ID
	}
	if err := p.resolveMoves(); err != nil {
		return nil, err
	}
	return p, nil
}

// resolveMoves turns bm, am and c0 into UCI moves, checking each is legal.
func (p *Position) resolveMoves() error {
	fenOpt, err := chess.FEN(p.FEN)
	if err != nil {
		return fmt.Errorf("FEN %q: %v", p.FEN, err)
	}
	pos := chess.NewGame(fenOpt).Position()
	p.san = map[string]string{}
	byNorm := map[string]string{}
	moves := pos.ValidMoves()
	for _, m := range moves {
		u := chess.UCINotation{}.Encode(pos, m)
		s := chess.AlgebraicNotation{}.Encode(pos, m)
		p.san[u] = s
		byNorm[normalizeSAN(s)] = u
	}
	// Over-disambiguated SAN ("Bg7f8", "Bgf8") names a move too, unless
	// two moves share the spelling.
	extra := map[string]string{}
	for _, m := range moves {
		pt := pos.Board().Piece(m.S1()).Type()
		if pt == chess.Pawn || pt == chess.King && m.HasTag(chess.KingSideCastle|chess.QueenSideCastle) {
			continue
		}
		from, to := m.S1().String(), m.S2().String()
		for _, v := range []string{from, from[:1], from[1:]} {
			key := normalizeSAN(strings.ToUpper(pt.String()) + v + to)
			if _, ok := extra[key]; ok {
				extra[key] = ""
				continue
			}
			extra[key] = chess.UCINotation{}.Encode(pos, m)
		}
	}
	for k, u := range extra {
		if _, ok := byNorm[k]; !ok && u != "" {
			byNorm[k] = u
		}
	}
	lookup := func(op, mv string) (string, error) {
		if _, ok := p.san[mv]; ok {
			return mv, nil
		}
		if u, ok := byNorm[normalizeSAN(mv)]; ok {
			return u, nil
		}
		return "", fmt.Errorf("%s: %q is not a legal move in %s", op, mv, p.FEN)
	}
	for _, list := range []struct {
		op  string
		src string
		dst *[]string
	}{{"bm", p.BM, &p.Best}, {"am", p.AM, &p.Avoid}} {
		for _, mv := range strings.Fields(list.src) {
			u, err := lookup(list.op, mv)
			if err != nil {
				return err
			}
			*list.dst = append(*list.dst, u)
		}
	}
	p.Max = FullPoints
	if p.C0 == "" {
		return nil
	}
	return p.parsePoints(lookup)
}

// parsePoints reads c0 ("f5=10, Be5+=2"); the move is split from its points
// at the last '=' so that promotions ("e8=Q=10") read right.
func (p *Position) parsePoints(lookup func(op, mv string) (string, error)) error {
	p.Points = map[string]int{}
	p.Max = 0
	for _, entry := range strings.Split(p.C0, ",") {
		entry = strings.TrimSpace(entry)
		i := strings.LastIndex(entry, "=")
		if i <= 0 {
			return fmt.Errorf("c0: %q is not MOVE=POINTS (expected a list such as \"f5=10, Bf2=3\")", entry)
		}
		pts, err := strconv.Atoi(entry[i+1:])
		if err != nil || pts < 0 {
			return fmt.Errorf("c0: %q: points %q are not a whole number >= 0", entry, entry[i+1:])
		}
		u, err := lookup("c0", entry[:i])
		if err != nil {
			return err
		}
		// A move listed twice (STS's Undermine.086 has "Rc8=1, Rc8=3")
		// earns its higher points.
		p.Points[u] = max(p.Points[u], pts)
		p.Max = max(p.Max, pts)
	}
	return nil
}

// normalizeSAN drops what SAN writers disagree on: check and annotation
// signs, capture marks, the promotion '=' and zeros for castling.
func normalizeSAN(s string) string {
	s = strings.TrimRight(s, "+#!?")
	switch s {
	case "0-0":
		return "O-O"
	case "0-0-0":
		return "O-O-O"
	}
	return strings.NewReplacer("x", "", "=", "").Replace(s)
}
