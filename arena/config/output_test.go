package config

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"arena/engines/uci"
)

// output.pgn_comments, output.epd, output.compress and rating_interval: their defaults leave
// config.yaml as it was before they existed, set values load back from
// config.yaml, and bad values are errors naming the file, line and key.
func TestOutputKeys(t *testing.T) {
	cfg, err := Parse("t.yaml", []byte("limits: {depth: 1}\n"+twoEngines))
	if err != nil {
		t.Fatal(err)
	}
	data, err := cfg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"pgn_comments", "epd", "compress", "rating_interval"} {
		if strings.Contains(string(data), key) {
			t.Errorf("config.yaml of a config without %s names it:\n%s", key, data)
		}
	}
	if got := cfg.Output.PGNComments(); !reflect.DeepEqual(got, DefaultPGNComments) || cfg.Output.EPD || cfg.Output.Compress || cfg.RatingInterval != 0 {
		t.Errorf("defaults: comments %+v, epd %v, compress %v, rating interval %d", got, cfg.Output.EPD, cfg.Output.Compress, cfg.RatingInterval)
	}
	for _, c := range []struct {
		text string
		want PGNComments
	}{
		{"output: {epd: true, pgn_comments: [cpl, TimeLeft, nodes, seldepth]}\nrating_interval: 10\n",
			PGNComments{Fields: []string{CommentTimeLeft, CommentNodes, CommentSelDepth, CommentCPL}}},
		{"output: {epd: true, pgn_comments: []}\nrating_interval: 10\n", PGNComments{Fields: []string{}}},
		{"output: {epd: true, pgn_comments: none}\nrating_interval: 10\n", PGNComments{None: true}},
		{"output: {epd: true, compress: true, pgn_comments: none}\nrating_interval: 10\n", PGNComments{None: true}},
	} {
		cfg, err := Parse("t.yaml", []byte(c.text+"limits: {depth: 1}\n"+twoEngines))
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		if got := cfg.Output.PGNComments(); !reflect.DeepEqual(got, c.want) || !cfg.Output.EPD || cfg.RatingInterval != 10 {
			t.Errorf("%q: comments %+v (want %+v), epd %v, rating interval %d", c.text, got, c.want, cfg.Output.EPD, cfg.RatingInterval)
		}
		if want := strings.Contains(c.text, "compress"); cfg.Output.Compress != want {
			t.Errorf("%q: compress %v, want %v", c.text, cfg.Output.Compress, want)
		}
		data, err := cfg.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse("t.yaml", data)
		if err != nil || !reflect.DeepEqual(cfg, again) {
			t.Errorf("%q: config.yaml does not load back the same: %v\n%s", c.text, err, data)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"output: {pgn_comments: [nodes, depth]}\n", `t.yaml:1: output.pgn_comments[1]: "depth" is not a comment field (expected "none" or a list of timeleft, nodes, seldepth, nps, pv, mem, cpl)`},
		{"output:\n  pgn_comments: [nodes, nodes]\n", `t.yaml:2: output.pgn_comments[1]: "nodes" listed twice`},
		{"output: {pgn_comments: nodes}\n", `t.yaml:1: output.pgn_comments: expected "none" or a list of`},
		{"output: {epd: games.epd}\n", `t.yaml:1: output.epd:`},
		{"output:\n  compress: gzip\n", `t.yaml:2: output.compress:`},
		{"rating_interval: -1\n", `t.yaml:1: rating_interval: -1 is too small`},
		{"start_timeout: -2s\n", `t.yaml:1: start_timeout: "-2s" is negative`},
		{"start_timeout: 30\n", `t.yaml:1: start_timeout:`},
		{"ucinewgame_timeout: 0s\n", `t.yaml:1: ucinewgame_timeout: must be above 0`},
		{"ping_timeout: 5\n", `t.yaml:1: ping_timeout: "5" has no unit`},
		{"ping_timout: 5s\n", `t.yaml:1: ping_timout: unknown key`},
		{"format: knockout\nsprt: {elo0: 0, elo1: 10}\n", `t.yaml:2: sprt: an SPRT stops a match; a knockout decides each encounter by its score`},
	} {
		_, err := Parse("t.yaml", []byte(c.text+"limits: {depth: 1}\n"+twoEngines))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// The engine timeouts default to the UCI client's (fastchess's for
// ucinewgame and ping), are written into the resolved config, and reach
// the client as set.
func TestEngineTimeouts(t *testing.T) {
	cfg, err := Parse("t.yaml", []byte("limits: {depth: 1}\n"+twoEngines))
	if err != nil {
		t.Fatal(err)
	}
	want := uci.Timeouts{StartTimeout: 30 * time.Second, NewGameTimeout: time.Minute, PingTimeout: time.Minute}
	if got := cfg.EngineTimeouts(); got != want {
		t.Errorf("defaults %+v, want %+v", got, want)
	}
	data, err := cfg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"start_timeout: 30s", "ucinewgame_timeout: 1m0s", "ping_timeout: 1m0s"} {
		if !strings.Contains(string(data), line+"\n") {
			t.Errorf("config.yaml lacks %q:\n%s", line, data)
		}
	}
	cfg, err = Parse("t.yaml", []byte("start_timeout: 2m\nucinewgame_timeout: 90s\nping_timeout: 250ms\nlimits: {depth: 1}\n"+twoEngines))
	if err != nil {
		t.Fatal(err)
	}
	want = uci.Timeouts{StartTimeout: 2 * time.Minute, NewGameTimeout: 90 * time.Second, PingTimeout: 250 * time.Millisecond}
	if got := cfg.EngineTimeouts(); got != want {
		t.Errorf("set %+v, want %+v", got, want)
	}
}
