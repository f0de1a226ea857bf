#include "textflag.h"

// KROW(r, z, lo, hi): broadcast A element AX of the row at r, multiply by
// the 32 B values (Z16, Z17) into accumulators lo, hi.
#define KROW(r, z, lo, hi) VBROADCASTSS (r)(AX*4), z; VFMADD231PS Z16, z, lo; VFMADD231PS Z17, z, hi

#define KACC(lo, hi) VADDPS (CX), lo, lo; VADDPS 64(CX), hi, hi; ADDQ BX, CX
#define KOUT(lo, hi) VMOVUPS lo, (CX); VMOVUPS hi, 64(CX); ADDQ BX, CX

// func gemmAVX512(a *float32, aoff *int, taps, lda, k int, b *float32, ldb int, c *float32, ldc int, acc int)
// train.go states what it computes. Z0..Z15 hold the 8x32 tile; the row
// pointers take R8..R15, so the tap count is kept in its argument slot.
TEXT ·gemmAVX512(SB), NOSPLIT, $0-80
	MOVQ a+0(FP), SI
	MOVQ aoff+8(FP), DI
	MOVQ k+32(FP), CX
	MOVQ b+40(FP), DX
	MOVQ ldb+48(FP), BX
	SHLQ $2, BX
	VPXORD Z0, Z0, Z0; VPXORD Z1, Z1, Z1; VPXORD Z2, Z2, Z2; VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4; VPXORD Z5, Z5, Z5; VPXORD Z6, Z6, Z6; VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8; VPXORD Z9, Z9, Z9; VPXORD Z10, Z10, Z10; VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12; VPXORD Z13, Z13, Z13; VPXORD Z14, Z14, Z14; VPXORD Z15, Z15, Z15

ktap:
	MOVQ (DI), R8
	LEAQ (SI)(R8*4), R8
	MOVQ lda+24(FP), AX
	SHLQ $2, AX
	LEAQ (R8)(AX*1), R9
	LEAQ (R9)(AX*1), R10
	LEAQ (R10)(AX*1), R11
	LEAQ (R11)(AX*1), R12
	LEAQ (R12)(AX*1), R13
	LEAQ (R13)(AX*1), R14
	LEAQ (R14)(AX*1), R15
	ADDQ $8, DI
	XORQ AX, AX

kloop:
	VMOVUPS (DX), Z16
	VMOVUPS 64(DX), Z17
	KROW(R8, Z18, Z0, Z1); KROW(R9, Z19, Z2, Z3)
	KROW(R10, Z20, Z4, Z5); KROW(R11, Z21, Z6, Z7)
	KROW(R12, Z18, Z8, Z9); KROW(R13, Z19, Z10, Z11)
	KROW(R14, Z20, Z12, Z13); KROW(R15, Z21, Z14, Z15)
	ADDQ BX, DX
	INCQ AX
	CMPQ AX, CX
	JLT  kloop
	DECQ taps+16(FP)
	JNZ  ktap

	MOVQ c+56(FP), CX
	MOVQ ldc+64(FP), BX
	SHLQ $2, BX
	MOVQ acc+72(FP), AX
	TESTQ AX, AX
	JZ   kstore
	KACC(Z0, Z1); KACC(Z2, Z3); KACC(Z4, Z5); KACC(Z6, Z7)
	KACC(Z8, Z9); KACC(Z10, Z11); KACC(Z12, Z13); KACC(Z14, Z15)
	MOVQ c+56(FP), CX

kstore:
	KOUT(Z0, Z1); KOUT(Z2, Z3); KOUT(Z4, Z5); KOUT(Z6, Z7)
	KOUT(Z8, Z9); KOUT(Z10, Z11); KOUT(Z12, Z13); KOUT(Z14, Z15)
	VZEROUPPER
	RET

// ---------------------------------------------------------------- AVX2/FMA

// YROW(r, y, lo, hi): broadcast A element AX of the row at r, multiply by
// the 16 B values (Y8, Y9) into accumulators lo, hi.
#define YROW(r, y, lo, hi) VBROADCASTSS (r)(AX*4), y; VFMADD231PS Y8, y, lo; VFMADD231PS Y9, y, hi

#define YACC(lo, hi) VADDPS (CX), lo, lo; VADDPS 32(CX), hi, hi; ADDQ BX, CX
#define YOUT(lo, hi) VMOVUPS lo, (CX); VMOVUPS hi, 32(CX); ADDQ BX, CX

// func gemmAVX2(a *float32, aoff *int, taps, lda, k int, b *float32, ldb int, c *float32, ldc int, acc int)
// A 4x16 quarter of the training tile, the same sums in the same order as
// gemmAVX512: Y0..Y7 accumulate, the row pointers take R8..R11.
TEXT ·gemmAVX2(SB), NOSPLIT, $0-80
	MOVQ a+0(FP), SI
	MOVQ aoff+8(FP), DI
	MOVQ taps+16(FP), R12
	MOVQ lda+24(FP), R13
	SHLQ $2, R13
	MOVQ k+32(FP), CX
	MOVQ b+40(FP), DX
	MOVQ ldb+48(FP), BX
	SHLQ $2, BX
	VXORPS Y0, Y0, Y0; VXORPS Y1, Y1, Y1; VXORPS Y2, Y2, Y2; VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4; VXORPS Y5, Y5, Y5; VXORPS Y6, Y6, Y6; VXORPS Y7, Y7, Y7

ytap:
	MOVQ (DI), R8
	LEAQ (SI)(R8*4), R8
	LEAQ (R8)(R13*1), R9
	LEAQ (R9)(R13*1), R10
	LEAQ (R10)(R13*1), R11
	ADDQ $8, DI
	XORQ AX, AX

yloop:
	VMOVUPS (DX), Y8
	VMOVUPS 32(DX), Y9
	YROW(R8, Y10, Y0, Y1); YROW(R9, Y11, Y2, Y3)
	YROW(R10, Y12, Y4, Y5); YROW(R11, Y13, Y6, Y7)
	ADDQ BX, DX
	INCQ AX
	CMPQ AX, CX
	JLT  yloop
	DECQ R12
	JNZ  ytap

	MOVQ c+56(FP), CX
	MOVQ ldc+64(FP), BX
	SHLQ $2, BX
	MOVQ acc+72(FP), AX
	TESTQ AX, AX
	JZ   ystore
	YACC(Y0, Y1); YACC(Y2, Y3); YACC(Y4, Y5); YACC(Y6, Y7)
	MOVQ c+56(FP), CX

ystore:
	YOUT(Y0, Y1); YOUT(Y2, Y3); YOUT(Y4, Y5); YOUT(Y6, Y7)
	VZEROUPPER
	RET
