package arena

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"arena/arena/output"
	"arena/arena/record"
)

// compressed is a node-limited match (the same games whenever it is
// played) with every game file written, compressed at its end.
const compressed = `
name: gz
games: 6
max_moves: 40
judge: off
concurrency: 2
limits: {nodes: 400}
output: {epd: true, pgn_comments: [nodes], compress: true}
engines:
  - {name: H, engine: heuristic}
  - {name: R, engine: random}
`

// timeInComment is a PGN move comment's time ("{+0.32/12 0.51s n=123}").
var timeInComment = regexp.MustCompile(` \d+\.\d+s\b`)

// plainOf is the config without compression.
func plainOf(text string) string { return strings.Replace(text, ", compress: true", "", 1) }

// checkCompressed checks that dir holds its game files only as standard
// gzip files and its summaries and config plain, and returns the game
// files' content, read with the standard library's gzip reader.
func checkCompressed(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	content := map[string][]byte{}
	for _, name := range output.GameFiles {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %s is still there (%v)", dir, name, err)
		}
		f, err := os.Open(filepath.Join(dir, name+".gz"))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s.gz: %v", name, err)
		}
		if content[name], err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s.gz: %v", name, err)
		}
		f.Close()
	}
	for _, name := range []string{output.SummaryJSON, output.SummaryMD, output.ConfigFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v; the summaries and config stay plain", dir, err)
		}
		if _, err := os.Stat(filepath.Join(dir, name+".gz")); err == nil {
			t.Errorf("%s: %s.gz written; only the game files are compressed", dir, name)
		}
	}
	return content
}

// readPlain reads the game files of an uncompressed run.
func readPlain(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	content := map[string][]byte{}
	for _, name := range output.GameFiles {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		content[name] = data
	}
	return content
}

// timeless drops from a run's game files what differs between two plays
// of the same node-limited games: wall times, RSS and dates.
func timeless(t *testing.T, name string, data []byte) string {
	t.Helper()
	switch name {
	case output.GamesFile:
		var out []string
		for line := range strings.Lines(string(data)) {
			var g map[string]any
			if err := json.Unmarshal([]byte(line), &g); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			delete(g, "start")
			delete(g, "duration_s")
			for _, m := range g["moves"].([]any) {
				for _, k := range []string{"time_s", "rss_mb", "peak_rss_mb"} {
					delete(m.(map[string]any), k)
				}
			}
			b, _ := json.Marshal(g)
			out = append(out, string(b))
		}
		return strings.Join(out, "\n")
	case output.MovesFile:
		rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		drop := map[int]bool{}
		for i, h := range rows[0] {
			drop[i] = h == "time_s" || h == "rss_mb" || h == "peak_rss_mb"
		}
		var out []string
		for _, r := range rows {
			var kept []string
			for i, f := range r {
				if !drop[i] {
					kept = append(kept, f)
				}
			}
			out = append(out, strings.Join(kept, ","))
		}
		return strings.Join(out, "\n")
	case output.PGNFile:
		var out []string
		for line := range strings.Lines(string(data)) {
			for _, tag := range []string{"Date", "GameStartTime", "GameEndTime", "GameDuration"} {
				if strings.HasPrefix(line, "["+tag+" ") {
					line = ""
				}
			}
			out = append(out, line)
		}
		// Move comments carry the time: "{+0.32/12 0.51s n=...}".
		return timeInComment.ReplaceAllString(strings.Join(out, ""), "")
	}
	return string(data)
}

// A finished compressed run holds only NAME.gz game files, standard gzip,
// whose content is that of an uncompressed run of the same config; the
// two share the config hash, and the run names the .gz files it wrote.
func TestCompressedRunEqualsPlainRun(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	plainDir, gzDir := filepath.Join(root, "plain"), filepath.Join(root, "gz")
	plainSum, err := Run(t.Context(), writeConfig(t, plainOf(compressed)), Options{Binary: arenaBin, OutDir: plainDir})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	gzSum, err := Run(t.Context(), writeConfig(t, compressed), Options{Binary: arenaBin, OutDir: gzDir, Stdout: &out})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	got, want := checkCompressed(t, gzDir), readPlain(t, plainDir)
	for _, name := range output.GameFiles {
		if len(want[name]) == 0 {
			t.Fatalf("the plain run's %s is empty", name)
		}
		if a, b := timeless(t, name, got[name]), timeless(t, name, want[name]); a != b {
			t.Errorf("%s.gz holds other games than the plain run's %s:\n%s\n---\n%s", name, name, a, b)
		}
	}
	if gzSum.ConfigHash == "" || gzSum.ConfigHash != plainSum.ConfigHash {
		t.Errorf("config hashes %q (compressed) and %q (plain): output.compress changes no game", gzSum.ConfigHash, plainSum.ConfigHash)
	}
	if !strings.Contains(out.String(), "games.pgn.gz, moves.csv.gz, summary.json, summary.md, config.yaml, games.epd.gz)") {
		t.Errorf("the run does not name the files it left:\n%s", out.String())
	}
	checkRunFiles(t, gzDir, 6)
	if config, err := os.ReadFile(filepath.Join(plainDir, output.ConfigFile)); err != nil || bytes.Contains(config, []byte("compress")) {
		t.Errorf("config.yaml of a run without compress names it (%v):\n%s", err, config)
	}
}

// A compressed run interrupted by Ctrl-C is compressed too; a new run into
// its directory is refused, and --resume decompresses it, plays the rest and
// compresses it again, with the games of the uninterrupted plain run.
func TestCompressedRunInterruptAndResume(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	plainDir, dir := filepath.Join(root, "plain"), filepath.Join(root, "gz")
	if _, err := Run(t.Context(), writeConfig(t, plainOf(compressed)), Options{Binary: arenaBin, OutDir: plainDir}); err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, compressed)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	// At concurrency 1 the interruption lands after exactly two games.
	_, err := Run(ctx, cfg, Options{Binary: arenaBin, OutDir: dir, Concurrency: 1, Stdout: &cancelAfter{prefix: "Game 2/6:", cancel: cancel}})
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Done != 2 || !strings.Contains(err.Error(), "resume with: arena run --resume "+dir) {
		t.Fatalf("interrupted run returned %v, want an InterruptedError after 2 games", err)
	}
	checkCompressed(t, dir)
	checkRunFiles(t, dir, 2)
	before := gameKeys(t, dir)

	_, err = Run(t.Context(), cfg, Options{Binary: arenaBin, OutDir: dir})
	if err == nil || !strings.Contains(err.Error(), "already holds a run (games.jsonl.gz exists)") {
		t.Errorf("a new run into the interrupted compressed run: %v, want it refused", err)
	}
	var out bytes.Buffer
	sum, err := Resume(t.Context(), dir, Options{Binary: arenaBin, Stdout: &out})
	if err != nil || sum.GamesPlayed != 6 || !strings.Contains(out.String(), "Resuming: 2 of 6 games already played") {
		t.Fatalf("resume: %v, %+v\n%s", err, sum, out.String())
	}
	checkCompressed(t, dir)
	checkRunFiles(t, dir, 6)
	after, want := gameKeys(t, dir), gameKeys(t, plainDir)
	if !slices.Equal(after[:2], before) || !reflect.DeepEqual(after, want) {
		t.Errorf("resumed games:\n%s\nwant the plain run's:\n%s", strings.Join(after, "\n"), strings.Join(want, "\n"))
	}
}

// A damaged games.jsonl.gz stops --resume with an error naming it, before
// anything is played, and is left as it was.
func TestResumeCorruptCompressedLog(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gz")
	if _, err := Run(t.Context(), writeConfig(t, compressed), Options{Binary: arenaBin, OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, output.GamesFile+".gz")
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	cut := data[:len(data)/2]
	if err := os.WriteFile(log, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Resume(t.Context(), dir, Options{Binary: arenaBin})
	if err == nil || !strings.Contains(err.Error(), log+": corrupt or cut-short gzip file") {
		t.Fatalf("resume of a cut games.jsonl.gz: %v, want an error naming %s", err, log)
	}
	if now, err := os.ReadFile(log); err != nil || !bytes.Equal(now, cut) {
		t.Errorf("the damaged %s changed (%v)", log, err)
	}
	if _, err := os.Stat(filepath.Join(dir, output.GamesFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a plain %s appeared beside the damaged one (%v)", output.GamesFile, err)
	}
}

// Shards merge whether they are compressed or not (their config hash
// leaves output.compress out), into the single run's games; the merged
// directory is compressed as the config says.
func TestMergeCompressedShards(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	single := filepath.Join(root, "single")
	if _, err := Run(t.Context(), writeConfig(t, plainOf(compressed)), Options{Binary: arenaBin, OutDir: single}); err != nil {
		t.Fatal(err)
	}
	var shards []string
	for i, text := range []string{compressed, plainOf(compressed)} {
		dir := filepath.Join(root, fmt.Sprint("shard", i))
		if _, err := Run(t.Context(), writeConfig(t, text), Options{Binary: arenaBin, OutDir: dir, Shard: record.Shard{Index: i, Count: 2}}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, dir)
	}
	checkCompressed(t, shards[0])
	merged := filepath.Join(root, "merged")
	if _, err := Merge(merged, shards, nil); err != nil {
		t.Fatal(err)
	}
	checkCompressed(t, merged)
	checkRunFiles(t, merged, 6)
	if a, b := gameKeys(t, single), gameKeys(t, merged); !reflect.DeepEqual(a, b) {
		t.Errorf("merged games differ from the single run:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// An interrupted sweep of compressed runs resumes: the interrupted
// setting is found by its games.jsonl.gz and continued, not started again.
func TestCompressedSweepResumes(t *testing.T) {
	text := strings.Replace(compressed, "limits: {nodes: 400}", "sweep: {limits.nodes: [300, 400]}", 1)
	cfg := writeConfig(t, strings.Replace(text, "games: 6", "games: 2", 1))
	dir := filepath.Join(t.TempDir(), "sweep")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	_, err := RunSweep(ctx, cfg, Options{Binary: arenaBin, OutDir: dir, Concurrency: 1, Stdout: &cancelAfter{prefix: "Game 1/2:", cancel: cancel}})
	var ie *InterruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("interrupted sweep returned %v", err)
	}
	ss, err := readSweep(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkCompressed(t, filepath.Join(dir, ss.Settings[0].Dir))
	var out bytes.Buffer
	if _, err := ResumeSweep(t.Context(), dir, Options{Binary: arenaBin, Stdout: &out}); err != nil || !strings.Contains(out.String(), "Resuming: 1 of 2 games already played") {
		t.Fatalf("resume: %v\n%s", err, out.String())
	}
	for _, st := range ss.Settings {
		checkCompressed(t, filepath.Join(dir, st.Dir))
		checkRunFiles(t, filepath.Join(dir, st.Dir), 2)
	}
}
