package arena

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/config"
	"arena/arena/output"
	_ "arena/engines/deepchess" // the built-in engines committed runs name
	_ "arena/engines/giraffe"
	_ "arena/engines/mcts"
	_ "arena/engines/random"
	_ "arena/engines/supervised"
)

// runArena runs the arena binary and returns its exit code and output.
func runArena(t *testing.T, args ...string) (int, string) {
	t.Helper()
	return runCommand(t, arenaBin, args...)
}

// runCommand runs a command and returns its exit code and output.
func runCommand(t *testing.T, name string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String()
}

// editFile replaces old by new in path, which must hold old.
func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not hold %q:\n%s", path, old, data)
	}
	if err := os.WriteFile(path, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Editing a key that defines the games in a run's config.yaml and resuming
// is refused, naming the key and both values; editing a run-only key
// (concurrency, rating_interval) is accepted. The same holds for the
// shards of a merge.
func TestResumeRefusesConfigDrift(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "drift.yaml")
	cfg := fmt.Sprintf(`
games: 4
max_moves: 20
judge: off
engines:
  - name: A
    command: %q
    options: {Dummy: "3"}
    limits: {nodes: 3000}
  - name: B
    command: %q
    limits: {nodes: 3000}
`, fakeBin, fakeBin)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	if rc, out := runArena(t, "run", cfgPath, "--out", run, "--quiet"); rc != 0 {
		t.Fatalf("run: rc %d\n%s", rc, out)
	}
	written := filepath.Join(run, output.ConfigFile)
	pristine, err := os.ReadFile(written)
	if err != nil {
		t.Fatal(err)
	}
	editFile(t, written, "nodes: 3000\n  - name: B", "nodes: 7\n  - name: B")
	editFile(t, written, `Dummy: "3"`, `Dummy: "4"`)
	rc, out := runArena(t, "run", "--resume", run, "--quiet")
	if rc != 1 || !strings.Contains(out, "engines[0].limits.nodes: 3000 -> 7") || !strings.Contains(out, "engines[0].options.Dummy: 3 -> 4") {
		t.Fatalf("resume after editing nodes and an option: rc %d, want 1 naming both keys:\n%s", rc, out)
	}
	if err := os.WriteFile(written, pristine, 0o644); err != nil {
		t.Fatal(err)
	}
	editFile(t, written, "concurrency: 1", "concurrency: 2\nrating_interval: 2")
	if rc, out := runArena(t, "run", "--resume", run, "--quiet"); rc != 0 {
		t.Fatalf("resume after changing run-only keys: rc %d, want 0:\n%s", rc, out)
	}

	// Shards: each checked against what it played, and against each other.
	var shards []string
	for i := range 2 {
		d := filepath.Join(dir, fmt.Sprintf("shard%d", i))
		if rc, out := runArena(t, "run", cfgPath, "--out", d, "--quiet", "--shard", fmt.Sprintf("%d/2", i)); rc != 0 {
			t.Fatalf("shard %d: rc %d\n%s", i, rc, out)
		}
		shards = append(shards, d)
	}
	editFile(t, filepath.Join(shards[1], output.ConfigFile), "max_moves: 20", "max_moves: 30")
	rc, out = runArena(t, "merge", filepath.Join(dir, "merged"), shards[0], shards[1])
	if rc != 1 || !strings.Contains(out, "max_moves: 20 -> 30") || !strings.Contains(out, "shard1") {
		t.Fatalf("merge with an edited shard: rc %d, want 1 naming max_moves and the shard:\n%s", rc, out)
	}
}

// Every committed run resumes: its config.yaml is the one its summary
// says it played (for runs recorded before the played keys, by their
// config_sha256, books with their provenance put back on top). The runs
// whose hash an older arena computed over other keys are listed.
func TestCommittedRunsMatchTheirConfigs(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "results")
	n := 0
	var legacy []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.Name() != output.ConfigFile {
			return err
		}
		dir := filepath.Dir(path)
		prev, err := readSummary(dir)
		if err != nil || prev == nil {
			return err
		}
		cfg, err := config.Load(path)
		if err != nil {
			return err
		}
		n++
		if warning, err := checkPlayed(cfg, prev); err != nil {
			t.Errorf("%s: %v", dir, err)
		} else if warning != "" {
			legacy = append(legacy, dir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d committed runs checked; %d with a config_sha256 of an older arena: %s", n, len(legacy), strings.Join(legacy, ", "))
	// The 40 are the runs of arenas before the book-by-content hash; a
	// run that matched and no longer does means a book or the hash moved.
	if len(legacy) > 40 {
		t.Errorf("%d committed runs no longer match their config_sha256 (40 did not before)", len(legacy))
	}
	if n < 60 {
		t.Fatalf("checked %d committed runs, expected the 60 or more under %s", n, root)
	}
}
