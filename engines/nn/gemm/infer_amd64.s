#include "textflag.h"

// Inference micro-kernels; Kernels in gemm.go states what they compute.
// Every sum is one FMA chain per output, starting from 0, channel by
// channel, then + bias, then ReLU, in all kernels of one width: a
// position's value does not depend on the batch it is evaluated in.

// ---------------------------------------------------------------- AVX2/FMA

// AVX2ROW loads the row pointer of tile row i for this tap: a + idx[i]*cin*4.
#define AVX2ROW(i, r) MOVLQSX (4*i)(DI), r; IMULQ R9, r; LEAQ (SI)(r*4), r

// AVX2FMA adds input channel (AX + u) of one row (pointer r, broadcast into
// y) times the channel's 16 weights (Y12, Y13) to accumulators lo, hi.
#define AVX2FMA(u, r, y, lo, hi) VBROADCASTSS (4*u)(r)(AX*4), y; VFMADD231PS Y12, y, lo; VFMADD231PS Y13, y, hi

// AVX2CHAN does input channel AX + u for the six rows.
#define AVX2CHAN(u) \
	VMOVUPS (64*u)(DX), Y12; VMOVUPS (64*u+32)(DX), Y13; \
	AVX2FMA(u, R10, Y14, Y0, Y1); AVX2FMA(u, R11, Y15, Y2, Y3); \
	AVX2FMA(u, R12, Y14, Y4, Y5); AVX2FMA(u, R13, Y15, Y6, Y7); \
	AVX2FMA(u, R14, Y14, Y8, Y9); AVX2FMA(u, R15, Y15, Y10, Y11)

// AVX2OUT stores one output row: max(0, acc + bias (Y12, Y13)) at CX.
#define AVX2OUT(lo, hi) \
	VADDPS Y12, lo, lo; VADDPS Y13, hi, hi; VMAXPS Y14, lo, lo; VMAXPS Y14, hi, hi; \
	VMOVUPS lo, (CX); VMOVUPS hi, 32(CX)

// func tileAVX2(a *float32, idx *int32, taps, cin int, b, c *float32, ldc int, bias *float32)
// 6 rows x 16 columns: Y0..Y11 accumulate (two 8-float halves per row).
TEXT ·tileAVX2(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), SI
	MOVQ idx+8(FP), DI
	MOVQ taps+16(FP), R8
	MOVQ cin+24(FP), R9
	MOVQ b+32(FP), DX
	VXORPS Y0, Y0, Y0; VXORPS Y1, Y1, Y1; VXORPS Y2, Y2, Y2; VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4; VXORPS Y5, Y5, Y5; VXORPS Y6, Y6, Y6; VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8; VXORPS Y9, Y9, Y9; VXORPS Y10, Y10, Y10; VXORPS Y11, Y11, Y11

avx2_tap:
	AVX2ROW(0, R10); AVX2ROW(1, R11); AVX2ROW(2, R12)
	AVX2ROW(3, R13); AVX2ROW(4, R14); AVX2ROW(5, R15)
	ADDQ $24, DI
	XORQ AX, AX

avx2_chan:
	AVX2CHAN(0); AVX2CHAN(1); AVX2CHAN(2); AVX2CHAN(3)
	ADDQ $256, DX
	ADDQ $4, AX
	CMPQ AX, R9
	JLT  avx2_chan
	DECQ R8
	JNZ  avx2_tap

	MOVQ    bias+56(FP), AX
	VMOVUPS (AX), Y12
	VMOVUPS 32(AX), Y13
	VXORPS  Y14, Y14, Y14
	MOVQ    c+40(FP), CX
	MOVQ    ldc+48(FP), BX
	SHLQ    $2, BX
	AVX2OUT(Y0, Y1); ADDQ BX, CX
	AVX2OUT(Y2, Y3); ADDQ BX, CX
	AVX2OUT(Y4, Y5); ADDQ BX, CX
	AVX2OUT(Y6, Y7); ADDQ BX, CX
	AVX2OUT(Y8, Y9); ADDQ BX, CX
	AVX2OUT(Y10, Y11)
	VZEROUPPER
	RET

// AVX2PANEL adds channel AX times the 16 weights at p (a panel pointer) to lo, hi.
#define AVX2PANEL(p, lo, hi) VFMADD231PS (p), Y8, lo; VFMADD231PS 32(p), Y8, hi; ADDQ $64, p

// func rowAVX2(a *float32, cin int, b *float32, panelLen int, c, bias *float32)
// One row, 4 panels of 16 columns (c[0:64]): Y0..Y7 accumulate.
TEXT ·rowAVX2(SB), NOSPLIT, $0-48
	MOVQ a+0(FP), SI
	MOVQ cin+8(FP), CX
	MOVQ b+16(FP), DX
	MOVQ panelLen+24(FP), BX
	SHLQ $2, BX
	LEAQ (DX)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	VXORPS Y0, Y0, Y0; VXORPS Y1, Y1, Y1; VXORPS Y2, Y2, Y2; VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4; VXORPS Y5, Y5, Y5; VXORPS Y6, Y6, Y6; VXORPS Y7, Y7, Y7
	XORQ AX, AX

avx2_row:
	VBROADCASTSS (SI)(AX*4), Y8
	AVX2PANEL(DX, Y0, Y1); AVX2PANEL(R8, Y2, Y3); AVX2PANEL(R9, Y4, Y5); AVX2PANEL(R10, Y6, Y7)
	INCQ AX
	CMPQ AX, CX
	JLT  avx2_row

	MOVQ    bias+40(FP), AX
	MOVQ    c+32(FP), CX
	VXORPS  Y14, Y14, Y14
	VMOVUPS (AX), Y12; VMOVUPS 32(AX), Y13; AVX2OUT(Y0, Y1); ADDQ $64, AX; ADDQ $64, CX
	VMOVUPS (AX), Y12; VMOVUPS 32(AX), Y13; AVX2OUT(Y2, Y3); ADDQ $64, AX; ADDQ $64, CX
	VMOVUPS (AX), Y12; VMOVUPS 32(AX), Y13; AVX2OUT(Y4, Y5); ADDQ $64, AX; ADDQ $64, CX
	VMOVUPS (AX), Y12; VMOVUPS 32(AX), Y13; AVX2OUT(Y6, Y7)
	VZEROUPPER
	RET

// ---------------------------------------------------------------- AVX-512

#define Z512ROW(i, r) MOVLQSX (4*i)(DI), r; IMULQ CX, r; LEAQ (SI)(r*4), r

#define Z512FMA(u, r, z, lo, hi) VBROADCASTSS (4*u)(r)(AX*4), z; VFMADD231PS Z16, z, lo; VFMADD231PS Z17, z, hi

// Z512CHAN does input channel AX + u for the eight rows (pointers R8..R15).
#define Z512CHAN(u) \
	VMOVUPS (128*u)(DX), Z16; VMOVUPS (128*u+64)(DX), Z17; \
	Z512FMA(u, R8, Z18, Z0, Z1); Z512FMA(u, R9, Z19, Z2, Z3); \
	Z512FMA(u, R10, Z18, Z4, Z5); Z512FMA(u, R11, Z19, Z6, Z7); \
	Z512FMA(u, R12, Z18, Z8, Z9); Z512FMA(u, R13, Z19, Z10, Z11); \
	Z512FMA(u, R14, Z18, Z12, Z13); Z512FMA(u, R15, Z19, Z14, Z15)

// Z512OUT stores one output row: max(0, acc + bias (Z16, Z17)) at CX.
#define Z512OUT(lo, hi) \
	VADDPS Z16, lo, lo; VADDPS Z17, hi, hi; VMAXPS Z18, lo, lo; VMAXPS Z18, hi, hi; \
	VMOVUPS lo, (CX); VMOVUPS hi, 64(CX)

// func tileAVX512(a *float32, idx *int32, taps, cin int, b, c *float32, ldc int, bias *float32)
// 8 rows x 32 columns: Z0..Z15 accumulate (two 16-float halves per row).
// The eight row pointers take R8..R15, so the arguments are reloaded at the end.
TEXT ·tileAVX512(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), SI
	MOVQ idx+8(FP), DI
	MOVQ taps+16(FP), BX
	MOVQ cin+24(FP), CX
	MOVQ b+32(FP), DX
	VPXORD Z0, Z0, Z0; VPXORD Z1, Z1, Z1; VPXORD Z2, Z2, Z2; VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4; VPXORD Z5, Z5, Z5; VPXORD Z6, Z6, Z6; VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8; VPXORD Z9, Z9, Z9; VPXORD Z10, Z10, Z10; VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12; VPXORD Z13, Z13, Z13; VPXORD Z14, Z14, Z14; VPXORD Z15, Z15, Z15

z512_tap:
	Z512ROW(0, R8); Z512ROW(1, R9); Z512ROW(2, R10); Z512ROW(3, R11)
	Z512ROW(4, R12); Z512ROW(5, R13); Z512ROW(6, R14); Z512ROW(7, R15)
	ADDQ $32, DI
	XORQ AX, AX

z512_chan:
	Z512CHAN(0); Z512CHAN(1); Z512CHAN(2); Z512CHAN(3)
	ADDQ $512, DX
	ADDQ $4, AX
	CMPQ AX, CX
	JLT  z512_chan
	DECQ BX
	JNZ  z512_tap

	MOVQ    bias+56(FP), AX
	VMOVUPS (AX), Z16
	VMOVUPS 64(AX), Z17
	VPXORD  Z18, Z18, Z18
	MOVQ    c+40(FP), CX
	MOVQ    ldc+48(FP), BX
	SHLQ    $2, BX
	Z512OUT(Z0, Z1); ADDQ BX, CX
	Z512OUT(Z2, Z3); ADDQ BX, CX
	Z512OUT(Z4, Z5); ADDQ BX, CX
	Z512OUT(Z6, Z7); ADDQ BX, CX
	Z512OUT(Z8, Z9); ADDQ BX, CX
	Z512OUT(Z10, Z11); ADDQ BX, CX
	Z512OUT(Z12, Z13); ADDQ BX, CX
	Z512OUT(Z14, Z15)
	VZEROUPPER
	RET

#define Z512PANEL(p, lo, hi) VFMADD231PS (p), Z20, lo; VFMADD231PS 64(p), Z20, hi; ADDQ $128, p

// func rowAVX512(a *float32, cin int, b *float32, panelLen int, c, bias *float32)
// One row, 4 panels of 32 columns (c[0:128]): Z0..Z7 accumulate.
TEXT ·rowAVX512(SB), NOSPLIT, $0-48
	MOVQ a+0(FP), SI
	MOVQ cin+8(FP), CX
	MOVQ b+16(FP), DX
	MOVQ panelLen+24(FP), BX
	SHLQ $2, BX
	LEAQ (DX)(BX*1), R8
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	VPXORD Z0, Z0, Z0; VPXORD Z1, Z1, Z1; VPXORD Z2, Z2, Z2; VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4; VPXORD Z5, Z5, Z5; VPXORD Z6, Z6, Z6; VPXORD Z7, Z7, Z7
	XORQ AX, AX

z512_row:
	VBROADCASTSS (SI)(AX*4), Z20
	Z512PANEL(DX, Z0, Z1); Z512PANEL(R8, Z2, Z3); Z512PANEL(R9, Z4, Z5); Z512PANEL(R10, Z6, Z7)
	INCQ AX
	CMPQ AX, CX
	JLT  z512_row

	MOVQ    bias+40(FP), AX
	MOVQ    c+32(FP), CX
	VPXORD  Z18, Z18, Z18
	VMOVUPS (AX), Z16; VMOVUPS 64(AX), Z17; Z512OUT(Z0, Z1); ADDQ $128, AX; ADDQ $128, CX
	VMOVUPS (AX), Z16; VMOVUPS 64(AX), Z17; Z512OUT(Z2, Z3); ADDQ $128, AX; ADDQ $128, CX
	VMOVUPS (AX), Z16; VMOVUPS 64(AX), Z17; Z512OUT(Z4, Z5); ADDQ $128, AX; ADDQ $128, CX
	VMOVUPS (AX), Z16; VMOVUPS 64(AX), Z17; Z512OUT(Z6, Z7)
	VZEROUPPER
	RET
