package pgn

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func readTestPGN(t testing.TB) []Game {
	t.Helper()
	f, err := os.Open("../testdata/handwritten.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return games
}

func TestReadPGNHandwritten(t *testing.T) {
	games := readTestPGN(t)
	want := []struct {
		white, black, result, fen string
		moves                     string
	}{
		{"Alice", "Bob", "1/2-1/2", "",
			// en passant e5f6, O-O e1g1, O-O-O e8c8; variations and comments skipped
			"e2e4 d7d5 e4e5 f7f5 e5f6 g8f6 g1f3 c8g4 f1e2 b8c6 e1g1 d8d7 d2d3 e8c8 b1c3 e7e5 c1g5 h7h6 g5f6 g7f6 f3h4 g4e2 d1e2"},
		{"Bob", "Alice", "1/2-1/2", "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 40",
			// under-promotion with capture g2h1n, promotion b7b8q
			"g2h1n b7b8q e8e7 b8b4 e7e6 e1e2 h1g3 e2f3 g3f5 b4e4 e6f6 e4f5 f6f5"},
		{"Carol", "Alice", "0-1", "", "f2f3 e7e5 g2g4 d8h4"},
		{"Alice", "Carol", "*", "", "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1 e8g8"},
	}
	if len(games) != len(want) {
		t.Fatalf("read %d games, want %d", len(games), len(want))
	}
	for i, w := range want {
		g := games[i]
		if g.Number != i+1 || g.Tags["White"] != w.white || g.Tags["Black"] != w.black || g.Result != w.result || g.StartFEN != w.fen {
			t.Errorf("game %d: number %d %s-%s %s FEN %q, want %d %s-%s %s FEN %q",
				i+1, g.Number, g.Tags["White"], g.Tags["Black"], g.Result, g.StartFEN, i+1, w.white, w.black, w.result, w.fen)
		}
		if got := strings.Join(g.Moves, " "); got != w.moves {
			t.Errorf("game %d moves:\n got %s\nwant %s", i+1, got, w.moves)
		}
		if len(g.SAN) != len(g.Moves) {
			t.Errorf("game %d: %d SAN moves for %d UCI moves", i+1, len(g.SAN), len(g.Moves))
		}
	}
	// Annotations are stripped from the SAN, check signs kept.
	if got := strings.Join(games[0].SAN[:8], " "); got != "e4 d5 e5 f5 exf6 Nxf6 Nf3 Bg4" {
		t.Errorf("game 1 SAN = %s", got)
	}
	if got := games[2].SAN[3]; got != "Qh4#" {
		t.Errorf("game 3 last SAN = %q, want Qh4#", got)
	}
}

func TestReadPGNVariants(t *testing.T) {
	cases := []struct {
		name, pgn string
		moves     [][]string
	}{
		{"no tags, no result", "1. e4 e5 2. Nf3", [][]string{{"e2e4", "e7e5", "g1f3"}}},
		{"glued move numbers and NAG glyphs", "1.e4 e5 2.Nf3 !? 2...Nc6 $14 3.Bb5 a6 *",
			[][]string{{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"}}},
		{"games without termination split at the next tag", "[White \"a\"]\n1. d4\n[White \"b\"]\n1. c4\n",
			[][]string{{"d2d4"}, {"c2c4"}}},
		{"promotion without =, long algebraic and UCI", "[SetUp \"1\"]\n[FEN \"8/P6k/8/8/8/8/8/K7 w - - 0 1\"]\n1. a8Q Kg6 2. Qa8-b8 g6g5 *",
			[][]string{{"a7a8q", "h7g6", "a8b8", "g6g5"}}},
		{"nested variations with comments", "1. e4 (1. d4 {x) y} (1. c4 c5) d5) 1... c5 (1... e5 2. Nf3 (2. f4)) 2. Nf3 1-0",
			[][]string{{"e2e4", "c7c5", "g1f3"}}},
		{"escaped quote in a tag", "[Event \"a \\\"b\\\" c\"]\n1. e4 *", [][]string{{"e2e4"}}},
	}
	for _, c := range cases {
		games, err := Read(strings.NewReader(c.pgn))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got [][]string
		for _, g := range games {
			got = append(got, g.Moves)
		}
		if !reflect.DeepEqual(got, c.moves) {
			t.Errorf("%s: moves %v, want %v", c.name, got, c.moves)
		}
	}
	games, _ := Read(strings.NewReader("[Event \"a \\\"b\\\" c\"]\n1. e4 *"))
	if len(games) == 1 && games[0].Tags["Event"] != `a "b" c` {
		t.Errorf("escaped tag value = %q", games[0].Tags["Event"])
	}
}

func TestReadPGNErrors(t *testing.T) {
	cases := []struct {
		name, pgn string
		want      []string // substrings of the error
	}{
		{"illegal move", "[Event \"one\"]\n1. e4 e5 *\n\n[Event \"two\"]\n1. e4 e5 2. Ke3 *",
			[]string{"PGN game 2", `"two"`, "line 5", "move 2. Ke3", "not legal"}},
		{"ambiguous move", "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1\"]\n1. Nb3 *",
			[]string{"PGN game 1", "move 1. Nb3", "ambiguous", "a1b3", "c1b3"}},
		{"black's move", "1. e4 e5 2. Ke2 Kf5 *", []string{"move 2... Kf5", "not legal"}},
		{"promotion piece missing", "[FEN \"8/P6k/8/8/8/8/8/K7 w - - 0 1\"]\n1. a8 *", []string{"promotion piece"}},
		{"not a move", "1. e4 hello *", []string{"move 1... hello", "not a move"}},
		{"unclosed comment", "1. e4 {oops", []string{"PGN game 1", "not closed"}},
		{"unclosed variation", "1. e4 (1. d4 d5", []string{"unterminated variation"}},
		{"stray parenthesis", "1. e4 ) e5", []string{`")" without`}},
		{"bad FEN", "[FEN \"8/8/8 w - - 0 1\"]\n1. e4 *", []string{"FEN tag"}},
		{"variant", "[Variant \"Chess960\"]\n1. e4 *", []string{"variant \"Chess960\" is not supported"}},
		{"null move", "1. e4 -- *", []string{"null moves"}},
	}
	for _, c := range cases {
		_, err := Read(strings.NewReader(c.pgn))
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", c.name, err, w)
			}
		}
	}
}

func TestWhiteScore(t *testing.T) {
	for _, c := range []struct {
		result string
		score  float64
		ok     bool
	}{{"1-0", 1, true}, {"1/2-1/2", 0.5, true}, {"0-1", 0, true}, {"*", 0, false}, {"", 0, false}, {"1-1", 0, false}} {
		if s, ok := WhiteScore(c.result); s != c.score || ok != c.ok {
			t.Errorf("WhiteScore(%q) = %v, %v; want %v, %v", c.result, s, ok, c.score, c.ok)
		}
	}
}
