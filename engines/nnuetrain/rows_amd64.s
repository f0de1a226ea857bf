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
