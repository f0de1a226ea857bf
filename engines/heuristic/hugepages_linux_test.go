package heuristic

import (
	"bytes"
	"os"
	"os/exec"
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
// more). The measurement is the process's AnonHugePages before and after,
// so it runs in a fresh process (this test binary re-executed for this test
// alone): in the test process, the tables of earlier tests leave freed
// memory already in huge pages, which the new table may reuse without
// adding any, and the runtime returning memory to the kernel meanwhile
// lowers the count.
func TestTableInHugePages(t *testing.T) {
	if os.Getenv(hugePagesChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTableInHugePages$", "-test.v")
		cmd.Env = append(os.Environ(), hugePagesChild+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("TestTableInHugePages in a fresh process: %v\n%s", err, out)
		}
		t.Logf("in a fresh process:\n%s", out)
		return
	}
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

// hugePagesChild is set in the environment of the re-executed test binary.
const hugePagesChild = "ARENA_TEST_HUGEPAGES_CHILD"
