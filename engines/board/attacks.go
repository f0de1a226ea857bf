package board

import "fmt"

// Precomputed attack tables. Leaper attacks are plain tables; slider attacks
// use fancy magic bitboards: one shared table per slider kind, indexed by
// ((occupancy & mask) * magic) >> shift plus a per-square offset.

const (
	fileA Bitboard = 0x0101010101010101
	fileH Bitboard = fileA << 7
	rank1 Bitboard = 0xff
	rank3 Bitboard = rank1 << 16
	rank6 Bitboard = rank1 << 40
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

// prng is xorshift64*, a small fixed-seed generator for the Zobrist keys.
type prng uint64

func (p *prng) next() uint64 {
	*p ^= *p >> 12
	*p ^= *p << 25
	*p ^= *p >> 27
	return uint64(*p) * 2685821657736338717
}

// The magic multipliers were found once by the usual trial of sparse random
// numbers (xorshift64* with Stockfish's per-rank seeds); the search costs
// tens of milliseconds, too much for the start-up of every arena command, so
// init only fills the tables with them.
var (
	rookMagicNumbers = [64]uint64{
		0x0a80004000801220, 0x8040004010002008, 0x2080200010008008, 0x1100100008210004,
		0xc200209084020008, 0x2100010004000208, 0x0400081000822421, 0x0200010422048844,
		0x0800800080400024, 0x0001402000401000, 0x3000801000802001, 0x4400800800100083,
		0x0904802402480080, 0x4040800400020080, 0x0018808042000100, 0x4040800080004100,
		0x0040048001458024, 0x00a0004000205000, 0x3100808010002000, 0x4825010010000820,
		0x5004808008000401, 0x2024818004000a00, 0x0005808002000100, 0x2100060004806104,
		0x0080400880008421, 0x4062220600410280, 0x010a004a00108022, 0x0000100080080080,
		0x0021000500080010, 0x0044000202001008, 0x0000100400080102, 0xc020128200040545,
		0x0080002000400040, 0x0000804000802004, 0x0000120022004080, 0x010a386103001001,
		0x9010080080800400, 0x8440020080800400, 0x0004228824001001, 0x000000490a000084,
		0x0080002000504000, 0x200020005000c000, 0x0012088020420010, 0x0010010080080800,
		0x0085001008010004, 0x0002000204008080, 0x0040413002040008, 0x0000304081020004,
		0x0080204000800080, 0x3008804000290100, 0x1010100080200080, 0x2008100208028080,
		0x5000850800910100, 0x8402019004680200, 0x0120911028020400, 0x0000008044010200,
		0x0020850200244012, 0x0020850200244012, 0x0000102001040841, 0x140900040a100021,
		0x000200282410a102, 0x000200282410a102, 0x000200282410a102, 0x4048240043802106,
	}
	bishopMagicNumbers = [64]uint64{
		0x40106000a1160020, 0x0020010250810120, 0x2010010220280081, 0x002806004050c040,
		0x0002021018000000, 0x2001112010000400, 0x0881010120218080, 0x1030820110010500,
		0x0000120222042400, 0x2000020404040044, 0x8000480094208000, 0x0003422a02000001,
		0x000a220210100040, 0x8004820202226000, 0x0018234854100800, 0x0100004042101040,
		0x0004001004082820, 0x0010000810010048, 0x1014004208081300, 0x2080818802044202,
		0x0040880c00a00100, 0x0080400200522010, 0x0001000188180b04, 0x0080249202020204,
		0x1004400004100410, 0x00013100a0022206, 0x2148500001040080, 0x4241080011004300,
		0x4020848004002000, 0x10101380d1004100, 0x0008004422020284, 0x01010a1041008080,
		0x0808080400082121, 0x0808080400082121, 0x0091128200100c00, 0x0202200802010104,
		0x8c0a020200440085, 0x01a0008080b10040, 0x0889520080122800, 0x100902022202010a,
		0x04081a0816002000, 0x0000681208005000, 0x8170840041008802, 0x0a00004200810805,
		0x0830404408210100, 0x2602208106006102, 0x1048300680802628, 0x2602208106006102,
		0x0602010120110040, 0x0941010801043000, 0x000040440a210428, 0x0008240020880021,
		0x0400002012048200, 0x00ac102001210220, 0x0220021002009900, 0x84440c080a013080,
		0x0001008044200440, 0x0004c04410841000, 0x2000500104011130, 0x1a0c010011c20229,
		0x0044800112202200, 0x0434804908100424, 0x0300404822c08200, 0x48081010008a2a80,
	}
)

// initMagics fills the attack table of one slider kind. A magic that maps
// two occupancies with different attacks to one slot would be a bug in the
// constants above, caught here at init.
func initMagics(magics *[64]magic, numbers *[64]uint64, table []Bitboard, dirs *[4][2]int) {
	offset := uint32(0)
	for sq := A1; sq <= H8; sq++ {
		// Edges do not matter for occupancy unless the slider is on them.
		edges := ((rank1 | rank8) &^ (rank1 << (8 * uint(sq.Rank())))) |
			((fileA | fileH) &^ (fileA << uint(sq.File())))
		m := &magics[sq]
		m.mask = slidingAttacks(sq, 0, dirs) &^ edges
		m.magic = numbers[sq]
		m.shift = uint8(64 - m.mask.Count())
		m.offset = offset
		filled := make([]bool, 1<<m.mask.Count())
		// Carry-Rippler enumeration of all subsets of the mask.
		for b := Bitboard(0); ; {
			idx := uint32((uint64(b) * m.magic) >> m.shift)
			att := slidingAttacks(sq, b, dirs)
			if filled[idx] && table[offset+idx] != att {
				panic(fmt.Sprintf("board: magic for %v collides", sq))
			}
			filled[idx] = true
			table[offset+idx] = att
			b = (b - m.mask) & m.mask
			if b == 0 {
				break
			}
		}
		offset += uint32(len(filled))
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
	initMagics(&rookMagics, &rookMagicNumbers, rookTable[:], &rookDirs)
	initMagics(&bishopMagics, &bishopMagicNumbers, bishopTable[:], &bishopDirs)
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
