package uci

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"arena/engines"
)

func TestParseInfo(t *testing.T) {
	for _, tc := range []struct {
		line string
		want infoLine
	}{
		{
			"info depth 12 seldepth 17 multipv 1 score cp 35 wdl 100 800 100 nodes 91234 nps 912340 hashfull 12 tbhits 0 time 100 pv e2e4 e7e5 g1f3",
			infoLine{info: engines.Info{Depth: 12, SelDepth: 17, Score: engines.Score{CP: 35}, Nodes: 91234, Time: 100 * time.Millisecond, PV: []string{"e2e4", "e7e5", "g1f3"}}, multiPV: 1, hasScore: true, hasPV: true, hasNodes: true},
		},
		{
			"info depth 9 score mate -3 upperbound nodes 5 pv h7h8 string ignored",
			infoLine{info: engines.Info{String: "ignored"}},
		},
		{
			"info depth 9 score cp -40 lowerbound nodes 5 time 7",
			infoLine{info: engines.Info{Depth: 9, Score: engines.Score{CP: -40}, Nodes: 5, Time: 7 * time.Millisecond}, bound: true, hasScore: true, hasNodes: true},
		},
		{
			"info depth 9 multipv 2 score mate 4 pv a1a2",
			infoLine{info: engines.Info{Depth: 9, Score: engines.Score{Mate: 4}, PV: []string{"a1a2"}}, multiPV: 2, hasScore: true, hasPV: true},
		},
		{
			"info depth 20 currmove e2e4 currmovenumber 1",
			infoLine{info: engines.Info{Depth: 20}},
		},
		{
			"info depth x score cp y nodes",
			infoLine{dropped: 3, firstDropped: "depth x"},
		},
		{
			// Absurd values are dropped and counted, the rest kept.
			"info depth -1 seldepth 3 score mate 9223372036854775807 nodes -5 time -1 multipv 0 pv e2e4",
			infoLine{info: engines.Info{SelDepth: 3, PV: []string{"e2e4"}}, hasPV: true, dropped: 5, firstDropped: "depth -1"},
		},
		{
			"info score mate 99999999999999999999 nodes 18446744073709551615 time 99999999999999",
			infoLine{dropped: 3, firstDropped: "mate 99999999999999999999"},
		},
		{
			"info depth 3 score cp -2000000 nodes 10",
			infoLine{info: engines.Info{Depth: 3, Nodes: 10}, hasNodes: true, dropped: 1, firstDropped: "cp -2000000"},
		},
		{
			"info string NNUE evaluation using nn-ad9b42354671.nnue enabled",
			infoLine{info: engines.Info{String: "NNUE evaluation using nn-ad9b42354671.nnue enabled"}},
		},
	} {
		got := parseInfo(strings.Fields(tc.line)[1:])
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseInfo(%q)\n got %+v\nwant %+v", tc.line, got, tc.want)
		}
	}
}

func TestParseOption(t *testing.T) {
	for _, tc := range []struct {
		line   string
		want   engines.Option
		ok     bool
		format string // formatOption of the result; "" means line itself
	}{
		{"option name Skill Level type spin default 20 min 0 max 20", engines.Option{Name: "Skill Level", Type: engines.Spin, Default: "20", Min: 0, Max: 20}, true, ""},
		{"option name Style type combo default Both Sides var Both Sides var Solid", engines.Option{Name: "Style", Type: engines.Combo, Default: "Both Sides", Vars: []string{"Both Sides", "Solid"}}, true, ""},
		{"option name SyzygyPath type string default <empty>", engines.Option{Name: "SyzygyPath", Type: engines.String}, true, ""},
		{"option name Debug Log File type string default", engines.Option{Name: "Debug Log File", Type: engines.String}, true, "option name Debug Log File type string default <empty>"},
		{"option name Clear Hash type button", engines.Option{Name: "Clear Hash", Type: button}, true, ""},
		{"option name Ponder type check default false", engines.Option{Name: "Ponder", Type: engines.Check, Default: "false"}, true, ""},
		{"option type spin default 1", engines.Option{Type: engines.Spin, Default: "1"}, false, ""},
	} {
		got, ok := parseOption(strings.Fields(tc.line)[1:])
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseOption(%q) = %+v, %v; want %+v, %v", tc.line, got, ok, tc.want, tc.ok)
		}
		if !ok {
			continue
		}
		want := tc.format
		if want == "" {
			want = tc.line
		}
		if f := formatOption(got); f != want {
			t.Errorf("formatOption(%+v) = %q, want %q", got, f, want)
		}
	}
}

func TestCommands(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		lim  engines.Limits
		want string
	}{
		{engines.Limits{}, "go infinite"},
		{engines.Limits{Infinite: true, Depth: 3}, "go depth 3 infinite"},
		{engines.Limits{MoveTime: 100 * ms, Nodes: 5000, Depth: 7}, "go depth 7 nodes 5000 movetime 100"},
		{engines.Limits{MoveTime: 10 * time.Microsecond}, "go movetime 1"},
		{engines.Limits{WTime: 60000 * ms, BTime: -5 * ms, WInc: 500 * ms, BInc: 500 * ms, MovesToGo: 12}, "go wtime 60000 btime 0 winc 500 binc 500 movestogo 12"},
	} {
		if got := goCommand(tc.lim); got != tc.want {
			t.Errorf("goCommand(%+v) = %q, want %q", tc.lim, got, tc.want)
		}
	}
	for _, tc := range []struct {
		pos  engines.Position
		want string
	}{
		{engines.Position{}, "position startpos"},
		{engines.Position{FEN: engines.StartFEN, Moves: []string{"e2e4", "c7c5"}}, "position startpos moves e2e4 c7c5"},
		{engines.Position{FEN: " 8/8/8/8/8/8/8/K6k   w - - 0 1\n"}, "position fen 8/8/8/8/8/8/8/K6k w - - 0 1"},
		{engines.Position{FEN: "  \n "}, "position startpos"},
		{engines.Position{FEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq -\t0 1", Moves: []string{"g1f3"}}, "position startpos moves g1f3"},
		{engines.Position{FEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"}, "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"},
		{engines.Position{FEN: engines.StartFEN + " 2"}, "position fen " + engines.StartFEN + " 2"},
		{engines.Position{FEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Moves: []string{"a1a2", "h1h2"}}, "position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2 h1h2"},
	} {
		if got := positionCommand(tc.pos); got != tc.want {
			t.Errorf("positionCommand(%+v) = %q, want %q", tc.pos, got, tc.want)
		}
		// The command as it was built before it was built in one pass.
		fen := strings.Join(strings.Fields(tc.pos.FEN), " ")
		old := "position startpos"
		if fen != "" && fen != engines.StartFEN {
			old = "position fen " + fen
		}
		if len(tc.pos.Moves) > 0 {
			old += " moves " + strings.Join(tc.pos.Moves, " ")
		}
		if got := positionCommand(tc.pos); got != old {
			t.Errorf("positionCommand(%+v) = %q, the join of its parts %q", tc.pos, got, old)
		}
	}
}

func TestTimeBudget(t *testing.T) {
	s := time.Second
	black := "8/8/8/8/8/8/8/K6k b - - 0 1"
	for _, tc := range []struct {
		pos  engines.Position
		lim  engines.Limits
		want time.Duration
		ok   bool
	}{
		{engines.Position{}, engines.Limits{Depth: 5}, 0, false},
		{engines.Position{}, engines.Limits{Infinite: true, MoveTime: s}, 0, false},
		{engines.Position{}, engines.Limits{MoveTime: s}, s, true},
		{engines.Position{}, engines.Limits{WTime: 10 * s, BTime: 20 * s, WInc: s}, 11 * s, true},
		{engines.Position{Moves: []string{"e2e4"}}, engines.Limits{WTime: 10 * s, BTime: 20 * s}, 20 * s, true},
		{engines.Position{FEN: black}, engines.Limits{WTime: 10 * s, BTime: 20 * s}, 20 * s, true},
		{engines.Position{FEN: black, Moves: []string{"h1g1"}}, engines.Limits{WTime: 10 * s, BTime: 20 * s, MoveTime: 3 * s}, 3 * s, true},
	} {
		got, ok := timeBudget(tc.pos, tc.lim)
		if got != tc.want || ok != tc.ok {
			t.Errorf("timeBudget(%+v, %+v) = %v, %v; want %v, %v", tc.pos, tc.lim, got, ok, tc.want, tc.ok)
		}
	}
}
