package nnuetrain

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Data is a set of positions in the trainer's compact form: each
// position's features from White's perspective (Feature), its side to move,
// its search score and its game result. The other perspective's features
// are derived (Flip), which halves the memory of a data set.
type Data struct {
	Off    []uint32 // position i's features are Feats[Off[i]:Off[i+1]]
	Feats  []uint16
	STM    []uint8 // 0 White, 1 Black
	Score  []int16 // centipawns, White's view, clamped to ±32000
	Result []uint8 // White's result x 2: 0, 1 or 2
}

// Len is the number of positions.
func (d *Data) Len() int { return len(d.STM) }

// Feature is the input index of a piece of colour c (0 White) and type pt
// (0 pawn .. 5 king) on sq (a1 = 0) from White's perspective.
func Feature(c, pt, sq int) int { return c*384 + pt*64 + sq }

// Flip turns White's perspective's feature into Black's: the colours swap
// and the board is mirrored vertically (sq^56; 384 and 64 are multiples of
// 64, so the xor touches the square alone).
func Flip(f int) int {
	if f >= 384 {
		return (f - 384) ^ 56
	}
	return (f + 384) ^ 56
}

// pieceLetters maps a FEN letter to colour*6 + type.
var pieceLetters = func() [128]int8 {
	var t [128]int8
	for i := range t {
		t[i] = -1
	}
	for i, c := range "PNBRQKpnbrqk" {
		t[c] = int8(i)
	}
	return t
}()

// parseBoard reads a FEN's placement and side to move into features.
func parseBoard(fen string, feats []uint16) ([]uint16, uint8, error) {
	place, rest, ok := strings.Cut(strings.TrimSpace(fen), " ")
	if !ok {
		return nil, 0, fmt.Errorf("FEN %q: expected placement and side to move", fen)
	}
	rank, file := 7, 0
	kings, first := 0, len(feats)
	for i := 0; i < len(place); i++ {
		c := place[i]
		switch {
		case c == '/':
			if file != 8 || rank == 0 {
				return nil, 0, fmt.Errorf("FEN %q: bad placement", fen)
			}
			rank, file = rank-1, 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
		case c < 128 && pieceLetters[c] >= 0:
			if file > 7 {
				return nil, 0, fmt.Errorf("FEN %q: bad placement", fen)
			}
			p := int(pieceLetters[c])
			if p%6 == 5 {
				kings++
			}
			feats = append(feats, uint16(Feature(p/6, p%6, rank*8+file)))
			file++
		default:
			return nil, 0, fmt.Errorf("FEN %q: bad placement character %q", fen, c)
		}
	}
	if rank != 0 || file != 8 || kings != 2 || len(feats)-first > 32 {
		return nil, 0, fmt.Errorf("FEN %q: expected 8 ranks, two kings and at most 32 pieces", fen)
	}
	switch {
	case strings.HasPrefix(rest, "w"):
		return feats, 0, nil
	case strings.HasPrefix(rest, "b"):
		return feats, 1, nil
	}
	return nil, 0, fmt.Errorf("FEN %q: side to move: expected w or b", fen)
}

// ReadData reads "FEN | score | result" lines (docs/nnue.md): score in
// centipawns and result 1.0, 0.5 or 0.0, both from White's point of view.
// Blank lines and lines starting with # are skipped; with limit > 0 only
// the first limit positions are read. Errors name the file (name) and line.
func ReadData(r io.Reader, name string, limit int) (*Data, error) {
	d := &Data{Off: []uint32{0}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; (limit <= 0 || d.Len() < limit) && sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		if err := d.add(line); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return d, nil
}

func (d *Data) add(line string) error {
	parts := strings.Split(line, "|")
	if len(parts) != 3 {
		return fmt.Errorf("%d |-separated fields, expected 3 (FEN | score | result)", len(parts))
	}
	feats, stm, err := parseBoard(parts[0], d.Feats)
	if err != nil {
		return err
	}
	score, err := strconv.Atoi(strings.TrimSpace(parts[1]))
	if err != nil {
		return fmt.Errorf("score %q: expected an integer (centipawns)", strings.TrimSpace(parts[1]))
	}
	var res uint8
	switch r := strings.TrimSpace(parts[2]); r {
	case "1.0", "1":
		res = 2
	case "0.5":
		res = 1
	case "0.0", "0":
		res = 0
	default:
		return fmt.Errorf("result %q: expected 1.0, 0.5 or 0.0", r)
	}
	d.Feats = feats
	d.Off = append(d.Off, uint32(len(feats)))
	d.STM = append(d.STM, stm)
	d.Score = append(d.Score, int16(max(-32000, min(32000, score))))
	d.Result = append(d.Result, res)
	return nil
}

// ReadDataFile reads a data file's first limit positions (all with limit
// <= 0); a file with fewer is an error, so that a training run asking for
// a number of positions is reproducible or fails.
func ReadDataFile(path string, limit int) (*Data, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := ReadData(bufio.NewReaderSize(f, 1<<20), path, limit)
	if err == nil && limit > 0 && d.Len() < limit {
		return nil, fmt.Errorf("%s: %d positions, expected at least %d", path, d.Len(), limit)
	}
	return d, err
}

// Targets are the positions' training targets from the side to move's
// point of view: lambda*result + (1-lambda)*sigmoid(score/scale).
func (d *Data) Targets(lambda, scale float64) []float32 {
	t := make([]float32, d.Len())
	for i := range t {
		w := lambda*float64(d.Result[i])/2 + (1-lambda)/(1+math.Exp(-float64(d.Score[i])/scale))
		if d.STM[i] == 1 {
			w = 1 - w
		}
		t[i] = float32(w)
	}
	return t
}
