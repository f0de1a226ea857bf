package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReportCommand(t *testing.T) {
	fixtures := filepath.Join("..", "..", "arena", "report", "testdata", "runs")
	sweep := filepath.Join(fixtures, "sweep")
	exp1 := filepath.Join(fixtures, "thesis-exp1")
	tmp := t.TempDir()
	out := filepath.Join(tmp, "report")
	cases := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"report"}, 2, "", "usage: arena report DIR..."},
		{[]string{"report", sweep, exp1}, 2, "", "several directories: name the report directory with --out DIR"},
		{[]string{"report", filepath.Join(tmp, "nothing")}, 1, "", "run directory " + filepath.Join(tmp, "nothing") + ": no such file or directory"},
		// Flags before or after the directories.
		{[]string{"report", sweep, "--out", out, exp1}, 0,
			"Report of 4 run(s) in " + out + " (report.md, report.html, plots/)\n", ""},
		// The thesis comparison is a study's (studies/thesis/cmd/thesis-report), not the tool's.
		{[]string{"report", "--thesis", filepath.Join(tmp, "r.md"), exp1}, 2, "", "flag provided but not defined: -thesis"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		code := run(c.args, &stdout, &stderr)
		if code != c.code || !strings.HasPrefix(stdout.String(), c.stdout) || !strings.Contains(stderr.String(), c.stderr) {
			t.Errorf("arena %s: exit %d (want %d)\nstdout: %s\nstderr: %s\nwant stdout containing %q, stderr containing %q",
				strings.Join(c.args, " "), code, c.code, stdout.String(), stderr.String(), c.stdout, c.stderr)
		}
	}
	for _, f := range []string{filepath.Join(out, "report.md"), filepath.Join(out, "report.html"),
		filepath.Join(out, "plots", "acpl-vs-time.svg")} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("not written: %v", err)
		}
	}
	// The fixtures stay untouched: no report was written into them.
	for _, d := range []string{sweep, exp1} {
		if _, err := os.Stat(filepath.Join(d, "report.md")); err == nil {
			t.Errorf("a report was written into %s", d)
		}
	}
}
