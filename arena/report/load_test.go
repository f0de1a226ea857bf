package report

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"arena/arena/output"
)

// A run that keeps only summary.json, config.yaml and games.jsonl (what a
// committed run keeps) loads the moves the run wrote to moves.csv: each
// fixture's copy without moves.csv and games.pgn has the rows of the
// fixture's moves.csv, in order, and no PGN to link.
func TestMovesFromLog(t *testing.T) {
	for _, name := range []string{sweep50, sweep100, exp1at50, exp1at100, "roundrobin-depth", "thesis-exp1-book-50ms"} {
		dir := filepath.Join(t.TempDir(), "run")
		copyRun(t, name, dir)
		r, err := LoadRun(dir)
		if err != nil {
			t.Fatal(err)
		}
		if r.PGN != "" {
			t.Errorf("%s: PGN %q without a games.pgn", name, r.PGN)
		}
		if name == sweep50 {
			_, _, md, _ := writeReport(t, []*Run{r})
			if !strings.Contains(md, "- **Games (PGN):** not kept: `arena export` derives it") {
				t.Errorf("report.md of a run without games.pgn does not say how to get it:\n%s", md)
			}
		}
		rows := readCSV(t, filepath.Join(runs, name, output.MovesFile))
		if len(r.Moves) != len(rows) || len(rows) == 0 {
			t.Fatalf("%s: %d moves from games.jsonl, %d rows in moves.csv", name, len(r.Moves), len(rows))
		}
		for i, row := range rows {
			m := r.Moves[i]
			cpl, eval := "", ""
			if m.CPL != nil {
				cpl = strconv.FormatFloat(*m.CPL, 'f', -1, 64)
			}
			if m.Eval != nil {
				eval = strconv.FormatFloat(*m.Eval, 'f', -1, 64)
			}
			csvTime, err := strconv.ParseFloat(row["time_s"], 64)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{strconv.Itoa(m.Game), strconv.Itoa(m.Ply), m.Engine, m.UCI, strconv.FormatInt(m.Nodes, 10), cpl, eval}
			want := []string{row["game"], row["ply"], row["engine"], row["move_uci"], row["nodes"], row["cpl"], row["eval_cp"]}
			// moves.csv rounds times to 0.1 ms.
			if !slices.Equal(got, want) || math.Abs(m.Time-csvTime) > 0.5e-4 {
				t.Errorf("%s: move %d from games.jsonl %v time %v; moves.csv row %v time %v", name, i+1, got, m.Time, want, csvTime)
				break
			}
		}
	}
}

// readCSV reads a moves.csv as rows keyed by column name.
func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		row := map[string]string{}
		for i, h := range recs[0] {
			row[h] = rec[i]
		}
		rows = append(rows, row)
	}
	return rows
}

// A re-judging stored gzipped (judge-P.json.gz) loads as the plain file
// does; where both exist the plain one is read, once.
func TestCompressedRejudge(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	copyRun(t, exp1at50, dir)
	plain := filepath.Join(dir, "judge-position.json")
	report := `{"judge": {"protocol": "position", "depth": 12}, "games": [{"white": "Heuristic", "black": "NN", "white_stats": {"moves": 10, "cpl_sum": 100}, "black_stats": {"moves": 5, "cpl_sum": 50}}]}`
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	if _, err := zw.Write([]byte(report)); err != nil || zw.Close() != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plain+output.GzipExt, zipped.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, withPlain := range []bool{false, true} {
		if withPlain {
			if err := os.WriteFile(plain, []byte(report), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r, err := LoadRun(dir)
		if err != nil {
			t.Fatal(err)
		}
		want := plain
		if !withPlain {
			want += output.GzipExt
		}
		if len(r.Rejudges) != 1 || r.Rejudges[0].File != want || r.Rejudges[0].Label() != "position protocol, depth 12" || r.Rejudges[0].Games[0].WhiteStats.CPLSum != 100 {
			t.Errorf("plain file too %v: %d re-judgings, first %+v; want one from %s", withPlain, len(r.Rejudges), r.Rejudges, want)
		}
	}
}
