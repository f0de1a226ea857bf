package arena

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"arena/arena/book/polyglot"
	"arena/arena/config"
	"arena/arena/openings"
	"arena/arena/record"
	"arena/engines/board"
)

// polyglotBook writes a Polyglot book of the given entries (moves from the
// start position, then the book move and its weight).
func polyglotBook(t *testing.T, path string, entries [][3]string, weights []uint16) {
	t.Helper()
	var data []byte
	for i, e := range entries {
		p, err := board.FromGame(board.NewPosition().FEN(), strings.Fields(e[0]))
		if err != nil {
			t.Fatal(err)
		}
		sq := func(s string) uint16 { return uint16(s[0]-'a') | uint16(s[1]-'1')<<3 }
		var b [16]byte
		binary.BigEndian.PutUint64(b[:], polyglot.Key(p))
		binary.BigEndian.PutUint16(b[8:], sq(e[2])|sq(e[1])<<6)
		binary.BigEndian.PutUint16(b[10:], weights[i])
		data = append(data, b[:]...)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// order: weighted draws each opening of a Polyglot book made here as often
// as walking the book move by move in proportion to the weights would:
// 1. e4 (weight 3) then 1... e5 (1) or 1... c5 (3); 1. d4 (1) then 1... d5.
// Both games of a pair share the draw, every pairing and shard sees the
// same openings, and the run's seed changes them.
func TestWeightedPolyglotOpenings(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "w.bin")
	polyglotBook(t, bin, [][3]string{{"", "e2", "e4"}, {"", "d2", "d4"}, {"e2e4", "e7", "e5"}, {"e2e4", "c7", "c5"}, {"d2d4", "d7", "d5"}},
		[]uint16{3, 1, 1, 3, 1})
	yaml := "games: 4000\nopenings: {file: w.bin, plies: 2, order: weighted}\nlimits: {depth: 1}\nengines: [{engine: random}, {engine: random, name: r2}, {engine: random, name: r3}]\n"
	cfg, err := config.Parse(filepath.Join(dir, "x.yaml"), []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	book, err := openings.Load(*cfg.Openings)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"w.bin: e2e4 c7c5": 0.75 * 0.75, "w.bin: e2e4 e7e5": 0.75 * 0.25, "w.bin: d2d4 d7d5": 0.25}
	for _, o := range book {
		if math.Abs(o.Weight-want[o.Name]) > 1e-12 {
			t.Errorf("%s: weight %v, want %v", o.Name, o.Weight, want[o.Name])
		}
	}
	games := schedule(cfg, book)
	uses := map[string]int{}
	for i, g := range games {
		if g.White > g.Black {
			continue // the second game of a pair (checked below)
		}
		if g.White == 0 && g.Black == 1 {
			uses[g.Opening.Name]++
		}
		if i+1 < len(games) && games[i+1].Pair == g.Pair && games[i+1].Opening != g.Opening {
			t.Fatalf("game %d: the pair's second game has %s, the first %s", g.Number, games[i+1].Opening.Name, g.Opening.Name)
		}
	}
	n := cfg.Games / 2
	for name, p := range want {
		// Four standard deviations: the draws are seeded, so the counts
		// are fixed; this bounds how far a correct sampler may stray.
		if got, sd := float64(uses[name]), math.Sqrt(float64(n)*p*(1-p)); math.Abs(got-float64(n)*p) > 4*sd {
			t.Errorf("%s drawn %v times in %d uses, want %.0f ± %.0f", name, got, n, float64(n)*p, 4*sd)
		}
	}
	byPairing := func(games []gameSpec, a, b int) (names []string) {
		for _, g := range games {
			if min(g.White, g.Black) == a && max(g.White, g.Black) == b {
				names = append(names, g.Opening.Name)
			}
		}
		return names
	}
	if x, y := byPairing(games, 0, 1), byPairing(games, 1, 2); !reflect.DeepEqual(x, y) {
		t.Error("two pairings play different openings")
	}
	var shard []gameSpec
	it := newSchedule(cfg, book, record.Shard{Index: 1, Count: 3})
	for g, ok := it.next(); ok; g, ok = it.next() {
		shard = append(shard, g)
	}
	for _, g := range shard {
		if g.Opening != games[g.Number-1].Opening {
			t.Fatalf("game %d: shard 1/3 has %s, the whole run %s", g.Number, g.Opening.Name, games[g.Number-1].Opening.Name)
		}
	}
	cfg2 := *cfg
	cfg2.Seed++
	if reflect.DeepEqual(byPairing(schedule(&cfg2, book), 0, 1), byPairing(games, 0, 1)) {
		t.Error("another seed draws the same openings")
	}

	// start: N is use N, also beyond the book's three lines: the draws
	// continue where a run of N-1 uses stopped.
	later := *cfg
	later.Openings = &openings.Config{File: cfg.Openings.File, Plies: 2, Order: openings.OrderWeighted, Start: 11}
	if _, err := config.Parse(filepath.Join(dir, "s.yaml"), []byte(strings.Replace(yaml, "order: weighted", "order: weighted, start: 11", 1))); err != nil {
		t.Errorf("start beyond the book's lines: %v", err)
	}
	whole, from11 := byPairing(games, 0, 1), byPairing(schedule(&later, book), 0, 1)
	if !reflect.DeepEqual(from11[:len(whole)-20], whole[20:]) {
		t.Errorf("start: 11 plays %v...; the whole run from its 11th pair %v...", from11[:6], whole[20:26])
	}

	epd := filepath.Join(dir, "b.epd")
	if err := os.WriteFile(epd, []byte(board.NewPosition().FEN()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = config.Parse(filepath.Join(dir, "y.yaml"), []byte("openings: {file: b.epd, order: weighted}\nlimits: {depth: 1}\nengines: [{engine: random}, {engine: random, name: r2}]\n"))
	if err == nil || !strings.Contains(err.Error(), "y.yaml:1: openings.order: weighted draws by a Polyglot book's move weights; b.epd (format epd) has none") {
		t.Errorf("weighted EPD book: %v", err)
	}
}
