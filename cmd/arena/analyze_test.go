package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/output"
	"arena/engines/uci"
	"arena/tracker"
)

// One run judged by both protocols: `arena analyze RUN_DIR` reads the run's
// games.pgn. The position protocol gives back the losses the run recorded
// (it was judged that way, at depth 4); the thesis protocol judges the same
// moves with two searches per ply and different losses.
func TestAnalyzeRunBothProtocols(t *testing.T) {
	if _, err := uci.LocateEngine("stockfish"); err != nil {
		t.Fatalf("stockfish not found (%v): install it with make test-tools (apt-get install -y stockfish)", err)
	}
	dir := filepath.Join("..", "..", "arena", "report", "testdata", "runs", "thesis-exp1", "01-movetime-50ms")
	recorded := recordedCPLs(t, filepath.Join(dir, "games.jsonl"))
	reports := map[string]tracker.Analysis{}
	for _, protocol := range []string{tracker.ProtocolPosition, tracker.ProtocolThesis} {
		out := filepath.Join(t.TempDir(), protocol+".json")
		var stdout, stderr bytes.Buffer
		args := []string{"analyze", dir, "--depth", "4", "--protocol", protocol, "--out", out, "--quiet"}
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("arena %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
		}
		if !strings.Contains(stdout.String(), protocol+" protocol") {
			t.Errorf("%s: output does not name the protocol:\n%s", protocol, stdout.String())
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var rep tracker.Analysis
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Judge.Protocol != protocol || len(rep.Games) != len(recorded) {
			t.Fatalf("%s: protocol %q, %d games; want %d games", protocol, rep.Judge.Protocol, len(rep.Games), len(recorded))
		}
		reports[protocol] = rep
	}
	pos, thesis := reports[tracker.ProtocolPosition], reports[tracker.ProtocolThesis]
	differ := 0
	for g, cpls := range recorded {
		pj, tj := pos.Games[g].Judgements, thesis.Games[g].Judgements
		if len(pj) != len(cpls) || len(tj) != len(cpls) {
			t.Fatalf("game %d: %d and %d judgements, %d recorded moves", g+1, len(pj), len(tj), len(cpls))
		}
		for i, want := range cpls {
			if pj[i].CPL != want {
				t.Errorf("game %d ply %d: position protocol loss %d, the run recorded %d", g+1, i, pj[i].CPL, want)
			}
			if tj[i].CPL != pj[i].CPL {
				differ++
			}
		}
	}
	if differ == 0 {
		t.Error("both protocols give every move the same loss: the test cannot tell them apart")
	}
	if e := thesis.Judge; e.Evaluations+e.TerminalPositions != int64(2*e.Plies) {
		t.Errorf("thesis protocol: %d searches and %d terminal positions for %d plies, want two per ply", e.Evaluations, e.TerminalPositions, e.Plies)
	}
	if e := pos.Judge; e.EvaluationsPerPly > 1.1 {
		t.Errorf("position protocol: %.2f searches per ply, want about one", e.EvaluationsPerPly)
	}
	t.Logf("ACPL White/Black per player: position %+v, thesis %+v; %d moves judged differently", acpls(pos), acpls(thesis), differ)
}

// recordedCPLs reads each game's per-move centipawn losses from games.jsonl.
func recordedCPLs(t *testing.T, path string) [][]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]int
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var g struct {
			Moves []struct {
				CPL *int `json:"cpl"`
			} `json:"moves"`
		}
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		var cpls []int
		for i, m := range g.Moves {
			if m.CPL == nil {
				t.Fatalf("%s: game %d move %d was not judged", path, len(out)+1, i+1)
			}
			cpls = append(cpls, *m.CPL)
		}
		out = append(out, cpls)
	}
	return out
}

func acpls(rep tracker.Analysis) map[string]float64 {
	m := map[string]float64{}
	for _, p := range rep.Players {
		m[p.Name] = p.ACPL
	}
	return m
}

// --start-timeout, --ucinewgame-timeout and --ping-timeout reach the
// judge's Stockfish: a limit no process can meet fails the analysis with
// an error naming that limit (the start-up's uciok, the readyok after the
// judge's Hash option, the readyok after a position's ucinewgame).
func TestAnalyzeTimeouts(t *testing.T) {
	if _, err := uci.LocateEngine("stockfish"); err != nil {
		t.Fatalf("stockfish not found (%v): install it with make test-tools (apt-get install -y stockfish)", err)
	}
	dir := filepath.Join("..", "..", "arena", "report", "testdata", "runs", "thesis-exp1", "01-movetime-50ms")
	for _, c := range []struct{ flag, want string }{
		{"--start-timeout", `within 1µs`}, // the write of "uci", or uciok
		{"--ping-timeout", `no "readyok" within 1µs after "setoption/isready"`},
		{"--ucinewgame-timeout", `no "readyok" within 1µs after "ucinewgame/isready"`},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"analyze", dir, "--depth", "1", "--quiet", c.flag, "1us"}, &stdout, &stderr)
		limit := strings.ReplaceAll(strings.TrimPrefix(c.flag, "--"), "-", "_")
		if code != 1 || !strings.Contains(stderr.String(), c.want) || !strings.Contains(stderr.String(), limit) {
			t.Errorf("%s 1us: exit %d, stderr %q; want 1, %q and %q", c.flag, code, stderr.String(), c.want, limit)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"analyze", dir, "--ping-timeout", "0s"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "--ping-timeout 0s: expected a duration above 0") {
		t.Errorf("--ping-timeout 0s: exit %d, %q", code, stderr.String())
	}
}

// `arena analyze RUN_DIR` of a run compressed at its end judges the games
// of its games.jsonl.gz (a committed run keeps no PGN); a damaged log is an
// error naming it.
func TestAnalyzeCompressedRun(t *testing.T) {
	if _, err := uci.LocateEngine("stockfish"); err != nil {
		t.Fatalf("stockfish not found (%v): install it with make test-tools (apt-get install -y stockfish)", err)
	}
	fixture := filepath.Join("..", "..", "arena", "report", "testdata", "runs", "thesis-exp1", "01-movetime-50ms")
	recorded := recordedCPLs(t, filepath.Join(fixture, "games.jsonl"))
	dir := compressedRun(t, filepath.Join(fixture, output.ConfigFile), filepath.Join(fixture, output.GamesFile))
	out := filepath.Join(t.TempDir(), "analysis.json")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"analyze", dir, "--depth", "1", "--out", out, "--quiet"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	saved, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep tracker.Analysis
	if err := json.Unmarshal(saved, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Games) != len(recorded) || len(rep.Games[0].Judgements) != len(recorded[0]) {
		t.Fatalf("%d games judged from games.jsonl.gz, want %d", len(rep.Games), len(recorded))
	}
	gz := filepath.Join(dir, output.GamesFile+output.GzipExt)
	if err := os.WriteFile(gz, []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := run([]string{"analyze", dir, "--depth", "1", "--quiet"}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), gz+": corrupt or cut-short gzip file") {
		t.Errorf("a damaged games.jsonl.gz: exit %d, stderr %q; want 1 and an error naming it", code, stderr.String())
	}
}

// compressedRun returns a new run directory holding the files srcs (by
// their base names), compressed as output.compress leaves them.
func compressedRun(t *testing.T, srcs ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, src := range srcs {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(src)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := output.Compress(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}
