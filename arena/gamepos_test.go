package arena

import (
	"math/rand/v2"
	"testing"

	"github.com/notnil/chess"

	"arena/arena/config"
	"arena/arena/record"
	"arena/engines/board"
	"arena/tracker"
)

// The game loop's SAN, legality and repetition keys are notnil/chess's, as
// they were before the loop moved to the board package: random games from
// positions with castling, en passant (one with the capturing pawn pinned),
// promotions and several pieces of a kind, compared move by move. Every
// legal move's SAN is compared, and two positions share a RepetitionKey
// exactly when they share tracker.PositionKey.
func TestSANMatchesNotnil(t *testing.T) {
	starts := []string{
		board.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/8/8/8/R2p3k/8/4P3/4K3 w - - 0 1",
		"3k2n1/5PPP/8/8/8/8/pp6/1N2K3 w - - 0 1",
		"4k3/8/8/2N1N3/8/2N1N3/8/R3K2R w KQ - 0 1",
	}
	keyOf := map[string]uint64{}
	posOf := map[uint64]string{}
	rng := rand.New(rand.NewPCG(1, 2))
	moves := 0
	for n := range 60 {
		fen := starts[n%len(starts)]
		opt, err := chess.FEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		ref := chess.NewGame(opt).Position()
		g := &game{}
		if err := g.begin(fen); err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 150 && len(ref.ValidMoves()) > 0; ply++ {
			k, key := tracker.PositionKey(ref), g.pos.RepetitionKey()
			if old, ok := keyOf[k]; ok && old != key {
				t.Fatalf("%s: two repetition keys", k)
			}
			if old, ok := posOf[key]; ok && old != k {
				t.Fatalf("%s and %s: one repetition key", old, k)
			}
			keyOf[k], posOf[key] = key, k
			valid := ref.ValidMoves()
			var legal board.MoveList
			g.pos.GenerateLegal(&legal)
			if legal.Len != len(valid) {
				t.Fatalf("%s: %d legal moves, notnil/chess has %d", ref, legal.Len, len(valid))
			}
			for _, m := range valid {
				uciMove := chess.UCINotation{}.Encode(ref, m)
				mv, err := g.pos.ParseMove(uciMove)
				if err != nil {
					t.Fatalf("%s: %s: %v", ref, uciMove, err)
				}
				if got, want := san(g.pos, mv), (chess.AlgebraicNotation{}).Encode(ref, m); got != want {
					t.Fatalf("%s: %s is %q, notnil/chess writes %q", ref, uciMove, got, want)
				}
				moves++
			}
			m := valid[rng.IntN(len(valid))]
			if _, err := g.play(chess.UCINotation{}.Encode(ref, m)); err != nil {
				t.Fatal(err)
			}
			ref = ref.Update(m)
		}
	}
	t.Logf("%d moves in %d positions compared", moves, len(keyOf))
}

// BenchmarkGameRules is the game loop's per-ply rules work without the
// engines: check the move, write its SAN, count the position for
// repetitions and test the game-end rules, over a 200-ply random game.
func BenchmarkGameRules(b *testing.B) {
	pos := board.NewPosition()
	rng := rand.New(rand.NewPCG(3, 4))
	var moves []string
	for len(moves) < 200 {
		var ml board.MoveList
		pos.GenerateLegal(&ml)
		if ml.Len == 0 {
			break
		}
		m := ml.Moves[rng.IntN(ml.Len)]
		moves = append(moves, m.String())
		pos.MakeMove(m)
	}
	cfg := &config.Config{}
	b.ResetTimer()
	for range b.N {
		g := &game{cfg: cfg, rec: &record.GameRecord{}}
		if err := g.begin(board.StartFEN); err != nil {
			b.Fatal(err)
		}
		for _, m := range moves {
			g.over()
			if _, err := g.play(m); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(moves)), "ns/ply")
}
