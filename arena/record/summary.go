package record

import (
	"time"

	"arena/tracker"
)

// JudgeTiming is when the judge works: a game is judged once it has ended,
// on the judge's own processes, while the next games are played (they
// share the machine's cores: see the core warning).
const JudgeTiming = "after each game, beside play"

// Summary is summary.json: the match's aggregates, rewritten after every game.
type Summary struct {
	// Schema is the version of the run files' format (Schema); absent
	// (0) in files written before it was recorded, which are version 1.
	Schema   int       `json:"schema"`
	Name     string    `json:"name"`
	RunDir   string    `json:"run_dir"`
	Started  time.Time `json:"started"`
	Updated  time.Time `json:"updated"`
	Format   string    `json:"format"` // match, round-robin, gauntlet or knockout
	Complete bool      `json:"complete"`
	// Stopped says why a complete match ended before its schedule (an
	// SPRT decided); empty otherwise.
	Stopped      string `json:"stopped,omitempty"`
	GamesPlanned int    `json:"games_planned"`
	GamesPlayed  int    `json:"games_played"`
	MaxMoves     int    `json:"max_moves"`
	TimeMargin   string `json:"time_margin"`
	TimeForfeit  string `json:"time_forfeit"` // on: a move past its limit plus the margin loses; off: it is played
	Openings     string `json:"openings,omitempty"`
	GamePairs    bool   `json:"game_pairs"` // the config's pairs: games 2k-1 and 2k of a pairing share an opening
	// Adjudications counts the adjudicated games by rule (draw, resign,
	// max_moves).
	Adjudications map[string]int  `json:"adjudications,omitempty"`
	Judge         JudgeSummary    `json:"judge"`
	Versions      Versions        `json:"versions"`
	Engines       []EngineSummary `json:"engines"`
	// Pairs holds the Elo difference of the first engine of each pairing
	// over the second, with its 95% interval and LOS.
	Pairs []PairSummary `json:"pairs"`
	// Crosstable is every scheduled pairing's W-D-L (0-0-0 until played;
	// in a knockout only the engines that have met).
	Crosstable *Crosstable `json:"crosstable"`
	// Ratings is the maximum-likelihood fit of all games, the anchor at 0
	// (null before the first game); RatingsError says why a fit failed.
	Ratings      *tracker.Ratings `json:"ratings"`
	RatingsError string           `json:"ratings_error,omitempty"`
	// Knockout is the bracket of a knockout (format: knockout).
	Knockout *KnockoutSummary `json:"knockout,omitempty"`
	// SPRT is the test's state when the config has sprt:.
	SPRT *SPRTSummary `json:"sprt,omitempty"`
	// SPRTShards is the test over the games of all the run's shards when
	// they decided it and this shard stopped (arena/peers.go).
	SPRTShards *SPRTSummary `json:"sprt_shards,omitempty"`
	// ConfigHash is the SHA-256 of the resolved config (ConfigHash), by
	// which arena merge knows shards of one run.
	ConfigHash string `json:"config_sha256,omitempty"`
	// PlayedConfig is the config the games were played with, as flat
	// keys without the run-only ones (arena.GameKeys): what --resume and
	// arena merge compare config.yaml with, key by key.
	PlayedConfig map[string]string `json:"played_config,omitempty"`
	// Shard is the part of the schedule this run played (arena run
	// --shard); absent for a whole run.
	Shard *Shard `json:"shard,omitempty"`
	// Concurrency is the number of games played at once, Cores the
	// machine's logical CPUs.
	Concurrency int `json:"concurrency,omitempty"`
	Cores       int `json:"cores,omitempty"`
	// Warnings are the run's warnings (games that can repeat, more
	// processes than cores).
	Warnings []string `json:"warnings,omitempty"`
	// Throughput is the last session's speed (absent for merged runs).
	Throughput *Throughput `json:"throughput,omitempty"`
	// Games is one line per game, in game order, as summary.json holds
	// them; it must stay the last field (output streams the lines after
	// the rest). Empty in the Summary a Builder returns: the run keeps the
	// lines on disk, not in memory.
	Games []GameSummary `json:"games"`
}

// Throughput is how fast a session of arena run played.
type Throughput struct {
	Games        int     `json:"games"` // finished in this session
	WallS        float64 `json:"wall_s"`
	GamesPerHour float64 `json:"games_per_hour"`
	// HarnessCPUS is the CPU time of the arena process itself (engines
	// and the judge are processes of their own), HarnessShare that time
	// over the wall time.
	HarnessCPUS  float64 `json:"harness_cpu_s"`
	HarnessShare float64 `json:"harness_share"`
	// Where the wall time went: with a game in play (PlayingS), with
	// no game in play but the judge busy (JudgingS: after the last game,
	// or while a resumed run judges its old games), and with neither
	// (IdleS: start-up, writing). They add up to WallS. JudgeBusyS is the
	// time the judge was busy, beside play or not.
	PlayingS   float64 `json:"playing_s"`
	JudgingS   float64 `json:"judging_s"`
	IdleS      float64 `json:"idle_s"`
	JudgeBusyS float64 `json:"judge_busy_s"`
}

// JudgeSummary records the judge's settings.
type JudgeSummary struct {
	Enabled   bool   `json:"enabled"`
	Engine    string `json:"engine,omitempty"`
	Depth     int    `json:"depth,omitempty"`
	Cap       int    `json:"cap,omitempty"`
	MateScore int    `json:"mate_score,omitempty"`
	Timing    string `json:"timing,omitempty"`
	Protocol  string `json:"protocol,omitempty"` // tracker.ProtocolPosition or ProtocolThesis
	// Evaluations is the number of Stockfish searches over JudgedPlies
	// judged moves; EvalsPerPly is at most 1 with the position protocol,
	// which evaluates each position once, and 2 with the thesis protocol.
	Evaluations int     `json:"evaluations"`
	JudgedPlies int     `json:"judged_plies"`
	EvalsPerPly float64 `json:"evals_per_ply"`
}

// Versions identifies the software that produced the results.
type Versions struct {
	// Arena is the commit of the arena that wrote the summary
	// (version.Stamp: the full hash, +dirty for a modified work tree).
	// ArenaCommits lists, when the run's games were played by more than
	// one (a resume or shards by another build), every commit in the
	// order its first game was committed; "unknown" for games that
	// recorded none.
	Arena        string            `json:"arena"`
	ArenaCommits []string          `json:"arena_commits,omitempty"`
	Go           string            `json:"go"`
	OS           string            `json:"os"`
	Engines      map[string]string `json:"engines"` // name -> UCI id name
	Judge        string            `json:"judge,omitempty"`
}

// EngineSummary aggregates one engine over all its games. Averages are per
// move over every recorded move the engine searched (its own book's moves
// are left out, as the openings' plies are); ACPL and accuracy come from
// the tracker (ACPL pooled over all judged moves, accuracy the mean of the
// per-game accuracies).
type EngineSummary struct {
	Name     string  `json:"name"`
	Engine   string  `json:"engine"` // built-in engine name or "uci"
	Command  string  `json:"command,omitempty"`
	ID       string  `json:"id,omitempty"`
	Limits   string  `json:"limits"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Points   float64 `json:"points"`
	ScorePct float64 `json:"score_pct"`
	Moves    int     `json:"moves"`
	// BookMoves are the moves played from the engine's own book, which
	// Moves and every average leave out; Ponderhits the moves searched
	// from a ponderhit.
	BookMoves  int `json:"book_moves,omitempty"`
	Ponderhits int `json:"ponderhits,omitempty"`
	// Overruns counts the moves played past their time limit by more than
	// the time margin, which only time_forfeit off plays: each would have
	// lost the game on time. MaxOverrun is the largest overrun of any
	// move played (see MoveRecord.Overrun), in seconds.
	Overruns   int     `json:"overruns,omitempty"`
	MaxOverrun float64 `json:"max_overrun_s,omitempty"`

	AvgTime  float64 `json:"avg_time_s"`
	MaxTime  float64 `json:"max_time_s"`
	AvgNodes float64 `json:"avg_nodes"`
	// MedianTime and MedianNodes are per move (see medianSketch).
	MedianTime  float64 `json:"median_time_s"`
	MedianNodes float64 `json:"median_nodes"`
	NPS         float64 `json:"nps"`
	// AvgDepth and AvgSelDep are over the moves without a mate score;
	// MateMoves counts the moves left out (see engineAcc).
	AvgDepth  float64 `json:"avg_depth"`
	MateMoves int     `json:"mate_moves"`
	AvgSelDep float64 `json:"avg_seldepth"`
	// AvgRAMMB is the mean over the engine's moves of its process's peak
	// RSS after the move; PeakRSSMB the highest peak RSS of any of its
	// processes (a restarted engine starts a new process).
	AvgRAMMB  float64 `json:"avg_ram_mb"`
	PeakRSSMB float64 `json:"peak_rss_mb"`
	// ACPL and Accuracy are nil when no move of the engine was judged.
	ACPL     *float64             `json:"acpl"`
	Accuracy *float64             `json:"accuracy"`
	Judge    *tracker.PlayerStats `json:"judge,omitempty"`
	Errors   ErrorCounts          `json:"errors"`
}

// ErrorCounts counts the games an engine lost by failing.
type ErrorCounts struct {
	TimeForfeits int `json:"time_forfeits"`
	IllegalMoves int `json:"illegal_moves"` // including no move
	Crashes      int `json:"crashes"`       // crashed or failed engine (Termination "abandoned")
}

// PairSummary is the head-to-head result of two engines.
type PairSummary struct {
	A   string            `json:"a"`
	B   string            `json:"b"`
	Elo tracker.EloResult `json:"elo"` // from A's side
	// Penta is the statistics of the complete game pairs (pentanomial
	// counts from A's side); absent without pairs.
	Penta *tracker.PentaResult `json:"penta,omitempty"`
}

// GameSummary is one game in summary.json.
type GameSummary struct {
	Game          int      `json:"game"`
	Pair          int      `json:"pair,omitempty"` // game pair (see GameRecord.Pair)
	White         string   `json:"white"`
	Black         string   `json:"black"`
	Opening       string   `json:"opening,omitempty"`
	Result        string   `json:"result"`
	Termination   string   `json:"termination"`
	Reason        string   `json:"reason"`
	Plies         int      `json:"plies"`
	Duration      float64  `json:"duration_s"`
	WhiteACPL     *float64 `json:"white_acpl"`
	BlackACPL     *float64 `json:"black_acpl"`
	WhiteAccuracy *float64 `json:"white_accuracy"`
	BlackAccuracy *float64 `json:"black_accuracy"`
	JudgeError    string   `json:"judge_error,omitempty"`
	LLR           *float64 `json:"llr,omitempty"` // the SPRT's LLR after this game
}
