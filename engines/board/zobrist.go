package board

// Zobrist keys, drawn from a fixed-seed generator so that hashes are stable
// across runs and processes (transposition tables and tests can rely on them).
var (
	zobPiece  [16][64]uint64
	zobCastle [16]uint64 // one key per rights combination: XOR of the single-right keys
	zobEP     [8]uint64  // by file
	// zobEPSquare[sq] is zobEP of the square's file, 0 for NoSquare, so that
	// MakeMove can remove the old en passant key without a branch.
	zobEPSquare [128]uint64
	zobSide     uint64
)

func init() {
	rng := prng(0x9d39247e33776d41)
	for pc := range zobPiece {
		if Piece(pc).Type() == NoPieceType {
			continue
		}
		for sq := range zobPiece[pc] {
			zobPiece[pc][sq] = rng.next()
		}
	}
	var single [4]uint64
	for i := range single {
		single[i] = rng.next()
	}
	for rights := range zobCastle {
		for i := range single {
			if rights&(1<<i) != 0 {
				zobCastle[rights] ^= single[i]
			}
		}
	}
	for f := range zobEP {
		zobEP[f] = rng.next()
	}
	zobSide = rng.next()
	for sq := A1; sq <= H8; sq++ {
		zobEPSquare[sq] = zobEP[sq&7]
	}
}
