package engines

// BenchPosition is one position of the fixed benchmark set.
type BenchPosition struct {
	Name string
	FEN  string
}

// BenchPositions is the fixed position set of `arena bench`: the opening,
// tactical middlegames (including the perft suite's Kiwipete and positions
// 4-6 from the Chess Programming Wiki) and endgames, so the speed measured
// mixes move-generation-heavy, quiescence-heavy and transposition-heavy
// searches. Changing it changes every published bench number.
var BenchPositions = []BenchPosition{
	{"start", StartFEN},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
	{"cpw-pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"},
	{"cpw-pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"},
	{"italian", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"},
	{"qgd", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"},
	{"rook-ending", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"},
	{"fine-70", "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1"},
}
