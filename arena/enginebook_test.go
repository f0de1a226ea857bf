package arena

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/notnil/chess"

	"arena/arena/config"
	"arena/arena/output"
	"arena/arena/record"
)

// bookEntries: 1. e4 (weight 3) or 1. d4 (1); 1. e4 e5 (1) or c5 (3);
// 1. d4 d5; then 2. Nf3 after either reply to e4, 2. c4 after d4 d5.
var bookEntries = [][3]string{{"", "e2", "e4"}, {"", "d2", "d4"}, {"e2e4", "e7", "e5"}, {"e2e4", "c7", "c5"}, {"d2d4", "d7", "d5"},
	{"e2e4 e7e5", "g1", "f3"}, {"e2e4 c7c5", "g1", "f3"}, {"d2d4 d7d5", "c2", "c4"}}
var bookWeights = []uint16{3, 1, 1, 3, 1, 1, 1, 1}

// Engines' own books: A's book is played for its first two moves, B's for
// its first. The book moves are recorded with no time or search, marked
// {book} in the PGN, judged but left out of the averages and the judge's
// statistics, and the same at any concurrency.
func TestEngineBooks(t *testing.T) {
	t.Parallel()
	needStockfish(t)
	bin := filepath.Join(t.TempDir(), "own.bin")
	polyglotBook(t, bin, bookEntries, bookWeights)
	conf := func(n int) string {
		judge := "off"
		if n == 1 {
			judge = "{depth: 4}"
		}
		return fmt.Sprintf(`
games: 6
max_moves: 10
judge: %s
concurrency: %d
limits: {depth: 1}
engines:
  - {name: A, engine: random, book: {file: %q, depth: 2}}
  - {name: B, engine: random, book: {file: %q, depth: 1}}
`, judge, n, bin, bin)
	}
	sum, dir, out, err := playMatch(t, context.Background(), conf(1))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if !strings.Contains(out, "Engine 1: A (built-in random; own book own.bin for 2 moves)") {
		t.Errorf("the match configuration does not name A's book:\n%s", out)
	}
	games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	book := map[string]bool{}
	for _, e := range bookEntries {
		book[strings.TrimSpace(e[0]+" "+e[1]+e[2])] = true
	}
	booked := map[string]int{}
	for _, g := range games {
		var searched [2]int
		for i, m := range g.Moves {
			if !m.Book {
				searched[i%2]++
			}
			if m.CPL == nil {
				t.Errorf("game %d ply %d not judged", g.Game, m.Ply)
			}
		}
		if g.WhiteStats == nil || g.BlackStats == nil || g.WhiteStats.Moves != searched[0] || g.BlackStats.Moves != searched[1] {
			t.Errorf("game %d: the judge counts %+v and %+v moves; the engines searched %v", g.Game, g.WhiteStats, g.BlackStats, searched)
		}
		var line []string
		for i, m := range g.Moves {
			inBook := book[strings.Join(append(slices.Clone(line), m.UCI), " ")]
			// A (depth 2) as White: plies 1 and 3; B (depth 1) as Black:
			// ply 2. B as White: ply 1; A as Black: ply 2, and ply 4 is
			// never in the book (ply 3 was B's own search).
			want := i < 3 && (g.White == "A" || i < 2)
			if m.Book != want || m.Book && (!inBook || m.Time != 0 || m.Nodes != 0 || m.Depth != 0) {
				t.Errorf("game %d ply %d %s by %s: book %v (want %v), in the book %v, time %v, nodes %d", g.Game, m.Ply, m.UCI, m.Engine, m.Book, want, inBook, m.Time, m.Nodes)
			}
			if m.Book {
				booked[m.Engine]++
			}
			line = append(line, m.UCI)
		}
	}
	for i, name := range []string{"A", "B"} {
		es := sum.Engines[i]
		var searched int
		for _, g := range games {
			for _, m := range g.Moves {
				if m.Engine == name && !m.Book {
					searched++
				}
			}
		}
		if es.BookMoves != booked[name] || es.Moves != searched {
			t.Errorf("%s: summary %d book moves, %d moves; the games have %d and %d", name, es.BookMoves, es.Moves, booked[name], searched)
		}
	}
	pgn, err := os.ReadFile(filepath.Join(dir, output.PGNFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(pgn), "{book}"); n != booked["A"]+booked["B"] {
		t.Errorf("games.pgn has %d {book} comments for %d book moves", n, booked["A"]+booked["B"])
	}
	_, dir2, out, err := playMatch(t, context.Background(), conf(2))
	if err != nil {
		t.Fatalf("run at concurrency 2: %v\n%s", err, out)
	}
	games2, err := output.ReadGames(filepath.Join(dir2, output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ucis(games), ucis(games2)) {
		t.Errorf("concurrency 1 and 2 play different games:\n%v\n%v", ucis(games), ucis(games2))
	}
}

func ucis(games []*record.GameRecord) [][]string {
	var out [][]string
	for _, g := range games {
		var line []string
		for _, m := range g.Moves {
			line = append(line, m.UCI)
		}
		out = append(out, line)
	}
	return out
}

// Book moves are drawn by weight, as cutechess draws them: over 4000
// games, 1. e4 (weight 3 of 4) about three times in four; the run's seed
// changes the draws.
func TestEngineBookWeights(t *testing.T) {
	t.Parallel() // in process, no clock, no package variable
	bin := filepath.Join(t.TempDir(), "own.bin")
	polyglotBook(t, bin, bookEntries, bookWeights)
	b, err := config.LoadBook(bin)
	if err != nil {
		t.Fatal(err)
	}
	draws := func(seed int64) []string {
		var out []string
		for n := 1; n <= 4000; n++ {
			g := &game{cfg: &config.Config{Seed: seed}, number: n, fen: chess.StartingPosition().String(),
				players: [2]*player{{cfg: config.EngineConfig{Book: &config.EngineBook{}}, book: b}, {}}}
			if err := g.begin(g.fen); err != nil {
				t.Fatal(err)
			}
			mv, ok := g.bookMove(0)
			if !ok {
				t.Fatalf("game %d: no book move from the start", n)
			}
			out = append(out, mv)
		}
		return out
	}
	one := draws(1)
	e4 := float64(strings.Count(strings.Join(one, " "), "e2e4"))
	if sd := math.Sqrt(4000 * 0.75 * 0.25); math.Abs(e4-3000) > 4*sd {
		t.Errorf("1. e4 drawn %v times in 4000, want 3000 ± %.0f", e4, 4*sd)
	}
	if reflect.DeepEqual(one, draws(2)) {
		t.Error("another seed draws the same book moves")
	}
	if !reflect.DeepEqual(one, draws(1)) {
		t.Error("the same seed draws different book moves")
	}
}
