package clip

import (
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	if got := String("short"); got != "short" {
		t.Errorf("String(short) = %q", got)
	}
	long := strings.Repeat("x", 52<<20)
	if got, want := String(long), strings.Repeat("x", Max)+"... (54525952 bytes)"; got != want {
		t.Errorf("String(52 MB) = %q (%d bytes), want %q", got[:min(len(got), 130)], len(got), want)
	}
	// A cut inside a multi-byte character backs off to its start.
	s := strings.Repeat("a", Max-1) + "é" + "tail"
	if got := String(s); !strings.HasPrefix(got, strings.Repeat("a", Max-1)+"...") {
		t.Errorf("String cut a character: %q", got)
	}
}
