package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// The CLI's shard and merge arguments: bad values are usage errors, the
// Slurm environment is read without --shard, and merge explains refusals.
func TestShardAndMergeArguments(t *testing.T) {
	tmp := t.TempDir()
	cases := []struct {
		args   []string
		env    map[string]string
		code   int
		stderr string
	}{
		{[]string{"merge", tmp}, nil, 2, "usage: arena merge OUT DIR..."},
		{[]string{"merge", filepath.Join(tmp, "out"), tmp}, nil, 1, "arena merge: " + tmp + ": no summary.json"},
		{[]string{"run", "x.yaml", "--shard", "4/4"}, nil, 2, `shard "4/4": expected I/N with 0 <= I < N`},
		{[]string{"run", "x.yaml", "--concurrency", "-1"}, nil, 2, "--concurrency -1: expected 1 to 1024"},
		// Last: t.Setenv lasts for the rest of the test.
		{[]string{"run", "x.yaml"}, map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, 2, "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not"},
	}
	for _, c := range cases {
		for k, v := range c.env {
			t.Setenv(k, v)
		}
		var stdout, stderr bytes.Buffer
		code := run(c.args, &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.stderr) {
			t.Errorf("arena %s: exit %d (want %d)\nstderr: %s\nwant stderr containing %q", strings.Join(c.args, " "), code, c.code, stderr.String(), c.stderr)
		}
	}
}
