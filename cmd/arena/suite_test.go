package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"arena/engines/uci"
)

// knownSuite has answers no engine searching 4 plies can miss: a forced
// move, a mate in one (once as the best move, once for 5 points of
// partial credit when the key wants Nf3) and a queen move to avoid (Qa7,
// into the rook's file) when the rook is free.
const knownSuite = `7k/8/8/8/8/8/6q1/7K w - - bm Kxg2; id "known.001";
r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; c0 "Qxf7#=10, Nf3=2"; id "known.002";
r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Nf3; c0 "Nf3=10, Qxf7+=5"; id "known.003";
r3k3/8/8/8/8/8/8/Q3K3 w - - am Qa7; id "known.004";
`

// runSuiteCLI runs "arena suite ARGS" with this test binary standing in for
// the arena binary that serves the built-in engines, and returns the exit
// code, stdout and stderr.
func runSuiteCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("ARENA_TEST_MAIN", "1")
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"suite"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, h := range rows[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSuiteKnownAnswers(t *testing.T) {
	sf, err := uci.LocateEngine("stockfish")
	if err != nil {
		t.Fatalf("stockfish not found (%v): install it with make test-tools (apt-get install -y stockfish)", err)
	}
	epd := writeFile(t, "known.epd", knownSuite)
	out := filepath.Join(t.TempDir(), "known.csv")
	code, stdout, stderr := runSuiteCLI(t, epd, "--engine", "heuristic", "--engine", "cmd="+sf,
		"--engine", "random", "--option", "seed=7", "--depth", "4", "--concurrency", "2", "--csv", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	rows := readCSV(t, out)
	if len(rows) != 12 {
		t.Fatalf("%d CSV rows, want 12 (3 engines x 4 positions)", len(rows))
	}
	want := []struct{ san, points, solved string }{
		{"Kxg2", "10", "true"}, {"Qxf7#", "10", "true"}, {"Qxf7#", "5", "false"}, {"", "10", "true"},
	}
	for i, r := range rows {
		w := want[i%4]
		if r["engine"] == "random seed=7" && i%4 != 0 {
			// The random mover's other answers are whatever it drew; they
			// must still be scored by the key.
			continue
		}
		if w.san == "" && r["san"] != "Qa7" {
			w.san = r["san"] // known.004: any move but Qa7 solves it
		}
		if r["san"] != w.san || r["points"] != w.points || r["solved"] != w.solved || r["max"] != "10" || r["error"] != "" {
			t.Errorf("%s on %s: %s %s points solved %s (error %q); want %s %s %s", r["engine"], r["id"], r["san"], r["points"], r["solved"], r["error"], w.san, w.points, w.solved)
		}
	}
	for _, r := range rows[8:] {
		if r["engine"] != "random seed=7" || r["san"] == "" || r["limits"] != "depth 4" {
			t.Errorf("random column row %v", r)
		}
		if r["id"] == "known.004" && (r["san"] == "Qa7") != (r["solved"] == "false") {
			t.Errorf("random's %s on known.004 scored solved=%s", r["san"], r["solved"])
		}
	}
	var total []string
	for line := range strings.Lines(stdout) {
		if strings.HasPrefix(line, "| total ") {
			total = strings.Fields(strings.ReplaceAll(line, "|", " "))
		}
	}
	if len(total) < 9 || strings.Join(total[:7], " ") != "total 4 40 35 (3) 35 (3)" {
		t.Errorf("total row %q, want 4 positions, 40 points, 35 points and 3 solved for heuristic and stockfish:\n%s", total, stdout)
	}
	for _, line := range []string{
		"heuristic, depth 4: 35/40 points (87.5%), 3/4 solved",
		"stockfish, depth 4: 35/40 points (87.5%), 3/4 solved",
	} {
		if !strings.Contains(stdout, line) {
			t.Errorf("output lacks %q:\n%s", line, stdout)
		}
	}
}

// TestSuiteShippedSTS runs two positions of two shipped STS files with a
// built-in engine and Stockfish; every move must be legal and earn exactly
// the c0 points the file gives its SAN.
func TestSuiteShippedSTS(t *testing.T) {
	sf, err := uci.LocateEngine("stockfish")
	if err != nil {
		t.Fatalf("stockfish not found (%v): install it with make test-tools (apt-get install -y stockfish)", err)
	}
	var lines []string
	for _, f := range []string{"STS01-Undermine.epd", "STS12-Center-Control.epd"} {
		data, err := os.ReadFile(filepath.Join("../../configs/suites/sts", f))
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.SplitN(string(data), "\n", 3)[:2]...)
	}
	epd := writeFile(t, "sts4.epd", strings.Join(lines, "\n")+"\n")
	out := filepath.Join(t.TempDir(), "sts.csv")
	code, stdout, stderr := runSuiteCLI(t, epd, "--engine", "heuristic", "--option", "preset=strong",
		"--engine", "cmd="+sf, "--option", "Skill Level=0", "--nodes", "20000", "--csv", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, theme := range []string{"| STS(v1.0) Undermine ", "| STS(v12.0) Center Control "} {
		if !strings.Contains(stdout, theme) {
			t.Errorf("output lacks theme %q:\n%s", theme, stdout)
		}
	}
	rows := readCSV(t, out)
	if len(rows) != 8 {
		t.Fatalf("%d CSV rows, want 8", len(rows))
	}
	for _, r := range rows {
		want := 0
		for _, entry := range strings.Split(r["c0"], ",") {
			mv, pts, _ := strings.Cut(strings.TrimSpace(entry), "=")
			if strings.TrimRight(mv, "+#") == strings.TrimRight(r["san"], "+#") {
				want, _ = strconv.Atoi(pts)
			}
		}
		if r["san"] == "" || r["error"] != "" || r["points"] != strconv.Itoa(want) || r["max"] != "10" {
			t.Errorf("%s on %s: move %q, %s points (error %q); want a legal move earning its c0 points %d", r["engine"], r["id"], r["san"], r["points"], r["error"], want)
		}
		if (r["points"] == "10") != (r["solved"] == "true") {
			t.Errorf("%s on %s: %s points but solved=%s", r["engine"], r["id"], r["points"], r["solved"])
		}
	}
}

// TestSuiteCrashingEngine: an engine that dies on every search loses each
// position with the reason recorded, and the run goes on to the end.
func TestSuiteCrashingEngine(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "fakeengine")
	if b, err := exec.Command("go", "build", "-o", fake, "arena/arena/testdata/fakeengine").CombinedOutput(); err != nil {
		t.Fatalf("build fakeengine: %v\n%s", err, b)
	}
	epd := writeFile(t, "known.epd", knownSuite)
	out := filepath.Join(t.TempDir(), "crash.csv")
	code, stdout, stderr := runSuiteCLI(t, epd, "--engine", "cmd="+fake+" -mode crash", "--depth", "1", "--csv", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	rows := readCSV(t, out)
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	for _, r := range rows {
		if !strings.Contains(r["error"], "engine failed") || r["points"] != "0" {
			t.Errorf("%s: points %s, error %q; want 0 and the engine's failure", r["id"], r["points"], r["error"])
		}
	}
	if !strings.Contains(stdout, "0/40 points (0.0%), 0/4 solved") || !strings.Contains(stdout, "4 errors") {
		t.Errorf("summary does not show the failures:\n%s", stdout)
	}
}

func TestSuiteArgumentErrors(t *testing.T) {
	epd := writeFile(t, "known.epd", knownSuite)
	bad := writeFile(t, "bad.epd", "# header\n"+`r3k3/8/8/8/8/8/8/Q3K3 w - - bm Qb8; id "x";`+"\n")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{epd, "--option", "seed=1", "--engine", "random"}, 2, "--option applies to the --engine before it"},
		{[]string{epd, "--engine", "heurstic"}, 2, `unknown engine "heurstic"`},
		{[]string{epd, "--engine", "heuristic", "--option", "max_depth=0"}, 2, "--engine heuristic: engine heuristic:"},
		{[]string{epd, "--engine", "random", "--engine", "random"}, 2, `a second engine labelled "random"`},
		{[]string{epd, "--engine", "random", "--nodes", "100,0"}, 2, `"0": expected a whole number > 0`},
		{[]string{epd}, 2, "no --engine given"},
		{[]string{bad, "--engine", "random"}, 1, bad + `:2: bm: "Qb8" is not a legal move`},
	} {
		code, stdout, stderr := runSuiteCLI(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q\n%s", c.args, code, stderr, c.code, c.want, stdout)
		}
	}
}

// --start-timeout reaches the suite's engines: one that never answers uci
// fails at the limit given, with an error naming it.
func TestSuiteStartTimeout(t *testing.T) {
	epd := writeFile(t, "known.epd", knownSuite)
	code, stdout, stderr := runSuiteCLI(t, epd, "--engine", "cmd=sleep 30", "--depth", "1", "--start-timeout", "300ms")
	if code != 1 || !strings.Contains(stderr, `no "uciok" within 300ms after "uci"`) || !strings.Contains(stderr, "--start-timeout") {
		t.Errorf("exit %d, stderr %q; want 1 and the 300ms limit named\n%s", code, stderr, stdout)
	}
	code, _, stderr = runSuiteCLI(t, epd, "--engine", "random", "--ucinewgame-timeout", "-1s")
	if code != 2 || !strings.Contains(stderr, "--ucinewgame-timeout -1s: expected a duration above 0") {
		t.Errorf("--ucinewgame-timeout -1s: exit %d, %q", code, stderr)
	}
}
