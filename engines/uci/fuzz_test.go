package uci

import (
	"strings"
	"testing"
)

// FuzzParseLine feeds engine output lines ("info ...", "option ...") and GUI
// commands ("position ...", "go ...") to the parsers: none may panic, and
// what they accept must be within the ranges the arena relies on.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		"info depth 12 seldepth 17 multipv 1 score cp 35 wdl 100 800 100 nodes 91234 nps 912340 hashfull 12 tbhits 0 time 100 pv e2e4 e7e5 g1f3",
		"info depth 9 score mate -3 upperbound nodes 5 pv h7h8 string ignored",
		"info depth -1 score mate 9223372036854775807 nodes -5 time -1 multipv 0 pv e2e4",
		"info score cp",
		"info string NNUE evaluation using nn-ad9b42354671.nnue enabled",
		"option name Skill Level type spin default 20 min 0 max 20",
		"option name Clear Hash type button",
		"option name Style type combo default solid var solid var wild",
		"position startpos moves e2e4 e7e5",
		"position fen 4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
		"go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5 depth 3 nodes 100 movetime 5 infinite",
		"go depth x nodes",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			return
		}
		rest := fields[1:]
		switch fields[0] {
		case "info":
			l := parseInfo(rest)
			in := l.info
			if in.String != "" && (l.hasScore || l.hasNodes || l.hasPV || in.Depth != 0) {
				t.Fatalf("%q: a string line with other fields: %+v", line, l)
			}
			if in.Nodes < 0 || in.Depth < 0 || in.Depth > maxInfoDepth || in.SelDepth < 0 || in.Time < 0 ||
				in.Score.CP < -maxInfoCP || in.Score.CP > maxInfoCP || in.Score.Mate < -maxInfoMate || in.Score.Mate > maxInfoMate {
				t.Fatalf("%q: out-of-range value kept: %+v", line, in)
			}
			if l.dropped < 0 || (l.dropped > 0) != (l.firstDropped != "") {
				t.Fatalf("%q: dropped %d, first %q", line, l.dropped, l.firstDropped)
			}
		case "option":
			if o, ok := parseOption(rest); ok && (o.Name == "" || o.Type == "") {
				t.Fatalf("%q: accepted without a name or type: %+v", line, o)
			}
		case "position":
			if pos, err := parsePosition(rest); err == nil {
				cmd := positionCommand(pos)
				back, err := parsePosition(strings.Fields(cmd)[1:])
				if err != nil || back.StartFENOrDefault() != pos.StartFENOrDefault() || len(back.Moves) != len(pos.Moves) {
					t.Fatalf("%q: accepted, but %q reads back as %+v, %v", line, cmd, back, err)
				}
			}
		case "go":
			lim, _, _ := parseGo(rest)
			if cmd := goCommand(lim); !strings.HasPrefix(cmd, "go ") {
				t.Fatalf("%q: goCommand gave %q", line, cmd)
			}
		}
	})
}
