package output

import (
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"

	"arena/arena/config"
	"arena/arena/record"
)

// A committed run keeps games.jsonl as its one source of truth: games.pgn
// and moves.csv are what Export derives from it, with the functions the
// live Writer appends with (WritePGN, writeCSV), so a derived file has the
// bytes of the file the run wrote. They are then not stored beside the
// log, which triples a run's size for nothing.

// Export writes the PGN (to pgn, unless nil) and the moves.csv rows (to
// moves, unless nil) of every finished game of the run in dir, in game
// order, from its games.jsonl (or games.jsonl.gz) and config.yaml. For a
// finished run they equal the games.pgn and moves.csv the run wrote; the
// PGN holds every game whatever output.pgn said (none or last N), as the
// one asking for it wants the games.
func Export(dir string, pgn, moves io.Writer) error {
	cfg, err := config.LoadRecorded(filepath.Join(dir, ConfigFile))
	if err != nil {
		return err
	}
	var cw *csv.Writer
	if moves != nil {
		cw = csv.NewWriter(moves)
		if err := cw.Write(CSVHeader); err != nil {
			return err
		}
	}
	n, err := EachGame(filepath.Join(dir, GamesFile), func(g *record.GameRecord) error {
		if pgn != nil {
			if err := WritePGN(pgn, cfg, g); err != nil {
				return err
			}
		}
		if cw != nil {
			writeCSV(cw, g)
		}
		return nil
	})
	if err == nil && n == 0 {
		err = fmt.Errorf("%s: no finished games (expected a run directory of arena run with a %s)", dir, GamesFile)
	}
	if err != nil || cw == nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// CopyLog writes the lines of the games log of the run in dir to w, from
// whichever form it is stored in (plain, gzip or columns).
func CopyLog(dir string, w io.Writer) error {
	r, err := Open(filepath.Join(dir, GamesFile))
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = io.Copy(w, r)
	return err
}
