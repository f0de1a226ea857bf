// Package enginetest holds the test fixtures and checks shared by the tests
// of the value-network engines (nn, mcts, supervised).
package enginetest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/nn"
	"arena/engines/nn/nets"
	"arena/engines/nnue"
	"arena/internal/fixture"
)

// Model returns the path of the unpacked ValueNet fixture committed by
// engines/nn (a raw PyTorch state_dict of a briefly trained net).
func Model(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("enginetest: cannot locate the source directory")
	}
	return fixture.Gunzip(t, filepath.Join(filepath.Dir(file), "..", "..", "nn", "testdata", "valuenet_state.pt.gz"))
}

// SafetensorsModel converts the fixture to safetensors in a temporary
// directory and returns its path.
func SafetensorsModel(t testing.TB) string {
	t.Helper()
	w, meta, err := nn.ReadFile(Model(t))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "valuenet.safetensors")
	if err := nn.SaveSafetensors(path, w, meta); err != nil {
		t.Fatal(err)
	}
	return path
}

// NNUENet writes a random NNUE net of width 256 in a temporary directory
// and returns its path.
func NNUENet(t testing.TB) string {
	t.Helper()
	data, err := nnue.RandomNet(1, 256, nnue.SCReLU).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "random.nnue")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Options is opts plus the fixture model when the registered engine name
// takes a ValueNet model (its default is a shipped ValueNet) and opts sets
// none. Engines with another kind of net (giraffe) keep their shipped net;
// the nnue engine gets NNUENet in a build without the shipped NNUE net.
func Options(t testing.TB, name string, opts map[string]string) map[string]string {
	t.Helper()
	values := map[string]string{}
	if spec, err := engines.Lookup(name); err == nil {
		if o, ok := spec.Option("model"); ok && slices.Contains(nets.Names(), strings.TrimPrefix(o.Default, nets.Prefix)) {
			values["model"] = Model(t)
		} else if ok && o.Default == nets.Prefix+nets.NNUE {
			if _, err := nets.NNUEFile(); err != nil {
				values["model"] = NNUENet(t)
			}
		}
	}
	for k, v := range opts {
		values[k] = v
	}
	return values
}

// New builds a registered engine with Options.
func New(t testing.TB, name string, opts map[string]string) engines.Engine {
	t.Helper()
	values := Options(t, name, opts)
	e, err := engines.New(name, values)
	if err != nil {
		t.Fatalf("new engine %s %v: %v", name, opts, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// Positions is a spread of openings, middlegames and endgames, positions in
// check, with a single legal move, with promotions and with en passant.
var Positions = []string{
	engines.StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 b - - 0 10",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 b - - 0 1",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", // en passant
	"4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",                               // in check
	"k7/8/8/8/8/8/1r6/K6r w - - 0 1",                                // one legal move: Kxb2
	"8/8/8/8/8/8/k1p5/4K3 b - - 0 1",                                // promotions
}

// NoMoves are positions without a legal move: stalemate and checkmate.
var NoMoves = []string{
	"7k/8/8/8/8/8/5q2/7K w - - 0 1",
	"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
}

// MatesInOne are positions, both colours to move, with a mate in one.
var MatesInOne = []string{
	"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",                                   // back rank
	"r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1",                                   // back rank, Black
	"6rk/6pp/7N/8/8/8/8/6K1 w - - 0 1",                                    // smothered
	"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", // scholar's
	"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",       // fool's
}

// CheckLegal fails the test unless move is legal in pos.
func CheckLegal(t testing.TB, pos engines.Position, move string) {
	t.Helper()
	p, err := board.FromGame(pos.StartFENOrDefault(), pos.Moves)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ParseMove(move); err != nil {
		t.Errorf("move %q is not legal in %v: %v", move, pos, err)
	}
}

// Mates reports whether move mates in fen.
func Mates(t testing.TB, fen, move string) bool {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.ParseMove(move)
	if err != nil {
		t.Fatalf("move %q in %s: %v", move, fen, err)
	}
	p.MakeMove(m)
	return p.Status() == board.Checkmate
}

// LegalCount is the number of legal moves in fen.
func LegalCount(t testing.TB, fen string) int {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	var ml board.MoveList
	p.GenerateLegal(&ml)
	return ml.Len
}

// Search runs e on pos and fails the test on an error or an illegal move.
func Search(t testing.TB, e engines.Engine, pos engines.Position, lim engines.Limits) engines.Result {
	t.Helper()
	res, err := e.Search(context.Background(), pos, lim, nil)
	if err != nil {
		t.Fatalf("search %v %+v: %v", pos, lim, err)
	}
	CheckLegal(t, pos, res.Move)
	return res
}

// InfoStrings joins the free-text info lines of infos.
func InfoStrings(infos []engines.Info) string {
	var b strings.Builder
	for _, in := range infos {
		if in.String != "" {
			b.WriteString(in.String + "\n")
		}
	}
	return b.String()
}
