// Package dataset is the file format of labelled training positions:
// what arena/datagen writes (positions labelled by Stockfish) and the
// trainers read. It sits below the engines so that an engine's trainer
// (engines/giraffe) reads the data without importing the generator, which
// pulls in the tracker and its Stockfish judge.
//
// The file format (docs/models.md) is tab-separated text, one position per
// line, appended in fsynced chunks so that an interrupted run loses at most
// one chunk and --resume carries on where it stopped:
//
//	# arena datagen v1	fen	cp	mate	result
//	<FEN>	<cp>	<mate>	<result>
//
// cp is Stockfish's score in centipawns from White's point of view (a mate
// is ±(mate_score - distance), so cp alone orders every position); mate is
// "-" without a forced mate, else the signed number of moves to mate from
// White's point of view (positive: White mates; 0: checkmate on the board,
// the sign is cp's); result is the game's result from White's point of
// view: 1, 0.5, 0, or * when the game was not finished.
package dataset

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Header is the first line of a data file.
const Header = "# arena datagen v1\tfen\tcp\tmate\tresult"

// Record is one labelled position.
type Record struct {
	FEN string
	// CP is the evaluation from White's point of view; mates are
	// ±(mate score - distance).
	CP int
	// Mate is the signed number of moves to mate from White's point of view
	// when HasMate; 0 is a checkmate on the board (CP carries the sign).
	Mate    int
	HasMate bool
	// Result is the game's score for White (1, 0.5, 0) or -1 when unknown.
	Result float64
}

// String formats r as one line of the file, without the newline.
func (r Record) String() string {
	mate := "-"
	if r.HasMate {
		mate = strconv.Itoa(r.Mate)
	}
	res := "*"
	if r.Result >= 0 {
		res = strconv.FormatFloat(r.Result, 'g', -1, 64)
	}
	return r.FEN + "\t" + strconv.Itoa(r.CP) + "\t" + mate + "\t" + res
}

// ParseRecord reads one data line.
func ParseRecord(line string) (Record, error) {
	f := strings.Split(line, "\t")
	if len(f) != 4 {
		return Record{}, fmt.Errorf("%d tab-separated fields, expected 4 (fen, cp, mate, result)", len(f))
	}
	r := Record{FEN: f[0]}
	var err error
	if r.CP, err = strconv.Atoi(f[1]); err != nil {
		return r, fmt.Errorf("cp %q: expected an integer", f[1])
	}
	if f[2] != "-" {
		if r.Mate, err = strconv.Atoi(f[2]); err != nil {
			return r, fmt.Errorf("mate %q: expected - or an integer", f[2])
		}
		r.HasMate = true
	}
	switch f[3] {
	case "1", "0.5", "0":
		r.Result, _ = strconv.ParseFloat(f[3], 64)
	case "*":
		r.Result = -1
	default:
		return r, fmt.Errorf("result %q: expected 1, 0.5, 0 or *", f[3])
	}
	return r, nil
}

// Read reads a data file. Errors name the file (name) and line.
func Read(r io.Reader, name string) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rec, err := ParseRecord(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// ReadFile is Read on the file at path.
func ReadFile(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}
