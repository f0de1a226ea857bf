#include "textflag.h"

// func sumRowsAVX2(dst, w *float32, rows *int, nrows, h int)
// For each 64-float chunk of dst: load it into Y0-Y7, add that chunk of
// every listed row in order, store it. h is a multiple of 64, nrows > 0.
TEXT ·sumRowsAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ rows+16(FP), R8
	MOVQ nrows+24(FP), R9
	MOVQ h+32(FP), R11
	SHLQ $2, R11            // row stride in bytes
	XORQ CX, CX             // chunk offset in bytes

sumChunk:
	CMPQ CX, R11
	JGE  sumDone
	VMOVUPS 0(DI)(CX*1), Y0
	VMOVUPS 32(DI)(CX*1), Y1
	VMOVUPS 64(DI)(CX*1), Y2
	VMOVUPS 96(DI)(CX*1), Y3
	VMOVUPS 128(DI)(CX*1), Y4
	VMOVUPS 160(DI)(CX*1), Y5
	VMOVUPS 192(DI)(CX*1), Y6
	VMOVUPS 224(DI)(CX*1), Y7
	XORQ BX, BX

sumRow:
	MOVQ  (R8)(BX*8), AX
	IMULQ R11, AX
	ADDQ  SI, AX
	ADDQ  CX, AX
	VADDPS 0(AX), Y0, Y0
	VADDPS 32(AX), Y1, Y1
	VADDPS 64(AX), Y2, Y2
	VADDPS 96(AX), Y3, Y3
	VADDPS 128(AX), Y4, Y4
	VADDPS 160(AX), Y5, Y5
	VADDPS 192(AX), Y6, Y6
	VADDPS 224(AX), Y7, Y7
	INCQ BX
	CMPQ BX, R9
	JLT  sumRow

	VMOVUPS Y0, 0(DI)(CX*1)
	VMOVUPS Y1, 32(DI)(CX*1)
	VMOVUPS Y2, 64(DI)(CX*1)
	VMOVUPS Y3, 96(DI)(CX*1)
	VMOVUPS Y4, 128(DI)(CX*1)
	VMOVUPS Y5, 160(DI)(CX*1)
	VMOVUPS Y6, 192(DI)(CX*1)
	VMOVUPS Y7, 224(DI)(CX*1)
	ADDQ $256, CX
	JMP  sumChunk

sumDone:
	VZEROUPPER
	RET

// func addToRowsAVX2(w *float32, rows *int, nrows int, src *float32, h int)
// For each 64-float chunk of src: load it into Y0-Y7, then add it to that
// chunk of every listed row. h is a multiple of 64, nrows > 0.
TEXT ·addToRowsAVX2(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), SI
	MOVQ rows+8(FP), R8
	MOVQ nrows+16(FP), R9
	MOVQ src+24(FP), DI
	MOVQ h+32(FP), R11
	SHLQ $2, R11
	XORQ CX, CX

addChunk:
	CMPQ CX, R11
	JGE  addDone
	VMOVUPS 0(DI)(CX*1), Y0
	VMOVUPS 32(DI)(CX*1), Y1
	VMOVUPS 64(DI)(CX*1), Y2
	VMOVUPS 96(DI)(CX*1), Y3
	VMOVUPS 128(DI)(CX*1), Y4
	VMOVUPS 160(DI)(CX*1), Y5
	VMOVUPS 192(DI)(CX*1), Y6
	VMOVUPS 224(DI)(CX*1), Y7
	XORQ BX, BX

addRow:
	MOVQ  (R8)(BX*8), AX
	IMULQ R11, AX
	ADDQ  SI, AX
	ADDQ  CX, AX
	VADDPS 0(AX), Y0, Y8
	VADDPS 32(AX), Y1, Y9
	VADDPS 64(AX), Y2, Y10
	VADDPS 96(AX), Y3, Y11
	VADDPS 128(AX), Y4, Y12
	VADDPS 160(AX), Y5, Y13
	VADDPS 192(AX), Y6, Y14
	VADDPS 224(AX), Y7, Y15
	VMOVUPS Y8, 0(AX)
	VMOVUPS Y9, 32(AX)
	VMOVUPS Y10, 64(AX)
	VMOVUPS Y11, 96(AX)
	VMOVUPS Y12, 128(AX)
	VMOVUPS Y13, 160(AX)
	VMOVUPS Y14, 192(AX)
	VMOVUPS Y15, 224(AX)
	INCQ BX
	CMPQ BX, R9
	JLT  addRow

	ADDQ $256, CX
	JMP  addChunk

addDone:
	VZEROUPPER
	RET

// func outputSCReLUAVX2(us, them, ou, ot *float32, h int) float32
// sum over i of clamp01(us[i])^2*ou[i] + clamp01(them[i])^2*ot[i], lane j
// of Y0 summing the i = j mod 8 in order, the lanes reduced as
// outputSCReLUGo does. h is a multiple of 8, h > 0.
TEXT ·outputSCReLUAVX2(SB), NOSPLIT, $0-44
	MOVQ us+0(FP), SI
	MOVQ them+8(FP), DI
	MOVQ ou+16(FP), R8
	MOVQ ot+24(FP), R9
	MOVQ h+32(FP), CX
	SHLQ $2, CX
	VXORPS Y15, Y15, Y15
	MOVL $0x3f800000, AX
	MOVQ AX, X14
	VBROADCASTSS X14, Y14
	VXORPS Y0, Y0, Y0
	XORQ BX, BX

outLoop:
	VMOVUPS (SI)(BX*1), Y1
	VMAXPS  Y15, Y1, Y1     // max(x, 0): +0 for -0, as Go's max
	VMINPS  Y14, Y1, Y1
	VMULPS  Y1, Y1, Y1
	VMULPS  (R8)(BX*1), Y1, Y1
	VMOVUPS (DI)(BX*1), Y2
	VMAXPS  Y15, Y2, Y2
	VMINPS  Y14, Y2, Y2
	VMULPS  Y2, Y2, Y2
	VMULPS  (R9)(BX*1), Y2, Y2
	VADDPS  Y2, Y1, Y1
	VADDPS  Y1, Y0, Y0
	ADDQ $32, BX
	CMPQ BX, CX
	JLT  outLoop

	VEXTRACTF128 $1, Y0, X1
	VADDPS    X1, X0, X0   // l0+l4, l1+l5, l2+l6, l3+l7
	VMOVHLPS  X0, X0, X1
	VADDPS    X1, X0, X0   // (l0+l4)+(l2+l6), (l1+l5)+(l3+l7)
	VMOVSHDUP X0, X1
	VADDSS    X1, X0, X0
	VMOVSS    X0, ret+40(FP)
	VZEROUPPER
	RET

// func backwardSCReLUAVX2(us, them, ou, ot, gou, got, gb, dus, dthem *float32, dOut float32, h int)
// The dense part of backward for SCReLU, element by element as
// backwardSCReLUGo. h is a multiple of 8, h > 0.
TEXT ·backwardSCReLUAVX2(SB), NOSPLIT, $0-88
	MOVQ us+0(FP), SI
	MOVQ them+8(FP), DI
	MOVQ ou+16(FP), R8
	MOVQ ot+24(FP), R9
	MOVQ gou+32(FP), R10
	MOVQ got+40(FP), R11
	MOVQ gb+48(FP), R12
	MOVQ dus+56(FP), R13
	MOVQ dthem+64(FP), DX
	VBROADCASTSS dOut+72(FP), Y13
	MOVQ h+80(FP), CX
	SHLQ $2, CX
	VXORPS Y15, Y15, Y15
	MOVL $0x3f800000, AX
	MOVQ AX, X14
	VBROADCASTSS X14, Y14
	XORQ BX, BX

bwdLoop:
	VMOVUPS (SI)(BX*1), Y1       // x = us
	VMAXPS  Y15, Y1, Y2
	VMINPS  Y14, Y2, Y2          // a
	VMULPS  Y2, Y13, Y3
	VMULPS  Y2, Y3, Y3           // dOut*a*a
	VADDPS  (R10)(BX*1), Y3, Y3
	VMOVUPS Y3, (R10)(BX*1)
	VCMPPS  $1, Y14, Y1, Y4      // x < 1
	VADDPS  Y2, Y2, Y5           // 2a
	VANDPS  Y4, Y5, Y5
	VMULPS  (R8)(BX*1), Y13, Y6  // dOut*ou
	VMULPS  Y5, Y6, Y6           // dus
	VMOVUPS Y6, (R13)(BX*1)

	VMOVUPS (DI)(BX*1), Y1       // x = them
	VMAXPS  Y15, Y1, Y2
	VMINPS  Y14, Y2, Y2
	VMULPS  Y2, Y13, Y3
	VMULPS  Y2, Y3, Y3
	VADDPS  (R11)(BX*1), Y3, Y3
	VMOVUPS Y3, (R11)(BX*1)
	VCMPPS  $1, Y14, Y1, Y4
	VADDPS  Y2, Y2, Y5
	VANDPS  Y4, Y5, Y5
	VMULPS  (R9)(BX*1), Y13, Y7
	VMULPS  Y5, Y7, Y7           // dthem
	VMOVUPS Y7, (DX)(BX*1)

	VADDPS  Y7, Y6, Y6
	VADDPS  (R12)(BX*1), Y6, Y6
	VMOVUPS Y6, (R12)(BX*1)
	ADDQ $32, BX
	CMPQ BX, CX
	JLT  bwdLoop
	VZEROUPPER
	RET

// func addAVX2(dst, src *float32, n int)
// dst[i] += src[i] for i < n, n a multiple of 32, n > 0.
TEXT ·addAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $2, CX
	XORQ BX, BX

addLoop:
	VMOVUPS (DI)(BX*1), Y0
	VMOVUPS 32(DI)(BX*1), Y1
	VMOVUPS 64(DI)(BX*1), Y2
	VMOVUPS 96(DI)(BX*1), Y3
	VADDPS  (SI)(BX*1), Y0, Y0
	VADDPS  32(SI)(BX*1), Y1, Y1
	VADDPS  64(SI)(BX*1), Y2, Y2
	VADDPS  96(SI)(BX*1), Y3, Y3
	VMOVUPS Y0, (DI)(BX*1)
	VMOVUPS Y1, 32(DI)(BX*1)
	VMOVUPS Y2, 64(DI)(BX*1)
	VMOVUPS Y3, 96(DI)(BX*1)
	ADDQ $128, BX
	CMPQ BX, CX
	JLT  addLoop
	VZEROUPPER
	RET
