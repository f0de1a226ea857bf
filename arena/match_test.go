package arena

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/notnil/chess"

	"arena/arena/config"
	"arena/arena/output"
	"arena/arena/record"
	"arena/tracker"
)

// exampleBook is the repository's example openings file.
func exampleBook(t testing.TB) string {
	t.Helper()
	p, err := filepath.Abs("../configs/openings/example.epd")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// playMatch runs a match from config text into a fresh directory.
func playMatch(t testing.TB, ctx context.Context, text string) (*record.Summary, string, string, error) {
	t.Helper()
	cfg := writeConfig(t, text)
	dir := filepath.Join(t.TempDir(), "run")
	var out bytes.Buffer
	sum, err := Run(ctx, cfg, Options{Binary: arenaBin, OutDir: dir, Stdout: &out})
	return sum, dir, out.String(), err
}

// A short real match: the built-in heuristic engine (run as "arena uci
// heuristic") against Stockfish, judged by Stockfish. The PGN must parse back
// and the ACPL in summary.json must equal a recomputation from the PGN's
// moves with a fresh judge.
func TestMatchHeuristicVsStockfish(t *testing.T) {
	t.Parallel()
	needStockfish(t)
	const judgeDepth = 6
	sum, dir, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
name: integration
games: 2
max_moves: 40
engines:
  - name: Heuristic
    engine: heuristic
    options: {max_depth: 4}
    limits: {depth: 3}
  - name: Stockfish
    command: stockfish
    options: {Threads: 1, Hash: 16, "Skill Level": 0}
    limits: {depth: 4}
openings: {file: %q}
judge: {depth: %d}
`, exampleBook(t), judgeDepth))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, want := range []string{"=== MATCH CONFIGURATION ===", "Engine 1: Heuristic (built-in heuristic; max_depth=4)",
		"Stockfish Eval Depth: 6 (judge: after each game", "Games: 2", "Max Moves: 40 plies", "=== RESULTS ===",
		"Avg ACPL", "Heuristic vs Stockfish: ", "LOS"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if sum.GamesPlayed != 2 || !sum.Complete {
		t.Fatalf("played %d games (complete %v), want 2", sum.GamesPlayed, sum.Complete)
	}
	records, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil || len(records) != 2 {
		t.Fatalf("games.jsonl: %d records, %v", len(records), err)
	}
	// Colours alternate and both games start from the first opening.
	if records[0].White != "Heuristic" || records[1].White != "Stockfish" {
		t.Errorf("colours: game 1 %s-%s, game 2 %s-%s", records[0].White, records[0].Black, records[1].White, records[1].Black)
	}
	if records[0].FEN == "" || records[0].FEN != records[1].FEN {
		t.Errorf("both games must start from the same opening: %q, %q", records[0].FEN, records[1].FEN)
	}
	for _, g := range records {
		for _, m := range g.Moves {
			if m.Time <= 0 || m.Depth <= 0 || m.Nodes <= 0 || m.RSSMB <= 0 || m.PeakMB < m.RSSMB || m.CPL == nil || m.Accuracy == nil {
				t.Fatalf("game %d ply %d: incomplete measurement %+v", g.Game, m.Ply, m)
			}
		}
	}

	// games.pgn parses back with notnil/chess, move for move.
	f, err := os.Open(filepath.Join(dir, output.PGNFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := chess.NewScanner(f)
	var pgnGames []*chess.Game
	for sc.Scan() {
		if g := sc.Next(); len(g.Moves()) > 0 {
			pgnGames = append(pgnGames, g)
		}
	}
	if len(pgnGames) != 2 {
		t.Fatalf("games.pgn: %d games parsed, want 2 (scanner: %v)", len(pgnGames), sc.Err())
	}
	type pooled struct{ moves, cplSum int }
	recomputed := map[string]*pooled{}
	judge, err := tracker.NewJudge(context.Background(), tracker.JudgeConfig{Depth: judgeDepth})
	if err != nil {
		t.Fatal(err)
	}
	defer judge.Close()
	for i, g := range pgnGames {
		rec := records[i]
		for tag, want := range map[string]string{"White": rec.White, "Black": rec.Black, "Result": rec.Result,
			"FEN": rec.FEN, "SetUp": "1", "Termination": rec.Termination, "PlyCount": strconv.Itoa(rec.Plies), "TimeControl": "-"} {
			if tp := g.GetTagPair(tag); tp == nil || tp.Value != want {
				t.Errorf("game %d: tag %s = %v, want %q", i+1, tag, tp, want)
			}
		}
		var moves []string
		for j, m := range g.Moves() {
			uciMove := chess.UCINotation{}.Encode(g.Positions()[j], m)
			if uciMove != rec.Moves[j].UCI {
				t.Fatalf("game %d ply %d: PGN move %s, recorded %s", i+1, j+1, uciMove, rec.Moves[j].UCI)
			}
			moves = append(moves, uciMove)
		}
		if len(moves) != rec.Plies {
			t.Fatalf("game %d: %d moves in the PGN, %d plies recorded", i+1, len(moves), rec.Plies)
		}
		evals, err := judge.EvaluateGame(context.Background(), g.GetTagPair("FEN").Value, moves)
		if err != nil {
			t.Fatal(err)
		}
		an, err := tracker.AnalyzeGame(evals, tracker.White, moves, judge.Scoring())
		if err != nil {
			t.Fatal(err)
		}
		for _, side := range []struct {
			name string
			st   tracker.PlayerStats
		}{{rec.White, an.White}, {rec.Black, an.Black}} {
			if recomputed[side.name] == nil {
				recomputed[side.name] = &pooled{}
			}
			recomputed[side.name].moves += side.st.Moves
			recomputed[side.name].cplSum += side.st.CPLSum
		}
	}
	var fromFile record.Summary
	data, err := os.ReadFile(filepath.Join(dir, output.SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &fromFile); err != nil {
		t.Fatal(err)
	}
	for _, e := range fromFile.Engines {
		r := recomputed[e.Name]
		if e.ACPL == nil || r == nil || r.moves == 0 {
			t.Fatalf("%s: no ACPL in summary.json (%v) or recomputation (%v)", e.Name, e.ACPL, r)
		}
		want := float64(r.cplSum) / float64(r.moves)
		if math.Abs(*e.ACPL-want) > 1e-9 || e.Judge.Moves != r.moves {
			t.Errorf("%s: summary.json ACPL %.6f over %d moves, recomputed from the PGN %.6f over %d", e.Name, *e.ACPL, e.Judge.Moves, want, r.moves)
		}
		if e.Games != 2 || e.Wins+e.Draws+e.Losses != 2 || e.AvgTime <= 0 || e.AvgNodes <= 0 || e.AvgRAMMB <= 0 || e.ID == "" {
			t.Errorf("%s: incomplete aggregates %+v", e.Name, e)
		}
	}
	// One evaluation per position: n+1 for a game of n plies, fewer when
	// positions recur (both games start from the same opening).
	if ev := fromFile.Judge; !ev.Enabled || ev.Timing != record.JudgeTiming || ev.Evaluations <= 0 || ev.Evaluations > ev.JudgedPlies+len(records)-1 {
		t.Errorf("judge summary %+v: want enabled, timing %q, at most plies+1 Stockfish evaluations per game", ev, record.JudgeTiming)
	}
	if len(fromFile.Pairs) != 1 || fromFile.Pairs[0].Elo.Games != 2 {
		t.Errorf("pairs = %+v, want one pairing of 2 games", fromFile.Pairs)
	}

	// moves.csv has one row per ply plus the header, and the resolved config loads.
	cf, err := os.Open(filepath.Join(dir, output.MovesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer cf.Close()
	rows, err := csv.NewReader(cf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + records[0].Plies + records[1].Plies; len(rows) != want || strings.Join(rows[0], ",") != strings.Join(output.CSVHeader, ",") {
		t.Errorf("moves.csv: %d rows, want %d with the header first", len(rows), want)
	}
	if _, err := config.Load(filepath.Join(dir, output.ConfigFile)); err != nil {
		t.Errorf("config.yaml: %v", err)
	}
	md, err := os.ReadFile(filepath.Join(dir, output.SummaryMD))
	if err != nil || !bytes.Contains(md, []byte("| Heuristic ")) {
		t.Errorf("summary.md lacks the results table: %v\n%s", err, md)
	}
}

// Engines that fail lose the game with the right Termination, and the run
// plays the remaining games (a crashed or killed engine is restarted).
func TestEngineFailures(t *testing.T) {
	tests := []struct {
		name, args, limits  string
		termination, reason string
		plies               [2]int // plies of game 1 (faulty engine White) and 2 (Black)
		errs                record.ErrorCounts
	}{
		{"illegal move", `["-mode", "illegal", "-after", "4"]`, "{movetime: 1s}", record.TermIllegalMove, "makes an illegal move: ",
			[2]int{4, 5}, record.ErrorCounts{IllegalMoves: 2}},
		{"no move", `["-mode", "nomove", "-after", "2"]`, "{depth: 3}", record.TermIllegalMove, "makes no move",
			[2]int{2, 3}, record.ErrorCounts{IllegalMoves: 2}},
		{"crash", `["-mode", "crash", "-after", "6"]`, "{movetime: 1s}", record.TermAbandoned, "engine crashed",
			[2]int{6, 7}, record.ErrorCounts{Crashes: 2}},
		{"hang", `["-mode", "hang", "-after", "2"]`, "{movetime: 100ms}", record.TermTimeForfeit, "loses on time",
			[2]int{2, 3}, record.ErrorCounts{TimeForfeits: 2}},
		// Dies after its deadline: a crash, not a loss on time.
		{"crash after the deadline", `["-mode", "latecrash", "-late", "450ms", "-after", "2"]`, "{movetime: 100ms}", record.TermAbandoned, "engine crashed",
			[2]int{2, 3}, record.ErrorCounts{Crashes: 2}},
		{"late but alive", `["-mode", "late", "-late", "450ms", "-after", "2"]`, "{movetime: 100ms}", record.TermTimeForfeit, "loses on time",
			[2]int{2, 3}, record.ErrorCounts{TimeForfeits: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sum, dir, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
games: 2
time_margin: 200ms
judge: off
engines:
  - name: Faulty
    command: %q
    args: %s
    limits: %s
  - name: Good
    command: %q
    limits: %s
`, fakeBin, tt.args, tt.limits, fakeBin, tt.limits))
			if err != nil {
				t.Fatalf("run: %v\n%s", err, out)
			}
			if sum.GamesPlayed != 2 {
				t.Fatalf("%d games played, want 2", sum.GamesPlayed)
			}
			games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
			if err != nil {
				t.Fatal(err)
			}
			for i, g := range games {
				wantResult := []string{"0-1", "1-0"}[i]
				if g.Result != wantResult || g.Termination != tt.termination || !strings.Contains(g.Reason, tt.reason) || g.Plies != tt.plies[i] {
					t.Errorf("game %d: %s, Termination %q, reason %q, %d plies; want %s, %q, %q, %d plies",
						g.Game, g.Result, g.Termination, g.Reason, g.Plies, wantResult, tt.termination, tt.reason, tt.plies[i])
				}
			}
			faulty := sum.Engines[0]
			if faulty.Losses != 2 || faulty.Errors != tt.errs {
				t.Errorf("faulty engine: %d losses, errors %+v; want 2, %+v", faulty.Losses, faulty.Errors, tt.errs)
			}
			pgn, err := os.ReadFile(filepath.Join(dir, output.PGNFile))
			if err != nil || !bytes.Contains(pgn, []byte(`[Termination "`+tt.termination+`"]`)) {
				t.Errorf("games.pgn lacks Termination %q: %v", tt.termination, err)
			}
		})
	}
}

// cancelAfter cancels a run once its output reports the given game finished.
type cancelAfter struct {
	prefix string
	cancel context.CancelFunc
	buf    bytes.Buffer
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	c.buf.Write(p)
	if strings.Contains(c.buf.String(), c.prefix) {
		c.cancel()
	}
	return len(p), nil
}

// Cancelling mid-run (Ctrl-C) keeps the finished games; --resume plays only
// the rest.
func TestInterruptAndResume(t *testing.T) {
	cfg := writeConfig(t, fmt.Sprintf(`
games: 3
max_moves: 30
judge: off
limits: {movetime: 1s}
engines:
  - name: A
    command: %q
    args: ["-mode", "late", "-late", "5ms"]
  - name: B
    command: %q
`, fakeBin, fakeBin))
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &cancelAfter{prefix: "Game 1/3:", cancel: cancel}
	_, err := Run(ctx, cfg, Options{Binary: arenaBin, OutDir: dir, Stdout: w})
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Done != 1 || ie.Total != 3 || !strings.Contains(err.Error(), "arena run --resume "+dir) {
		t.Fatalf("interrupted run returned %v, want an InterruptedError after 1 of 3 games naming the resume command", err)
	}
	before, err := os.ReadFile(filepath.Join(dir, output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sum, err := Resume(context.Background(), dir, Options{Binary: arenaBin, Stdout: &out})
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out.String())
	}
	if sum.GamesPlayed != 3 || !strings.Contains(out.String(), "Resuming: 1 of 3 games already played") {
		t.Fatalf("resumed run: %d games\n%s", sum.GamesPlayed, out.String())
	}
	after, err := os.ReadFile(filepath.Join(dir, output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(after, before) {
		t.Errorf("resume changed the finished game's record")
	}
	checkRunFiles(t, dir, 3)
}

// checkRunFiles checks that games.jsonl, games.pgn and moves.csv all hold
// exactly n games, each once.
func checkRunFiles(t *testing.T, dir string, n int) {
	t.Helper()
	games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil || len(games) != n {
		t.Fatalf("games.jsonl: %d games, %v; want %d", len(games), err, n)
	}
	pgn := readRunFile(t, dir, output.PGNFile)
	plies := 0
	for i, g := range games {
		if c := bytes.Count(pgn, []byte(fmt.Sprintf("[Round \"%d\"]", i+1))); c != 1 {
			t.Errorf("games.pgn holds game %d %d times", i+1, c)
		}
		plies += g.Plies
	}
	if c := bytes.Count(pgn, []byte("[Event ")); c != n {
		t.Errorf("games.pgn holds %d games, want %d", c, n)
	}
	rows, err := csv.NewReader(bytes.NewReader(readRunFile(t, dir, output.MovesFile))).ReadAll()
	if err != nil || len(rows) != plies+1 {
		t.Errorf("moves.csv: %d rows, %v; want %d plies + header", len(rows), err, plies)
	}
	checkSummaryGames(t, dir, games)
}

// readRunFile reads a run directory's file, compressed (NAME.gz) or not.
func readRunFile(t *testing.T, dir, name string) []byte {
	t.Helper()
	r, err := output.Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// checkSummaryGames checks that summary.json and summary.md list the games
// of games.jsonl, in order (their lines are kept on disk during the run,
// and rebuilt by a resume or a merge).
func checkSummaryGames(t *testing.T, dir string, games []*record.GameRecord) {
	t.Helper()
	sum, err := readSummary(dir)
	if err != nil || sum == nil || len(sum.Games) != len(games) {
		t.Fatalf("summary.json: %v, %+v; want %d games", err, sum, len(games))
	}
	md, err := os.ReadFile(filepath.Join(dir, output.SummaryMD))
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := bytes.Cut(md, []byte("## Games\n"))
	if c := bytes.Count(table, []byte("\n| ")); c != len(games)+1 {
		t.Errorf("summary.md's games table has %d rows, want a header and %d games", c, len(games))
	}
	for i, g := range games {
		s := sum.Games[i]
		if s.Game != g.Game || s.Result != g.Result || s.Plies != g.Plies || s.Pair != g.Pair || s.Reason != g.Reason {
			t.Errorf("summary.json game %d: %+v; games.jsonl has %d %s %d plies pair %d", i+1, s, g.Game, g.Result, g.Plies, g.Pair)
		}
		row := fmt.Sprintf("\n| %d | ", g.Game)
		if !bytes.Contains(table, []byte(row)) {
			t.Errorf("summary.md has no row for game %d", g.Game)
		}
	}
}

// UCI options are checked against what the engine announces.
func TestUnknownUCIOption(t *testing.T) {
	needStockfish(t)
	_, _, out, err := playMatch(t, context.Background(), `
judge: off
limits: {depth: 1}
engines:
  - command: stockfish
    options: {"Skil Level": 0}
  - engine: heuristic
`)
	if err == nil || !strings.Contains(err.Error(), `unknown option "Skil Level"`) || !strings.Contains(err.Error(), "Skill Level") {
		t.Fatalf("got %v, want an unknown option error listing Stockfish's options\n%s", err, out)
	}
}

// Under a clock the arena keeps each side's time: an engine spending 50 ms
// a move with 0.3 s for the game flags after about six moves, while its
// opponent on a long clock does not.
func TestClockForfeit(t *testing.T) {
	sum, dir, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
games: 2
max_moves: 100
time_margin: 20ms
judge: off
engines:
  - name: Slow
    command: %q
    args: ["-mode", "late", "-late", "50ms", "-spread"]
    limits: {tc: "0.3"}
  - name: Fast
    command: %q
    args: ["-spread"]
    limits: {tc: "40/60+1"}
`, fakeBin, fakeBin))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		slow := 0
		for _, m := range g.Moves {
			if m.Engine == "Slow" {
				slow++
			}
		}
		if g.Termination != record.TermTimeForfeit || !strings.Contains(g.Reason, "loses on time") || slow > 7 {
			t.Errorf("game %d: %s %q after %d moves of Slow; want a time forfeit within 7 moves", g.Game, g.Termination, g.Reason, slow)
		}
	}
	if e := sum.Engines[0]; e.Errors.TimeForfeits != 2 {
		t.Errorf("Slow: %+v, want 2 time forfeits", e.Errors)
	}
	pgn, err := os.ReadFile(filepath.Join(dir, output.PGNFile))
	if err != nil || !bytes.Contains(pgn, []byte(`[WhiteTimeControl "0.3"]`)) || !bytes.Contains(pgn, []byte(`[BlackTimeControl "40/60+1"]`)) {
		t.Errorf("games.pgn lacks the per-side TimeControl tags: %v", err)
	}
}
