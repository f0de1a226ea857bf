package uci

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"arena/engines"
	"arena/internal/clip"
)

// button is the UCI option type for actions without a value ("Clear Hash");
// the engines package has no constant for it because built-in engines do not
// use it.
const button engines.OptionType = "button"

// parseOption parses the fields of an "option" line after the word "option":
// "name Skill Level type spin default 20 min 0 max 20". Names, defaults and
// combo values may contain spaces, so each value runs to the next keyword.
func parseOption(fields []string) (engines.Option, bool) {
	var o engines.Option
	var key string
	var val []string
	var haveName, haveType bool
	flush := func() {
		v := strings.Join(val, " ")
		switch key {
		case "name":
			o.Name, haveName = v, v != ""
		case "type":
			o.Type, haveType = engines.OptionType(v), v != ""
		case "default":
			if v == "<empty>" {
				v = ""
			}
			o.Default = v
		case "min":
			o.Min, _ = strconv.ParseInt(v, 10, 64)
		case "max":
			o.Max, _ = strconv.ParseInt(v, 10, 64)
		case "var":
			o.Vars = append(o.Vars, v)
		}
		val = val[:0]
	}
	for _, f := range fields {
		switch f {
		case "name", "type", "default", "min", "max", "var":
			// "type" etc. inside a name are taken literally until the name
			// has at least one word, which is how real engines' names parse.
			if key == "name" && len(val) == 0 {
				val = append(val, f)
				continue
			}
			if key != "" {
				flush()
			}
			key = f
		default:
			val = append(val, f)
		}
	}
	if key != "" {
		flush()
	}
	return o, haveName && haveType
}

// formatOption renders a built-in engine's option as a UCI "option" line.
func formatOption(o engines.Option) string {
	var b strings.Builder
	b.WriteString("option name ")
	b.WriteString(o.Name)
	b.WriteString(" type ")
	b.WriteString(string(o.Type))
	if o.Type == button {
		return b.String()
	}
	b.WriteString(" default ")
	if o.Default == "" && o.Type == engines.String {
		b.WriteString("<empty>")
	} else {
		b.WriteString(o.Default)
	}
	switch o.Type {
	case engines.Spin:
		b.WriteString(" min " + strconv.FormatInt(o.Min, 10) + " max " + strconv.FormatInt(o.Max, 10))
	case engines.Combo:
		for _, v := range o.Vars {
			b.WriteString(" var " + v)
		}
	}
	return b.String()
}

// infoLine is a parsed "info" line.
type infoLine struct {
	info     engines.Info
	multiPV  int  // 0 when absent
	bound    bool // the score is a lowerbound or upperbound (an aspiration fail)
	hasScore bool
	hasPV    bool
	hasNodes bool
	// dropped counts values left unset because they were not numbers or
	// were absurd (negative nodes, a mate in a billion); firstDropped
	// names the first ("nodes -5").
	dropped      int
	firstDropped string
}

// mainLine reports whether the line is about the principal variation: with
// MultiPV only the first line is the engine's choice.
func (l infoLine) mainLine() bool { return l.multiPV <= 1 }

// isInfoKeyword reports the words that end a "pv" (whose moves otherwise
// run to the end of the line). A switch rather than a map: every move of
// every PV is checked, and a switch on strings compares lengths first,
// which a move's 4 or 5 bytes rarely share with a keyword.
func isInfoKeyword(w string) bool {
	switch w {
	case "depth", "seldepth", "time", "nodes", "pv", "multipv",
		"score", "currmove", "currmovenumber", "hashfull", "nps",
		"tbhits", "sbhits", "cpuload", "string", "refutation",
		"currline", "wdl":
		return true
	}
	return false
}

// Plausible ranges of info values. Beyond them a value is an engine bug and
// would skew averages (or overflow: a time in ms beyond maxInfoMillis does
// not fit a time.Duration; mate scores are turned into centipawns by
// subtracting them from a mate score).
const (
	maxInfoDepth  = 10_000
	maxInfoCP     = 1_000_000
	maxInfoMate   = 10_000
	maxInfoMillis = 1 << 40 // ~35 years
)

// parseInfo parses the fields of an "info" line after the word "info".
// Engine output is not validated strictly: an unparsable or absurd number
// leaves its field unset (counted in dropped) rather than losing the rest
// of the line.
func parseInfo(fields []string) infoLine {
	var l infoLine
	// num reads the value after key at i, within lo..hi.
	num := func(i int, lo, hi int64) (int64, bool) {
		raw := "(missing)"
		if i < len(fields) {
			raw = fields[i]
			if n, err := strconv.ParseInt(raw, 10, 64); err == nil && n >= lo && n <= hi {
				return n, true
			}
		}
		if l.dropped == 0 {
			l.firstDropped = fields[max(i-1, 0)] + " " + clip.String(raw)
		}
		l.dropped++
		return 0, false
	}
	for i := 0; i < len(fields); i++ {
		switch fields[i] {
		case "depth":
			if n, ok := num(i+1, 0, maxInfoDepth); ok {
				l.info.Depth = int(n)
			}
			i++
		case "seldepth":
			if n, ok := num(i+1, 0, maxInfoDepth); ok {
				l.info.SelDepth = int(n)
			}
			i++
		case "time":
			if n, ok := num(i+1, 0, maxInfoMillis); ok {
				l.info.Time = time.Duration(n) * time.Millisecond
			}
			i++
		case "nodes":
			if n, ok := num(i+1, 0, math.MaxInt64); ok {
				l.info.Nodes, l.hasNodes = n, true
			}
			i++
		case "multipv":
			if n, ok := num(i+1, 1, maxInfoDepth); ok {
				l.multiPV = int(n)
			}
			i++
		case "score":
			i = l.parseScore(fields, i, num)
		case "wdl":
			i += 3
		case "pv":
			j := i + 1
			for j < len(fields) && !isInfoKeyword(fields[j]) {
				j++
			}
			// A view of fields, as the fields are of the line: the
			// search copies the PV it keeps (searchState.infoLine).
			l.info.PV = fields[i+1 : j : j]
			l.hasPV = true
			i = j - 1
		case "string":
			// A string line is free text only (engines.Info.String says
			// the other fields are unset), whatever came before it.
			return infoLine{info: engines.Info{String: strings.Join(fields[i+1:], " ")}}
		case "currmove", "currmovenumber", "hashfull", "nps", "tbhits", "sbhits", "cpuload":
			i++
		}
	}
	return l
}

// parseScore reads "score cp N|mate N [lowerbound|upperbound]" at i and
// returns the index of its last field.
func (l *infoLine) parseScore(fields []string, i int, num func(int, int64, int64) (int64, bool)) int {
	if i+2 < len(fields) {
		switch fields[i+1] {
		case "cp":
			if n, ok := num(i+2, -maxInfoCP, maxInfoCP); ok {
				l.info.Score, l.hasScore = engines.Score{CP: int(n)}, true
			}
		case "mate":
			if n, ok := num(i+2, -maxInfoMate, maxInfoMate); ok {
				l.info.Score, l.hasScore = engines.Score{Mate: int(n)}, true
			}
		}
		i += 2
	}
	if i+1 < len(fields) && (fields[i+1] == "lowerbound" || fields[i+1] == "upperbound") {
		l.bound = true
		i++
	}
	return i
}

// isErrorString reports whether an "info string" text reports an error
// ("error: ...", "ERROR ...").
func isErrorString(s string) bool {
	return len(s) >= 5 && strings.EqualFold(s[:5], "error")
}

// formatInfo renders a progress report as a UCI "info" line.
func formatInfo(in engines.Info) string {
	if in.String != "" {
		return "info string " + in.String
	}
	var b strings.Builder
	b.WriteString("info")
	if in.Depth > 0 {
		b.WriteString(" depth " + strconv.Itoa(in.Depth))
	}
	if in.SelDepth > 0 {
		b.WriteString(" seldepth " + strconv.Itoa(in.SelDepth))
	}
	b.WriteString(" score " + in.Score.String())
	b.WriteString(" nodes " + strconv.FormatInt(in.Nodes, 10))
	ms := in.Time.Milliseconds()
	if ms > 0 {
		b.WriteString(" nps " + strconv.FormatInt(in.Nodes*1000/ms, 10))
	}
	b.WriteString(" time " + strconv.FormatInt(ms, 10))
	if len(in.PV) > 0 {
		b.WriteString(" pv " + strings.Join(in.PV, " "))
	}
	return b.String()
}

// formatFinalInfo renders the "info" line sent just before bestmove: the
// search's total nodes and time and its depth, with the score and PV of the
// result when there is one.
func formatFinalInfo(res engines.Result) string {
	in := engines.Info{Depth: res.Depth, SelDepth: res.SelDepth, Score: res.Score, Nodes: res.Nodes, Time: res.Time, PV: res.PV}
	if res.Move == "" {
		in.PV = nil
	}
	return formatInfo(in)
}

// positionCommand renders pos as a UCI "position" command. The FEN is
// re-joined from its fields so stray whitespace (or a newline) in a FEN from
// a file cannot split the command.
func positionCommand(pos engines.Position) string {
	return string(appendPosition(nil, pos))
}

// appendPosition appends positionCommand's command to dst. A search
// writes it straight into the client's buffer of lines to send (the
// command grows with the game and is made for every move).
func appendPosition(dst []byte, pos engines.Position) []byte {
	fen := !isStartFEN(pos.FEN)
	n := len("position startpos")
	if fen {
		n = len("position fen ") + len(pos.FEN)
	}
	if len(pos.Moves) > 0 {
		n += len(" moves")
		for _, m := range pos.Moves {
			n += 1 + len(m)
		}
	}
	dst = slices.Grow(dst, n)
	if fen {
		dst = append(dst, "position fen"...)
		for f := range strings.FieldsSeq(pos.FEN) {
			dst = append(append(dst, ' '), f...)
		}
	} else {
		dst = append(dst, "position startpos"...)
	}
	if len(pos.Moves) > 0 {
		dst = append(dst, " moves"...)
		for _, m := range pos.Moves {
			dst = append(append(dst, ' '), m...)
		}
	}
	return dst
}

// isStartFEN reports whether fen, its fields separated by any white
// space, is empty or the standard start position.
func isStartFEN(fen string) bool {
	rest, fields := engines.StartFEN, 0
	for f := range strings.FieldsSeq(fen) {
		var want string
		want, rest, _ = strings.Cut(rest, " ")
		if f != want {
			return false
		}
		fields++
	}
	return fields == 0 || rest == ""
}

// goCommand renders lim as a UCI "go" command; without any limit it is
// "go infinite", as the engines contract defines an empty Limits.
func goCommand(lim engines.Limits) string {
	ms := func(d time.Duration) string {
		if d < 0 {
			d = 0
		}
		return strconv.FormatInt(d.Milliseconds(), 10)
	}
	var parts []string
	if lim.HasClock() {
		parts = append(parts, "wtime", ms(lim.WTime), "btime", ms(lim.BTime))
		if lim.WInc > 0 {
			parts = append(parts, "winc", ms(lim.WInc))
		}
		if lim.BInc > 0 {
			parts = append(parts, "binc", ms(lim.BInc))
		}
		if lim.MovesToGo > 0 {
			parts = append(parts, "movestogo", strconv.Itoa(lim.MovesToGo))
		}
	}
	if lim.Depth > 0 {
		parts = append(parts, "depth", strconv.Itoa(lim.Depth))
	}
	if lim.Nodes > 0 {
		parts = append(parts, "nodes", strconv.FormatInt(lim.Nodes, 10))
	}
	if lim.MoveTime > 0 {
		t := lim.MoveTime.Milliseconds()
		if t == 0 {
			t = 1 // "movetime 0" would mean no time at all to most engines
		}
		parts = append(parts, "movetime", strconv.FormatInt(t, 10))
	}
	if lim.Infinite || len(parts) == 0 {
		parts = append(parts, "infinite")
	}
	return "go " + strings.Join(parts, " ")
}

// timeBudget is the longest a search under lim may legitimately take: the
// move time, or the clock of the side to move. ok is false for searches
// bounded only by depth, nodes or cancellation.
func timeBudget(pos engines.Position, lim engines.Limits) (time.Duration, bool) {
	if lim.Infinite {
		return 0, false
	}
	if lim.HasClock() {
		white := true
		if f := strings.Fields(pos.StartFENOrDefault()); len(f) > 1 && f[1] == "b" {
			white = false
		}
		if len(pos.Moves)%2 == 1 {
			white = !white
		}
		budget := lim.BTime + lim.BInc
		if white {
			budget = lim.WTime + lim.WInc
		}
		if lim.MoveTime > 0 && lim.MoveTime < budget {
			budget = lim.MoveTime
		}
		return budget, true
	}
	if lim.MoveTime > 0 {
		return lim.MoveTime, true
	}
	return 0, false
}
