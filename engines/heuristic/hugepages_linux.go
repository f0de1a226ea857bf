package heuristic

import (
	"syscall"
	"unsafe"
)

// madvHugePage is MADV_HUGEPAGE (the syscall package has no name for it).
const madvHugePage = 14

// adviseHugePages asks the kernel to back the table with transparent huge
// pages (where THP is in "madvise" mode, as is common, it does so only when
// asked). A 64 MB table is then 32 pages of 2 MB instead of 16,384 of 4 kB:
// 32 page faults instead of 16,384 when it is first written, and far fewer
// TLB misses on the searches' random probes. Only whole 2 MB pages inside
// the table are advised; a failure (no THP) leaves ordinary pages.
func adviseHugePages(entries []ttEntry) {
	const huge = 2 << 20
	size := uintptr(len(entries)) * unsafe.Sizeof(ttEntry{})
	if size < huge {
		return
	}
	mem := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(entries))), size)
	off := (huge - uintptr(unsafe.Pointer(unsafe.SliceData(mem)))%huge) % huge
	if size < off+huge {
		return
	}
	mem = mem[off : off+(size-off)&^(huge-1)]
	_ = syscall.Madvise(mem, madvHugePage)
}
