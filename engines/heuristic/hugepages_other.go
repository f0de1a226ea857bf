//go:build !linux

package heuristic

// adviseHugePages does nothing where there is no madvise(MADV_HUGEPAGE).
func adviseHugePages([]ttEntry) {}
