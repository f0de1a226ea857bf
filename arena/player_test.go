//go:build linux

package arena

import (
	"os"
	"runtime/debug"
	"syscall"
	"testing"
)

// statusKB reads the kB fields of /proc/PID/status; a missing or garbled
// field is an error.
func TestStatusKB(t *testing.T) {
	status := []byte("Name:\tarena\nVmPeak:\t  300000 kB\nVmHWM:\t   40960 kB\nVmRSS:\t   20480 kB\nRssAnon:\t 1 kB\n")
	if v, err := statusKB(status, "VmRSS:"); err != nil || v != 20480*1024 {
		t.Errorf("VmRSS: %d, %v; want %d", v, err, 20480*1024)
	}
	if v, err := statusKB(status, "VmHWM:"); err != nil || v != 40960*1024 {
		t.Errorf("VmHWM: %d, %v; want %d", v, err, 40960*1024)
	}
	for _, bad := range [][]byte{[]byte("Name:\tx\nVmHWM:\t1 kB\n"), []byte("Name:\tx\nVmRSS:\t kB\n"), []byte("VmRSS:\t5 kB\n")} {
		if v, err := statusKB(bad, "VmRSS:"); err == nil {
			t.Errorf("%q: VmRSS %d, want an error", bad, v)
		}
	}
}

// procMem re-reads a live process's status from the same open file: the
// values move with the process (a fresh 64 MB touched shows up).
func TestProcMemRereads(t *testing.T) {
	// The process's RSS also moves with the Go heap: the background
	// scavenger returning memory earlier tests freed could hide the 64 MB
	// (it did: +18 MB after the arena package's other tests). Returning it
	// all now and collecting no more until the end leaves it nothing to do.
	debug.FreeOSMemory()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	m := openProcMem(os.Getpid())
	if m == nil {
		t.Fatalf("cannot open /proc/%d/status", os.Getpid())
	}
	defer m.f.Close()
	rss0, peak0, err := m.read()
	if err != nil || rss0 == 0 || peak0 < rss0 {
		t.Fatalf("first read: rss %d peak %d, %v", rss0, peak0, err)
	}
	// Fresh anonymous memory, unlike the Go heap, is not resident until
	// touched.
	block, err := syscall.Mmap(-1, 0, 64<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(block)
	for i := 0; i < len(block); i += 4096 {
		block[i] = 1
	}
	rss1, peak1, err := m.read()
	if err != nil || rss1 < rss0+32<<20 || peak1 < rss1 {
		t.Errorf("after touching 64 MB: rss %d (before %d), peak %d, %v", rss1, rss0, peak1, err)
	}
}
