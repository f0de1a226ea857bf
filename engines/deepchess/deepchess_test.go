package deepchess

import (
	"path/filepath"
	"strings"
	"testing"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/internal/enginetest"
)

func newEngine(t testing.TB, opts map[string]string) *Engine {
	t.Helper()
	e, err := engines.New(Name, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e.(*Engine)
}

func TestMates(t *testing.T) {
	e := newEngine(t, nil)
	for _, fen := range enginetest.MatesInOne {
		res := enginetest.Search(t, e, engines.Position{FEN: fen}, engines.Limits{Depth: 3})
		if !enginetest.Mates(t, fen, res.Move) || res.Score != (engines.Score{Mate: 1}) || res.Depth != 1 {
			t.Errorf("%s: %+v, want a mate, mate 1 and a stop after depth 1", fen, res)
		}
	}
	// Black's only move, Kb8, is met by Rh8 mate.
	const lost = "k7/8/1K6/8/8/8/8/7R b - - 0 1"
	res := enginetest.Search(t, e, engines.Position{FEN: lost}, engines.Limits{Depth: 5})
	if res.Move != "a8b8" || res.Score != (engines.Score{Mate: -1}) || res.Depth != 2 {
		t.Errorf("%s: %+v, want a8b8, mate -1 at depth 2", lost, res)
	}
}

// TestDrawIsAValue: with a queen up and a stalemate one move away, the
// engine does not stalemate; a side that is lost takes the repetition.
func TestDrawIsAValue(t *testing.T) {
	e := newEngine(t, nil)
	// Qb6 or Qc7 stalemate the black king on a8; every other move keeps a
	// won position.
	const stalemateTrap = "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1"
	for _, depth := range []int{1, 2} {
		res := enginetest.Search(t, e, engines.Position{FEN: stalemateTrap}, engines.Limits{Depth: depth})
		p, err := board.FromGame(stalemateTrap, []string{res.Move})
		if err != nil {
			t.Fatal(err)
		}
		if p.Status() == board.Stalemate {
			t.Errorf("depth %d: %s stalemates a queen up", depth, res.Move)
		}
	}
}

func TestMirror(t *testing.T) {
	p, err := board.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	// The mirror, written out: colours swapped, ranks reversed, Black to move.
	q, err := board.ParseFEN("r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	got := sorted(Mirror(Active(p, nil), nil))
	if want := Active(q, nil); !equal(got, want) {
		t.Errorf("mirror: %v\nwant %v", got, want)
	}
	if back := sorted(Mirror(got, nil)); !equal(back, Active(p, nil)) {
		t.Errorf("mirror twice: %v, want the position back", back)
	}
}

func sorted(a []int32) []int32 {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j-1] > a[j]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
	return a
}

func equal(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestShippedNetCompares: the shipped net prefers, for White, a position
// where White is a queen up to the same position with Black a queen up,
// in both orders, and the engine's score says White is better.
func TestShippedNetCompares(t *testing.T) {
	net, err := LoadNet("builtin:deepchess")
	if err != nil {
		t.Fatal(err)
	}
	ev := net.NewEvaluator()
	vec := func(fen string) []float32 {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		v := make([]float32, net.Dim())
		ev.Embed(Active(p, nil), v)
		return v
	}
	white := vec("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	black := vec("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1")
	if p, q := ev.Compare(white, black), ev.Compare(black, white); p <= 0.5 || q >= 0.5 {
		t.Errorf("queen up for White vs for Black: P(first better) %.3f and, swapped, %.3f; want > 0.5 and < 0.5", p, q)
	}
}

func TestLoadNetErrors(t *testing.T) {
	dir := t.TempDir()
	m, err := NewModels([]int{16, 8}, []int{8}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Save(dir, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadNet(dir); err != nil {
		t.Errorf("saved net: %v", err)
	}
	other, err := NewModels([]int{16, 4}, []int{8}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Head.Save(filepath.Join(dir, HeadFile), nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ net, want string }{
		{dir, "head maps 8 inputs to 2 outputs, expected 2 x 8"},
		{filepath.Join(dir, "missing"), "pos2vec.safetensors"},
		{"builtin:giraffe", `no shipped net "builtin:giraffe"`},
	} {
		_, err := engines.New(Name, map[string]string{OptNet: tc.net})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "option net") {
			t.Errorf("net %s: error %v, want one naming the option and containing %q", tc.net, err, tc.want)
		}
	}
}
