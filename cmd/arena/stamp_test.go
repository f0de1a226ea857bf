package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/record"
)

// make build stamps the commit (builds here have GOFLAGS=-buildvcs=false,
// so only -ldflags can): the binary's --version names git rev-parse HEAD,
// and a fresh run's summary.json and every games.jsonl line carry it and
// the schema version.
func TestMakeBuildStampsTheCommit(t *testing.T) {
	t.Chdir("../..")
	git := func(args ...string) string {
		out, err := exec.Command("git", args...).Output()
		if err != nil {
			t.Fatalf("git %v: %v (the test needs the repository's git work tree)", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	head := git("rev-parse", "HEAD")
	want := head
	if git("status", "--porcelain") != "" {
		want += "+dirty"
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "arena")
	if out, err := exec.Command("make", "--no-print-directory", "build", "BIN="+bin).CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.Contains(string(out), "commit "+head) {
		t.Fatalf("arena --version: %q, %v; want it to name commit %s", out, err, head)
	}
	dir := filepath.Join(tmp, "run")
	cmd := exec.Command(bin, "run", "-engine", "builtin=random", "name=R1", "-engine", "builtin=random", "name=R2", "-each", "depth=1",
		"-maxmoves", "3", "-judge", "off", "-quiet", "--out", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("arena run: %v\n%s", err, out)
	}
	var sum record.Summary
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil || json.Unmarshal(data, &sum) != nil {
		t.Fatalf("summary.json: %v", err)
	}
	if sum.Schema != record.Schema || sum.Versions.Arena != want || len(sum.Versions.ArenaCommits) != 0 {
		t.Errorf("summary.json: schema %d, versions.arena %q, arena_commits %v; want %d, %q, none", sum.Schema, sum.Versions.Arena, sum.Versions.ArenaCommits, record.Schema, want)
	}
	f, err := os.Open(filepath.Join(dir, "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		var g record.GameRecord
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil || g.Schema != record.Schema || g.ArenaCommit != want {
			t.Errorf("games.jsonl line %d: schema %d, arena_commit %q (%v); want %d, %q", n+1, g.Schema, g.ArenaCommit, err, record.Schema, want)
		}
	}
	if n != 2 {
		t.Errorf("games.jsonl: %d games, want 2", n)
	}
}
