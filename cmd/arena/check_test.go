package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"arena/arena/config"
)

// check prints the resolved config, which loads back as the same config;
// a bad config fails with the loader's file:line error and plays nothing.
func TestCheckCommand(t *testing.T) {
	var out, errb bytes.Buffer
	src := "../../configs/examples/round-robin.yaml"
	if code := run([]string{"check", src}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), "# "+src+": valid; resolved config:\n") {
		t.Errorf("output starts %q", out.String()[:min(80, out.Len())])
	}
	want, err := config.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := config.Parse(src, out.Bytes())
	if err != nil {
		t.Fatalf("printed config does not load: %v\n%s", err, out.String())
	}
	if got.Name != want.Name || len(got.Engines) != len(want.Engines) || got.Games != want.Games || got.Openings.File != want.Openings.File {
		t.Errorf("printed config %+v differs from the file's %+v", got, want)
	}

	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("limits:\n  movetime: 100\nengines:\n  - {engine: random}\n  - {engine: random}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"check", bad}, &out, &errb); code != 1 || out.Len() > 0 ||
		!strings.Contains(errb.String(), bad+`:2: limits.movetime: "100" has no unit: add a unit, e.g. 100ms or 1s`) {
		t.Errorf("bad config: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	if code := run([]string{"check"}, &out, &errb); code != 2 {
		t.Errorf("no config: exit %d, want 2", code)
	}
}

func TestCheckSweep(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"check", "../../configs/examples/sweep-movetime.yaml"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	cfg, err := config.Load("../../configs/examples/sweep-movetime.yaml")
	if err != nil {
		t.Fatal(err)
	}
	n := len(cfg.Sweep.Values)
	if got := strings.Count(out.String(), "# sweep setting "); got != n || strings.Count(out.String(), "\n---\n") != n-1 {
		t.Errorf("%d settings printed, want %d:\n%s", got, n, out.String())
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}, {"-version"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errb.String())
		}
		if s := out.String(); !strings.HasPrefix(s, "arena ") || !strings.Contains(s, runtime.Version()) {
			t.Errorf("%v: %q, want the arena version and %s", args, s, runtime.Version())
		}
	}
}
