package board

// Precomputed attack tables. Leaper attacks are plain tables; slider attacks
// use fancy magic bitboards: one shared table per slider kind, indexed by
// ((occupancy & mask) * magic) >> shift plus a per-square offset.

const (
	fileA Bitboard = 0x0101010101010101
	fileH Bitboard = fileA << 7
	rank1 Bitboard = 0xff
	rank2 Bitboard = rank1 << 8
	rank3 Bitboard = rank1 << 16
	rank6 Bitboard = rank1 << 40
	rank7 Bitboard = rank1 << 48
	rank8 Bitboard = rank1 << 56
)

var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard // squares a pawn of that colour on sq attacks
	// between[a][b] holds the squares strictly between a and b when they share
	// a line, else nothing; line[a][b] is the whole line through both (empty if
	// none). Pins and check blocks are expressed with these.
	between [64][64]Bitboard
	line    [64][64]Bitboard
)

type magic struct {
	mask   Bitboard
	magic  uint64
	shift  uint8
	offset uint32
}

var (
	rookMagics   [64]magic
	bishopMagics [64]magic
	rookTable    [0x19000]Bitboard // 102400 entries: sum of 2^bits over squares
	bishopTable  [0x1480]Bitboard  // 5248 entries
)

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

func rookAttacks(sq Square, occ Bitboard) Bitboard {
	m := &rookMagics[sq&63]
	return rookTable[m.offset+uint32((uint64(occ&m.mask)*m.magic)>>m.shift)]
}

func bishopAttacks(sq Square, occ Bitboard) Bitboard {
	m := &bishopMagics[sq&63]
	return bishopTable[m.offset+uint32((uint64(occ&m.mask)*m.magic)>>m.shift)]
}

func queenAttacks(sq Square, occ Bitboard) Bitboard {
	return rookAttacks(sq, occ) | bishopAttacks(sq, occ)
}

// slidingAttacks walks the rays square by square; used only to build tables.
func slidingAttacks(sq Square, occ Bitboard, dirs *[4][2]int) Bitboard {
	var att Bitboard
	for _, d := range dirs {
		f, r := sq.File()+d[0], sq.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			s := NewSquare(f, r)
			att |= SquareBB(s)
			if occ.Has(s) {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return att
}

func leaperAttacks(sq Square, deltas [][2]int) Bitboard {
	var att Bitboard
	for _, d := range deltas {
		f, r := sq.File()+d[0], sq.Rank()+d[1]
		if f >= 0 && f < 8 && r >= 0 && r < 8 {
			att |= SquareBB(NewSquare(f, r))
		}
	}
	return att
}

// prng is xorshift64*; a fixed seed per rank (the seeds Stockfish uses) finds
// every magic in a few thousand tries, keeping init fast and deterministic.
type prng uint64

func (p *prng) next() uint64 {
	*p ^= *p >> 12
	*p ^= *p << 25
	*p ^= *p >> 27
	return uint64(*p) * 2685821657736338717
}

// sparse returns a random number with about 1/8 of its bits set; good magic
// candidates are sparse.
func (p *prng) sparse() uint64 { return p.next() & p.next() & p.next() }

var magicSeeds = [8]prng{728, 10316, 55013, 32803, 12281, 15100, 16645, 255}

func initMagics(magics *[64]magic, table []Bitboard, dirs *[4][2]int) {
	var occs, refs [4096]Bitboard
	var epoch [4096]int
	cnt := 0
	offset := uint32(0)
	for sq := A1; sq <= H8; sq++ {
		// Edges do not matter for occupancy unless the slider is on them.
		edges := ((rank1 | rank8) &^ (rank1 << (8 * uint(sq.Rank())))) |
			((fileA | fileH) &^ (fileA << uint(sq.File())))
		m := &magics[sq]
		m.mask = slidingAttacks(sq, 0, dirs) &^ edges
		nbits := m.mask.Count()
		m.shift = uint8(64 - nbits)
		m.offset = offset
		// Carry-Rippler enumeration of all subsets of the mask.
		size := 0
		var b Bitboard
		for {
			occs[size] = b
			refs[size] = slidingAttacks(sq, b, dirs)
			size++
			b = (b - m.mask) & m.mask
			if b == 0 {
				break
			}
		}
		rng := magicSeeds[sq.Rank()]
		for i := 0; i < size; {
			for m.magic = 0; Bitboard((m.magic*uint64(m.mask))>>56).Count() < 6; {
				m.magic = rng.sparse()
			}
			cnt++
			for i = 0; i < size; i++ {
				idx := uint32((uint64(occs[i]) * m.magic) >> m.shift)
				slot := &table[offset+idx]
				if epoch[idx] < cnt {
					epoch[idx] = cnt
					*slot = refs[i]
				} else if *slot != refs[i] {
					break
				}
			}
		}
		offset += uint32(size)
	}
}

func init() {
	knightDeltas := [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	kingDeltas := [][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	for sq := A1; sq <= H8; sq++ {
		knightAttacks[sq] = leaperAttacks(sq, knightDeltas)
		kingAttacks[sq] = leaperAttacks(sq, kingDeltas)
		pawnAttacks[White][sq] = leaperAttacks(sq, [][2]int{{-1, 1}, {1, 1}})
		pawnAttacks[Black][sq] = leaperAttacks(sq, [][2]int{{-1, -1}, {1, -1}})
	}
	initMagics(&rookMagics, rookTable[:], &rookDirs)
	initMagics(&bishopMagics, bishopTable[:], &bishopDirs)
	for a := A1; a <= H8; a++ {
		for b := A1; b <= H8; b++ {
			if a == b {
				continue
			}
			for _, attack := range [2]func(Square, Bitboard) Bitboard{rookAttacks, bishopAttacks} {
				if attack(a, 0).Has(b) {
					line[a][b] = (attack(a, 0) & attack(b, 0)) | SquareBB(a) | SquareBB(b)
					between[a][b] = attack(a, SquareBB(b)) & attack(b, SquareBB(a))
				}
			}
		}
	}
}
