package arena

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"arena/internal/atomicfile"
)

// Files of a run directory.
const (
	ConfigFile   = "config.yaml"
	GamesFile    = "games.jsonl" // one GameRecord per line; the source of truth for --resume
	PGNFile      = "games.pgn"
	MovesFile    = "moves.csv"
	SummaryJSON  = "summary.json"
	SummaryMD    = "summary.md"
	filePerm     = 0o644
	dirPerm      = 0o755
	csvPrecision = 4
)

// csvHeader names the columns of moves.csv.
var csvHeader = []string{
	"game", "ply", "side", "engine", "move_uci", "move_san", "time_s", "nodes", "depth", "seldepth",
	"score_cp", "score_mate", "pv", "rss_mb", "peak_rss_mb", "eval_cp", "cpl", "accuracy", "class",
}

// outputs appends finished games to the run directory's files.
type outputs struct {
	dir  string
	cfg  *Config
	json *os.File
	pgn  *os.File // nil unless pgn: all
	csv  *os.File
}

// openOutputs prepares the run directory for appending after the games
// already finished. games.pgn and moves.csv are rewritten from those games,
// so that a game half-appended when the previous run was killed disappears
// from every file at once.
func openOutputs(dir string, cfg *Config, done []*GameRecord) (*outputs, error) {
	o := &outputs{dir: dir, cfg: cfg}
	var js, moves, pgn bytes.Buffer
	cw := csv.NewWriter(&moves)
	if err := cw.Write(csvHeader); err != nil {
		return nil, err
	}
	for _, g := range done {
		line, err := json.Marshal(g)
		if err != nil {
			return nil, err
		}
		js.Write(append(line, '\n'))
		writeCSV(cw, g)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return nil, err
	}
	for _, g := range pgnGames(cfg.Output.PGN, done) {
		if err := WritePGN(&pgn, cfg, g); err != nil {
			return nil, err
		}
	}
	files := []struct {
		name string
		data []byte
		dst  **os.File
	}{
		{GamesFile, js.Bytes(), &o.json},
		{MovesFile, moves.Bytes(), &o.csv},
		{PGNFile, pgn.Bytes(), &o.pgn},
	}
	for _, f := range files {
		if f.name == PGNFile && cfg.Output.PGN.None {
			continue
		}
		path := filepath.Join(dir, f.name)
		if err := atomicfile.WriteFile(path, f.data); err != nil {
			o.close()
			return nil, fmt.Errorf("write %s: %w", path, err)
		}
		if f.name == PGNFile && cfg.Output.PGN.Last > 0 {
			continue // rewritten whole after every game
		}
		fh, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, filePerm)
		if err != nil {
			o.close()
			return nil, err
		}
		*f.dst = fh
	}
	return o, nil
}

// pgnGames returns the games games.pgn keeps.
func pgnGames(m PGNMode, games []*GameRecord) []*GameRecord {
	switch {
	case m.None:
		return nil
	case m.Last > 0 && len(games) > m.Last:
		return games[len(games)-m.Last:]
	}
	return games
}

// appendGame adds a finished game to games.jsonl, games.pgn and moves.csv,
// each synced to disk before it returns, so a game is never lost once the
// next one starts. games.jsonl goes first: it is what --resume trusts.
func (o *outputs) appendGame(g *GameRecord, all []*GameRecord) error {
	line, err := json.Marshal(g)
	if err != nil {
		return err
	}
	if err := appendSync(o.json, append(line, '\n')); err != nil {
		return fmt.Errorf("append %s: %w", GamesFile, err)
	}
	var pgn bytes.Buffer
	switch {
	case o.cfg.Output.PGN.None:
	case o.cfg.Output.PGN.Last > 0:
		for _, pg := range pgnGames(o.cfg.Output.PGN, all) {
			if err := WritePGN(&pgn, o.cfg, pg); err != nil {
				return err
			}
		}
		if err := atomicfile.WriteFile(filepath.Join(o.dir, PGNFile), pgn.Bytes()); err != nil {
			return fmt.Errorf("write %s: %w", PGNFile, err)
		}
	default:
		if err := WritePGN(&pgn, o.cfg, g); err != nil {
			return err
		}
		if err := appendSync(o.pgn, pgn.Bytes()); err != nil {
			return fmt.Errorf("append %s: %w", PGNFile, err)
		}
	}
	var rows bytes.Buffer
	cw := csv.NewWriter(&rows)
	writeCSV(cw, g)
	cw.Flush()
	if err := appendSync(o.csv, rows.Bytes()); err != nil {
		return fmt.Errorf("append %s: %w", MovesFile, err)
	}
	return nil
}

func appendSync(f *os.File, data []byte) error {
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Sync()
}

func (o *outputs) close() {
	for _, f := range []*os.File{o.json, o.pgn, o.csv} {
		if f != nil {
			f.Close()
		}
	}
}

func writeCSV(cw *csv.Writer, g *GameRecord) {
	for _, m := range g.Moves {
		cw.Write([]string{
			strconv.Itoa(g.Game), strconv.Itoa(m.Ply), m.Side, m.Engine, m.UCI, m.SAN,
			ftoa(m.Time), strconv.FormatInt(m.Nodes, 10), strconv.Itoa(m.Depth), strconv.Itoa(m.SelDepth),
			strconv.Itoa(m.ScoreCP), strconv.Itoa(m.Mate), strings.Join(m.PV, " "),
			ftoa(m.RSSMB), ftoa(m.PeakMB), optInt(m.EvalCP), optInt(m.CPL), optFloat(m.Accuracy), string(m.Class),
		})
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', csvPrecision, 64) }

func optInt(p *int) string {
	if p == nil {
		return ""
	}
	return strconv.Itoa(*p)
}

func optFloat(p *float64) string {
	if p == nil {
		return ""
	}
	return ftoa(*p)
}

// readGames reads games.jsonl. A last line cut short by a kill is dropped
// (its game is replayed); any other bad line is an error.
func readGames(path string) ([]*GameRecord, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var games []*GameRecord
	r := bufio.NewReader(f)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			// No newline: the write of this record did not finish.
			return games, nil
		}
		if err != nil {
			return nil, err
		}
		var g GameRecord
		if err := json.Unmarshal(line, &g); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if g.Game != len(games)+1 {
			return nil, fmt.Errorf("%s:%d: game %d where game %d was expected", path, n, g.Game, len(games)+1)
		}
		games = append(games, &g)
	}
}
