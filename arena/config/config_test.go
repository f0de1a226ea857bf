package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	_ "arena/engines/deepchess" // the built-in engines the configs name
	_ "arena/engines/giraffe"
	_ "arena/engines/heuristic"
	_ "arena/engines/neural"
	_ "arena/engines/random"
	_ "arena/engines/supervised"
	"arena/tracker"
)

const twoEngines = `engines:
  - name: A
    engine: heuristic
  - name: B
    command: stockfish
`

const threeEngines = `engines:
  - name: A
    engine: heuristic
  - name: B
    engine: heuristic
  - name: C
    command: stockfish
`

var exampleBookPath, _ = filepath.Abs("../../configs/openings/example.epd")

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       []string // substrings of the error
	}{
		{"unknown top-level key", "games: 2\nmax_move: 10\n" + twoEngines + "limits: {depth: 1}\n",
			[]string{"x.yaml:2: max_move: unknown key \"max_move\"", "valid keys: name, format, games, pairs, noswap, reverse, max_moves", "sprt, judge, output, sweep)"}},
		{"unknown engine key", "limits: {depth: 1}\nengines:\n  - name: A\n    engine: heuristic\n    optons: {}\n  - command: sf\n",
			[]string{"x.yaml:5: engines[0].optons: unknown key", "valid keys: name, engine, command, args, options, limits"}},
		{"unknown built-in engine", "limits: {depth: 1}\nengines:\n  - engine: heuristic\n  - engine: heurstic\n",
			[]string{`x.yaml:4: engines[1].engine: unknown engine "heurstic" (built-in engines: deepchess, giraffe, heuristic`, `or "uci" with command:`}},
		{"unknown built-in option", "limits: {depth: 1}\nengines:\n  - engine: heuristic\n    options:\n      max_dept: 3\n  - command: sf\n",
			[]string{`x.yaml:5: engines[0].options.max_dept: engine heuristic: unknown option "max_dept" (valid options: max_depth`}},
		{"bad option value", "limits: {depth: 1}\nengines:\n  - engine: heuristic\n    options: {max_depth: deep}\n  - command: sf\n",
			[]string{`x.yaml:4: engines[0].options.max_depth:`, `"deep" is not an integer`}},
		{"model that does not load", "limits: {depth: 1}\nengines:\n  - engine: heuristic\n  - engine: nn\n    options: {model: /no/such/net.pt}\n",
			[]string{`x.yaml:4: engines[1].options:`, `model=/no/such/net.pt`, `no such file`}},
		{"bad duration", "limits: {movetime: fast}\n" + twoEngines,
			[]string{`x.yaml:1: limits.movetime: "fast" is not a duration (expected a number with a unit, e.g. 1s, 250ms, 1m30s, or 0)`}},
		{"bad time control", "limits: {tc: 40/abc}\n" + twoEngines,
			[]string{`x.yaml:1: limits.tc: "40/abc" is not a time control`}},
		{"movetime and tc", "limits: {movetime: 1s, tc: 60+1}\n" + twoEngines,
			[]string{`x.yaml:1: limits: movetime and tc cannot both be set`}},
		{"no limits", twoEngines,
			[]string{`x.yaml:2: engines[0]: engine "A" has no limits`}},
		{"missing engines", "games: 2\n",
			[]string{`x.yaml:1: engines: missing`}},
		{"one engine", "limits: {depth: 1}\nengines:\n  - engine: heuristic\n",
			[]string{`x.yaml:2: engines: 1 engine(s) given, a match needs at least 2`}},
		{"duplicate names", "limits: {depth: 1}\nengines:\n  - engine: heuristic\n  - engine: heuristic\n",
			[]string{`x.yaml:4: engines[1].name: duplicate engine name "heuristic" (also used by the engine on line 3`}},
		{"uci without command", "limits: {depth: 1}\nengines:\n  - engine: uci\n  - engine: heuristic\n",
			[]string{`x.yaml:3: engines[0].command: missing`}},
		{"built-in with command", "limits: {depth: 1}\nengines:\n  - engine: heuristic\n    command: x\n  - command: sf\n",
			[]string{`x.yaml:3: engines[0]: command and args are only for engine: uci`}},
		{"games not a number", "games: many\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: games: "many" is not an integer`}},
		{"games zero", "games: 0\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: games: 0 is too small (expected at least 1)`}},
		{"pgn mode", "output: {pgn: some}\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: output.pgn: "some" is not a PGN mode (expected all, none or "last N"`}},
		{"judge value", "judge: maybe\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: judge: "maybe" is not valid (expected off, or a mapping with keys engine, depth`}},
		{"judge key", "judge: {depth: 8, deep: 1}\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: judge.deep: unknown key "deep" (valid keys: engine, depth, cap, mate_score`}},
		{"openings order", "openings: {file: x.epd, order: shuffled}\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: openings.order: "shuffled" is not an order (expected sequential, random or weighted)`}},
		{"openings file missing", "openings: {file: /nonexistent/book.epd}\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: openings.file: file "/nonexistent/book.epd" not found`}},
		{"yaml syntax", "games: [1,\n",
			[]string{`x.yaml: `, `line`}},
		{"engines not a list", "limits: {depth: 1}\nengines: {a: 1}\n",
			[]string{`x.yaml:2: engines: expected a list of engines, got a mapping`}},
		{"limits not a mapping", "limits: 1s\n" + twoEngines,
			[]string{`x.yaml:1: limits: expected a mapping with keys movetime, nodes, depth, tc, got "1s"`}},
		{"duplicate key", "games: 1\ngames: 2\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:2: games: duplicate key (first set on line 1)`}},

		// Tournaments, SPRT, openings and sweeps.
		{"unknown format", "format: swiss\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: format: "swiss" is not a format (expected match, round-robin, gauntlet, knockout)`}},
		{"match of three", "limits: {depth: 1}\nformat: match\n" + threeEngines,
			[]string{`x.yaml:2: format: a match is between exactly 2 engines, 3 given (use round-robin or gauntlet)`}},
		{"unknown anchor", "limits: {depth: 1}\n" + threeEngines + "anchor: Z\n",
			[]string{`x.yaml:9: anchor: "Z" is not an engine name (engines: A, B, C)`}},
		{"pairs not a boolean", "pairs: twice\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: pairs: "twice" is not a boolean (expected true or false)`}},
		{"sprt with three engines", "limits: {depth: 1}\n" + threeEngines + "sprt: {elo0: 0, elo1: 10}\n",
			[]string{`x.yaml:9: sprt: an SPRT tests a match of exactly 2 engines, 3 given`}},
		{"sprt elo0 >= elo1", "limits: {depth: 1}\nsprt:\n  elo0: 10\n  elo1: 5\n" + twoEngines,
			[]string{`x.yaml:3: sprt.elo0: sprt elo0 10, elo1 5: expected elo0 < elo1`}},
		{"sprt alpha", "limits: {depth: 1}\nsprt:\n  elo0: 0\n  elo1: 5\n  alpha: 1.5\n" + twoEngines,
			[]string{`x.yaml:5: sprt.alpha: sprt alpha: 1.5, expected a probability strictly between 0 and 1`}},
		{"sprt model", "limits: {depth: 1}\nsprt: {elo0: 0, elo1: 5, model: bayes}\n" + twoEngines,
			[]string{`x.yaml:2: sprt.model: sprt model: "bayes", expected "normalized" or "logistic"`}},
		{"sprt missing elo1", "limits: {depth: 1}\nsprt: {elo0: 0}\n" + twoEngines,
			[]string{`x.yaml:2: sprt.elo1: missing`}},
		{"sprt key", "limits: {depth: 1}\nsprt: {elo0: 0, elo1: 5, elo2: 9}\n" + twoEngines,
			[]string{`x.yaml:2: sprt.elo2: unknown key "elo2" (valid keys: elo0, elo1, alpha, beta, model)`}},
		{"sprt not a number", "limits: {depth: 1}\nsprt: {elo0: zero, elo1: 5}\n" + twoEngines,
			[]string{`x.yaml:2: sprt.elo0: "zero" is not a number`}},
		{"openings start beyond the book", "openings:\n  file: " + exampleBookPath + "\n  start: 99\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:3: openings.start: 99 is beyond the book's`, `openings`}},
		{"openings start zero", "openings: {file: " + exampleBookPath + ", start: 0}\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: openings.start: 0 is too small (expected at least 1)`}},
		{"plies for an EPD book", "openings:\n  file: " + exampleBookPath + "\n  plies: 4\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:3: openings.plies: only for PGN and Polyglot books (example.epd is an EPD/FEN file`}},
		{"openings format", "openings: {file: " + exampleBookPath + ", format: ctg}\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: openings.format: "ctg" is not a book format (expected epd, pgn or polyglot)`}},
		{"polyglot without plies", "openings: {file: " + exampleBookPath + ", format: polyglot}\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: openings.plies: missing: how many plies to follow the Polyglot book example.epd`}},
		// The book's side file: 151 bytes of text (the book itself is 960).
		{"polyglot book of text", "openings: {file: " + exampleBookPath + ".txt, format: polyglot, plies: 2}\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: openings.file: `, `is not a whole number of 16-byte Polyglot entries`}},
		{"movetime without a unit", "limits:\n  movetime: 100\n" + twoEngines,
			[]string{`x.yaml:2: limits.movetime: "100" has no unit: add a unit, e.g. 100ms or 1s`}},
		{"time_margin without a unit", "time_margin: 0.5\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: time_margin: "0.5" has no unit: add a unit, e.g. 100ms or 1s`}},
		{"tc with seconds past a minute", "limits: {tc: \"1:75\"}\n" + twoEngines,
			[]string{`x.yaml:1: limits.tc: "1:75": the seconds after "minutes:" must be below 60`}},
		{"tc inf and nothing else", "limits: {tc: inf}\n" + twoEngines,
			[]string{`has no limits`}},
		{"sweep not a mapping", "sweep: [1, 2]\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: sweep: expected a mapping of one key to a list of values`}},
		{"sweep of two keys", "sweep: {games: [1], max_moves: [2]}\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: sweep: expected a mapping of one key`}},
		{"sweep of output", "sweep: {output.dir: [a, b]}\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: sweep.output.dir: cannot sweep "output"`}},
		{"sweep of an unknown key", "sweep: {limit.movetime: [1s]}\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: sweep.limit.movetime: cannot sweep "limit" (the key must start with one of: format, games`}},
		{"sweep bad path", "sweep: {limits..movetime: [1s]}\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: sweep.limits..movetime: "limits..movetime" is not a key path`}},
		{"sweep values not a list", "sweep: {games: 4}\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: sweep.games: expected a non-empty list of values, got "4"`}},
		{"sweep duplicate value", "sweep:\n  games:\n    - 2\n    - 2\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:4: sweep.games: value 2 listed twice (first on line 3)`}},
		{"sweep bad value", "sweep:\n  limits.movetime:\n    - 1s\n    - fast\n" + twoEngines,
			[]string{`x.yaml:4: limits.movetime: "fast" is not a duration`, `(sweep setting 2: limits.movetime = fast)`}},
		{"sweep unknown subkey", "sweep:\n  limits.movetim: [1s]\n" + twoEngines,
			[]string{`x.yaml:2: limits.movetim: unknown key "movetim" (valid keys: movetime, nodes, depth, tc)`, `(sweep setting 1: limits.movetim = 1s)`}},
		{"sweep engine index", "sweep:\n  engines[2].options.max_depth: [1]\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:2: sweep.engines[2].options.max_depth: engines[2] does not exist (the list has 2 elements)`}},
		{"sweep bad option value", "sweep:\n  engines[0].options.max_depth: [3, deep]\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:2: engines[0].options.max_depth:`, `"deep" is not an integer`, `(sweep setting 2: engines[0].options.max_depth = deep)`}},
		{"sweep into judge off", "sweep: {judge.depth: [4]}\njudge: off\nlimits: {depth: 1}\n" + twoEngines,
			[]string{`x.yaml:1: sweep.judge.depth: judge is "off", not a mapping`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.yaml", []byte(tt.yaml))
			if err == nil {
				t.Fatalf("no error for\n%s", tt.yaml)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
		})
	}
}

func TestConfigDefaultsAndRoundTrip(t *testing.T) {
	cfg, err := Parse("configs/demo.yaml", []byte("limits: {movetime: 500ms}\n"+twoEngines))
	if err != nil {
		t.Fatal(err)
	}
	want := struct {
		name                 string
		games, maxMoves      int
		seed                 int64
		margin               time.Duration
		judgeDepth, judgeCap int
		mate                 int
		dir                  string
	}{"demo", DefaultGames, DefaultMaxMoves, DefaultSeed, time.Second, 12, 900, 10000, "results"}
	got := want
	got.name, got.games, got.maxMoves, got.seed, got.margin = cfg.Name, cfg.Games, cfg.MaxMoves, cfg.Seed, cfg.TimeMargin.D()
	got.judgeDepth, got.judgeCap, got.mate, got.dir = cfg.Judge.Depth, cfg.Judge.Cap, cfg.Judge.MateScore, cfg.Output.Dir
	if got != want {
		t.Errorf("defaults: got %+v, want %+v", got, want)
	}
	if cfg.Engines[0].Limits.MoveTime.D() != 500*time.Millisecond {
		t.Errorf("movetime = %v, want 500ms", cfg.Engines[0].Limits.MoveTime)
	}
	if cfg.Engines[1].Engine != UCIEngine || cfg.Engines[1].Name != "B" {
		t.Errorf("engine with only a command: %+v, want engine uci", cfg.Engines[1])
	}
	if got := cfg.Engines[0].Resolved["max_depth"]; got != "10" {
		t.Errorf("built-in options are resolved with defaults: max_depth = %q, want 10", got)
	}
	if _, set := cfg.Engines[0].Options["max_depth"]; set {
		t.Errorf("options %v: a default was stored as set by the user", cfg.Engines[0].Options)
	}
	data, err := cfg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse("configs/demo.yaml", data)
	if err != nil {
		t.Fatalf("resolved config does not load back: %v\n%s", err, data)
	}
	if !reflect.DeepEqual(cfg, again) {
		t.Errorf("round trip changed the config:\n%+v\n%+v\n%s", cfg, again, data)
	}
}

func TestConfigLimitsOverride(t *testing.T) {
	cfg, err := Parse("x.yaml", []byte(`
limits: {movetime: 1s, depth: 8}
engines:
  - name: inherits
    engine: heuristic
  - name: adds nodes
    engine: heuristic
    limits: {nodes: 5000}
  - name: clock
    engine: heuristic
    limits: {tc: "40/60+0.6"}
  - name: no depth
    engine: heuristic
    limits: {depth: 0}
`))
	if err != nil {
		t.Fatal(err)
	}
	tc := &TimeControl{Moves: 40, Base: 60 * time.Second, Inc: 600 * time.Millisecond}
	want := []Limits{
		{MoveTime: Duration(time.Second), Depth: 8},
		{MoveTime: Duration(time.Second), Depth: 8, Nodes: 5000},
		{TC: tc, Depth: 8},
		{MoveTime: Duration(time.Second)},
	}
	for i, w := range want {
		if got := cfg.Engines[i].Limits; !reflect.DeepEqual(got, w) {
			t.Errorf("engine %d limits = %s, want %s", i, got, w)
		}
	}
}

func TestParseTimeControl(t *testing.T) {
	tests := []struct {
		in   string
		want TimeControl
		err  bool
	}{ // String() gives back in, written in seconds
		{"40/60+0.6", TimeControl{40, 60 * time.Second, 600 * time.Millisecond}, false},
		{"60+0.6", TimeControl{0, 60 * time.Second, 600 * time.Millisecond}, false},
		{"300", TimeControl{0, 300 * time.Second, 0}, false},
		{"0.5+0.01", TimeControl{0, 500 * time.Millisecond, 10 * time.Millisecond}, false},
		{"0/60", TimeControl{}, true},
		{"40/", TimeControl{}, true},
		{"1:30", TimeControl{0, 90 * time.Second, 0}, false},
		{"40/1:00+0.6", TimeControl{40, 60 * time.Second, 600 * time.Millisecond}, false},
		{"0:05+0.05", TimeControl{0, 5 * time.Second, 50 * time.Millisecond}, false},
		{"1:60", TimeControl{}, true},
		{"1:", TimeControl{}, true},
		{"inf", TimeControl{}, true},
		{"0", TimeControl{}, true},
	}
	for _, tt := range tests {
		got, err := ParseTimeControl(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want %+v, error %v", tt.in, got, err, tt.want, tt.err)
		}
		if err == nil && got.String() != tt.in && !strings.Contains(tt.in, ":") {
			t.Errorf("TimeControl(%q).String() = %q", tt.in, got.String())
		}
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  bool
	}{
		{"1s", time.Second, false},
		{"250ms", 250 * time.Millisecond, false},
		{"1.5", 0, true},
		{"2", 0, true},
		{"100", 0, true},
		{"0", 0, false},
		{"1m30s", 90 * time.Second, false},
		{"-1", 0, true},
		{"-1s", 0, true},
		{"soon", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseDuration(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestParsePGNMode(t *testing.T) {
	for in, want := range map[string]PGNMode{"all": {}, "none": {None: true}, "last 3": {Last: 3}, "LAST 1": {Last: 1}} {
		got, err := ParsePGNMode(in)
		if err != nil || got != want {
			t.Errorf("ParsePGNMode(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"last", "last 0", "last x", "some", ""} {
		if _, err := ParsePGNMode(in); err == nil {
			t.Errorf("ParsePGNMode(%q): no error", in)
		}
	}
}

// The openings file is found relative to the current directory or, failing
// that, to the config file, and stored absolute for --resume.
func TestConfigOpeningsPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "book.epd"), []byte("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "m.yaml")
	if err := os.WriteFile(path, []byte("openings: {file: book.epd}\nlimits: {depth: 1}\n"+twoEngines), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "book.epd"); cfg.Openings.File != want {
		t.Errorf("openings file = %q, want %q", cfg.Openings.File, want)
	}
}

// The new keys resolve to explicit values that config.yaml keeps.
func TestConfigTournamentKeysRoundTrip(t *testing.T) {
	cfg, err := Parse("t.yaml", []byte("limits: {depth: 1}\n"+threeEngines))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Format != FormatRoundRobin || cfg.Anchor != "A" || !cfg.Pairs || cfg.SPRT != nil {
		t.Errorf("defaults for 3 engines: format %q anchor %q pairs %v sprt %v", cfg.Format, cfg.Anchor, cfg.Pairs, cfg.SPRT)
	}
	text := "format: gauntlet\nanchor: C\npairs: false\nlimits: {depth: 1}\n" + threeEngines +
		"openings: {file: " + exampleBookPath + ", order: random, start: 2}\n"
	cfg, err = Parse("t.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Format != FormatGauntlet || cfg.Anchor != "C" || cfg.Pairs || cfg.Openings.Start != 2 {
		t.Errorf("parsed %q %q %v %+v", cfg.Format, cfg.Anchor, cfg.Pairs, cfg.Openings)
	}
	two, err := Parse("t.yaml", []byte("limits: {depth: 1}\nsprt: {elo0: -5, elo1: 5, model: logistic}\n"+twoEngines))
	if err != nil {
		t.Fatal(err)
	}
	if two.Format != FormatMatch || *two.SPRT != (tracker.SPRT{Elo0: -5, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: tracker.ModelLogistic}) {
		t.Errorf("match with SPRT: format %q, sprt %+v (defaults filled in)", two.Format, two.SPRT)
	}
	for _, c := range []*Config{cfg, two} {
		data, err := c.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse("t.yaml", data)
		if err != nil {
			t.Fatalf("resolved config does not load back: %v\n%s", err, data)
		}
		if !reflect.DeepEqual(c, again) {
			t.Errorf("round trip changed the config:\n%+v\n%+v\n%s", c, again, data)
		}
	}
}

// A sweep resolves one full config per value; the swept key may be missing
// from the file (it is created) and values may be mappings.
func TestConfigSweep(t *testing.T) {
	cfg, err := Parse("x/sw.yaml", []byte(`
sweep:
  engines[1].options.max_depth: [2, 3]
limits: {depth: 1}
engines:
  - {name: A, engine: heuristic}
  - {name: B, engine: heuristic}
`))
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Sweep
	if s == nil || s.Key != "engines[1].options.max_depth" || !reflect.DeepEqual(s.Values, []string{"2", "3"}) || len(s.Configs) != 2 {
		t.Fatalf("sweep %+v", s)
	}
	for i, want := range []string{"2", "3"} {
		c := s.Configs[i]
		if c.Engines[1].Options["max_depth"] != want || c.Engines[0].Resolved["max_depth"] != "10" || c.Sweep != nil {
			t.Errorf("setting %d: options %v / %v", i+1, c.Engines[0].Options, c.Engines[1].Options)
		}
		if c.Name != "sw engines[1].options.max_depth="+want {
			t.Errorf("setting %d: name %q", i+1, c.Name)
		}
	}
	if cfg.Name != "sw" {
		t.Errorf("sweep name %q, want sw", cfg.Name)
	}

	cfg, err = Parse("x/sw.yaml", []byte("sweep:\n  limits: [{depth: 2}, {nodes: 500, depth: 0}]\nlimits: {depth: 1}\n"+twoEngines))
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Sweep.Values; !reflect.DeepEqual(got, []string{"{depth: 2}", "{nodes: 500, depth: 0}"}) {
		t.Errorf("mapping values described as %q", got)
	}
	if l := cfg.Sweep.Configs[1].Engines[0].Limits; l.Nodes != 500 || l.Depth != 0 {
		t.Errorf("setting 2 limits %+v, want nodes 500 only", l)
	}
	cfg, err = Parse("x/sw.yaml", []byte("sweep: {limits.movetime: [500ms, 2s]}\n"+twoEngines))
	if err != nil {
		t.Fatal(err)
	}
	if l := cfg.Sweep.Configs[1].Engines[1].Limits.MoveTime; l.D() != 2*time.Second {
		t.Errorf("created limits.movetime = %v, want 2s", l)
	}
}

// The example configs of configs/examples load (their books resolve
// relative to the config file).
func TestExampleConfigsLoad(t *testing.T) {
	files, err := filepath.Glob("../../configs/examples/*.yaml")
	if err != nil || len(files) < 3 {
		t.Fatalf("example configs: %v, %v", files, err)
	}
	for _, f := range files {
		cfg, err := Load(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		switch filepath.Base(f) {
		case "sweep-movetime.yaml":
			if cfg.Sweep == nil || len(cfg.Sweep.Configs) != 3 || cfg.Sweep.Configs[2].Engines[0].Limits.MoveTime.D() != time.Second {
				t.Errorf("%s: sweep %+v", f, cfg.Sweep)
			}
		case "round-robin.yaml":
			if cfg.Format != FormatRoundRobin || len(cfg.Engines) != 4 || cfg.Anchor != "H-10k" {
				t.Errorf("%s: format %q, %d engines, anchor %q", f, cfg.Format, len(cfg.Engines), cfg.Anchor)
			}
		case "knockout.yaml":
			if cfg.Format != FormatKnockout || len(cfg.Engines) != 5 || cfg.ScheduledGames() != 8 {
				t.Errorf("%s: format %q, %d engines, %d games scheduled", f, cfg.Format, len(cfg.Engines), cfg.ScheduledGames())
			}
		case "sprt.yaml":
			if cfg.SPRT == nil || cfg.SPRT.Elo1 != 10 || !cfg.Pairs {
				t.Errorf("%s: sprt %+v", f, cfg.SPRT)
			}
		}
	}
}

// Config inputs that were once accepted or echoed whole: a second YAML
// document, and values of many megabytes.
func TestConfigInputErrors(t *testing.T) {
	long := strings.Repeat("x", 5<<20)
	tests := []struct{ name, yaml, want string }{
		{"second document", "limits: {depth: 1}\n" + twoEngines + "---\ngames: 4\n",
			`x.yaml:7: a second YAML document; a config file holds one`},
		{"second empty document", "limits: {depth: 1}\n" + twoEngines + "---\n",
			`x.yaml:7: a second YAML document`},
		{"long match name", "name: " + long + "\nlimits: {depth: 1}\n" + twoEngines,
			`x.yaml:1: name: "` + long[:100] + `... (5242880 bytes)" is 5242880 bytes long, expected at most 200`},
		{"long engine name", "limits: {depth: 1}\nengines:\n  - name: " + long + "\n    engine: heuristic\n  - engine: heuristic\n",
			`x.yaml:3: engines[0].name: "` + long[:100] + `... (5242880 bytes)" is 5242880 bytes long`},
		{"long value", "limits: {nodes: " + long + "}\n" + twoEngines,
			`x.yaml:1: limits.nodes: "` + long[:100] + `... (5242880 bytes)" is not an integer`},
	}
	for _, tt := range tests {
		_, err := Parse("x.yaml", []byte(tt.yaml))
		if err == nil || !strings.Contains(err.Error(), tt.want) || len(err.Error()) > 1000 {
			msg := "<nil>"
			if err != nil {
				msg = err.Error()[:min(len(err.Error()), 400)]
			}
			t.Errorf("%s: error %s (%d bytes), want one containing %q", tt.name, msg, len(msg), tt.want[:min(len(tt.want), 200)])
		}
	}
}
