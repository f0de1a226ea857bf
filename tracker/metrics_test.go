package tracker

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestEvalScore(t *testing.T) {
	// python-chess: Cp(n).score() = n; Mate(n>0).score(mate_score=M) = M-n;
	// Mate(n<=0).score(mate_score=M) = -M-n.
	cases := []struct {
		e    Eval
		want int
	}{
		{CP(35), 35},
		{CP(-120), -120},
		{MateIn(1), 9999},
		{MateIn(3), 9997},
		{MateIn(-3), -9997},
		{MateIn(0), -10000},
	}
	for _, c := range cases {
		if got := c.e.Score(10000); got != c.want {
			t.Errorf("%v.Score(10000) = %d, want %d", c.e, got, c.want)
		}
	}
}

func TestCentipawnLoss(t *testing.T) {
	s := DefaultScoring
	cases := []struct {
		name          string
		before, after Eval // before: mover's view; after: opponent's view
		want          int
	}{
		{"small loss", CP(50), CP(30), 80},             // best 50, actual -30
		{"improvement is no loss", CP(50), CP(-70), 0}, // actual 70 > best
		{"capped", CP(100), CP(2000), 900},             // 2100 capped
		{"mate delivered", MateIn(1), MateIn(0), 0},    // best 9999, actual 10000
		{"allows mate", CP(0), MateIn(2), 900},         // actual -9998
		{"faster mate than expected", MateIn(3), MateIn(-2), 0},
		{"slower mate", MateIn(2), MateIn(-4), 2}, // 9998 - 9996
	}
	for _, c := range cases {
		if got := s.CentipawnLoss(c.before, c.after); got != c.want {
			t.Errorf("%s: CentipawnLoss(%v, %v) = %d, want %d", c.name, c.before, c.after, got, c.want)
		}
	}
}

func TestWinPercent(t *testing.T) {
	// 50 + 50*(2/(1+exp(-0.00368208*cp)) - 1), cp clamped to ±1000.
	cases := []struct {
		cp   int
		want float64
	}{
		{0, 50},
		{100, 59.10258971916128},
		{-100, 40.89741028083871},
		{300, 75.11255009383484},
		{1000, 97.54474363414323},
		{5000, 97.54474363414323},
		{-5000, 100 - 97.54474363414323},
	}
	for _, c := range cases {
		if got := WinPercent(c.cp); !near(got, c.want, 1e-9) {
			t.Errorf("WinPercent(%d) = %.12f, want %.12f", c.cp, got, c.want)
		}
	}
	if got := MateIn(5).lichessCP(); got != 1000 {
		t.Errorf("mate for the side to move counts as %d cp, want 1000", got)
	}
	if got := MateIn(0).lichessCP(); got != -1000 {
		t.Errorf("checkmated side to move counts as %d cp, want -1000", got)
	}
}

func TestMoveAccuracy(t *testing.T) {
	// 103.1668100711649*exp(-0.04354415386753951*d) - 3.166924740191411 + 1.
	cases := []struct {
		before, after, want float64
	}{
		{50, 50, 100},
		{50, 60, 100},
		{50, 40, 64.57982845372067},
		{60, 50, 64.57982845372067},
		{90, 10, 1.000170640274321},
		{100, 0, 0},
	}
	for _, c := range cases {
		if got := MoveAccuracy(c.before, c.after); !near(got, c.want, 1e-9) {
			t.Errorf("MoveAccuracy(%v, %v) = %.12f, want %.12f", c.before, c.after, got, c.want)
		}
	}
}

func TestClassify(t *testing.T) {
	// Drops of winning chances from 0 cp: -54 cp → 0.0991, -56 → 0.1027,
	// -150 → 0.2693, -200 → 0.3524.
	cases := []struct {
		name          string
		before, after Eval // after from the opponent's view
		want          Class
	}{
		{"tiny drop", CP(0), CP(54), Good},
		{"inaccuracy", CP(0), CP(56), Inaccuracy},
		{"mistake", CP(0), CP(150), Mistake},
		{"blunder", CP(0), CP(200), Blunder},
		{"gain", CP(0), CP(-300), Good},
		{"mate created from a lost position", CP(-1200), MateIn(5), Inaccuracy},
		{"mate created from a bad position", CP(-800), MateIn(5), Mistake},
		{"mate created from equality", CP(0), MateIn(5), Blunder},
		{"mate lost, still winning big", MateIn(3), CP(-1200), Inaccuracy},
		{"mate lost, still winning", MateIn(3), CP(-800), Mistake},
		{"mate lost", MateIn(3), CP(0), Blunder},
		{"mate lost to a mate against", MateIn(3), MateIn(2), Blunder},
		{"mate kept", MateIn(3), MateIn(-2), Good},
		{"mate delivered", MateIn(1), MateIn(0), Good},
		{"mate delivered from cp", CP(300), MateIn(0), Good},
	}
	for _, c := range cases {
		if got := Classify(c.before, c.after); got != c.want {
			t.Errorf("%s: Classify(%v, %v) = %q, want %q", c.name, c.before, c.after, got, c.want)
		}
	}
}

func TestAnalyzeGame(t *testing.T) {
	// Black moves first. Positions: 0 black to move, 1 white, 2 black, 3 white (checkmated).
	evals := []Eval{CP(20), CP(40), CP(300), MateIn(0)}
	moves := []string{"a", "b", "c"}
	g, err := AnalyzeGame(evals, Black, moves, DefaultScoring)
	if err != nil {
		t.Fatal(err)
	}
	wantCPL := []int{60, 340, 0} // 20-(-40); 40-300; mate delivered
	wantSide := []Side{Black, White, Black}
	for i, j := range g.Judgements {
		if j.Ply != i || j.Move != moves[i] || j.CPL != wantCPL[i] || j.Side != wantSide[i] {
			t.Errorf("judgement %d = ply %d move %q cpl %d side %v, want ply %d move %q cpl %d side %v",
				i, j.Ply, j.Move, j.CPL, j.Side, i, moves[i], wantCPL[i], wantSide[i])
		}
	}
	if g.Black.Moves != 2 || g.Black.CPLSum != 60 || g.Black.ACPL != 30 || g.Black.Games != 1 {
		t.Errorf("black stats = %+v, want 2 moves, CPL sum 60, ACPL 30, 1 game", g.Black)
	}
	if g.White.Moves != 1 || g.White.ACPL != 340 || g.White.Blunders != 1 {
		t.Errorf("white stats = %+v, want 1 move, ACPL 340, 1 blunder", g.White)
	}
	if g.Judgements[1].Class != Blunder {
		t.Errorf("white's 340 cp loss from +40 classed %q, want blunder", g.Judgements[1].Class)
	}
	if _, err := AnalyzeGame(evals, White, []string{"a"}, DefaultScoring); err == nil {
		t.Error("AnalyzeGame accepted 4 evaluations for 1 move")
	}
	if _, err := AnalyzeGame(nil, White, nil, DefaultScoring); err == nil {
		t.Error("AnalyzeGame accepted no evaluations")
	}
}

// lichessCase converts a lila AccuracyPercentTest case (evaluations after
// each move, from White's side, with lila's implicit +15 cp start position)
// to our evaluations (position 0 included, each from its side to move).
func lichessCase(first Side, whiteCPs []int) []Eval {
	return whiteView(first, append([]int{15}, whiteCPs...))
}

// whiteView converts evaluations of positions 0..n from White's side to
// evaluations from each position's side to move.
func whiteView(first Side, whiteCPs []int) []Eval {
	var evals []Eval
	side := first
	for _, cp := range whiteCPs {
		if side == Black {
			cp = -cp
		}
		evals = append(evals, CP(cp))
		side = side.Other()
	}
	return evals
}

func TestGameAccuracyLichessCases(t *testing.T) {
	// The expectations of lila modules/analyse/src/test/AccuracyPercentTest.scala
	// (value ± tolerance).
	repeat := func(n int, xs ...int) []int {
		var out []int
		for range n {
			out = append(out, xs...)
		}
		return out
	}
	cases := []struct {
		name                     string
		first                    Side
		cps                      []int
		white, wTol, black, bTol float64
	}{
		{"two good moves", White, []int{15, 15}, 100, 1, 100, 1},
		{"white blunders on first move", White, []int{-900, -900}, 10, 5, 100, 1},
		{"black blunders on first move", White, []int{15, 900}, 100, 1, 10, 5},
		{"both blunder on first move", White, []int{-900, 0}, 10, 5, 10, 5},
		{"20 perfect moves", White, repeat(20, 15), 100, 1, 100, 1},
		{"20 perfect moves and a white blunder", White, append(repeat(20, 15), -900), 50, 5, 100, 1},
		{"21 perfect moves and a black blunder", White, append(repeat(21, 15), 900), 100, 1, 50, 5},
		{"5 average moves", White, repeat(5, -50, 15), 76, 8, 76, 8},
		{"50 average moves", White, repeat(50, -50, 15), 76, 8, 76, 8},
		{"50 mediocre moves", White, repeat(50, -135, 15), 54, 8, 54, 8},
		{"50 terrible moves", White, repeat(50, -435, 15), 20, 8, 20, 8},
		{"black first, two good moves", Black, []int{15, 15}, 100, 1, 100, 1},
		{"black first, black blunders", Black, []int{900, 900}, 100, 1, 10, 5},
		{"black first, white blunders", Black, []int{15, -900}, 10, 5, 100, 1},
		{"black first, both blunder", Black, []int{900, 0}, 10, 5, 10, 5},
	}
	for _, c := range cases {
		acc := GameAccuracy(lichessCase(c.first, c.cps), c.first)
		if !near(acc[White], c.white, c.wTol) || !near(acc[Black], c.black, c.bTol) {
			t.Errorf("%s: accuracy white %.2f black %.2f, want %.0f±%.0f and %.0f±%.0f",
				c.name, acc[White], acc[Black], c.white, c.wTol, c.black, c.bTol)
		}
	}
}

func TestGameAccuracyByHand(t *testing.T) {
	// White loses 100 cp, Black then holds: win% (White's) 50, 40.897, 40.897.
	// One move per side, so each side's weighted and harmonic means are its
	// move accuracy: White MoveAccuracy(50, 40.897...) = 67.2397..., Black 100.
	evals := []Eval{CP(0), CP(100), CP(-100)}
	acc := GameAccuracy(evals, White)
	if !near(acc[White], 67.2397212280418, 1e-9) || acc[Black] != 100 {
		t.Errorf("accuracy = %v, want [67.2397212280418 100]", acc)
	}
	if got := GameAccuracy([]Eval{CP(0)}, White); got != [2]float64{} {
		t.Errorf("accuracy of a game without moves = %v, want zeros", got)
	}
}

func TestGameAccuracyWeights(t *testing.T) {
	// Expected values from a line-by-line Python transcription of lila's
	// gameAccuracy (window 3 for 34 moves, so the first window is repeated
	// once; window 2 for 5 moves with Black first).
	long := []int{20, -50, 15, -135, 40, 300, -200, -180, -190, 120, 100, -400, -380, -900, -850, -860, -870,
		-800, -700, -750, -2000, -1500, -1600, -1550, -1500, -900, -950, -300, -320, -310, 0, 10, -5, 5, 0}
	cases := []struct {
		first        Side
		cps          []int // positions 0..n from White's side
		white, black float64
	}{
		{White, long, 75.09620239463982, 83.19941189798712},
		{Black, []int{-30, 60, -20, 500, 480, 470}, 79.43302410710899, 34.82240830328273},
	}
	for _, c := range cases {
		acc := GameAccuracy(whiteView(c.first, c.cps), c.first)
		if !near(acc[White], c.white, 1e-9) || !near(acc[Black], c.black, 1e-9) {
			t.Errorf("%d moves, %v first: accuracy %v, want [%v %v]", len(c.cps)-1, c.first, acc, c.white, c.black)
		}
	}
}

func TestPlayerStatsAdd(t *testing.T) {
	var p PlayerStats
	p.Add(PlayerStats{Games: 1, Moves: 10, CPLSum: 500, ACPL: 50, Accuracy: 80, Blunders: 1})
	p.Add(PlayerStats{Games: 1, Moves: 30, CPLSum: 300, ACPL: 10, Accuracy: 90, Mistakes: 2})
	p.Add(PlayerStats{}) // a game without moves changes nothing
	want := PlayerStats{Games: 2, Moves: 40, CPLSum: 800, ACPL: 20, Accuracy: 85, Mistakes: 2, Blunders: 1}
	if p != want {
		t.Errorf("aggregated stats = %+v, want %+v", p, want)
	}
}

// Skipped plies (an engine's own book moves) are judged but count in
// neither side's statistics: Black's first move (60 cp) is left out.
func TestAnalyzeMovesExcept(t *testing.T) {
	evals := []Eval{CP(20), CP(40), CP(300), MateIn(0)}
	moves := []string{"a", "b", "c"}
	all, err := AnalyzeMoves(evals[:3], evals[1:], Black, moves, DefaultScoring)
	if err != nil {
		t.Fatal(err)
	}
	g, err := AnalyzeMovesExcept(evals[:3], evals[1:], Black, moves, DefaultScoring, []bool{true, false, false})
	if err != nil {
		t.Fatal(err)
	}
	if g.Judgements[0].CPL != 60 {
		t.Errorf("the skipped ply is not judged: %+v", g.Judgements[0])
	}
	if g.Black.Moves != 1 || g.Black.CPLSum != 0 || g.Black.ACPL != 0 {
		t.Errorf("black stats = %+v, want 1 move with no loss", g.Black)
	}
	if g.White != all.White {
		t.Errorf("white stats changed: %+v, was %+v", g.White, all.White)
	}
	if g.Black.Accuracy == all.Black.Accuracy {
		t.Errorf("black accuracy %v counts the skipped move", g.Black.Accuracy)
	}
}
