package main

// A quick match is a config written as the flags cutechess-cli and
// fastchess users already type ("arena run -engine cmd=stockfish -engine
// builtin=heuristic -each tc=10+0.1 -rounds 50 ..."). The flags are turned
// into a YAML document, and that text is parsed by config.Parse exactly as a
// config file is: there is one validator and one runner, and
// --print-config prints the very text that was played. Every YAML node the
// flags make remembers the flag it came from (node.Line is an index into
// quickMatch.origins); config errors name a line, so each is reported as
// the flag and value the user typed.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"arena/arena/config"
	"arena/arena/output"
	"arena/internal/atomicfile"
)

// quickSource is the config's file name: none, so that relative paths are
// found from the current directory only.
const quickSource = ""

// quickMatch is a parsed quick-match command line.
type quickMatch struct {
	args    []string
	origins []string // origins[i-1] is the flag and value that made the nodes with Line i
	root    *yaml.Node
	top     *yaml.Node // the config's top-level keys as the flags set them
	each    []token    // -each's engine options (their limits go to the top level)
	engines [][]token  // each -engine's options
	engAt   []int      // each -engine's origin
	rounds  int
	games   int
	repeat  bool
	// Run options that are not config keys.
	out, shard, pgnout, epdout string
	printConfig, help, quiet   bool
}

// token is one KEY=VALUE of a flag, with the origin it is reported under.
type token struct {
	key, value string
	typed      string // the flag and the word: "-engine option.Hash=64"
	at         int
}

// isQuickMatch reports whether a run's arguments describe a quick match.
func isQuickMatch(args []string) bool {
	for _, a := range args {
		if name, _, ok := splitFlag(a); ok && (name == "engine" || name == "each") {
			return true
		}
	}
	return false
}

// splitFlag splits "-name", "--name" or "--name=value".
func splitFlag(arg string) (name, value string, ok bool) {
	if !strings.HasPrefix(arg, "-") || arg == "-" || arg == "--" {
		return "", "", false
	}
	name = strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-")
	name, value, _ = strings.Cut(name, "=")
	return name, value, name != ""
}

// quickRun plays a quick match, or prints its config with --print-config.
func quickRun(args []string, stdout, stderr io.Writer) int {
	q, err := parseQuick(args)
	switch {
	case q != nil && q.help:
		quickUsage(stdout)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "arena run: %v\n", err)
		return 2
	}
	if err := q.build(); err != nil {
		fmt.Fprintf(stderr, "arena run: %v\n", err)
		return 2
	}
	text, cfg, err := q.parse()
	if err != nil {
		fmt.Fprintf(stderr, "arena run: %v\n", err)
		return 1
	}
	if q.printConfig {
		q.writeConfig(stdout, text)
		return 0
	}
	shard, err := chooseShard(q.shard, false)
	if err != nil {
		fmt.Fprintf(stderr, "arena run: %v\n", err)
		return 2
	}
	dir, code := play(runRequest{cfg: cfg, out: q.out, shard: shard, quiet: q.quiet}, stdout, stderr)
	for _, c := range []struct{ flag, dst, src string }{{"-pgnout", q.pgnout, output.PGNFile}, {"-epdout", q.epdout, output.EPDFile}} {
		if c.dst == "" || dir == "" {
			continue
		}
		if err := appendFile(filepath.Join(dir, c.src), c.dst); err != nil {
			fmt.Fprintf(stderr, "arena run: %s %s: %v\n", c.flag, c.dst, err)
			code = max(code, 1)
		}
	}
	return code
}

// appendFile appends the run's games.pgn or games.epd to the -pgnout or
// -epdout file, as both other tools append to theirs (so a second match
// into the same file keeps the first one's games); PGN games are kept a
// blank line apart. The file is replaced atomically, so a reader never sees
// half a game.
func appendFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	old, err := os.ReadFile(dst)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	sep := "\n"
	if filepath.Ext(src) == ".pgn" {
		sep = "\n\n"
	}
	if len(old) > 0 && !bytes.HasSuffix(old, []byte(sep)) {
		old = append(bytes.TrimRight(old, "\n"), sep...)
	}
	return atomicfile.WriteFile(dst, append(old, data...))
}

// parse encodes the built YAML tree and parses the text as a config file
// is parsed.
func (q *quickMatch) parse() ([]byte, *config.Config, error) {
	text, err := encodeYAML(q.root)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := config.Parse(quickSource, text)
	if err != nil {
		return nil, nil, q.explain(err, text)
	}
	return text, cfg, nil
}

func encodeYAML(n *yaml.Node) ([]byte, error) {
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

var (
	errLine   = regexp.MustCompile(`^` + regexp.QuoteMeta(quickSource) + `:(\d+): `)
	errOnLine = regexp.MustCompile(`on line (\d+)`)
)

// explain rewrites a config error's ":LINE: " (and "on line N" in its
// text) into the flag that wrote that line of the text.
func (q *quickMatch) explain(err error, text []byte) error {
	msg := err.Error()
	m := errLine.FindStringSubmatch(msg)
	if m == nil {
		return err
	}
	var parsed yaml.Node
	if yaml.Unmarshal(text, &parsed) != nil || len(parsed.Content) == 0 {
		return err
	}
	lines := map[int]int{}
	mapLines(q.root, parsed.Content[0], lines)
	origin := func(line string) string {
		n, _ := strconv.Atoi(line)
		if at, ok := lines[n]; ok && at > 0 && at <= len(q.origins) {
			return q.origins[at-1]
		}
		return "the command line"
	}
	rest := errOnLine.ReplaceAllStringFunc(msg[len(m[0]):], func(s string) string {
		return "given by " + origin(errOnLine.FindStringSubmatch(s)[1])
	})
	return fmt.Errorf("%s: %s", origin(m[1]), rest)
}

// mapLines records, for every line of the encoded text, the origin of the
// built node printed there; a scalar wins over the mapping or list that
// starts on its line, since errors about a value point at the value.
func mapLines(built, parsed *yaml.Node, lines map[int]int) {
	if _, ok := lines[parsed.Line]; !ok || parsed.Kind == yaml.ScalarNode {
		lines[parsed.Line] = built.Line
	}
	if len(built.Content) != len(parsed.Content) {
		return
	}
	for i := range built.Content {
		mapLines(built.Content[i], parsed.Content[i], lines)
	}
}

// writeConfig prints the config text, with the command line and the run
// options that are not config keys as comments.
func (q *quickMatch) writeConfig(w io.Writer, text []byte) {
	var args []string
	for _, a := range q.args {
		if name, _, _ := splitFlag(a); name != "print-config" {
			args = append(args, a)
		}
	}
	fmt.Fprintf(w, "# arena run %s\n", shellJoin(args))
	fmt.Fprintln(w, "# the config this quick match plays; save it and run it with: arena run FILE")
	if q.pgnout != "" {
		fmt.Fprintf(w, "# -pgnout %s: not a config key; the run directory's %s is appended to it\n", q.pgnout, output.PGNFile)
	}
	if q.epdout != "" {
		fmt.Fprintf(w, "# -epdout %s: output.epd below; the run directory's %s is appended to it\n", q.epdout, output.EPDFile)
	}
	if q.out != "" {
		fmt.Fprintf(w, "# --out %s: not a config key; pass it to arena run FILE as well\n", q.out)
	}
	if q.shard != "" {
		fmt.Fprintf(w, "# --shard %s: not a config key; pass it to arena run FILE as well\n", q.shard)
	}
	w.Write(text)
}

// shellJoin quotes the arguments that a shell would split or expand.
func shellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

func quickUsage(w io.Writer) {
	fmt.Fprint(w, `usage: arena run -engine OPTIONS -engine OPTIONS... [-each OPTIONS] [options]

A quick match: the config written as cutechess-cli/fastchess flags, played
as the equivalent YAML config is (docs/guide.md, "Quick match"; every flag
beside those tools' in docs/parity.md).

engine OPTIONS (KEY=VALUE; -each applies them to every engine, an engine's
own win): cmd=COMMAND | builtin=ENGINE, name=NAME, dir=DIR, args="A B",
arg=A, option.NAME=VALUE, tc=[MOVES/]TIME[+INC] (seconds or m:ss; inf),
st=SECONDS, nodes=N, depth=N (plies=N), timemargin=MS, restart=on|off|auto,
ponder (think on the expected reply), book=FILE.bin bookdepth=N (the engine's
own Polyglot book, played for it for N moves), proto=uci

options:
  -rounds N -games 1|2 -repeat      games = rounds x games; -repeat or -games 2
                                    plays each opening with both colours
  -noswap -reverse                  colours
  -openings file=F format=epd|pgn|polyglot order=sequential|random plies=N start=N
  -concurrency N                    games at once
  -draw movenumber=N movecount=N score=CP
  -resign movecount=N score=CP twosided=true|false
  -maxmoves N                       full moves, then a draw (max_moves: 2N plies)
  -sprt elo0=E elo1=E alpha=A beta=B model=normalized|logistic
  -tournament round-robin|gauntlet|knockout  with three or more engines
  -srand N (-seed N) -event NAME    the seed; the match name
  -judge off | -judge depth=N ...   arena's judge: keys of judge: in a config
  -pgnout FILE [min] [nodes=true ...]  append the run's games.pgn to FILE;
                                    min: no move comments; FIELD=true|false for
                                    timeleft, nodes, seldepth, nps, pv, mem, cpl
  -epdout FILE                      append the run's games.epd (final positions) to FILE
  -ratinginterval N                 print the Elo and pentanomial every N games
  -startup-ms N -ucinewgame-ms N -ping-ms N  engine timeouts (start_timeout,
                                    ucinewgame_timeout, ping_timeout)
  --out DIR --shard I/N --quiet     as for arena run CONFIG
  --print-config                    print the YAML config and exit
`)
}
