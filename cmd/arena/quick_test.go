package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/arena/config"
	"arena/arena/output"
	"arena/arena/record"
	"arena/engines/uci"
)

// exampleBook is a committed EPD book the quick matches play from.
const exampleBook = "../../configs/openings/example.epd"

// quickAndYAML plays a quick match, prints its config with --print-config,
// plays that config as a file, and returns both run directories.
func quickAndYAML(t *testing.T, quick []string) (quickDir, yamlDir string) {
	t.Helper()
	t.Setenv("ARENA_TEST_MAIN", "1") // the test binary serves the built-in engines
	tmp := t.TempDir()
	var out, errb bytes.Buffer
	if code := run(append(append([]string{"run"}, quick...), "--print-config"), &out, &errb); code != 0 {
		t.Fatalf("--print-config: exit %d, stderr %s", code, errb.String())
	}
	file := filepath.Join(tmp, "quick.yaml")
	if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	quickDir, yamlDir = filepath.Join(tmp, "quick"), filepath.Join(tmp, "yaml")
	var qout, yout bytes.Buffer
	errb.Reset()
	if code := run(append(append([]string{"run"}, quick...), "--out", quickDir), &qout, &errb); code != 0 {
		t.Fatalf("quick match: exit %d, stderr %s", code, errb.String())
	}
	if code := run([]string{"run", file, "--out", yamlDir}, &yout, &errb); code != 0 {
		t.Fatalf("arena run %s: exit %d, stderr %s", file, code, errb.String())
	}
	if q, y := printedSummary(qout.String()), printedSummary(yout.String()); q != y || q == "" {
		t.Errorf("printed summaries differ:\n--- quick match\n%s\n--- YAML\n%s", q, y)
	}
	return quickDir, yamlDir
}

var (
	// The lines of a run's output that must match between two runs of
	// one config: the per-game lines, the W-D-L and Elo lines.
	summaryLine = regexp.MustCompile(`^(Game \d+/\d+: |Engine \d: |Format: |Games: |Time Limit: |Max Moves: |Openings: |.* vs .*: \+\d+ |.* vs .* pairs: )`)
	gameTime    = regexp.MustCompile(`, [0-9.]+s \|`)
)

// printedSummary keeps the lines of the printed output that do not depend
// on timing (a game line's duration is cut out) or on the run directory.
func printedSummary(out string) string {
	var keep []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if line := sc.Text(); summaryLine.MatchString(line) {
			keep = append(keep, gameTime.ReplaceAllString(line, " |"))
		}
	}
	return strings.Join(keep, "\n")
}

// sameGames compares two run directories' games move by move and their
// summaries' results, and returns the number of games.
func sameGames(t *testing.T, a, b string) int {
	t.Helper()
	ga, gb := readGames(t, a), readGames(t, b)
	if len(ga) != len(gb) || len(ga) == 0 {
		t.Fatalf("%d games in %s, %d in %s", len(ga), a, len(gb), b)
	}
	for i := range ga {
		x, y := ga[i], gb[i]
		if x.White != y.White || x.Black != y.Black || x.FEN != y.FEN || x.Result != y.Result || x.Termination != y.Termination || x.Plies != y.Plies {
			t.Errorf("game %d: %s-%s %s %s %d plies from %q, YAML: %s-%s %s %s %d plies from %q", x.Game,
				x.White, x.Black, x.Result, x.Termination, x.Plies, x.FEN, y.White, y.Black, y.Result, y.Termination, y.Plies, y.FEN)
		}
		for p := range min(len(x.Moves), len(y.Moves)) {
			if x.Moves[p].UCI != y.Moves[p].UCI || x.Moves[p].Nodes != y.Moves[p].Nodes {
				t.Errorf("game %d ply %d: %s (%d nodes), YAML: %s (%d nodes)", x.Game, p+1, x.Moves[p].UCI, x.Moves[p].Nodes, y.Moves[p].UCI, y.Moves[p].Nodes)
				break
			}
		}
	}
	sa, sb := readSummary(t, a), readSummary(t, b)
	if sa.ConfigHash == "" || sa.ConfigHash != sb.ConfigHash {
		t.Errorf("config hashes %q and %q differ: the two runs played different configs", sa.ConfigHash, sb.ConfigHash)
	}
	for i := range sa.Engines {
		x, y := sa.Engines[i], sb.Engines[i]
		if x.Name != y.Name || x.Wins != y.Wins || x.Draws != y.Draws || x.Losses != y.Losses || x.Points != y.Points || x.Limits != y.Limits {
			t.Errorf("engine %d: %+v\nYAML: %+v", i, x, y)
		}
	}
	if len(sa.Pairs) != len(sb.Pairs) || len(sa.Pairs) == 0 || sa.Pairs[0].eloText() != sb.Pairs[0].eloText() {
		t.Errorf("pairs %+v\nYAML: %+v", sa.Pairs, sb.Pairs)
	}
	return len(ga)
}

func readGames(t *testing.T, dir string) []record.GameRecord {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	var games []record.GameRecord
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var g record.GameRecord
		if err := json.Unmarshal([]byte(line), &g); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		games = append(games, g)
	}
	slices.SortFunc(games, func(a, b record.GameRecord) int { return a.Game - b.Game })
	return games
}

func readSummary(t *testing.T, dir string) *summaryView {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, output.SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	var s summaryView
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// summaryView is the part of summary.json compared here (the pairs' Elo
// as raw JSON, so that an unbounded one compares too).
type summaryView struct {
	record.Summary
	Pairs []pairView `json:"pairs"`
}

type pairView map[string]any

func (p pairView) eloText() string {
	b, _ := json.Marshal(p)
	return string(b)
}

// The quick match, node-limited and between built-in engines, at
// two games at once, plays the same games as the YAML --print-config prints.
func TestQuickMatchPlaysAsItsYAML(t *testing.T) {
	pgn, epd := filepath.Join(t.TempDir(), "f.pgn"), filepath.Join(t.TempDir(), "f.epd")
	quick := []string{"-engine", "builtin=heuristic", "name=H2", "option.max_depth=2", "-engine", "builtin=heuristic",
		"-each", "nodes=3000", "-rounds", "2", "-games", "2", "-repeat", "-openings", "file=" + exampleBook, "format=epd",
		"order=random", "-concurrency", "2", "-maxmoves", "40", "-judge", "off", "-pgnout", pgn, "seldepth=true",
		"-epdout", epd, "-ratinginterval", "2"}
	qdir, ydir := quickAndYAML(t, quick)
	if n := sameGames(t, qdir, ydir); n != 4 {
		t.Errorf("%d games, want 4 (-rounds 2 -games 2)", n)
	}
	wantEPD, err := os.ReadFile(filepath.Join(qdir, output.EPDFile))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(epd); err != nil || !bytes.Equal(got, wantEPD) || strings.Count(string(got), "\n") != 4 {
		t.Errorf("-epdout %s: %v; it holds %q, the run's games.epd %q (4 final positions)", epd, err, got, wantEPD)
	}
	want, err := os.ReadFile(filepath.Join(qdir, output.PGNFile))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(pgn); err != nil || !bytes.Equal(got, want) || len(want) == 0 {
		t.Errorf("-pgnout %s: %v; it holds %d bytes, the run's games.pgn %d", pgn, err, len(got), len(want))
	}
	// A second match into the same file appends its games, as cutechess
	// and fastchess do.
	if err := appendFile(filepath.Join(ydir, output.PGNFile), pgn); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(pgn); strings.Count(string(got), "[Event ") != 8 || !bytes.HasPrefix(got, want) {
		t.Errorf("-pgnout after two matches: %d games, want 8, the first match's first", strings.Count(string(got), "[Event "))
	}
	cfg, err := config.Load(filepath.Join(qdir, output.ConfigFile))
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Pairs || cfg.Games != 4 || cfg.Concurrency != 2 || cfg.MaxMoves != 80 || !cfg.Judge.Off || cfg.Openings.Order != "random" ||
		cfg.RatingInterval != 2 || !cfg.Output.EPD || !cfg.Output.PGNComments().Has(config.CommentSelDepth) ||
		cfg.Engines[0].Name != "H2" || cfg.Engines[0].Options["max_depth"] != "2" || cfg.Engines[1].Limits.Nodes != 3000 {
		t.Errorf("the quick match's resolved config is not what its flags say:\n%+v", cfg)
	}
}

// The real Stockfish, node-limited, against a built-in engine: the quick
// match and its YAML play the same moves.
func TestQuickMatchStockfish(t *testing.T) {
	if _, err := uci.LocateEngine("stockfish"); err != nil {
		t.Fatalf("stockfish not found (%v): install it with make test-tools (apt-get install -y stockfish)", err)
	}
	quick := []string{"-engine", "cmd=stockfish", "name=SF", "option.Hash=16", "option.Threads=1", "nodes=2000",
		"-engine", "builtin=heuristic", "option.preset=strong", "depth=3", "-each", "tc=inf", "-games", "2", "-maxmoves", "30",
		"-openings", "file=" + exampleBook, "start=2", "-judge", "off"}
	qdir, ydir := quickAndYAML(t, quick)
	if n := sameGames(t, qdir, ydir); n != 2 {
		t.Errorf("%d games, want 2", n)
	}
	s := readSummary(t, qdir)
	if s.Engines[0].Command == "" || s.Engines[0].Limits != "nodes 2000" || s.Engines[1].Limits != "depth 3" {
		t.Errorf("engines %+v: want Stockfish at nodes 2000 and the heuristic engine at depth 3", s.Engines)
	}
}

// The command line: --print-config prints a config that loads back
// as the one the flags built, with every flag in its place; the
// double-dash spelling builds the same.
func TestQuickPrintConfig(t *testing.T) {
	line := []string{"-engine", "cmd=stockfish", "name=SF", "-engine", "builtin=heuristic", "-each", "tc=10+0.1",
		"-rounds", "50", "-games", "2", "-repeat", "-openings", "file=" + exampleBook, "format=epd", "order=random",
		"-concurrency", "2", "-pgnout", "f.pgn"}
	q, err := parseQuick(line)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.build(); err != nil {
		t.Fatal(err)
	}
	_, built, err := q.parse()
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(append([]string{"run", "--print-config"}, line...), &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	printed, err := config.Parse("printed.yaml", out.Bytes())
	if err != nil {
		t.Fatalf("the printed config does not load: %v\n%s", err, out.String())
	}
	a, _ := built.Marshal()
	b, _ := printed.Marshal()
	if !bytes.Equal(a, b) {
		t.Errorf("built config\n%s\nprinted config, loaded back\n%s", a, b)
	}
	e := printed.Engines
	if printed.Games != 100 || !printed.Pairs || printed.Concurrency != 2 || printed.Limits.TC == nil || printed.Limits.TC.String() != "10+0.1" ||
		printed.Openings.Order != "random" || printed.Openings.Format != "epd" || !filepath.IsAbs(printed.Openings.File) ||
		len(e) != 2 || e[0].Name != "SF" || e[0].Command != "stockfish" || e[1].Engine != "heuristic" || e[1].Limits.TC.String() != "10+0.1" {
		t.Errorf("printed config:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "# -pgnout f.pgn: not a config key") || strings.Contains(out.String(), "--print-config") {
		t.Errorf("the header should note -pgnout and leave out --print-config:\n%s", out.String())
	}

	var dashes []string
	for _, a := range line {
		if strings.HasPrefix(a, "-") {
			a = "-" + a
		}
		dashes = append(dashes, a)
	}
	dashes[slices.Index(dashes, "--rounds")] = "--rounds=50"
	dashes = slices.Delete(dashes, slices.Index(dashes, "--rounds=50")+1, slices.Index(dashes, "--rounds=50")+2)
	var out2 bytes.Buffer
	if code := run(append([]string{"run", "--print-config"}, dashes...), &out2, &errb); code != 0 {
		t.Fatalf("%v: exit %d, stderr %s", dashes, code, errb.String())
	}
	if body := func(s string) string { return s[strings.Index(s, "\nname:"):] }; body(out.String()) != body(out2.String()) {
		t.Errorf("double dashes built\n%s\nsingle dashes\n%s", out2.String(), out.String())
	}
}

// cutechess's "-pgnout FILE min" drops the move comments; fastchess's
// FIELD=false takes a field out of them.
func TestQuickPGNComments(t *testing.T) {
	for _, c := range []struct {
		words []string
		want  config.PGNComments
	}{
		{[]string{"f.pgn", "min", "fi"}, config.PGNComments{None: true}},
		{[]string{"file=f.pgn", "notation=san", "mem=false", "nps=true"}, config.PGNComments{Fields: []string{config.CommentNodes, config.CommentNPS, config.CommentCPL}}},
		{[]string{"f.pgn"}, config.DefaultPGNComments},
	} {
		var out, errb bytes.Buffer
		args := append(append([]string{"run", "-engine", "builtin=random", "-engine", "builtin=heuristic", "-each", "nodes=1", "-pgnout"}, c.words...), "--print-config")
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d, %s", args, code, errb.String())
		}
		cfg, err := config.Parse("p.yaml", out.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.Output.PGNComments(); got.None != c.want.None || !slices.Equal(got.Fields, c.want.Fields) {
			t.Errorf("-pgnout %v: comments %+v, want %+v", c.words, got, c.want)
		}
	}
}

// Every bad or unsupported flag fails before a game with the flag and the
// value it was given, and what arena offers instead.
func TestQuickMatchErrors(t *testing.T) {
	two := []string{"-engine", "builtin=random", "-engine", "builtin=heuristic"}
	cases := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"-engine", "builtin=random", "-engine", "builtin=heurstic", "-each", "nodes=10"}, 1,
			`arena run: -engine builtin=heurstic: engines[1].engine: unknown engine "heurstic"`},
		{append(two, "-each", "nodes=10", "option.max_depth=x"), 1, `-each option.max_depth=x: engines[0].options.max_depth:`},
		{append(two, "-each", "tc=10+"), 1, `-each tc=10+: limits.tc: "10+" is not a time control`},
		{append(two, "-each", "st=0"), 2, `-each st=0: expected a positive number of seconds`},
		{append(two, "-each", "nodes=10", "-draw", "movenumber=40", "movecount=8", "score=x"), 1, `-draw score=x: adjudicate.draw.score: "x" is not an integer`},
		{append(two, "-each", "nodes=10", "-sprt", "elo0=0"), 1, `-sprt elo0=0: sprt.elo1: missing`},
		{append(two, "-each", "nodes=10", "-openings", "file=missing.epd"), 1, `-openings file=missing.epd: openings.file: file "missing.epd" not found`},
		{append(two, "-each", "nodes=10", "-openings", "file="+exampleBook, "policy=round"), 2, `-openings policy=round: not supported`},
		{append(two, "-each", "nodes=10", "-concurrency", "0"), 1, `-concurrency 0: concurrency: 0 is too small`},
		{append(two, "-each", "nodes=10", "-rounds", "x"), 2, `-rounds x: expected a whole number`},
		{append(two, "-each", "nodes=10", "-repeat", "3"), 2, `-repeat 3: arena plays an opening at most twice`},
		{append(two, "-each", "nodes=10", "-maxmoves", "-1"), 2, `-maxmoves -1: expected a number of full moves`},
		{append(two, "-each", "nodes=10", "-tournament", "pyramid"), 2, `-tournament pyramid: not supported`},
		{append(two, "-each", "nodes=10", "-ping-ms", "0"), 2, `-ping-ms 0: expected a number of milliseconds`},
		{append(two, "-each", "nodes=10", "-variant", "fischerandom"), 2, `-variant fischerandom: not supported, because arena plays standard chess only`},
		{append(two, "-each", "nodes=10", "-epdout", "x.epd", "notation=san"), 2, `-epdout notation=san: not supported`},
		{append(two, "-each", "nodes=10", "-ratinginterval", "-3"), 1, `-ratinginterval -3: rating_interval: -3 is too small`},
		{append(two, "-each", "nodes=10", "-pgnout", "f.pgn", "hashfull=true"), 2, `-pgnout hashfull=true: not supported`},
		{append(two, "-each", "nodes=10", "-tb", "/tb"), 2, `-tb: not supported in arena, because tablebase adjudication`},
		{append(two, "-each", "nodes=10", "-frobnicate"), 2, `-frobnicate: unknown flag`},
		{append(two, "-each", "nodes=10", "book=x.bin"), 1, `-each book=x.bin: engines[0].book.file: file "x.bin" not found`},
		{append(two, "-each", "nodes=10", "bookdepth=2"), 1, `-each bookdepth=2: engines[0].book.file: missing`},
		{append(two, "-each", "nodes=10", "proto=xboard"), 2, `-each proto=xboard: not supported, because arena speaks UCI only`},
		{append(two, "-each", "nodes=10", "colour=red"), 2, `-each colour=red: unknown engine option "colour"`},
		{append(two, "-each", "nodes"), 2, `-each nodes: expected KEY=VALUE`},
		{append(two, "-each", "nodes=10", "-pgnout", "f.pgn", "lan"), 2, `-pgnout lan: not supported`},
		{append([]string{"x.yaml"}, two...), 2, `"x.yaml": expected a flag (a quick match takes no config file`},
		{append(two, "-rounds"), 2, `-rounds: missing its value`},
		{append(two, "--noswap=false"), 2, `--noswap=false: --noswap takes no value`},
		{two, 1, `-engine builtin=random: engines[0]: engine "random" has no limits`},
		{[]string{"-each", "nodes=10"}, 2, `no -engine given`},
		{[]string{"-engine", "builtin=random", "-engine", "builtin=random", "-each", "nodes=10"}, 1, `duplicate engine name "random" (also used by the engine given by -engine builtin=random`},
		{append(two, "-each", "nodes=10", "-rounds", "100000", "-games", "100000"), 2, `-rounds 100000 -games 100000: 10000000000 games, more than`},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(append([]string{"run"}, c.args...), &out, &errb)
		if code != c.code || !strings.Contains(errb.String(), c.stderr) || out.Len() > 0 {
			t.Errorf("arena run %s: exit %d (want %d), stdout %q\nstderr: %s\nwant stderr containing %q", strings.Join(c.args, " "), code, c.code, out.String(), errb.String(), c.stderr)
		}
	}
	var out bytes.Buffer
	if code := run([]string{"run", "-engine", "-h"}, &out, &out); code != 0 || !strings.Contains(out.String(), "usage: arena run -engine OPTIONS") {
		t.Errorf("arena run -engine -h: exit %d, %s", code, out.String())
	}
}

// -tournament knockout and fastchess's -startup-ms, -ucinewgame-ms and
// -ping-ms (milliseconds) become format: knockout and the timeout keys.
func TestQuickKnockoutAndTimeouts(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"run", "-engine", "builtin=random", "-engine", "builtin=heuristic", "-engine", "builtin=random", "name=R2", "-each", "nodes=1",
		"-tournament", "knockout", "-startup-ms", "45000", "-ucinewgame-ms", "1500", "-ping-ms", "250", "--print-config"}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d, %s", code, errb.String())
	}
	cfg, err := config.Parse("p.yaml", out.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if cfg.Format != config.FormatKnockout || cfg.StartTimeout.D() != 45*time.Second || cfg.NewGameTimeout.D() != 1500*time.Millisecond || cfg.PingTimeout.D() != 250*time.Millisecond {
		t.Errorf("format %q, timeouts %v %v %v:\n%s", cfg.Format, cfg.StartTimeout, cfg.NewGameTimeout, cfg.PingTimeout, out.String())
	}
}

// ordered puts the listed keys first and keeps every other key after them:
// a key the order list does not know is printed, not dropped.
func TestOrderedKeepsUnlistedKeys(t *testing.T) {
	m := mapping(1)
	for _, k := range []string{"zeta", "games", "alpha", "name"} {
		set(m, k, scalar(k+"-value", 1))
	}
	out := ordered(m, []string{"name", "games"})
	var keys []string
	for i := 0; i+1 < len(out.Content); i += 2 {
		keys = append(keys, out.Content[i].Value+"="+out.Content[i+1].Value)
	}
	if got, want := strings.Join(keys, " "), "name=name-value games=games-value zeta=zeta-value alpha=alpha-value"; got != want {
		t.Errorf("ordered: %s, want %s", got, want)
	}
}

// cutechess-cli's ponder (a word without a value), book= and bookdepth=
// become the engine's ponder: and book: keys.
func TestQuickPonderAndBook(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "b.bin")
	if err := os.WriteFile(bin, make([]byte, 16), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	args := []string{"run", "-engine", "builtin=random", "ponder", "book=" + bin, "bookdepth=3", "-engine", "builtin=heuristic", "-each", "nodes=10", "--print-config"}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	cfg, err := config.Parse("printed.yaml", out.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if e := cfg.Engines[0]; !e.Ponder || e.Book == nil || e.Book.File != bin || e.Book.Depth != 3 {
		t.Errorf("engine 0: ponder %v, book %+v; want ponder and %s to depth 3", e.Ponder, e.Book, bin)
	}
	if e := cfg.Engines[1]; e.Ponder || e.Book != nil {
		t.Errorf("engine 1: ponder %v, book %+v; want neither", e.Ponder, e.Book)
	}
}
