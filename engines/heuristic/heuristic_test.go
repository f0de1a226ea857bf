package heuristic

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"arena/engines"
	"arena/engines/board"
)

const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// testPositions is a spread of openings, middlegames, endgames, checks and
// positions with a single legal move.
var testPositions = []string{
	engines.StartFEN,
	kiwipete,
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
	"4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",                               // in check
	"k7/8/8/8/8/8/1r6/K6r w - - 0 1",                                // one legal move: Kxb2
	"7k/8/8/8/8/8/5q2/7K w - - 0 1",                                 // stalemate
	"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", // checkmated
}

func newEngine(t testing.TB, opts map[string]string) *Engine {
	t.Helper()
	e, err := engines.New(Name, opts)
	if err != nil {
		t.Fatalf("new engine %v: %v", opts, err)
	}
	return e.(*Engine)
}

func search(t testing.TB, e *Engine, fen string, lim engines.Limits) engines.Result {
	t.Helper()
	res, err := e.Search(context.Background(), engines.Position{FEN: fen}, lim, nil)
	if err != nil {
		t.Fatalf("search %s: %v", fen, err)
	}
	return res
}

// legalMoves returns the UCI strings of the legal moves in fen.
func legalMoves(t testing.TB, fen string) map[string]bool {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatalf("parse %s: %v", fen, err)
	}
	var ml board.MoveList
	p.GenerateLegal(&ml)
	out := map[string]bool{}
	for _, m := range ml.Slice() {
		out[m.String()] = true
	}
	return out
}

func TestAlwaysReturnsALegalMove(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	limits := []struct {
		name string
		lim  engines.Limits
		ctx  context.Context
	}{
		{"one node (depth 1 aborted)", engines.Limits{Nodes: 1}, context.Background()},
		{"depth 1", engines.Limits{Depth: 1}, context.Background()},
		{"depth 3", engines.Limits{Depth: 3}, context.Background()},
		{"movetime 5ms", engines.Limits{MoveTime: 5 * time.Millisecond}, context.Background()},
		{"clock", engines.Limits{WTime: 100 * time.Millisecond, BTime: 100 * time.Millisecond}, context.Background()},
		{"cancelled before the start", engines.Limits{}, cancelled},
	}
	for _, preset := range []string{"default", "strong", "thesis"} {
		e := newEngine(t, map[string]string{"preset": preset})
		for _, fen := range testPositions {
			legal := legalMoves(t, fen)
			for _, l := range limits {
				res, err := e.Search(l.ctx, engines.Position{FEN: fen}, l.lim, nil)
				if err != nil {
					t.Fatalf("%s %s %s: %v", preset, l.name, fen, err)
				}
				if len(legal) == 0 {
					if res.Move != "" {
						t.Errorf("%s %s %s: move %q in a position without legal moves", preset, l.name, fen, res.Move)
					}
					continue
				}
				if !legal[res.Move] {
					t.Errorf("%s %s %s: move %q is not legal", preset, l.name, fen, res.Move)
				}
			}
		}
	}
}

func TestPVIsLegal(t *testing.T) {
	for _, preset := range []string{"default", "strong", "thesis"} {
		e := newEngine(t, map[string]string{"preset": preset})
		for _, fen := range testPositions[:6] {
			var last engines.Info
			res, err := e.Search(context.Background(), engines.Position{FEN: fen}, engines.Limits{Depth: 5}, func(i engines.Info) {
				if i.Depth != last.Depth+1 {
					t.Errorf("%s %s: info depth %d after %d", preset, fen, i.Depth, last.Depth)
				}
				if i.Nodes < last.Nodes || len(i.PV) == 0 || i.SelDepth < i.Depth {
					t.Errorf("%s %s: bad info %+v after %+v", preset, fen, i, last)
				}
				last = i
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Depth != 5 || last.Depth != 5 || res.Nodes < last.Nodes || res.Move != last.PV[0] || res.Score != last.Score {
				t.Errorf("%s %s: result %+v does not match the last info %+v", preset, fen, res, last)
			}
			p, _ := board.ParseFEN(fen)
			for i, uci := range res.PV {
				m, err := p.ParseMove(uci)
				if err != nil {
					t.Fatalf("%s %s: PV %v move %d: %v", preset, fen, res.PV, i, err)
				}
				p.MakeMove(m)
			}
			if len(res.PV) > 1 && res.Ponder != res.PV[1] {
				t.Errorf("%s %s: ponder %q, PV %v", preset, fen, res.Ponder, res.PV)
			}
		}
	}
}

func TestMatesWithDefaultSettings(t *testing.T) {
	tests := []struct {
		name, fen string
		depth     int
		move      string // "" when any move is fine
		mate      int
	}{
		{"back rank mate in 1", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 3, "a1a8", 1},
		{"scholar's mate in 1", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1", 3, "f3f7", 1},
		{"rook roller mate in 2", "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 4, "", 2},
		{"mated in 1", "7k/1R6/8/8/8/8/R7/6K1 b - - 0 1", 4, "", -1},
		{"seed-002 position: mate in 3 (1.Qh1!)", "Q7/5p2/5P1p/5PPN/6Pk/4N1Rp/7P/6K1 w - - 0 1", 6, "a8h1", 3},
	}
	e := newEngine(t, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := search(t, e, tc.fen, engines.Limits{Depth: tc.depth})
			if res.Score.Mate != tc.mate || (tc.move != "" && res.Move != tc.move) {
				t.Errorf("got %s %s, want mate %d with %q", res.Move, res.Score, tc.mate, tc.move)
			}
		})
	}
}

// TestStrongFindsSeedMates runs seed 002's mate puzzles. The second is
// quoted there (and in THESIS.md) as a mate in 4 found at depth 6, but
// 1.Qh1! mates in 3 (1...Kxg5 2.Ng2 hxg2 3.h4#; 1...hxg5 2.Qg2 hxg2
// 3.Nxg2#), which Stockfish confirms with searchmoves a8h1. The strong
// engine's reductions and pruning make a nominal depth shallower than the
// seed's: it reports mate 4 at depths 8-14 and the shortest mate from depth
// 15. Static exchange pruning is what hides it longest: 2.Ng2 and 2.Qg2
// offer a piece to a pawn, so they are skipped near the leaves; without
// see_pruning the mate in 3 appears at depth 11, in fewer nodes than the
// seed-002 options needed at depth 7 (174,718).
func TestStrongFindsSeedMates(t *testing.T) {
	const mateIn3 = "Q7/5p2/5P1p/5PPN/6Pk/4N1Rp/7P/6K1 w - - 0 1"
	tests := []struct {
		fen   string
		opts  map[string]string
		depth int
		move  string
		mate  int
	}{
		{"r1k4r/ppp1bq1p/2n1N3/6B1/3p2Q1/8/PPP2PPP/R5K1 w - - 0 1", nil, 11, "e6c5", 6},
		{mateIn3, nil, 8, "", 4},
		{mateIn3, nil, 14, "", 4},
		{mateIn3, nil, 15, "a8h1", 3},
		{mateIn3, map[string]string{"see_pruning": "false"}, 11, "a8h1", 3},
	}
	for _, tc := range tests {
		opts := map[string]string{"preset": "strong"}
		maps.Copy(opts, tc.opts)
		res := search(t, newEngine(t, opts), tc.fen, engines.Limits{Depth: tc.depth})
		t.Logf("%s %v depth %d: %s %s nodes %d pv %v", tc.fen, tc.opts, tc.depth, res.Move, res.Score, res.Nodes, res.PV)
		if res.Score.Mate != tc.mate || (tc.move != "" && res.Move != tc.move) {
			t.Errorf("%s %v depth %d: got %s %s, want mate %d with %q", tc.fen, tc.opts, tc.depth, res.Move, res.Score, tc.mate, tc.move)
		}
	}
}

// TestTechniquesReduceNodes compares fixed-depth node counts with every
// technique on (preset=strong) and off (the thesis engine). Seed 002 reports
// about 100x at depth 6, against a baseline without a transposition table
// or move ordering; the thesis baseline here already has both.
func TestTechniquesReduceNodes(t *testing.T) {
	const depth = 6
	var off, on int64
	for _, bp := range engines.BenchPositions[:6] {
		thesis := search(t, newEngine(t, nil), bp.FEN, engines.Limits{Depth: depth})
		strong := search(t, newEngine(t, map[string]string{"preset": "strong"}), bp.FEN, engines.Limits{Depth: depth})
		t.Logf("%-10s depth %d: thesis %9d nodes, strong %8d nodes, %.1fx", bp.Name, depth, thesis.Nodes, strong.Nodes, float64(thesis.Nodes)/float64(strong.Nodes))
		off += thesis.Nodes
		on += strong.Nodes
	}
	ratio := float64(off) / float64(on)
	t.Logf("total depth %d: thesis %d nodes, strong %d nodes, %.1fx fewer", depth, off, on, ratio)
	if ratio < 30 {
		t.Errorf("all techniques on searched %d nodes vs %d off: only %.1fx fewer, want >= 30x", on, off, ratio)
	}
}

// TestEachTechniqueIsASwitch turns each technique off under preset=strong
// and requires the fixed-depth search of the bench positions to change: a
// switch that is not wired (or is shadowed by another) would leave the node
// count as it is.
func TestEachTechniqueIsASwitch(t *testing.T) {
	nodes := func(opts map[string]string) int64 {
		var n int64
		for _, bp := range engines.BenchPositions[:6] {
			n += search(t, newEngine(t, opts), bp.FEN, engines.Limits{Depth: 7}).Nodes
		}
		return n
	}
	strong := nodes(map[string]string{"preset": "strong"})
	for _, s := range switches {
		if !s.strong {
			continue
		}
		opt := s.name
		without := nodes(map[string]string{"preset": "strong", opt: "false"})
		t.Logf("strong %d nodes, without %s %d", strong, opt, without)
		if without == strong {
			t.Errorf("%s=false under preset=strong searched the same %d nodes as strong", opt, strong)
		}
	}
}

func TestNodeLimitIsExactAndDeterministic(t *testing.T) {
	for _, preset := range []string{"default", "strong", "thesis"} {
		for _, nodes := range []int64{1, 1000, 30000} {
			a := search(t, newEngine(t, map[string]string{"preset": preset}), kiwipete, engines.Limits{Nodes: nodes})
			b := search(t, newEngine(t, map[string]string{"preset": preset}), kiwipete, engines.Limits{Nodes: nodes})
			if a.Nodes != nodes {
				t.Errorf("%s nodes %d: searched %d nodes", preset, nodes, a.Nodes)
			}
			if a.Move != b.Move || a.Score != b.Score || a.Depth != b.Depth || a.Nodes != b.Nodes {
				t.Errorf("%s nodes %d: two runs differ: %+v vs %+v", preset, nodes, a, b)
			}
		}
	}
}

func TestDepthLimitIsDeterministic(t *testing.T) {
	for _, opts := range []map[string]string{nil, {"preset": "strong"}, {"pst": "thesis"}} {
		e := newEngine(t, opts)
		for _, fen := range testPositions[:5] {
			a := search(t, e, fen, engines.Limits{Depth: 5})
			e.NewGame()
			b := search(t, e, fen, engines.Limits{Depth: 5})
			e.NewGame()
			if a.Move != b.Move || a.Score != b.Score || a.Nodes != b.Nodes || strings.Join(a.PV, " ") != strings.Join(b.PV, " ") {
				t.Errorf("%v %s: two runs differ: %+v vs %+v", opts, fen, a, b)
			}
		}
	}
}

func TestMaxDepthOption(t *testing.T) {
	res := search(t, newEngine(t, map[string]string{"max_depth": "3"}), engines.StartFEN, engines.Limits{MoveTime: time.Minute})
	if res.Depth != 3 {
		t.Errorf("max_depth 3 under a minute movetime: depth %d", res.Depth)
	}
	res = search(t, newEngine(t, map[string]string{"max_depth": "3"}), engines.StartFEN, engines.Limits{Depth: 4})
	if res.Depth != 4 {
		t.Errorf("go depth 4 with max_depth 3: depth %d, want the explicit limit 4", res.Depth)
	}
}

func TestCancellationReturnsBestSoFar(t *testing.T) {
	e := newEngine(t, map[string]string{"preset": "strong"})
	ctx, cancel := context.WithCancel(context.Background())
	depths := make(chan int, 100)
	go func() {
		// Stop once two iterations are complete, as a GUI's "stop" would.
		for d := range depths {
			if d >= 2 {
				cancel()
				return
			}
		}
	}()
	res, err := e.Search(ctx, engines.Position{FEN: kiwipete}, engines.Limits{Infinite: true}, func(i engines.Info) {
		select {
		case depths <- i.Depth:
		default:
		}
	})
	close(depths)
	if err != nil {
		t.Fatalf("cancelled search: %v", err)
	}
	if !legalMoves(t, kiwipete)[res.Move] || res.Depth < 2 {
		t.Errorf("cancelled search returned %+v, want a legal move from depth >= 2", res)
	}
}

func TestInfiniteWaitsForStop(t *testing.T) {
	// Bare kings: every iteration up to the deepest is instant, after which
	// "go infinite" must still wait for the stop.
	const fen = "7k/8/8/8/8/8/8/6K1 w - - 0 1"
	e := newEngine(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	deepest := make(chan struct{})
	done := make(chan engines.Result)
	go func() {
		res, err := e.Search(ctx, engines.Position{FEN: fen}, engines.Limits{Infinite: true}, func(i engines.Info) {
			if i.Depth == maxDepth {
				close(deepest)
			}
		})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	<-deepest
	time.Sleep(20 * time.Millisecond) // give a premature return the chance to show
	select {
	case res := <-done:
		t.Fatalf("infinite search returned %+v before it was stopped", res)
	default:
	}
	cancel()
	if res := <-done; !legalMoves(t, fen)[res.Move] || res.Depth != maxDepth {
		t.Errorf("stopped infinite search: %+v, want a legal move at depth %d", res, maxDepth)
	}
}

func TestRepetitionAndFiftyMoveDraws(t *testing.T) {
	// Black is two queens down; Kg8 repeats the position a third time.
	const fen = "6k1/8/8/8/Q7/Q7/8/6K1 w - - 0 1"
	moves := []string{"g1h2", "g8h8", "h2g1", "h8g8", "g1h2", "g8h8", "h2g1"}
	e := newEngine(t, nil)
	res, err := e.Search(context.Background(), engines.Position{FEN: fen, Moves: moves}, engines.Limits{Depth: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Move != "h8g8" || res.Score != (engines.Score{}) {
		t.Errorf("third repetition available: got %s %s, want h8g8 cp 0", res.Move, res.Score)
	}
	lost := search(t, e, "7k/8/8/8/Q7/Q7/8/6K1 b - - 0 1", engines.Limits{Depth: 4})
	if lost.Score.CP > -1000 && lost.Score.Mate == 0 {
		t.Errorf("same position without the history: %s, want a lost score", lost.Score)
	}

	fifty := search(t, e, "7k/8/8/8/Q7/Q7/8/6K1 b - - 99 80", engines.Limits{Depth: 4})
	if fifty.Score != (engines.Score{}) {
		t.Errorf("any move completes fifty moves: score %s, want cp 0", fifty.Score)
	}
}

func TestHashOptionKeepsTableBetweenMoves(t *testing.T) {
	lim := engines.Limits{Depth: 6}
	thesis := newEngine(t, nil)
	first, second := search(t, thesis, kiwipete, lim), search(t, thesis, kiwipete, lim)
	if first.Nodes != second.Nodes {
		t.Errorf("hash=0 clears the table before each move: %d then %d nodes", first.Nodes, second.Nodes)
	}
	kept := newEngine(t, map[string]string{"hash": "8"})
	first, second = search(t, kept, kiwipete, lim), search(t, kept, kiwipete, lim)
	if second.Nodes*2 > first.Nodes {
		t.Errorf("hash=8 keeps the table: %d then %d nodes, want the repeat search at least 2x cheaper", first.Nodes, second.Nodes)
	}
	kept.NewGame()
	if again := search(t, kept, kiwipete, lim); again.Nodes != first.Nodes {
		t.Errorf("after NewGame: %d nodes, want the fresh-table count %d", again.Nodes, first.Nodes)
	}
}

func TestOptionErrors(t *testing.T) {
	tests := []struct {
		opts map[string]string
		want []string
	}{
		{map[string]string{"bogus": "1"}, []string{`unknown option "bogus"`, "max_depth", "null_move", "preset", "pst"}},
		{map[string]string{"max_depth": "ten"}, []string{"max_depth", `"ten" is not an integer`, "1..64"}},
		{map[string]string{"max_depth": "0"}, []string{"max_depth", "out of range"}},
		{map[string]string{"hash": "5000"}, []string{"hash", "out of range", "0..4096"}},
		{map[string]string{"lmr": "maybe"}, []string{"lmr", "not a boolean"}},
		{map[string]string{"preset": "fast"}, []string{"preset", `"fast" is not one of default, strong, thesis`}},
		{map[string]string{"pst": "mirrored"}, []string{"pst", "correct, thesis"}},
	}
	for _, tc := range tests {
		_, err := engines.New(Name, tc.opts)
		if err == nil {
			t.Errorf("%v: no error", tc.opts)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q does not mention %q", tc.opts, err, w)
			}
		}
	}
}

func TestPresetPrecedence(t *testing.T) {
	tests := []struct {
		opts         map[string]string
		maxDepth, mb int
		keep, lmr    bool
	}{
		{nil, 10, thesisTTMB, false, false},
		{map[string]string{"lmr": "true", "hash": "32"}, 10, 32, true, true},
		{map[string]string{"preset": "strong"}, 64, 64, true, true},
		{map[string]string{"preset": "strong", "hash": "8", "max_depth": "12", "lmr": "false"}, 12, 8, true, false},
		// Values equal to the defaults still win over the preset.
		{map[string]string{"preset": "strong", "max_depth": "10", "hash": "0"}, 10, thesisTTMB, false, true},
		{map[string]string{"lmr": "false", "preset": "strong"}, 64, 64, true, false},
		// The value preset leaves an option to the preset (UCI declares
		// it as the default of every option a preset sets).
		{map[string]string{"preset": "strong", "lmr": "preset", "hash": "Preset", "max_depth": "preset"}, 64, 64, true, true},
		{map[string]string{"lmr": "preset"}, 10, thesisTTMB, false, false},
	}
	for _, tc := range tests {
		e := newEngine(t, tc.opts)
		c := e.cfg
		if c.maxDepth != tc.maxDepth || c.hashMB != tc.mb || c.keepTT != tc.keep || c.lmr != tc.lmr {
			t.Errorf("%v: config %+v, want max_depth %d, %d MB, keep %v, lmr %v", tc.opts, c, tc.maxDepth, tc.mb, tc.keep, tc.lmr)
		}
	}
	// An option no preset sets has no value preset.
	if _, err := engines.New(Name, map[string]string{"probability": "preset"}); err == nil || !strings.Contains(err.Error(), "expected true or false)") {
		t.Errorf("probability=preset: error %v, want one expecting true or false", err)
	}
	if _, err := engines.New(Name, map[string]string{"lmr": "maybe"}); err == nil || !strings.Contains(err.Error(), "expected true or false, or preset") {
		t.Errorf("lmr=maybe: error %v, want one expecting true or false, or preset", err)
	}
	if got := newEngine(t, map[string]string{"preset": "strong"}).Name(); !strings.Contains(got, "null_move") {
		t.Errorf("strong engine name %q does not list its techniques", got)
	}
}

func TestBadPositionIsAnError(t *testing.T) {
	e := newEngine(t, nil)
	if _, err := e.Search(context.Background(), engines.Position{FEN: "not a fen"}, engines.Limits{Depth: 1}, nil); err == nil {
		t.Error("bad FEN: no error")
	}
	_, err := e.Search(context.Background(), engines.Position{Moves: []string{"e2e4", "e2e4"}}, engines.Limits{Depth: 1}, nil)
	if err == nil || !strings.Contains(err.Error(), "move 2") {
		t.Errorf("illegal second move: error %v, want one naming move 2", err)
	}
}

// TestThesisMateScore: the listing scores checkmate White-relative, so with
// preset=thesis the engine will not mate as White (Rd8#) but mates as Black
// in the mirrored position; the default engine mates in both.
func TestThesisMateScore(t *testing.T) {
	white := "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
	black := "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"
	for depth := 1; depth <= 5; depth++ {
		lim := engines.Limits{Depth: depth}
		// At depth 1 the default quiescence does not test for mate.
		if got := search(t, newEngine(t, nil), white, lim); got.Move != "d1d8" || (depth > 1 && got.Score.Mate != 1) {
			t.Errorf("default, depth %d: %s %v, want d1d8 mate 1", depth, got.Move, got.Score)
		}
		thesis := newEngine(t, map[string]string{"preset": "thesis"})
		if got := search(t, thesis, white, lim); got.Move == "d1d8" {
			t.Errorf("thesis as White, depth %d: plays the mate d1d8 (%v)", depth, got.Score)
		}
		if got := search(t, thesis, black, lim); got.Move != "d8d1" || got.Score.CP != 99999 {
			t.Errorf("thesis as Black, depth %d: %s %v, want d8d1 cp 99999", depth, got.Move, got.Score)
		}
	}
}

// TestThesisQuiescenceSkipsQuietPromotions: at depth 1 a quiet promotion is
// found only if quiescence searches it. White's e7e8q is quiet; after the
// only legal capture-free reply the default quiescence sees the queen, the
// listing's does not.
func TestThesisQuiescenceSkipsQuietPromotions(t *testing.T) {
	fen := "7k/4P3/8/8/8/8/8/K7 b - - 0 1" // Black to move; White promotes next
	def := search(t, newEngine(t, nil), fen, engines.Limits{Depth: 1})
	thesis := search(t, newEngine(t, map[string]string{"quiescence": "thesis"}), fen, engines.Limits{Depth: 1})
	if def.Score.CP > -500 {
		t.Errorf("default quiescence: %v, want the coming queen seen (below -500 for Black)", def.Score)
	}
	if thesis.Score.CP < -500 {
		t.Errorf("thesis quiescence: %v, want the quiet promotion unseen (above -500 for Black)", thesis.Score)
	}
}

// TestThesisDraws: with draws=thesis a position repeated three times is no
// draw (python-chess's is_game_over without claims), and a fivefold is.
func TestThesisDraws(t *testing.T) {
	cycle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	var twice, four []string
	for i := 0; i < 2; i++ {
		twice = append(twice, cycle...)
	}
	for i := 0; i < 4; i++ {
		four = append(four, cycle...)
	}
	d := func(opts map[string]string, moves []string) bool {
		e := newEngine(t, opts)
		e.s.setPosition(engines.Position{Moves: moves})
		return e.s.isThesisDraw(e.s.rootIndex)
	}
	if d(map[string]string{"draws": "thesis"}, twice) {
		t.Error("draws=thesis: a threefold repetition counts as a draw")
	}
	if !d(map[string]string{"draws": "thesis"}, four) {
		t.Error("draws=thesis: a fivefold repetition is not a draw")
	}
}
