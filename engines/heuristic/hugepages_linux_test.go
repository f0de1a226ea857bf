package heuristic

import (
	"bytes"
	"os"
	"strconv"
	"testing"
)

// anonHugeKB is the process's memory in transparent huge pages.
func anonHugeKB(t *testing.T) int {
	data, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := bytes.Cut(data, []byte("AnonHugePages:"))
	if !ok {
		t.Fatal("no AnonHugePages in /proc/self/smaps_rollup")
	}
	kb, err := strconv.Atoi(string(bytes.Fields(rest)[0]))
	if err != nil {
		t.Fatal(err)
	}
	return kb
}

// Where the kernel offers transparent huge pages on request, a new table
// is backed by them once written (here 46 of the 64 MB table's 48 MB of
// entries; the test asks for one page, as memory may be too fragmented for
// more).
func TestTableInHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	available := err == nil && !bytes.Contains(mode, []byte("[never]"))
	before := anonHugeKB(t)
	var tt transTable
	tt.resize(64)
	tt.clear()
	if len(tt.entries) != 1<<21 {
		t.Fatalf("64 MB table has %d entries, want %d", len(tt.entries), 1<<21)
	}
	got := anonHugeKB(t) - before
	if available && got < 2<<10 {
		t.Errorf("THP mode %q: the table added %d kB of huge pages, want some (2 MB pages)", bytes.TrimSpace(mode), got)
	}
	t.Logf("THP mode %q: %d kB of huge pages for the table", bytes.TrimSpace(mode), got)
}
