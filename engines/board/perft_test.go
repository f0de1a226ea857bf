package board

import (
	"os"
	"strings"
	"testing"
	"time"
)

// quickPerftLimit bounds the counts checked by a plain `go test`; set
// ARENA_PERFT_FULL=1 to check every count of testdata/perft.epd (a few
// hundred million nodes, about a minute).
const quickPerftLimit = 5_000_000

func TestPerftEPD(t *testing.T) {
	lines, err := ReadPerftFile("testdata/perft.epd")
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 8 {
		t.Fatalf("testdata/perft.epd: %d positions, expected 8", len(lines))
	}
	limit := uint64(quickPerftLimit)
	if os.Getenv("ARENA_PERFT_FULL") == "1" {
		limit = 0
	}
	checked := 0
	bad, err := CheckEPD(lines, limit, func(c PerftCheck) {
		if c.Skipped {
			return
		}
		checked++
		if !c.OK() {
			t.Errorf("line %d %q depth %d: got %d nodes, expected %d", c.Line, c.FEN, c.Depth, c.Got, c.Expected)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if bad != 0 {
		t.Errorf("CheckEPD reported %d mismatches", bad)
	}
	if checked < 30 {
		t.Errorf("only %d counts checked, expected at least 30", checked)
	}
}

func TestDivideSumsToPerft(t *testing.T) {
	p := mustFEN(t, kiwipete)
	div := Divide(p, 3)
	if len(div) != 48 {
		t.Fatalf("Divide: %d root moves, expected 48", len(div))
	}
	var sum uint64
	for _, d := range div {
		sum += d.Nodes
	}
	if sum != 97862 {
		t.Errorf("Divide sums to %d, expected 97862", sum)
	}
	if p.FEN() != kiwipete {
		t.Errorf("Divide changed the position to %s", p.FEN())
	}
}

func TestParseEPDErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{StartFEN + " ;D1 20\n\n" + StartFEN + " ;D1 2x", `t.epd:3: ";D1 2x": expected "D<depth> <nodes>"`},
		{StartFEN + " ;X1 20", `t.epd:1: ";X1 20"`},
		{StartFEN + " ;D0 1", `t.epd:1: ";D0 1"`},
		{StartFEN, `t.epd:1: no perft counts`},
		{"# comment\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1 ;D1 20", `t.epd:2: fen "`},
	}
	for _, c := range cases {
		_, err := ParsePerftEPD(strings.NewReader(c.text), "t.epd")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseEPD(%q): error %v, expected it to contain %q", c.text, err, c.want)
		}
	}
	lines, err := ParsePerftEPD(strings.NewReader("# c\n\n"+StartFEN+" ;D1 20 ;D2 400\n"), "t.epd")
	if err != nil {
		t.Fatal(err)
	}
	want := PerftLine{Line: 3, FEN: StartFEN, Counts: []PerftCount{{1, 20}, {2, 400}}}
	if len(lines) != 1 || lines[0].Line != want.Line || lines[0].FEN != want.FEN ||
		len(lines[0].Counts) != 2 || lines[0].Counts[0] != want.Counts[0] || lines[0].Counts[1] != want.Counts[1] {
		t.Errorf("ParseEPD: got %+v, expected %+v", lines, want)
	}
}

func TestCheckEPDReportsMismatchAndSkip(t *testing.T) {
	lines := []PerftLine{{Line: 7, FEN: StartFEN, Counts: []PerftCount{{1, 20}, {2, 401}, {3, 8902}}}}
	var got []PerftCheck
	bad, err := CheckEPD(lines, 1000, func(c PerftCheck) { got = append(got, c) })
	if err != nil {
		t.Fatal(err)
	}
	if bad != 1 || len(got) != 3 {
		t.Fatalf("CheckEPD: %d mismatches, %d reports; expected 1 and 3", bad, len(got))
	}
	if !got[0].OK() || got[1].OK() || got[1].Got != 400 || !got[2].Skipped || !got[2].OK() {
		t.Errorf("CheckEPD reports: %+v", got)
	}
}

// TestMakeUnmakeRestores walks perft trees checking that the incremental
// hash matches one computed from scratch after every move, and that unmaking
// restores every field (and so the FEN) exactly.
func TestMakeUnmakeRestores(t *testing.T) {
	lines, err := ReadPerftFile("testdata/perft.epd")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		p := mustFEN(t, l.FEN)
		walkCheck(t, p, 3)
	}
}

type snapshot struct {
	pieceBB            [16]Bitboard
	occ                [2]Bitboard
	board              [64]Piece
	hash               uint64
	side               Color
	st                 state
	ply, fullmove      int
	fen                string
	repetitions, moves int
}

func snap(p *Position) snapshot {
	var ml MoveList
	p.GenerateLegal(&ml)
	return snapshot{p.pieceBB, [2]Bitboard{p.Occupancy(White), p.Occupancy(Black)}, p.board, p.hash, p.stm(), p.st,
		p.ply, p.FullmoveNumber(), p.FEN(), p.RepetitionCount(), ml.Len}
}

func walkCheck(t *testing.T, p *Position, depth int) {
	t.Helper()
	if h := p.computeHash(); h != p.hash {
		t.Fatalf("%s: incremental hash %x, from scratch %x (after %v)", p.FEN(), p.hash, h, p.LastMove())
	}
	if depth == 0 {
		return
	}
	before := snap(p)
	var ml MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		p.MakeMove(m)
		walkCheck(t, p, depth-1)
		p.UnmakeMove()
		if after := snap(p); after != before {
			t.Fatalf("make/unmake %v changed the position:\nbefore %+v\nafter  %+v", m, before, after)
		}
	}
	if p.InCheck() {
		return
	}
	p.MakeNullMove()
	if h := p.computeHash(); h != p.hash {
		t.Fatalf("%s: hash after null move %x, from scratch %x", p.FEN(), p.hash, h)
	}
	p.UnmakeNullMove()
	if after := snap(p); after != before {
		t.Fatalf("null move changed the position:\nbefore %+v\nafter  %+v", before, after)
	}
}

func TestPerftDoesNotAllocate(t *testing.T) {
	p := mustFEN(t, kiwipete)
	var nodes uint64
	allocs := testing.AllocsPerRun(5, func() { nodes = Perft(p, 3) })
	if allocs != 0 {
		t.Errorf("Perft allocates %.1f times per call, expected 0", allocs)
	}
	if nodes != 97862 {
		t.Errorf("Perft(kiwipete, 3) = %d, expected 97862", nodes)
	}
	var ml MoveList
	allocs = testing.AllocsPerRun(100, func() {
		p.GenerateLegal(&ml)
		for _, m := range ml.Slice() {
			p.MakeMove(m)
			p.UnmakeMove()
		}
		p.GenerateCaptures(&ml)
	})
	if allocs != 0 {
		t.Errorf("GenerateLegal/MakeMove/UnmakeMove allocate %.1f times per call, expected 0", allocs)
	}
}

// The history grows past its initial capacity without losing entries.
func TestLongGameGrowsHistory(t *testing.T) {
	p := NewPosition()
	cycle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	for i := 0; i < 2*initialHistory+3; i++ {
		m, err := p.ParseMove(cycle[i%4])
		if err != nil {
			t.Fatalf("ply %d: %v", i, err)
		}
		p.MakeMove(m)
	}
	for p.Ply() > 0 {
		p.UnmakeMove()
	}
	if p.FEN() != StartFEN {
		t.Errorf("after unmaking everything: %s, expected %s", p.FEN(), StartFEN)
	}
}

const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

func mustFEN(t testing.TB, fen string) *Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// benchPerft reports nodes/s of make-at-every-leaf perft (the speed target),
// and nodes per CPU second of the process, which other load on a shared
// machine disturbs less.
func benchPerft(b *testing.B, fen string, depth int) {
	p := mustFEN(b, fen)
	var nodes uint64
	start := time.Now()
	cpuStart, cpuOK := processCPUTime()
	for b.Loop() {
		nodes += Perft(p, depth)
	}
	b.ReportMetric(float64(nodes)/time.Since(start).Seconds(), "nodes/s")
	if cpuEnd, ok := processCPUTime(); cpuOK && ok && cpuEnd > cpuStart {
		b.ReportMetric(float64(nodes)/(cpuEnd-cpuStart).Seconds(), "nodes/cpu-s")
	}
}

func BenchmarkPerftStart(b *testing.B) { benchPerft(b, StartFEN, 5) }

func BenchmarkPerftKiwipete(b *testing.B) { benchPerft(b, kiwipete, 4) }

func BenchmarkGenerateLegal(b *testing.B) {
	p := mustFEN(b, kiwipete)
	var ml MoveList
	for b.Loop() {
		p.GenerateLegal(&ml)
	}
	b.ReportMetric(float64(ml.Len), "moves")
}
