package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/arena/record"
	arep "arena/arena/report"
)

func TestClassify(t *testing.T) {
	rs := loadRuns(t, exp1at100, sweep50, "thesis-exp1-book-50ms", exp1at50)
	variants, unused := classify(rs)
	if len(unused) != 1 || unused[0] != rs[1] {
		t.Errorf("unused runs %v, want the heuristic-vs-heuristic sweep run", unused)
	}
	if len(variants) != 2 {
		t.Fatalf("%d variants, want 2 (start position, example.epd)", len(variants))
	}
	start, book := variants[0], variants[1]
	if start.exp.ID != "exp1" || start.book != "" || book.exp.ID != "exp1" || book.book != "example.epd" {
		t.Errorf("variants %s/%q and %s/%q", start.exp.ID, start.book, book.exp.ID, book.book)
	}
	if len(start.settings) != 2 || start.settings[0].moveTime != 50*time.Millisecond || start.settings[1].moveTime != 100*time.Millisecond {
		t.Fatalf("start-position settings %+v, want 50ms then 100ms", start.settings)
	}
	s := start.settings[0]
	if s.heur.Name != "Heuristic" || s.opp.Name != "NN" || s.runs[0] != rs[3] || s.distinct != 2 {
		t.Errorf("50ms setting: heur %q, opp %q, distinct %d", s.heur.Name, s.opp.Name, s.distinct)
	}
}

func TestComparisonTable(t *testing.T) {
	rs := loadRuns(t, "thesis-exp1")
	variants, _ := classify(rs)
	tab := comparisonTable(variants[0])
	if tab.Header[3] != "NN wins" || tab.Header[8] != "NN nodes" {
		t.Errorf("header %v: the opponent columns should carry the thesis's name NN", tab.Header)
	}
	// Ours at 50 and 100 ms, then the thesis's five settings.
	if len(tab.Rows) != 7 {
		t.Fatalf("%d rows, want 7", len(tab.Rows))
	}
	row := func(i int) string {
		var cells []string
		for _, c := range tab.Rows[i] {
			cells = append(cells, c.Text)
		}
		return strings.Join(cells, " | ")
	}
	h, nn := rs[0].Summary.Engines[1], rs[0].Summary.Engines[0]
	if h.Name != "Heuristic" || nn.Name != "NN" {
		t.Fatal("fixture engines changed")
	}
	s0 := variants[0].settings[0]
	hs, ns := statsOf(s0, h.Name), statsOf(s0, nn.Name)
	if math.IsNaN(hs.acpl.Half()) || math.IsNaN(ns.medianNodes) {
		t.Fatalf("no interval or median from the fixture's 2 judged games: %+v %+v", hs, ns)
	}
	want0 := "0.05 s | – / 2 | – / 0 | – / 0 | – / 2 | – / 0.05 | – / 0.01 | – / " + fmtNodes(h.AvgNodes, hs) + " | – / " + fmtNodes(nn.AvgNodes, ns) +
		" | – / " + fmtEstimate(hs.acpl, 0) + " | – / " + fmtEstimate(ns.acpl, 0) + " | " + fmtUncapped(hs) + " | " + fmtUncapped(ns) + " | 2 of 2 | 0"
	if got := row(0); got != want0 {
		t.Errorf("row 0:\n%s\nwant\n%s", got, want0)
	}
	if got, want := row(2), "1 s | 4 / – | 2 / – | 0 / – | 2 / – | 1.25 / – | 0.01 / – | 26,763 / – | 10 / – | 156 / – | 159 / – | – | – | – | –"; got != want {
		t.Errorf("row 2:\n%s\nwant\n%s", got, want)
	}
	if got, want := row(6), "15 s | 2 / – | 1 / – | 0 / – | 1 / – | 15.24 / – | 0.01 / – | 288,282 / – | 16 / – | 70 / – | 78 / – | – | – | – | –"; got != want {
		t.Errorf("row 6:\n%s\nwant\n%s", got, want)
	}
	// Experiment 2's times and the opponent's 0 wins are in the thesis's
	// figures (thesis-tables.yaml), so are its draws.
	exp2 := comparisonTable(&variant{exp: &Thesis[2]})
	var cells []string
	for _, c := range exp2.Rows[0] {
		cells = append(cells, c.Text)
	}
	if got, want := strings.Join(cells, " | "), "1 s | 6 / – | 3 / – | 0 / – | 3 / – | 1.21 / – | 1.00 / – | 22,783 / – | 507 / – | 108 / – | 134 / – | – | – | – | –"; got != want {
		t.Errorf("exp2 row 0:\n%s\nwant\n%s", got, want)
	}
}

func TestComparisonFigures(t *testing.T) {
	rs := loadRuns(t, "thesis-exp1")
	variants, _ := classify(rs)
	figs := comparisonFigures("exp1-faithful-start-", variants[0])
	if len(figs) != 2 || figs[0].Name != "exp1-faithful-start-acpl-vs-time" || figs[1].Name != "exp1-faithful-start-nodes-vs-time" || !figs[1].LogY {
		t.Fatalf("figures %v", figs)
	}
	for _, f := range figs {
		var got []string
		for _, l := range f.Lines {
			got = append(got, l.Name)
			want := 2 // ours: 50 and 100 ms
			if l.Dashed {
				want = 5 // the thesis's five settings
			}
			if len(l.Points) != want {
				t.Errorf("%s: %s has %d points, want %d", f.Name, l.Name, len(l.Points), want)
			}
		}
		if s := strings.Join(got, ","); s != "Heuristic (thesis),NN (thesis),Heuristic (ours),NN (ours)" {
			t.Errorf("%s lines %s", f.Name, s)
		}
	}
	if y := figs[0].Lines[0].Points[0].Y; y != 156 {
		t.Errorf("thesis heuristic ACPL at 1 s = %v, want 156", y)
	}
	if y := figs[1].Lines[3].Points[1].Y; y != rs[1].Summary.Engines[0].AvgNodes {
		t.Errorf("our NN nodes at 100 ms = %v, want the run's %v", y, rs[1].Summary.Engines[0].AvgNodes)
	}
}

func TestPool(t *testing.T) {
	rs := loadRuns(t, "sweep")
	a, b := rs[0].Summary.Engines[0], rs[1].Summary.Engines[0]
	p := pool(pool(record.EngineSummary{}, a), b)
	if p.Games != 4 || p.Wins != a.Wins+b.Wins || p.Draws != a.Draws+b.Draws || p.Moves != a.Moves+b.Moves {
		t.Errorf("pooled counts %+v", p)
	}
	wantACPL := float64(a.Judge.CPLSum+b.Judge.CPLSum) / float64(a.Judge.Moves+b.Judge.Moves)
	if p.ACPL == nil || !near(*p.ACPL, wantACPL) {
		t.Errorf("pooled ACPL %v, want %v (pooled over the judged moves)", p.ACPL, wantACPL)
	}
	wantNodes := (a.AvgNodes*float64(a.Moves) + b.AvgNodes*float64(b.Moves)) / float64(a.Moves+b.Moves)
	if !near(p.AvgNodes, wantNodes) || p.ScorePct != 87.5 {
		t.Errorf("pooled nodes %v (want %v), score %v%% (want 87.5)", p.AvgNodes, wantNodes, p.ScorePct)
	}
	// Pooling must not change its inputs' judge statistics.
	if *a.ACPL != a.Judge.ACPL {
		t.Error("pool modified its first input")
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }

func TestDistinctGames(t *testing.T) {
	r := &arep.Run{Summary: &record.Summary{Games: []record.GameSummary{
		{Game: 1, White: "A"}, {Game: 2, White: "B"}, {Game: 3, White: "A"}, {Game: 4, White: "B"},
	}}}
	for g, moves := range map[int][]string{1: {"e2e4", "e7e5"}, 2: {"e2e4", "e7e5"}, 3: {"e2e4", "e7e5"}, 4: {"d2d4"}} {
		for i, u := range moves {
			r.Moves = append(r.Moves, arep.Move{Game: g, Ply: i + 1, UCI: u})
		}
	}
	// Games 1 and 3 repeat (same moves, same White); game 2 has game 1's
	// moves with the colours swapped, so it is a different game.
	if n := len(firstGames([]*arep.Run{r})); n != 3 {
		t.Errorf("distinct games %d, want 3", n)
	}
}

func TestExplainNodeRate(t *testing.T) {
	v := &variant{exp: &Thesis[0], settings: []*setting{{
		moveTime: time.Second, runs: []*arep.Run{{Dir: "x", Summary: &record.Summary{}, Config: "engines:\n  - {engine: nn, options: {model: m.pt}}\n"}},
		heur:     record.EngineSummary{Games: 2, AvgTime: 1.01, NPS: 1e6, AvgDepth: 9.5},
		distinct: 2,
	}}}
	notes := strings.Join(explain(v), "\n")
	for _, want := range []string{
		"At 1 s per move the thesis's heuristic engine searched 21,410 nodes/s (26,763 nodes in 1.25 s), ours 1,000,000 nodes/s: 47 times more nodes at the same time per move (mean depth 9.5).",
		"Ours: 2 distinct games in 2.",
		"every number of the NN here is our net's: `m.pt` (from each run's config.yaml)",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

func TestWriteReproduction(t *testing.T) {
	rs := loadRuns(t, exp1at50, "thesis-exp1-book-50ms", "roundrobin-depth")
	dir := t.TempDir()
	file := filepath.Join(dir, "reproduction.md")
	if err := WriteReproduction(rs, file); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	// The games' durations, over the games played at once: not the span
	// from a run's start to its last summary, which a resume stretches.
	var wall time.Duration
	for _, r := range rs {
		var s float64
		for _, g := range r.Summary.Games {
			s += g.Duration
		}
		wall += time.Duration(s / float64(max(r.Summary.Concurrency, 1)) * float64(time.Second))
	}
	if wall <= 0 {
		t.Fatal("the fixture's games have no durations")
	}
	for _, want := range []string{
		"## Summary",
		"**Not reproduced.** The thesis's networks",
		"| The heuristic engine beats the 1-ply NN | heuristic's score in experiment 1 and its reference match | – | ",
		"### Experiment 1: 1-ply NN (self-play net) vs heuristic",
		"#### Faithful (the thesis's seconds per move), from the start position (as the thesis)",
		"#### Time-matched (the thesis's seconds per move), from the openings of example.epd, each played with both colours",
		"| 1 s | 4 / – | 2 / – | 0 / – | 2 / – | 1.25 / – |",
		// Experiments without runs still show the thesis's table.
		"### Experiment 3: SL net (2-ply alpha-beta) vs heuristic",
		"| 5 s | 2 / – | 1 / – | 0 / – | 1 / – | 5.31 / – | 0.37 / – | 111,440 / – | 203 / – |",
		"### Machine, software, seeds and judge",
		"| Runs | Arena commit | Go | OS | Cores | CPU | Judge | Protocol, depth | Seed |",
		// The fixtures predate commit stamping: their summaries say (devel).
		" | not recorded, predates stamping | go1.",
		"Not part of a thesis experiment (not the heuristic engine against nn, mcts or supervised at a movetime or one of the node budgets, nor against nnue or preset strong with both at one of experiment 1's node budgets): `" + runs + "roundrobin-depth`.",
		"Time the runs' games took at the board (each run's game durations summed, over the games it played at once; the judging and pauses between sessions not counted): " + wall.Round(time.Second).String() + ".",
		"![NN vs heuristic: ACPL vs time per move](img/reproduction/exp1-faithful-start-acpl-vs-time.png)",
		"![NN vs heuristic: nodes vs time per move](img/reproduction/exp1-time-example-nodes-vs-time.png)",
		"Stockfish 15.1 at depth 4",
		"## Method",
		"| exp2 | 1 s | 22,783 | 15,700 | 0.69 | 507 | 507 nodes |",
		"| exp1-reference | 1 s | 22,496 | 15,500 | 0.69 | 13 | depth 1 |",
		"Games played and the time they took (as above): faithful 2 games in ",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("reproduction.md lacks %q", want)
		}
	}
	for _, name := range []string{"exp1-faithful-start-acpl-vs-time", "exp1-faithful-start-nodes-vs-time", "exp1-time-example-acpl-vs-time", "exp1-time-example-nodes-vs-time"} {
		checkPNG(t, filepath.Join(dir, ReproductionPlotsDir, name+".png"))
		checkSVG(t, filepath.Join(dir, ReproductionPlotsDir, name+".svg"))
	}
}

// The thesis's tables as transcribed in thesis-tables.yaml: what THESIS.md
// 1.6 says beside them, and the numbers it gives below them (the figures'
// times, the opponents' 0 wins), which the report once showed as "–".
func TestThesisData(t *testing.T) {
	col := func(id string, f func(ThesisRow) string) string {
		var out []string
		for _, e := range Thesis {
			if e.ID == id {
				for _, r := range e.Rows {
					out = append(out, f(r))
				}
			}
		}
		return strings.Join(out, "/")
	}
	heurTime := func(r ThesisRow) string { return optFloat(r.HeurTime) }
	oppTime := func(r ThesisRow) string { return optFloat(r.OppTime) }
	wins := func(r ThesisRow) string { return optInt(r.OppWins) }
	for _, c := range []struct{ got, want string }{
		{col("exp2", heurTime), "1.21/3.24/5.19"}, {col("exp2", oppTime), "1.00/3.00/5.00"},
		{col("exp3", heurTime), "1.20/2.43/3.22/5.31"}, {col("exp3", oppTime), "0.23/0.28/0.26/0.37"},
		{col("exp1", wins) + "|" + col("exp1-reference", wins) + "|" + col("exp2", wins) + "|" + col("exp3", wins), "0/0/0/0/0|0|0/0/0|0/0/0/0"},
		{col("exp1", func(r ThesisRow) string { return r.Figure }), "3.1/3.1/3.1/3.1/3.1"},
		{col("exp3", func(r ThesisRow) string { return r.Figure }), "3.11/3.12/3.13/3.14"},
	} {
		if c.got != c.want {
			t.Errorf("thesis-tables.yaml: %s, want %s", c.got, c.want)
		}
	}
	for _, bad := range []struct{ yaml, err string }{
		{"experiments: [{id: x, where: {'games, heur_wins': t}, rows: [{movetime: 1s, figure: '1', games: 2, heur_acpl: 5}]}]", "x: column heur_acpl has no place in THESIS.md"},
		{"experiments: [{id: x, pages: 3}]", "field pages not found"},
		{"experiments: [{id: x, rows: [{movetime: 1s, games: 2}]}]", "x row 1: want movetime, figure and games"},
	} {
		if _, err := parseTables([]byte(bad.yaml)); err == nil || !strings.Contains(err.Error(), bad.err) {
			t.Errorf("parseTables(%s): %v, want an error containing %q", bad.yaml, err, bad.err)
		}
	}
	games := map[string]int{"exp1": 16, "exp1-reference": 6, "exp2": 12, "exp3": 14}
	for _, e := range Thesis {
		n := 0
		for i, r := range e.Rows {
			n += r.Games
			if i > 0 && r.MoveTime <= e.Rows[i-1].MoveTime {
				t.Errorf("%s: settings not increasing at row %d", e.ID, i)
			}
			if r.HeurWins > r.Games {
				t.Errorf("%s row %d: %d wins in %d games", e.ID, i, r.HeurWins, r.Games)
			}
		}
		if n != games[e.ID] {
			t.Errorf("%s: %d games in the table, want %d", e.ID, n, games[e.ID])
		}
	}
}

// Medians, the game-clustered ACPL with its t interval over distinct
// games, and the ACPL without capped moves, from hand-made moves.
func TestStatsOf(t *testing.T) {
	cpl := func(v float64) *float64 { return &v }
	r := &arep.Run{Summary: &record.Summary{}}
	for i, g := range []struct {
		game int
		cpl  float64
	}{{1, 10}, {1, 20}, {2, 50}, {3, 0}, {3, 0}, {3, 30}, {4, 10}, {4, 20}, {5, 900}, {5, 60}} {
		uci := fmt.Sprintf("m%d", i)
		if g.game == 4 { // game 4 repeats game 1 move for move
			uci = fmt.Sprintf("m%d", i-6)
		}
		r.Moves = append(r.Moves, arep.Move{Game: g.game, Engine: "A", UCI: uci, Nodes: int64(100 * (i + 1)), CPL: cpl(g.cpl)})
		r.Moves = append(r.Moves, arep.Move{Game: g.game, Engine: "B", UCI: "b" + uci, Nodes: 7})
	}
	for g := 1; g <= 5; g++ {
		r.Summary.Games = append(r.Summary.Games, record.GameSummary{Game: g, White: "A", Black: "B"})
	}
	s := &setting{runs: []*arep.Run{r}}
	s.first = firstGames(s.runs)
	a := statsOf(s, "A")
	// Distinct games 1, 2, 3, 5 (4 repeats 1): 1070 cp in 8 moves, the
	// capped move (900) among them.
	if a.medianNodes != 550 || a.acpl.N != 4 || math.Abs(a.acpl.Value-1070.0/8) > 1e-9 || a.capped != 1 {
		t.Errorf("A: median %v (want 550), ACPL %+v (want 1070/8 over 4 games), %d capped", a.medianNodes, a.acpl, a.capped)
	}
	// Without it: games (30, 2), (50, 1), (30, 3), (60, 1): ACPL 170/7, 3 df.
	if a.uncapped.N != 4 || math.Abs(a.uncapped.Value-170.0/7) > 1e-9 || a.uncapped.DF != 3 {
		t.Errorf("A without capped moves: %+v", a.uncapped)
	}
	if got, want := fmtUncapped(a), fmtEstimate(a.uncapped, 0)+"; 1 capped"; got != want || !strings.HasSuffix(fmtEstimate(a.acpl, 0), "(n 4)") {
		t.Errorf("formatted %q, want %q", got, want)
	}
	b := statsOf(s, "B")
	if b.medianNodes != 7 || !math.IsNaN(b.acpl.Value) || fmtUncapped(b) != "–" {
		t.Errorf("B (not judged): %+v", b)
	}
	if got := fmtNodes(10.6, b); got != "11 (median 7)" {
		t.Errorf("nodes %q", got)
	}
}

// The heuristic engine's wins by colour and the games' ends, from the
// fixture's summaries.
func TestColourRecord(t *testing.T) {
	rs := loadRuns(t, "thesis-exp1")
	variants, _ := classify(rs)
	c := colourRecordOf(variants[0])
	var white, black, ww, bw, n int
	for _, r := range rs {
		for _, g := range r.Summary.Games {
			n++
			switch {
			case g.White == "Heuristic":
				white++
				if g.Result == "1-0" {
					ww++
				}
			case g.Black == "Heuristic":
				black++
				if g.Result == "0-1" {
					bw++
				}
			}
		}
	}
	if c.whiteGames != white || c.blackGames != black || c.whiteWins != ww || c.blackWins != bw || white+black != n || n == 0 {
		t.Errorf("record %+v, want %d/%d as White, %d/%d as Black of %d games", c, ww, white, bw, black, n)
	}
	ends := 0
	for _, k := range c.ends {
		ends += k
	}
	note := c.note()
	if ends != n || !strings.Contains(note, fmt.Sprintf("Ours won %d of %d games as White and %d of %d as Black.", ww, white, bw, black)) {
		t.Errorf("%d ends of %d games; note %q", ends, n, note)
	}
}

// A run's re-judging (judge-P.json, as arena analyze --out writes it) adds
// both engines' ACPL by that judge to the comparison, pooled over games with
// an interval; a re-judging without protocol is an error naming the file.
func TestRejudgeColumns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.CopyFS(dir, os.DirFS(runs+exp1at50)); err != nil {
		t.Fatal(err)
	}
	// Heuristic: 100 cp in 10 moves and 300 in 10 (ACPL 20); NN: 50 in 5
	// and 150 in 5 (ACPL 20).
	report := `{"judge": {"protocol": "thesis", "depth": 12}, "games": [
		{"white": "Heuristic", "black": "NN", "white_stats": {"moves": 10, "cpl_sum": 100}, "black_stats": {"moves": 5, "cpl_sum": 50}},
		{"white": "NN", "black": "Heuristic", "white_stats": {"moves": 5, "cpl_sum": 150}, "black_stats": {"moves": 10, "cpl_sum": 300}}]}`
	if err := os.WriteFile(filepath.Join(dir, "judge-thesis.json"), []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	rs, err := arep.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	variants, _ := classify(rs)
	tab := comparisonTable(variants[0])
	n := len(tab.Header)
	if tab.Header[n-2] != "Heur ACPL, thesis protocol, depth 12 (ours)" || tab.Header[n-1] != "NN ACPL, thesis protocol, depth 12 (ours)" {
		t.Fatalf("header %v", tab.Header)
	}
	// Residuals -100 and +100 of 20 moves: SE sqrt(2 * 20000)/20 = 10, 1
	// df: 12.706 * 10 = 127.
	row := tab.Rows[0]
	if row[n-2].Text != "20 ± 127 (n 2)" || row[n-1].Text != "20 ± 127 (n 2)" {
		t.Errorf("re-judged cells %q %q, want 20 ± 127 (n 2) twice", row[n-2].Text, row[n-1].Text)
	}
	if note := strings.Join(explain(variants[0]), "\n"); !strings.Contains(note, "judged again (thesis protocol, depth 12)") {
		t.Errorf("notes lack the re-judging:\n%s", note)
	}
	if err := os.WriteFile(filepath.Join(dir, "judge-x.json"), []byte(`{"games": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := arep.Load(dir); err == nil || !strings.Contains(err.Error(), "judge-x.json: no judge protocol and depth") {
		t.Errorf("error %v, want one naming judge-x.json", err)
	}
}

// The capped moves' signature, from hand-made games: the heuristic (H) as
// White in a game cut at the move limit, shuffling a bishop in a won
// position the judge scores as a mate before its move and 0 after a
// repetition; one more capped move as Black in a game it lost.
func TestCappedNote(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	r := &arep.Run{Summary: &record.Summary{Judge: record.JudgeSummary{Cap: 900, MateScore: 10000}, Games: []record.GameSummary{
		{Game: 1, White: "H", Black: "O", Termination: record.TermAdjudicated},
		{Game: 2, White: "O", Black: "H", Termination: record.TermNormal},
	}}}
	r.Moves = []arep.Move{
		{Game: 1, Engine: "H", UCI: "c1e3", CPL: f(10), Eval: f(500)},
		{Game: 1, Engine: "O", UCI: "h8g8", CPL: f(900), Eval: f(9990)},
		{Game: 1, Engine: "H", UCI: "e3c1", CPL: f(900), Eval: f(5000)}, // undoes c1e3 after a mate score
		{Game: 1, Engine: "O", UCI: "g8h8", CPL: f(0), Eval: f(9990)},
		{Game: 1, Engine: "H", UCI: "c1e3", CPL: f(900), Eval: f(0)}, // and again, into a repetition
		{Game: 2, Engine: "O", UCI: "e2e4", CPL: f(0), Eval: f(20)},
		{Game: 2, Engine: "H", UCI: "f7f6", CPL: f(900), Eval: f(-3000)}, // a blunder as Black
	}
	s := &setting{runs: []*arep.Run{r}, heur: record.EngineSummary{Name: "H"}, opp: record.EngineSummary{Name: "O"}}
	s.first = firstGames(s.runs)
	c := cappedOf(&variant{settings: []*setting{s}}, true)
	want := cappedStats{loss: 2710, cappedLoss: 2700, capped: 3, whiteCut: 2, shuffles: 2, mateBefore: 2, drawAfter: 1}
	if c != want {
		t.Fatalf("capped stats %+v, want %+v", c, want)
	}
	// 2 of 3 capped moves as White: short of the bug's signature (90%).
	if n := c.note("heuristic"); !strings.Contains(n, "100% of its centipawn loss comes from 3 moves") || strings.Contains(n, "mate-sign bug") {
		t.Errorf("note %q", n)
	}
	c.whiteCut, c.mateBefore = 3, 3
	if n := c.note("heuristic"); !strings.Contains(n, "mate-sign bug") {
		t.Errorf("note %q lacks the bug with its signature", n)
	}
}
