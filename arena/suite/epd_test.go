package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeSuite(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.epd")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// scholar is the position before 4.Qxf7#, White to move.
const scholar = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq -"

func TestParseAndScore(t *testing.T) {
	path := writeSuite(t,
		"# a comment",
		"",
		scholar+` bm Qxf7#; id "mate.001"; c0 "Qxf7#=10, Nf3=2";`,
		scholar+` bm Nf3; c0 "Nf3=10, Qxf7+=5, Qf7=1"; id "partial 2";`,                  // check sign where SAN has mate; capture mark missing
		scholar+` 4 4 am Qxf7; id "avoid.003";`,                                          // a six-field FEN
		`4k3/1P6/8/8/8/8/8/4K3 w - - c0 "b8=Q=10, b8Q+=9, b8=R=4, Kd2=1"; id "promo.4";`, // promotions written two ways: the higher points count
		`2rq2k1/1p3pb1/1n4pp/pP2p3/P1b1P3/2N4P/2B1NPP1/R1Q3K1 b - - bm Bf8; c0 "Bg7f8=10, 0-0=0, Rc7=3";`,
	)
	// 0-0 is not legal in the last position (no castling rights): an error.
	if _, err := LoadFile(path); err == nil || !strings.Contains(err.Error(), path+":7: c0: \"0-0\" is not a legal move") {
		t.Fatalf("illegal c0 move: got %v", err)
	}
	data, _ := os.ReadFile(path)
	fixed := strings.Replace(string(data), "0-0=0, ", "", 1)
	if err := os.WriteFile(path, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 5 {
		t.Fatalf("%d positions, want 5", len(ps))
	}
	for i, want := range []struct {
		line  int
		theme string
		fen   string
		max   int
	}{
		{3, "mate", scholar + " 0 1", 10},
		{4, "partial", scholar + " 0 1", 10},
		{5, "avoid", scholar + " 4 4", 10},
		{6, "promo", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", 10},
		{7, "t", "2rq2k1/1p3pb1/1n4pp/pP2p3/P1b1P3/2N4P/2B1NPP1/R1Q3K1 b - - 0 1", 10},
	} {
		p := ps[i]
		if p.Line != want.line || p.Theme != want.theme || p.FEN != want.fen || p.Max != want.max {
			t.Errorf("position %d: line %d theme %q FEN %q max %d; want %+v", i, p.Line, p.Theme, p.FEN, p.Max, want)
		}
	}
	for _, c := range []struct {
		pos    int
		move   string
		points int
		solved bool
	}{
		{0, "h5f7", 10, true}, {0, "g1f3", 2, false}, {0, "a2a3", 0, false},
		{1, "h5f7", 5, false}, {1, "g1f3", 10, true},
		{2, "h5f7", 0, false}, {2, "g1f3", 10, true}, // am only: anything else solves it
		{3, "b7b8q", 10, true}, {3, "b7b8r", 4, false}, {3, "e1d2", 1, false}, {3, "b7b8n", 0, false},
		{4, "g7f8", 10, true}, {4, "c8c7", 3, false},
	} {
		points, solved := ps[c.pos].Score(c.move)
		if points != c.points || solved != c.solved {
			t.Errorf("position %d, %s: %d points, solved %v; want %d, %v", c.pos, c.move, points, solved, c.points, c.solved)
		}
	}
	if san := ps[0].SAN("h5f7"); san != "Qxf7#" {
		t.Errorf("SAN of h5f7: %q, want Qxf7#", san)
	}
	if san := ps[0].SAN("h5h8"); san != "" {
		t.Errorf("SAN of an illegal move: %q, want empty", san)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, c := range []struct {
		line, want string
	}{
		{"8/8/8/8/8/8/8/8 w - - bm e4;", "t.epd:1: "}, // no kings: the board's FEN error
		{scholar + ` id "x";`, "t.epd:1: no bm, am or c0"},
		{scholar + ` bm Qxf8;`, `t.epd:1: bm: "Qxf8" is not a legal move`},
		{scholar + ` c0 "Qxf7";`, `t.epd:1: c0: "Qxf7" is not MOVE=POINTS`},
		{scholar + ` c0 "Qxf7=ten";`, `t.epd:1: c0: "Qxf7=ten": points "ten" are not a whole number`},
		{scholar + ` c0 "Qxf7=10;`, "t.epd:1: EPD operations"},
		{"rnbqkbnr w KQkq", "t.epd:1: \"rnbqkbnr w KQkq\" is not a FEN or EPD position"},
		{scholar, "t.epd:1: no bm, am or c0"},
		{"# only a comment", "no positions"},
	} {
		_, err := LoadFile(writeSuite(t, c.line))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error containing %q", c.line, err, c.want)
		}
	}
}

func TestThemes(t *testing.T) {
	ps, err := LoadFile(writeSuite(t,
		scholar+` bm Qxf7#; id "STS(v3.0) Knight Outposts/Repositioning.001";`,
		scholar+` bm Qxf7#; id "STS(v3.0) Knight Outposts/Centralization.002";`,
		scholar+` bm Qxf7#; id "WAC.003";`,
	))
	if err != nil {
		t.Fatal(err)
	}
	results := [][]Result{{{Done: true, Points: 10, Solved: true}, {Done: true, Points: 3}, {}}}
	themes, total := Tallies(ps, results)
	if len(themes) != 2 || themes[0].Name != "STS(v3.0) Knight Outposts/Repositioning" || themes[1].Name != "WAC" {
		t.Fatalf("themes %+v", themes)
	}
	if got := themes[0].Tallies[0]; got.Positions != 2 || got.Done != 2 || got.Points != 13 || got.Solved != 1 || got.Max != 20 {
		t.Errorf("first theme %+v", got)
	}
	if got := total[0]; got.Positions != 3 || got.Done != 2 || got.Points != 13 || got.Max != 30 {
		t.Errorf("total %+v", got)
	}
}
