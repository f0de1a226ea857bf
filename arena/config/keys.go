package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"arena/engines/uci"
	"arena/tracker"
)

// Key declares one config key: the parser's lists of valid keys, the
// run-only keys of arena's drift check, the keys a sweep may vary and the
// reference tables (docs/reference-keys.md, `arena reference`) are all read
// from Sections. A test checks it against the Config type's YAML fields and
// the defaults a parsed config really gets.
type Key struct {
	Name string
	Type string // what a value is, as the reference writes it
	// Default is the value a config that leaves the key out gets, in
	// backquotes where it is a literal (TestKeyDefaults compares those
	// with the resolved config), else in words.
	Default string
	Meaning string
	// RunOnly: the key (with everything under it) changes how a run is
	// carried out, never what a game is: --resume and arena merge let it
	// differ from what was played, and ConfigHash leaves it out.
	RunOnly bool
	// NoSweep: a sweep cannot vary it (top-level keys only): the sweep
	// itself, the name and where results go, since every setting is named
	// after the sweep and writes below its directory.
	NoSweep bool
}

// Section is one mapping of the config: Path is where it lies ("" for the
// top level, "engines[]" for each entry of the engines list).
type Section struct {
	Path  string
	Title string
	Keys  []Key
}

func lit(v any) string { return "`" + fmt.Sprint(v) + "`" }

// Sections declares every config key, section by section, in the order
// of a config file (--print-config writes them so), of the reference and
// of the parser's lists of valid keys.
var Sections = []Section{
	{"", "Top level", []Key{
		{Name: "name", Type: "string", Default: "the config file's name without extension", NoSweep: true,
			Meaning: "match name: PGN `Event`, run directory prefix"},
		{Name: "format", Type: "`match` | `round-robin` | `gauntlet` | `knockout`", Default: "`match` for 2 engines, else `round-robin`",
			Meaning: "who plays whom (see \"Formats, knockouts and game pairs\" in docs/guide.md); `match` needs exactly 2 engines; `knockout` cannot be sharded and takes no `sprt`"},
		{Name: "games", Type: "int ≥ 1", Default: lit(DefaultGames),
			Meaning: "games per pairing of engines (for two engines: the number of games; with `sprt:` the most games to play; in a knockout: per encounter, before tie-breaks)"},
		{Name: "pairs", Type: "bool", Default: lit(DefaultPairs),
			Meaning: "play games in pairs: games 2k-1 and 2k of a pairing share an opening with the colours swapped; `false`: every game takes the next opening"},
		{Name: "noswap", Type: "bool", Default: lit(false),
			Meaning: "every game of a pairing with the same colours, the first engine White (fastchess/cutechess `-noswap`); with `pairs: true` both games of a pair then repeat the opening with the same colours"},
		{Name: "reverse", Type: "bool", Default: lit(false),
			Meaning: "the second engine of each pairing is White first (fastchess `-reverse`); with `noswap`, White in every game"},
		{Name: "max_moves", Type: "int ≥ 0", Default: lit(DefaultMaxMoves),
			Meaning: "**plies** (half-moves, not full moves: fastchess/cutechess `-maxmoves N` is `max_moves: 2N`) after which a game is adjudicated a draw (`Termination \"adjudication\"`, reason \"max moves\"); `0`: no limit. The run header and `arena check` print it both ways: `Max Moves: 180 plies = 90 full moves`"},
		{Name: "game_end", Type: "`claim` | `fivefold`", Default: lit(GameEndClaim),
			Meaning: "`claim`: threefold repetition and fifty moves are claimed at once (reasons \"Draw by 3-fold repetition\", \"Draw by fifty moves rule\"); `fivefold`: played on to fivefold repetition and 75 moves (\"Draw by 5-fold repetition\", \"Draw by seventy-five moves rule\"), as the thesis"},
		{Name: "seed", Type: "int", Default: lit(DefaultSeed),
			Meaning: "seed of every random choice (the `random` opening order)"},
		{Name: "concurrency", Type: "int, 1 to " + strconv.Itoa(MaxConcurrency), Default: lit(1), RunOnly: true,
			Meaning: "games played at once, each with its own engine processes (`--concurrency` overrides; see \"Games in parallel\" in docs/guide.md)"},
		{Name: "rating_interval", Type: "int ≥ 0", Default: "`0` (off)", RunOnly: true,
			Meaning: "every K finished games, print each pairing's Elo with its 95% interval, LOS and draw ratio, the pentanomial counts of its complete game pairs, and for more than two engines the rating table (cutechess-cli/fastchess `-ratinginterval K`). `arena run --rating-interval K` overrides it, also on `--resume`"},
		{Name: "time_margin", Type: "duration", Default: lit(Duration(DefaultTimeMargin)),
			Meaning: "how late a move may be (past `movetime` or the clock) before it loses on time"},
		{Name: "time_forfeit", Type: "`on` | `off`", Default: lit(TimeForfeit{}),
			Meaning: "`on`: a move later than its limit plus `time_margin` loses on time (fastchess, cutechess-cli). `off`: it is played (the arena waits for it up to `move_timeout` past the limit; later still loses on time) and its overrun recorded (`overrun_s`). The thesis's configs set it off: the thesis's arena waited for every move"},
		{Name: "move_timeout", Type: "duration", Default: lit(Duration(DefaultMoveTimeout)),
			Meaning: "for engines with no time limit (only `nodes`/`depth`): a move taking longer loses on time; `0`: wait forever"},
		{Name: "start_timeout", Type: "duration > 0", Default: lit(Duration(uci.DefaultStartTimeout)), RunOnly: true,
			Meaning: "how long every engine and the judge may take to start: answer `uci`, then `isready` after the options (fastchess `-startup-ms`; raise it on a busy machine; an engine that does not answer in time fails the run with an error naming this key)"},
		{Name: "ucinewgame_timeout", Type: "duration > 0", Default: lit(Duration(uci.DefaultNewGameTimeout)), RunOnly: true,
			Meaning: "how long an engine (or the judge) may take to answer `isready` after `ucinewgame` before each game (fastchess `-ucinewgame-ms`, same default); an engine late here loses that game (`abandoned`, the reason naming this key) and is restarted for the next"},
		{Name: "ping_timeout", Type: "duration > 0", Default: lit(Duration(uci.DefaultPingTimeout)), RunOnly: true,
			Meaning: "how long an engine or the judge may take to answer any other `isready`: after a `setoption` between games (the per-game `seed` of built-in engines) and the judge's own options (fastchess `-ping-ms`, same default)"},
		{Name: "adjudicate", Type: "mapping", Default: "none",
			Meaning: "score-based draw and resign adjudication as fastchess's and cutechess's `-draw`/`-resign` (see `adjudicate.draw` and `adjudicate.resign`)"},
		{Name: "log", Type: "directory", Default: "none",
			Meaning: "UCI traffic log of every engine without its own `engines[].log`"},
		{Name: "limits", Type: "mapping", Default: "none",
			Meaning: "limits of every engine (see `limits`); each engine must end up with at least one"},
		{Name: "engines", Type: "list (≥ 2)", Default: "required",
			Meaning: "the players (see `engines[]`)"},
		{Name: "anchor", Type: "engine name", Default: "the name of `engines[0]`", RunOnly: true,
			Meaning: "the engine rated 0 in the rating table"},
		{Name: "openings", Type: "mapping", Default: "none: the standard start position",
			Meaning: "opening book (see `openings`)"},
		{Name: "sprt", Type: "mapping", Default: "none",
			Meaning: "stop a two-engine match when a sequential probability ratio test decides (see `sprt`)"},
		{Name: "judge", Type: "mapping or `off`", Default: "on, with the defaults of `judge`",
			Meaning: "the Stockfish judge; `judge: off` disables ACPL/accuracy"},
		{Name: "output", Type: "mapping", Default: "see `output`", RunOnly: true, NoSweep: true,
			Meaning: "where results go"},
		{Name: "sweep", Type: "mapping of one key to a list", Default: "none", NoSweep: true,
			Meaning: "run the experiment once per value of that key (e.g. `sweep: {limits.movetime: [1s, 3s, 5s]}`)"},
	}},
	{"limits", "`limits` (top level and `engines[].limits`)", []Key{
		{Name: "movetime", Type: "duration", Default: "unset", Meaning: "fixed time per move (`go movetime`)"},
		{Name: "nodes", Type: "int", Default: "unset", Meaning: "node limit per move (`go nodes`)"},
		{Name: "depth", Type: "int", Default: "unset", Meaning: "depth limit per move (`go depth`)"},
		{Name: "tc", Type: "string", Default: "unset",
			Meaning: "game clock `\"moves/seconds+increment\"`: `\"40/60+0.6\"` (40 moves in 60 s, repeating, +0.6 s per move), `\"60+0.6\"` (whole game), `\"300\"`; the time may be `minutes:seconds` as in cutechess-cli and fastchess (`\"40/1:00+0.6\"`, `\"5:00\"`); `inf` (or `0`) is no clock, e.g. to clear an inherited `tc` for an engine limited by `nodes` or `depth`"},
	}},
	{"engines[]", "`engines[]`", []Key{
		{Name: "name", Type: "string", Default: "the built-in engine's name, or the command's base name",
			Meaning: "display name; must be unique"},
		{Name: "engine", Type: "string", Default: "`" + UCIEngine + "` when `command` is set",
			Meaning: "a built-in engine (`arena engines` lists them) or `uci` for an external binary"},
		{Name: "command", Type: "string", Default: "required for `uci`",
			Meaning: "program name (searched in `PATH`, then `/usr/games`, `/usr/local/games`, ...) or path"},
		{Name: "args", Type: "list of strings", Default: "none", Meaning: "arguments of `command` (`uci` only)"},
		{Name: "options", Type: "mapping", Default: "none",
			Meaning: "engine options. Built-in engines: validated against the engine's typed options (below) when the config loads and passed as `--option NAME=VALUE`. UCI engines: sent with `setoption` after `uciok`; a name the engine does not announce is an error listing the engine's options"},
		{Name: "limits", Type: "mapping", Default: "the top-level `limits`",
			Meaning: "per-engine override, key by key; setting `movetime` or `tc` replaces the inherited time control of either kind, and `0` clears an inherited key"},
		{Name: "time_margin", Type: "duration", Default: "the top-level `time_margin`",
			Meaning: "this engine's margin (fastchess `timemargin=`, cutechess `timemargin=`)"},
		{Name: "workdir", Type: "directory", Default: "the arena's", RunOnly: true,
			Meaning: "the engine process's working directory (fastchess/cutechess `dir=`); must exist; relative to the current directory or the config file's"},
		{Name: "restart", Type: "`auto` | `on` | `off`", Default: lit(RestartAuto),
			Meaning: "`on`: a new process for every game (fastchess/cutechess `restart=on`); `auto` and `off`: one process for all the engine's games, replaced only after it died (a crash loses that game; arena always recovers, as fastchess with `-recover`, so `off` is `auto`)"},
		{Name: "log", Type: "directory", Default: "the top-level `log`", RunOnly: true,
			Meaning: "UCI traffic log directory of this engine"},
		{Name: "ponder", Type: "bool", Default: lit(false),
			Meaning: "the engine thinks on the reply it expects while its opponent thinks (cutechess `ponder`)"},
		{Name: "book", Type: "mapping", Default: "none",
			Meaning: "the engine's own Polyglot book, whose moves the arena plays for it (cutechess `book=FILE bookdepth=N`; see `engines[].book`)"},
	}},
	{"engines[].book", "`engines[].book`", []Key{
		{Name: "file", Type: "string", Default: "required",
			Meaning: "a Polyglot `.bin` book, relative to the current directory or the config file's, read when the config loads (a missing or malformed file is an error naming `engines[i].book.file` and the file)"},
		{Name: "depth", Type: "int ≥ 0", Default: "`0` (no limit)",
			Meaning: "at most this many of the engine's moves per game come from the book (`0`: as long as the book has a move)"},
	}},
	{"openings", "`openings`", []Key{
		{Name: "file", Type: "string", Default: "required",
			Meaning: "`.pgn`: PGN games; `.bin`: a Polyglot book; anything else: EPD/FEN, one position per line (`#` comments and blank lines skipped). The path is tried relative to the current directory, then to the config file's directory"},
		{Name: "format", Type: "`epd` | `pgn` | `polyglot`", Default: "by the extension",
			Meaning: "the book's format, for a file whose extension does not say it"},
		{Name: "order", Type: "`sequential` | `random` | `weighted`", Default: lit(DefaultOpeningOrd),
			Meaning: "`sequential` wraps around the book; `random` is a seeded shuffle, reshuffled each time the book is used up; `weighted` (Polyglot books only) draws each opening in proportion to the book's move weights"},
		{Name: "plies", Type: "int ≥ 0", Default: lit(0),
			Meaning: "PGN books: the opening is the position after the first N plies of each game (`0`: all its moves). Polyglot books (required there): how deep to follow the book. An error for an EPD book, whose lines are the openings"},
		{Name: "start", Type: "int ≥ 1", Default: lit(1),
			Meaning: "the first opening used: the book's N-th (sequential), or the N-th of the seeded shuffled sequence (random; so `start: 51` continues where a 50-opening run with the same seed stopped). Beyond the book's size is an error"},
	}},
	{"judge", "`judge`", []Key{
		{Name: "engine", Type: "string", Default: lit(tracker.DefaultJudgeCommand),
			Meaning: "the judge's UCI command, located like `engines[].command`. A missing Stockfish is an error listing the paths tried and `apt-get install -y stockfish`"},
		{Name: "depth", Type: "int ≥ 1", Default: lit(tracker.DefaultJudgeDepth),
			Meaning: "fixed search depth per position (the thesis's 12)"},
		{Name: "cap", Type: "int ≥ 1", Default: lit(tracker.DefaultScoring.Cap),
			Meaning: "upper clamp of one move's centipawn loss"},
		{Name: "mate_score", Type: "int ≥ 1", Default: lit(tracker.DefaultScoring.MateScore),
			Meaning: "centipawn value of a mate (mate in n = `mate_score` − n, python-chess style)"},
		{Name: "workers", Type: "int ≥ 1", Default: lit(1), RunOnly: true,
			Meaning: "Stockfish processes evaluating a game's positions in parallel (after the game, so they do not compete with engines)"},
		{Name: "hash", Type: "int ≥ 1", Default: lit(tracker.DefaultJudgeHashMB),
			Meaning: "Stockfish `Hash` (MB) per process"},
		{Name: "threads", Type: "int ≥ 1", Default: lit(1),
			Meaning: "Stockfish `Threads` per process (1 keeps evaluations reproducible)"},
		{Name: "protocol", Type: "`position` | `thesis`", Default: lit(tracker.ProtocolPosition),
			Meaning: "`position`: each position once, from a FEN without history, cold (`ucinewgame` first), cached; `thesis`: the thesis listing's protocol, one warm process per game, full history, two searches per ply (docs/judge.md)"},
		{Name: "timeout", Type: "duration > 0", Default: lit(tracker.DefaultJudgeTimeout), RunOnly: true,
			Meaning: "bound on one judge search; then the judge is killed, restarted and the position retried once, else the game stays unjudged (judged again by `--resume`)"},
	}},
	{"output", "`output`", []Key{
		{Name: "dir", Type: "string", Default: lit(DefaultOutputDir),
			Meaning: "parent of the run directories `NAME-YYYYMMDD-HHMMSS` (`--out DIR` names the run directory itself)"},
		{Name: "pgn", Type: "`all` | `last N` | `none`", Default: lit(PGNMode{}),
			Meaning: "which games `games.pgn` keeps (the thesis saved the last 2). `all` is appended per game; `last N` is rewritten atomically per game; `none` writes no PGN. `games.jsonl` and `moves.csv` always hold every game"},
		{Name: "pgn_comments", Type: "list of " + strings.Join(CommentFields, ", ") + ", or `none`", Default: "`[" + strings.Join(DefaultPGNComments.Fields, ", ") + "]`",
			Meaning: "what each move's comment in `games.pgn` carries after the score/depth and the move time (fastchess's `-pgnout` `nodes=`, `seldepth=`, `nps=`, `timeleft=`, `pv=` switches). Written in that fixed order whatever the list's order; `[]`: score/depth and time only (fastchess's default comment); `none`: no move comments (cutechess-cli's `min`, fastchess's `min=true`)"},
		{Name: "epd", Type: "bool", Default: lit(false),
			Meaning: "write `games.epd`: the final position of every finished game, one EPD line each, in game order (cutechess-cli/fastchess `-epdout`)"},
		{Name: "compress", Type: "bool", Default: lit(false),
			Meaning: "when the run ends, replace `games.jsonl`, `moves.csv`, `games.pgn` and `games.epd` by gzip files `NAME.gz`, to commit results"},
	}},
	{"adjudicate", "`adjudicate`", []Key{
		{Name: "draw", Type: "mapping", Default: "off",
			Meaning: "adjudicate a draw when both engines' own scores stay within a band (fastchess/cutechess `-draw`; see `adjudicate.draw`)"},
		{Name: "resign", Type: "mapping", Default: "off",
			Meaning: "adjudicate a loss when an engine's own score stays below a threshold (fastchess/cutechess `-resign`; see `adjudicate.resign`)"},
	}},
	{"adjudicate.draw", "`adjudicate.draw`", []Key{
		{Name: "movenumber", Type: "int ≥ 0", Default: lit(0),
			Meaning: "full moves the engines must have played (from the game's start position, book moves not counted) before a draw is adjudicated"},
		{Name: "movecount", Type: "int ≥ 1", Default: "required",
			Meaning: "consecutive moves **of each engine** (2 × movecount plies) whose scores are all within ±`score`"},
		{Name: "score", Type: "centipawns ≥ 0", Default: "required",
			Meaning: "the draw band; a mate score breaks the run; a capture or pawn move restarts it (that move itself counts), as in fastchess"},
	}},
	{"adjudicate.resign", "`adjudicate.resign`", []Key{
		{Name: "movecount", Type: "int ≥ 1", Default: "required",
			Meaning: "consecutive moves of the losing engine at `-score` or worse (a mate against it counts)"},
		{Name: "score", Type: "centipawns ≥ 1", Default: "required", Meaning: "the resign threshold"},
		{Name: "twosided", Type: "bool", Default: lit(false),
			Meaning: "both engines must agree: the loser at `-score` or worse and the winner at `+score` or better, for `movecount` moves each (2 × movecount consecutive plies)"},
	}},
	{"sprt", "`sprt`", []Key{
		{Name: "elo0", Type: "number, below `elo1`", Default: "required", Meaning: "H0: Elo = elo0, from `engines[0]`'s side"},
		{Name: "elo1", Type: "number", Default: "required", Meaning: "H1: Elo = elo1"},
		{Name: "alpha", Type: "probability; `alpha + beta` below 1", Default: lit(tracker.DefaultSPRTAlpha),
			Meaning: "false positive rate (accepting H1 under H0)"},
		{Name: "beta", Type: "probability", Default: lit(tracker.DefaultSPRTBeta), Meaning: "false negative rate"},
		{Name: "model", Type: "`normalized` | `logistic`", Default: lit(tracker.DefaultSPRTModel),
			Meaning: "the scale of elo0 and elo1 (normalized Elo as fastchess and fishtest; ±200 at most) or logistic Elo (±2000)"},
	}},
}

// KeysOf lists the names of a section's keys in declaration order; it
// panics on a path that is not declared (a programming error).
func KeysOf(path string) []string {
	for _, s := range Sections {
		if s.Path == path {
			names := make([]string, len(s.Keys))
			for i, k := range s.Keys {
				names[i] = k.Name
			}
			return names
		}
	}
	panic("config: no section " + path)
}

// RunOnlyKeys lists the keys marked RunOnly as full paths ("output",
// "engines[].log", "judge.timeout"); each stands for itself and every key
// under it. They change how a run is carried out, never what a game is:
// how many games at once, what is printed and written beside the games,
// where the engines' logs and working directories are, how long the arena
// waits for answers outside a search, and the anchor of the rating table.
func RunOnlyKeys() []string {
	var out []string
	for _, s := range Sections {
		for _, k := range s.Keys {
			if k.RunOnly {
				out = append(out, join(s.Path, k.Name))
			}
		}
	}
	return out
}

var (
	indexRe     = regexp.MustCompile(`\[\d+\]`)
	runOnlyKeys = RunOnlyKeys()
)

// IsRunOnly reports whether a key path ("engines[1].log",
// "output.pgn_comments", "engines[].workdir") is run-only: it or a key
// above it is marked RunOnly.
func IsRunOnly(key string) bool {
	k := indexRe.ReplaceAllString(key, "[]")
	for _, r := range runOnlyKeys {
		if k == r || strings.HasPrefix(k, r+".") {
			return true
		}
	}
	return false
}

// notSweepable lists the top-level keys a sweep cannot vary.
func notSweepable() []string {
	var out []string
	for _, k := range Sections[0].Keys {
		if k.NoSweep {
			out = append(out, k.Name)
		}
	}
	return out
}
