#include "textflag.h"

// AVX2 kernels of kernels.go, 16 int16 per step; n is a multiple of 16.
// Y10 holds QA in every word and Y11 zero. X15 is not used: it is the zero
// register of Go's internal ABI.

// SETUP loads the arguments and clears the int64 sums in Y0.
#define SETUP \
	MOVQ    acc+0(FP), SI; \
	MOVQ    w+8(FP), DI; \
	MOVQ    n+16(FP), CX; \
	MOVQ    qa+24(FP), AX; \
	MOVQ    AX, X10; \
	VPBROADCASTW X10, Y10; \
	VPXOR   Y11, Y11, Y11; \
	VPXOR   Y0, Y0, Y0; \
	SHLQ    $1, CX; \
	XORQ    AX, AX

// FINISH adds Y0's four int64 sums and returns the total.
#define FINISH \
	VEXTRACTI128 $1, Y0, X1; \
	VPADDQ  X1, X0, X0; \
	VPSHUFD $0x4e, X0, X1; \
	VPADDQ  X1, X0, X0; \
	MOVQ    X0, AX; \
	MOVQ    AX, ret+32(FP); \
	VZEROUPPER; \
	RET

// SQUARE adds v*(v*w) for the eight elements that unpack (VPUNPCKLWD or
// VPUNPCKHWD) takes from v (Y1) and w (Y2): v*w is exact in int32
// (VPMADDWD of (v, 0) and (w, 0) pairs), times v in int64 (VPMULDQ, even
// and then odd dwords).
#define SQUARE(unpack) \
	unpack   Y11, Y1, Y3; \
	unpack   Y11, Y2, Y4; \
	VPMADDWD Y4, Y3, Y5; \
	VPMULDQ  Y3, Y5, Y6; \
	VPADDQ   Y6, Y0, Y0; \
	VPSRLQ   $32, Y3, Y3; \
	VPSRLQ   $32, Y5, Y5; \
	VPMULDQ  Y3, Y5, Y6; \
	VPADDQ   Y6, Y0, Y0

// func dotCReLUAVX2(acc, w *int16, n int, qa int) int64
// VPMADDWD gives v[2i]*w[2i] + v[2i+1]*w[2i+1] exactly in int32 (at most
// 2 x 32767 x 32768 in size); each is widened to int64 before it is added.
TEXT ·dotCReLUAVX2(SB), NOSPLIT, $0-40
	SETUP

crelu:
	CMPQ AX, CX
	JGE  crelued
	VMOVDQU  (SI)(AX*1), Y1
	VPMAXSW  Y11, Y1, Y1
	VPMINSW  Y10, Y1, Y1
	VPMADDWD (DI)(AX*1), Y1, Y1
	VPMOVSXDQ X1, Y2
	VEXTRACTI128 $1, Y1, X3
	VPMOVSXDQ X3, Y3
	VPADDQ   Y2, Y0, Y0
	VPADDQ   Y3, Y0, Y0
	ADDQ     $32, AX
	JMP      crelu

crelued:
	FINISH

// func dotSCReLUAVX2(acc, w *int16, n int, qa int) int64
TEXT ·dotSCReLUAVX2(SB), NOSPLIT, $0-40
	SETUP

screlu:
	CMPQ AX, CX
	JGE  screlued
	VMOVDQU (SI)(AX*1), Y1
	VPMAXSW Y11, Y1, Y1
	VPMINSW Y10, Y1, Y1
	VMOVDQU (DI)(AX*1), Y2
	SQUARE(VPUNPCKLWD)
	SQUARE(VPUNPCKHWD)
	ADDQ    $32, AX
	JMP     screlu

screlued:
	FINISH

// func dotSCReLUSmallAVX2(acc, w *int16, n int, qa int) int64
// For weights with |w| * QA <= 32767: v*w is exact in int16 (VPMULLW),
// and VPMADDWD of v with it gives v[2i]*(v[2i]*w[2i]) + the next exactly
// in int32. The int32 sums are widened to int64 every 256 elements (16
// steps), before they could pass 16 x 2 x 1024 x 32767 < 2^31.
TEXT ·dotSCReLUSmallAVX2(SB), NOSPLIT, $0-40
	SETUP

round:
	CMPQ    AX, CX
	JGE     rounded
	VPXOR   Y3, Y3, Y3
	MOVQ    AX, DX
	ADDQ    $512, DX
	CMPQ    DX, CX
	CMOVQGT CX, DX

small:
	VMOVDQU  (SI)(AX*1), Y1
	VPMAXSW  Y11, Y1, Y1
	VPMINSW  Y10, Y1, Y1
	VPMULLW  (DI)(AX*1), Y1, Y2
	VPMADDWD Y2, Y1, Y2
	VPADDD   Y2, Y3, Y3
	ADDQ     $32, AX
	CMPQ     AX, DX
	JLT      small
	VPMOVSXDQ X3, Y4
	VEXTRACTI128 $1, Y3, X5
	VPMOVSXDQ X5, Y5
	VPADDQ   Y4, Y0, Y0
	VPADDQ   Y5, Y0, Y0
	JMP      round

rounded:
	FINISH

// func updateAVX2(dst, src, a1, a2, s1, s2 *int16, n int)
TEXT ·updateAVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ a1+16(FP), R8
	MOVQ a2+24(FP), R9
	MOVQ s1+32(FP), R10
	MOVQ s2+40(FP), R11
	MOVQ n+48(FP), CX
	SHLQ $1, CX
	XORQ AX, AX

update:
	CMPQ AX, CX
	JGE  updated
	VMOVDQU (SI)(AX*1), Y0
	VPADDW  (R8)(AX*1), Y0, Y0
	VPADDW  (R9)(AX*1), Y0, Y0
	VPSUBW  (R10)(AX*1), Y0, Y0
	VPSUBW  (R11)(AX*1), Y0, Y0
	VMOVDQU Y0, (DI)(AX*1)
	ADDQ    $32, AX
	JMP     update

updated:
	VZEROUPPER
	RET
