package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"arena/arena/config"
)

// How a quick-match flag takes its arguments.
const (
	flagBool  = iota // no argument
	flagValue        // one argument ("-rounds 50", "-rounds=50")
	flagGroup        // the following KEY=VALUE words ("-engine cmd=sf name=SF")
)

// flagUse is one occurrence of a flag on the command line.
type flagUse struct {
	name   string // as typed: "-rounds", "--out"
	values []string
	at     int // origin of the whole flag
}

type quickFlag struct {
	kind  int
	apply func(q *quickMatch, f flagUse) error
}

// quickFlags are the flags a quick match takes; see quickUsage and
// docs/parity.md for what each maps to.
var quickFlags = map[string]quickFlag{
	"engine": {flagGroup, func(q *quickMatch, f flagUse) error {
		toks, err := q.tokens(f)
		q.engines, q.engAt = append(q.engines, toks), append(q.engAt, f.at)
		return err
	}},
	"each": {flagGroup, func(q *quickMatch, f flagUse) error {
		toks, err := q.tokens(f)
		q.each = append(q.each, toks...)
		return err
	}},
	"rounds":          {flagValue, func(q *quickMatch, f flagUse) (err error) { q.rounds, err = positive(f); return err }},
	"games":           {flagValue, func(q *quickMatch, f flagUse) (err error) { q.games, err = positive(f); return err }},
	"repeat":          {flagBool, func(q *quickMatch, f flagUse) error { q.repeat = true; return nil }},
	"noswap":          {flagBool, func(q *quickMatch, f flagUse) error { return q.setTop("noswap", "true", f.at) }},
	"reverse":         {flagBool, func(q *quickMatch, f flagUse) error { return q.setTop("reverse", "true", f.at) }},
	"recover":         {flagBool, func(q *quickMatch, f flagUse) error { return nil }}, // always: a crashed engine is restarted
	"concurrency":     {flagValue, func(q *quickMatch, f flagUse) error { return q.setTop("concurrency", f.values[0], f.at) }},
	"srand":           {flagValue, func(q *quickMatch, f flagUse) error { return q.setTop("seed", f.values[0], f.at) }},
	"seed":            {flagValue, func(q *quickMatch, f flagUse) error { return q.setTop("seed", f.values[0], f.at) }},
	"event":           {flagValue, func(q *quickMatch, f flagUse) error { return q.setTop("name", f.values[0], f.at) }},
	"maxmoves":        {flagValue, maxMovesFlag},
	"startup-ms":      {flagValue, func(q *quickMatch, f flagUse) error { return msFlag(q, f, "start_timeout") }},
	"ucinewgame-ms":   {flagValue, func(q *quickMatch, f flagUse) error { return msFlag(q, f, "ucinewgame_timeout") }},
	"ping-ms":         {flagValue, func(q *quickMatch, f flagUse) error { return msFlag(q, f, "ping_timeout") }},
	"tournament":      {flagValue, tournamentFlag},
	"variant":         {flagValue, variantFlag},
	"openings":        {flagGroup, openingsFlag},
	"draw":            {flagGroup, func(q *quickMatch, f flagUse) error { return q.groupTo(f, "adjudicate", "draw") }},
	"resign":          {flagGroup, func(q *quickMatch, f flagUse) error { return q.groupTo(f, "adjudicate", "resign") }},
	"sprt":            {flagGroup, func(q *quickMatch, f flagUse) error { return q.groupTo(f, "sprt") }},
	"judge":           {flagGroup, judgeFlag},
	"pgnout":          {flagGroup, pgnoutFlag},
	"epdout":          {flagGroup, epdoutFlag},
	"ratinginterval":  {flagValue, func(q *quickMatch, f flagUse) error { return q.setTop("rating_interval", f.values[0], f.at) }},
	"rating-interval": {flagValue, func(q *quickMatch, f flagUse) error { return q.setTop("rating_interval", f.values[0], f.at) }},
	"out":             {flagValue, func(q *quickMatch, f flagUse) error { q.out = f.values[0]; return nil }},
	"shard":           {flagValue, func(q *quickMatch, f flagUse) error { q.shard = f.values[0]; return nil }},
	"print-config":    {flagBool, func(q *quickMatch, f flagUse) error { q.printConfig = true; return nil }},
	"quiet":           {flagBool, func(q *quickMatch, f flagUse) error { q.quiet = true; return nil }},
	"h":               {flagBool, func(q *quickMatch, f flagUse) error { q.help = true; return nil }},
	"help":            {flagBool, func(q *quickMatch, f flagUse) error { q.help = true; return nil }},
}

// unsupportedFlags are fastchess and cutechess-cli flags a quick match
// refuses, with what arena offers instead.
var unsupportedFlags = map[string]string{
	"scoreinterval":     "every game's line already ends with the running score",
	"outcomeinterval":   "every game's line already ends with the running score",
	"autosaveinterval":  "every game is saved to games.jsonl as it ends (arena run --resume DIR continues)",
	"config":            "write a YAML config and run arena run FILE (--print-config prints this match's)",
	"quick":             "name the engines with -engine cmd=... -engine cmd=... and the book with -openings file=...",
	"tb":                "tablebase adjudication is not supported (no pure-Go Syzygy prober); use -resign",
	"tbpieces":          "tablebase adjudication is not supported (no pure-Go Syzygy prober); use -resign",
	"tbignore50":        "tablebase adjudication is not supported (no pure-Go Syzygy prober); use -resign",
	"tbadjudicate":      "tablebase adjudication is not supported (no pure-Go Syzygy prober); use -resign",
	"log":               "the UCI traffic log is the config key log: DIR (write a config; --print-config gives one to start from)",
	"debug":             "the UCI traffic log is the config key log: DIR (write a config; --print-config gives one to start from)",
	"wait":              "games follow one another at once; there is nothing to wait for",
	"site":              "the PGN Site tag is always \"arena\"",
	"output":            "arena prints its own lines; summary.json is the machine-readable output",
	"report":            "the pentanomial line is always printed",
	"seeds":             "use -tournament gauntlet: the first -engine plays every other",
	"bookmode":          "books are always read into memory",
	"resultformat":      "the tables are fixed; summary.json holds every number",
	"force-concurrency": "arena only warns when games at once exceed the cores",
	"crc32":             "outputs are written atomically",
	"use-affinity":      "run arena under taskset instead",
	"show-latency":      "move times are taken at the pipe; moves.csv has every one",
	"testEnv":           "it is a fastchess CI switch",
	"resume":            "arena run --resume DIR takes no -engine flags (the run's config.yaml says everything)",
	"check-mate-pvs":    "mate claims in PVs are not used; the judge evaluates every position",
	"strict":            "it is a fastchess CI switch",
	"compliance":        "only UCI play is checked; a non-compliant engine loses its games with the reason",
	"engines":           "arena engines lists the built-in engines (there is no engines.json)",
	"version":           "arena --version prints it",
}

// parseQuick reads a quick match's command line.
func parseQuick(args []string) (*quickMatch, error) {
	q := &quickMatch{args: args, rounds: 1, games: 2, top: mapping(0)}
	for i := 0; i < len(args); {
		name, inline, ok := splitFlag(args[i])
		if !ok {
			return q, fmt.Errorf("%q: expected a flag (a quick match takes no config file; run a config with arena run FILE)", args[i])
		}
		typed := args[i]
		if inline != "" {
			typed = strings.TrimSuffix(typed, "="+inline)
		}
		i++
		if why, bad := unsupportedFlags[name]; bad {
			return q, fmt.Errorf("%s: not supported in arena, because %s", typed, why)
		}
		fl, known := quickFlags[name]
		if !known {
			return q, fmt.Errorf("%s: unknown flag (arena run -engine -h lists the quick-match flags; docs/parity.md has every fastchess and cutechess-cli option)", typed)
		}
		f := flagUse{name: typed}
		if inline != "" {
			f.values = []string{inline}
		}
		switch {
		case fl.kind == flagBool && inline != "":
			return q, fmt.Errorf("%s=%s: %s takes no value", typed, inline, typed)
		case fl.kind == flagValue && inline == "":
			if i == len(args) {
				return q, fmt.Errorf("%s: missing its value", typed)
			}
			f.values, i = []string{args[i]}, i+1
		case fl.kind == flagGroup:
			for ; i < len(args) && !strings.HasPrefix(args[i], "-"); i++ {
				f.values = append(f.values, args[i])
			}
		case fl.kind == flagBool && name == "repeat" && i < len(args):
			// cutechess's -repeat [N]: only N = 2 (once per colour) maps.
			if n, err := strconv.Atoi(args[i]); err == nil {
				if n != 2 {
					return q, fmt.Errorf("-repeat %d: arena plays an opening at most twice, once with each colour (-repeat or -repeat 2)", n)
				}
				i++
			}
		}
		f.at = q.origin(strings.TrimSpace(typed + " " + strings.Join(f.values, " ")))
		if err := fl.apply(q, f); err != nil {
			return q, err
		}
	}
	if !q.help && len(q.engines) == 0 {
		return q, fmt.Errorf("no -engine given (a quick match names each engine: -engine cmd=stockfish -engine builtin=heuristic)")
	}
	return q, nil
}

// origin records where nodes come from and returns their Line.
func (q *quickMatch) origin(s string) int {
	q.origins = append(q.origins, s)
	return len(q.origins)
}

// tokens splits a group flag's KEY=VALUE words, each its own origin.
func (q *quickMatch) tokens(f flagUse) ([]token, error) {
	var out []token
	for _, v := range f.values {
		k, val, ok := strings.Cut(v, "=")
		if v == "ponder" {
			// cutechess-cli's engine option without a value.
			k, val, ok = v, "true", true
		}
		if !ok || k == "" {
			return nil, fmt.Errorf("%s %s: expected KEY=VALUE", f.name, v)
		}
		typed := f.name + " " + v
		out = append(out, token{key: k, value: val, typed: typed, at: q.origin(typed)})
	}
	return out, nil
}

func positive(f flagUse) (int, error) {
	n, err := strconv.Atoi(f.values[0])
	if err != nil || n < 1 || n > config.MaxGames {
		return 0, fmt.Errorf("%s %s: expected a whole number from 1 to %d", f.name, f.values[0], config.MaxGames)
	}
	return n, nil
}

// msFlag sets a timeout key from fastchess's milliseconds.
func msFlag(q *quickMatch, f flagUse, key string) error {
	n, err := strconv.Atoi(f.values[0])
	if err != nil || n < 1 {
		return fmt.Errorf("%s %s: expected a number of milliseconds, 1 or more", f.name, f.values[0])
	}
	return q.setTop(key, strconv.Itoa(n)+"ms", f.at)
}

func maxMovesFlag(q *quickMatch, f flagUse) error {
	n, err := strconv.Atoi(f.values[0])
	if err != nil || n < 0 || n > 100_000 {
		return fmt.Errorf("%s %s: expected a number of full moves (0: no limit)", f.name, f.values[0])
	}
	// arena's max_moves counts plies; the flag counts full moves, as in
	// both other tools.
	return q.setTop("max_moves", strconv.Itoa(2*n), f.at)
}

func tournamentFlag(q *quickMatch, f flagUse) error {
	switch v := f.values[0]; v {
	case "roundrobin", "round-robin":
		return q.setTop("format", config.FormatRoundRobin, f.at)
	case "gauntlet":
		return q.setTop("format", config.FormatGauntlet, f.at)
	case "knockout":
		return q.setTop("format", config.FormatKnockout, f.at)
	default:
		return fmt.Errorf("%s %s: not supported (arena plays round-robin, gauntlet and knockout, and a match of two engines)", f.name, v)
	}
}

func variantFlag(q *quickMatch, f flagUse) error {
	if f.values[0] != "standard" {
		return fmt.Errorf("%s %s: not supported, because arena plays standard chess only", f.name, f.values[0])
	}
	return nil
}

func openingsFlag(q *quickMatch, f flagUse) error {
	toks, err := q.tokens(f)
	if err != nil {
		return err
	}
	for i, t := range toks {
		switch t.key {
		case "policy":
			return fmt.Errorf("%s policy=%s: not supported; every pairing plays the same openings in the same order (cutechess's policy=encounter)", f.name, t.value)
		case "file":
			toks[i].value = absIfExists(t.value)
		}
	}
	return q.tokensTo(f, toks, "openings")
}

func judgeFlag(q *quickMatch, f flagUse) error {
	if len(f.values) == 1 && !strings.Contains(f.values[0], "=") {
		return q.setTop("judge", f.values[0], f.at)
	}
	return q.groupTo(f, "judge")
}

// pgnoutFlag reads -pgnout: the file (cutechess's bare FILE, fastchess's
// file=), cutechess's min and fi, and fastchess's FIELD=true|false, which
// add or remove fields of the move comments from arena's default ones.
func pgnoutFlag(q *quickMatch, f flagUse) error {
	fields := slices.Clone(config.DefaultPGNComments.Fields)
	changed, none := false, false
	for _, v := range f.values {
		k, val, isKV := strings.Cut(v, "=")
		b, boolErr := strconv.ParseBool(val)
		switch {
		case !isKV && v == "min":
			none = true
		case !isKV && v == "fi": // finished games only: games.pgn holds nothing else
		case !isKV && q.pgnout == "":
			q.pgnout = v
		case k == "file":
			q.pgnout = val
		case k == "notation" && val == "san":
		case k == "min" && boolErr == nil:
			none = b
		case slices.Contains(config.CommentFields, k) && boolErr == nil:
			fields = slices.DeleteFunc(fields, func(x string) bool { return x == k })
			if b {
				fields = append(fields, k)
			}
			changed = true
		default:
			return fmt.Errorf("%s %s: not supported; arena's PGN is SAN, min drops the move comments and FIELD=true|false chooses their fields (%s)", f.name, v, strings.Join(config.CommentFields, ", "))
		}
	}
	if q.pgnout == "" {
		return fmt.Errorf("%s: missing the file (-pgnout FILE or -pgnout file=FILE)", f.name)
	}
	out := child(q.top, "output", f.at, yaml.MappingNode)
	switch {
	case none:
		set(out, "pgn_comments", scalar("none", f.at))
	case changed:
		list := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Line: f.at}
		for _, c := range config.CommentFields {
			if slices.Contains(fields, c) {
				list.Content = append(list.Content, scalar(c, f.at))
			}
		}
		set(out, "pgn_comments", list)
	}
	return nil
}

// epdoutFlag reads -epdout FILE (or file=FILE): the run writes games.epd
// (output.epd), which is appended to FILE.
func epdoutFlag(q *quickMatch, f flagUse) error {
	for _, v := range f.values {
		k, val, isKV := strings.Cut(v, "=")
		switch {
		case !isKV && q.epdout == "":
			q.epdout = v
		case k == "file":
			q.epdout = val
		default:
			return fmt.Errorf("%s %s: not supported (-epdout FILE or -epdout file=FILE)", f.name, v)
		}
	}
	if q.epdout == "" {
		return fmt.Errorf("%s: missing the file (-epdout FILE or -epdout file=FILE)", f.name)
	}
	set(child(q.top, "output", f.at, yaml.MappingNode), "epd", scalar("true", f.at))
	return nil
}

// groupTo writes a group flag's KEY=VALUE words into the mapping at path,
// for the config to check the keys and values.
func (q *quickMatch) groupTo(f flagUse, path ...string) error {
	toks, err := q.tokens(f)
	if err != nil {
		return err
	}
	return q.tokensTo(f, toks, path...)
}

func (q *quickMatch) tokensTo(f flagUse, toks []token, path ...string) error {
	if len(toks) == 0 {
		return fmt.Errorf("%s: missing its KEY=VALUE settings", f.name)
	}
	m := q.top
	for _, key := range path {
		m = child(m, key, f.at, yaml.MappingNode)
	}
	for _, t := range toks {
		set(m, t.key, scalar(t.value, t.at))
	}
	return nil
}
