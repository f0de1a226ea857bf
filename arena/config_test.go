package arena

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const twoEngines = `engines:
  - name: A
    engine: heuristic
  - name: B
    command: stockfish
`

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       []string // substrings of the error
	}{
		{"unknown top-level key", "games: 2\nmax_move: 10\n" + twoEngines + "limits: {depth: 1}\n",
			[]string{"x.yaml:2: max_move: unknown key \"max_move\"", "valid keys: name, games, max_moves"}},
		{"unknown engine key", "limits: {depth: 1}\nengines:\n  - name: A\n    engine: heuristic\n    optons: {}\n  - command: sf\n",
			[]string{"x.yaml:5: engines[0].optons: unknown key", "valid keys: name, engine, command, args, options, limits"}},
		{"unknown built-in engine", "limits: {depth: 1}\nengines:\n  - engine: heuristic\n  - engine: heurstic\n",
			[]string{`x.yaml:4: engines[1].engine: unknown engine "heurstic" (built-in engines: heuristic`, `or "uci" with command:`}},
		{"unknown built-in option", "limits: {depth: 1}\nengines:\n  - engine: heuristic\n    options:\n      max_dept: 3\n  - command: sf\n",
			[]string{`x.yaml:5: engines[0].options.max_dept: engine heuristic: unknown option "max_dept" (valid options: max_depth`}},
		{"bad option value", "limits: {depth: 1}\nengines:\n  - engine: heuristic\n    options: {max_depth: deep}\n  - command: sf\n",
			[]string{`x.yaml:4: engines[0].options.max_depth:`, `"deep" is not an integer`}},
		{"bad duration", "limits: {movetime: fast}\n" + twoEngines,
			[]string{`x.yaml:1: limits.movetime: "fast" is not a duration`}},
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
			[]string{`x.yaml:1: openings.order: "shuffled" is not an order (expected sequential or random)`}},
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
	cfg, err := Parse("configs/demo.yaml", []byte("limits: {movetime: 0.5}\n"+twoEngines))
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
		t.Errorf("plain number of seconds: movetime = %v, want 500ms", cfg.Engines[0].Limits.MoveTime)
	}
	if cfg.Engines[1].Engine != UCIEngine || cfg.Engines[1].Name != "B" {
		t.Errorf("engine with only a command: %+v, want engine uci", cfg.Engines[1])
	}
	if got := cfg.Engines[0].Options["max_depth"]; got != "10" {
		t.Errorf("built-in options are resolved with defaults: max_depth = %q, want 10", got)
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
	}{
		{"40/60+0.6", TimeControl{40, 60 * time.Second, 600 * time.Millisecond}, false},
		{"60+0.6", TimeControl{0, 60 * time.Second, 600 * time.Millisecond}, false},
		{"300", TimeControl{0, 300 * time.Second, 0}, false},
		{"0.5+0.01", TimeControl{0, 500 * time.Millisecond, 10 * time.Millisecond}, false},
		{"0/60", TimeControl{}, true},
		{"40/", TimeControl{}, true},
		{"1:30", TimeControl{}, true},
		{"0", TimeControl{}, true},
	}
	for _, tt := range tests {
		got, err := ParseTimeControl(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want %+v, error %v", tt.in, got, err, tt.want, tt.err)
		}
		if err == nil && got.String() != tt.in {
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
		{"1.5", 1500 * time.Millisecond, false},
		{"2", 2 * time.Second, false},
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
