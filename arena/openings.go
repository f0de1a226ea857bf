package arena

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/notnil/chess"

	"arena/tracker"
)

// Opening is a start position from a book.
type Opening struct {
	FEN  string `json:"fen"`
	Name string `json:"name"` // the EPD id opcode, the PGN's Opening/ECO tags, or file:line
}

// LoadOpenings reads the book named by cfg: an EPD file (.epd, .fen, or any
// other extension: a FEN per line, opcodes after the four position fields
// ignored except id) or a PGN file (.pgn, read with the tracker's PGN
// reader: the position after the first cfg.Plies plies of each game's main
// line, all of them when Plies is 0), or a Polyglot book (.bin or format
// polyglot; see polyglotOpenings).
func LoadOpenings(cfg OpeningsConfig) ([]Opening, error) {
	if bookFormat(cfg) == FormatPolyglot {
		return polyglotOpenings(cfg)
	}
	f, err := os.Open(cfg.File)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ops []Opening
	if bookFormat(cfg) == FormatPGN {
		ops, err = pgnOpenings(f, cfg.File, cfg.Plies)
	} else {
		ops, err = epdOpenings(f, cfg.File)
	}
	if err != nil {
		return nil, err
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("%s: no openings in the file", cfg.File)
	}
	return ops, nil
}

func epdOpenings(f *os.File, name string) ([]Opening, error) {
	var ops []Opening
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fen, id, err := parseEPD(text)
		if err == nil {
			err = checkStart(fen)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if id == "" {
			id = fmt.Sprintf("%s:%d", filepath.Base(name), line)
		}
		ops = append(ops, Opening{FEN: fen, Name: id})
	}
	return ops, sc.Err()
}

// parseEPD turns an EPD line into a full FEN: the four position fields, plus
// the half-move and full-move counters when the line carries them as FEN
// does, "0 1" otherwise. It also returns the id opcode if present.
func parseEPD(line string) (fen, id string, err error) {
	fields := strings.Fields(strings.SplitN(line, ";", 2)[0])
	if len(fields) < 4 {
		return "", "", fmt.Errorf("%q is not an EPD/FEN position (expected 4 fields: pieces, side, castling, en passant)", line)
	}
	clocks := []string{"0", "1"}
	if len(fields) >= 6 && isUint(fields[4]) && isUint(fields[5]) {
		clocks = fields[4:6]
	}
	fen = strings.Join(append(fields[:4:4], clocks...), " ")
	if i := strings.Index(line, " id "); i >= 0 {
		rest := strings.TrimSpace(line[i+4:])
		if j := strings.Index(rest, ";"); j >= 0 {
			rest = rest[:j]
		}
		id = strings.Trim(strings.TrimSpace(rest), `"`)
	}
	return fen, id, nil
}

func isUint(s string) bool {
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}

// checkStart rejects positions a game cannot start from.
func checkStart(fen string) error {
	opt, err := chess.FEN(fen)
	if err != nil {
		return fmt.Errorf("invalid FEN %q: %v", fen, err)
	}
	g := chess.NewGame(opt)
	if len(g.ValidMoves()) == 0 {
		return fmt.Errorf("position %q has no legal moves", fen)
	}
	return nil
}

func pgnOpenings(f *os.File, name string, plies int) ([]Opening, error) {
	games, err := tracker.ReadPGN(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	var ops []Opening
	for _, g := range games {
		moves := g.Moves
		if plies > 0 && plies < len(moves) {
			moves = moves[:plies]
		}
		fen, err := replayFEN(g.StartFEN, moves)
		if err == nil {
			err = checkStart(fen)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: game %d: %v", name, g.Number, err)
		}
		id := g.Tag("Opening", g.Tag("ECO", fmt.Sprintf("%s#%d", filepath.Base(name), g.Number)))
		ops = append(ops, Opening{FEN: fen, Name: id})
	}
	return ops, nil
}

// replayFEN returns the FEN after playing UCI moves from fen (empty: the
// standard start position).
func replayFEN(fen string, moves []string) (string, error) {
	var opts []func(*chess.Game)
	if fen != "" {
		opt, err := chess.FEN(fen)
		if err != nil {
			return "", err
		}
		opts = append(opts, opt)
	}
	g := chess.NewGame(opts...)
	for _, m := range moves {
		mv, err := chess.UCINotation{}.Decode(g.Position(), m)
		if err == nil {
			err = g.Move(mv)
		}
		if err != nil {
			return "", fmt.Errorf("move %s: %v", m, err)
		}
	}
	return g.Position().String(), nil
}

// openingOrder returns the opening index of each of count uses of a book
// of n openings: the book's order from opening start (1-based), wrapping
// around, or with order random a seeded shuffle, reshuffled each time the
// book is used up, read from position start of that sequence.
func openingOrder(n, count int, order string, start int, seed int64) []int {
	seq := newOpeningSeq(n, order, start, seed)
	idx := make([]int, count)
	for i := range idx {
		idx[i] = seq.at(i)
	}
	return idx
}
