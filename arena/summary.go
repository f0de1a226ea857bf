package arena

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"arena/arena/config"
	"arena/internal/atomicfile"
	"arena/tracker"
)

// JudgeTiming is when the judge works; it never runs while an engine thinks.
const JudgeTiming = "after each game"

// Summary is summary.json: the match's aggregates, rewritten after every game.
type Summary struct {
	Name     string    `json:"name"`
	RunDir   string    `json:"run_dir"`
	Started  time.Time `json:"started"`
	Updated  time.Time `json:"updated"`
	Format   string    `json:"format"` // match, round-robin or gauntlet
	Complete bool      `json:"complete"`
	// Stopped says why a complete match ended before its schedule (an
	// SPRT decided); empty otherwise.
	Stopped      string `json:"stopped,omitempty"`
	GamesPlanned int    `json:"games_planned"`
	GamesPlayed  int    `json:"games_played"`
	MaxMoves     int    `json:"max_moves"`
	TimeMargin   string `json:"time_margin"`
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
	// Crosstable is every scheduled pairing's W-D-L (0-0-0 until played).
	Crosstable *Crosstable `json:"crosstable"`
	// Ratings is the maximum-likelihood fit of all games, the anchor at 0
	// (null before the first game); RatingsError says why a fit failed.
	Ratings      *tracker.Ratings `json:"ratings"`
	RatingsError string           `json:"ratings_error,omitempty"`
	// SPRT is the test's state when the config has sprt:.
	SPRT *SPRTSummary `json:"sprt,omitempty"`
	// ConfigHash is the SHA-256 of the resolved config (ConfigHash), by
	// which arena merge knows shards of one run.
	ConfigHash string `json:"config_sha256,omitempty"`
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
	Throughput *Throughput   `json:"throughput,omitempty"`
	Games      []GameSummary `json:"games"`
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
	Arena   string            `json:"arena"`
	Go      string            `json:"go"`
	OS      string            `json:"os"`
	Engines map[string]string `json:"engines"` // name -> UCI id name
	Judge   string            `json:"judge,omitempty"`
}

// EngineSummary aggregates one engine over all its games. Averages are per
// move over every recorded move; ACPL and accuracy come from the tracker
// (ACPL pooled over all judged moves, accuracy the mean of the per-game
// accuracies).
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

// arenaVersion is the module version or VCS revision the binary was built from.
func arenaVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			v = s.Value
			if len(v) > 12 {
				v = v[:12]
			}
		}
		if s.Key == "vcs.modified" && s.Value == "true" {
			v += "+dirty"
		}
	}
	return v
}

func ptr[T any](v T) *T { return &v }

// writeSummaryFiles replaces dir's summary.json and summary.md.
func writeSummaryFiles(dir string, cfg *config.Config, s *Summary) error {
	js, err := s.JSON()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, SummaryJSON), js); err != nil {
		return fmt.Errorf("write %s: %w", SummaryJSON, err)
	}
	md, err := s.Markdown(cfg)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, SummaryMD), md); err != nil {
		return fmt.Errorf("write %s: %w", SummaryMD, err)
	}
	return nil
}

// JSON returns summary.json's content.
func (s *Summary) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

var tableHeader = []string{"Engine", "Games", "Wins", "Draws", "Losses", "Score %", "Avg Time (s)", "Median Time (s)",
	"Avg Nodes", "Median Nodes", "Avg Depth", "Avg RAM (MB)", "Avg ACPL", "Accuracy"}

func (s *Summary) tableRows() [][]string {
	var rows [][]string
	for _, e := range s.Engines {
		rows = append(rows, []string{
			e.Name, fmt.Sprint(e.Games), fmt.Sprint(e.Wins), fmt.Sprint(e.Draws), fmt.Sprint(e.Losses),
			fmt.Sprintf("%.1f", e.ScorePct), fmt.Sprintf("%.3f", e.AvgTime), fmt.Sprintf("%.3f", e.MedianTime),
			fmt.Sprintf("%.0f", e.AvgNodes), fmt.Sprintf("%.0f", e.MedianNodes),
			fmt.Sprintf("%.1f", e.AvgDepth), fmt.Sprintf("%.1f", e.AvgRAMMB), fmtOpt(e.ACPL, "%.1f"), fmtOpt(e.Accuracy, "%.1f"),
		})
	}
	return rows
}

func fmtOpt(p *float64, format string) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf(format, *p)
}

// renderTable prints a table: boxed for the terminal, or in Markdown.
// Columns from rightFrom on are right-aligned.
func renderTable(w io.Writer, markdown bool, header []string, rows [][]string, rightFromCol int) error {
	opts := []tablewriter.Option{tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: rightFrom(rightFromCol, len(header))})}
	if markdown {
		opts = append(opts, tablewriter.WithRenderer(renderer.NewMarkdown()))
	}
	t := tablewriter.NewTable(w, opts...)
	t.Header(toAny(header)...)
	if err := t.Bulk(rows); err != nil {
		return err
	}
	return t.Render()
}

// WriteTable prints the results table and, per pairing, the Elo difference
// with its 95% interval and the likelihood of superiority (and the same from
// the game pairs); for more than two engines the crosstable and the rating
// table; and the SPRT's state.
func (s *Summary) WriteTable(w io.Writer) error {
	return s.writeResults(w, false)
}

// writeResults writes what WriteTable prints, or its Markdown version.
func (s *Summary) writeResults(w io.Writer, markdown bool) error {
	bullet := ""
	if markdown {
		bullet = "- "
	}
	if err := renderTable(w, markdown, tableHeader, s.tableRows(), 1); err != nil {
		return err
	}
	if markdown && len(s.Pairs) > 0 {
		fmt.Fprintln(w)
	}
	for _, p := range s.Pairs {
		fmt.Fprintf(w, "%s%s\n", bullet, p.eloLine())
		if p.Penta != nil {
			fmt.Fprintf(w, "%s%s\n", bullet, p.pentaLine())
		}
	}
	if len(s.Engines) > 2 && s.Crosstable != nil {
		fmt.Fprintf(w, "\nCrosstable (points/games (+wins =draws -losses) of the row engine):\n")
		if markdown {
			fmt.Fprintln(w)
		}
		if err := renderTable(w, markdown, s.Crosstable.header(), s.Crosstable.rows(), 1); err != nil {
			return err
		}
	}
	if len(s.Engines) > 2 && s.Ratings != nil {
		fit := "maximum likelihood"
		if s.Ratings.Prior > 0 {
			// The results alone leave a rating unbounded (someone won or lost every game).
			fit = fmt.Sprintf("maximum a posteriori with %d virtual draws per pairing", s.Ratings.Prior)
		}
		fmt.Fprintf(w, "\nRatings (%s over all games, %s = 0; ± is half the 95%% interval):\n", fit, s.Ratings.Anchor)
		if markdown {
			fmt.Fprintln(w)
		}
		if err := renderTable(w, markdown, ratingsHeader, ratingRows(s.Ratings), 2); err != nil {
			return err
		}
	}
	if s.RatingsError != "" {
		fmt.Fprintf(w, "%sRatings: %s\n", bullet, s.RatingsError)
	}
	if line := s.adjudicationLine(); line != "" {
		fmt.Fprintf(w, "%s%s\n", bullet, line)
	}
	if s.SPRT != nil {
		if markdown {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s%s\n", bullet, s.SPRT)
	}
	return nil
}

func (c *Crosstable) header() []string {
	return append(append([]string{"Engine"}, c.Engines...), "Points", "Games")
}

func (c *Crosstable) rows() [][]string {
	var rows [][]string
	for _, r := range c.Rows {
		row := []string{r.Engine}
		for _, cell := range r.Cells {
			row = append(row, cell.String())
		}
		rows = append(rows, append(row, fmtPoints(r.Points), fmt.Sprint(r.Games)))
	}
	return rows
}

var ratingsHeader = []string{"Rank", "Engine", "Elo", "± 95%", "Games", "Points", "Score %"}

// ratingRows lists the ratings best first (undefined ones last).
func ratingRows(r *tracker.Ratings) [][]string {
	players := slices.Clone(r.Players)
	key := func(x tracker.Rating) float64 {
		if math.IsNaN(x.Elo) {
			return math.Inf(-1)
		}
		return x.Elo
	}
	slices.SortStableFunc(players, func(a, b tracker.Rating) int { return cmp.Compare(key(b), key(a)) })
	var rows [][]string
	for i, p := range players {
		name, margin := p.Name, "-"
		switch {
		case p.Name == r.Anchor:
			name += " (anchor)"
		case !math.IsNaN(p.SE) && !math.IsInf(p.Elo, 0) && !math.IsNaN(p.Elo):
			margin = fmt.Sprintf("%.1f", (p.High-p.Low)/2)
		}
		score := "-"
		if p.Games > 0 {
			score = fmt.Sprintf("%.1f", 100*p.Points/float64(p.Games))
		}
		rows = append(rows, []string{fmt.Sprint(i + 1), name, fmtRating(p.Elo), margin, fmt.Sprint(p.Games), fmtPoints(p.Points), score})
	}
	return rows
}

// fmtRating is an Elo value with its sign, "+inf"/"-inf" when unbounded and
// "n/a" when undefined.
func fmtRating(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	case x == 0:
		return "0"
	}
	s := fmt.Sprintf("%+.1f", x)
	if s == "-0.0" {
		s = "+0.0"
	}
	return s
}

func rightFrom(first, n int) []tw.Align {
	a := make([]tw.Align, n)
	for i := range a {
		a[i] = tw.AlignLeft
		if i >= first {
			a[i] = tw.AlignRight
		}
	}
	return a
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// eloLine is "A vs B: +3 -1 =2, Elo +88.7 [-39.4, +248.7] LOS 90.2% draws
// 33.3% (6 games)": the Elo difference of A over B with its 95% interval.
func (p PairSummary) eloLine() string {
	r := p.Elo
	return fmt.Sprintf("%s vs %s: +%d -%d =%d, %s", p.A, p.B, r.Wins, r.Losses, r.Draws, r)
}

// pentaLine is the same from the game pairs: "A vs B pairs: LL 0, LD 1,
// DD+WL 2, WD 1, WW 0, Elo +0.0 [-97.3, +97.3] LOS 50.0% (4 pairs)".
func (p PairSummary) pentaLine() string {
	c := p.Penta.Counts
	return fmt.Sprintf("%s vs %s pairs: LL %d, LD %d, DD+WL %d, WD %d, WW %d, %s", p.A, p.B, c.LL, c.LD, c.DD, c.WD, c.WW, p.Penta)
}

// writeMarkdownRow writes one Markdown table row; "|" in a cell becomes "/".
func writeMarkdownRow(b *bytes.Buffer, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" ")
		b.WriteString(strings.ReplaceAll(c, "|", "/"))
		b.WriteString(" |")
	}
	b.WriteString("\n")
}

// Markdown returns summary.md: the configuration, the results table, the
// pairings' Elo and one line per game.
func (s *Summary) Markdown(cfg *config.Config) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n", s.Name)
	fmt.Fprintf(&b, "```\n")
	writeMatchConfig(&b, cfg, s.Started, s.GamesPlanned, s.RunDir)
	fmt.Fprintf(&b, "```\n\n")
	status := "complete"
	if !s.Complete {
		status = "in progress or interrupted"
	}
	fmt.Fprintf(&b, "%d of %d games played (%s); updated %s.\n\n", s.GamesPlayed, s.GamesPlanned, status, s.Updated.Format(time.RFC3339))
	if s.Stopped != "" {
		fmt.Fprintf(&b, "Stopped early: %s.\n\n", s.Stopped)
	}
	if err := s.writeResults(&b, true); err != nil {
		return nil, err
	}
	b.WriteString("\n")
	b.WriteString("## Games\n\n")
	// One row per game, written directly: tablewriter pads every column
	// to its widest cell, which for a long run costs a hundred times the
	// table's size in allocations on every rewrite.
	header := []string{"Game", "Pair", "White", "Black", "Opening", "Result", "Termination", "Reason", "Plies", "White ACPL", "Black ACPL"}
	if s.SPRT != nil {
		header = append(header, "LLR")
	}
	writeMarkdownRow(&b, header)
	for i := range header {
		if i == 0 {
			b.WriteString("|")
		}
		b.WriteString("---|")
	}
	b.WriteString("\n")
	row := make([]string, 0, len(header))
	for _, g := range s.Games {
		pair := "-"
		if g.Pair > 0 {
			pair = strconv.Itoa(g.Pair)
		}
		row = append(row[:0], strconv.Itoa(g.Game), pair, g.White, g.Black, g.Opening, g.Result, g.Termination,
			g.Reason, strconv.Itoa(g.Plies), fmtOpt(g.WhiteACPL, "%.1f"), fmtOpt(g.BlackACPL, "%.1f"))
		if s.SPRT != nil {
			row = append(row, fmtLLR(g.LLR))
		}
		writeMarkdownRow(&b, row)
	}
	return b.Bytes(), nil
}

// adjudicationLine says how many games the adjudication rules ended
// ("Adjudicated: 3 of 10 games (2 draw, 1 resign)"); "" when none.
func (s *Summary) adjudicationLine() string {
	total := 0
	var parts []string
	for _, rule := range []string{config.AdjudicateDraw, config.AdjudicateResign, config.AdjudicateMaxMoves} {
		if n := s.Adjudications[rule]; n > 0 {
			total += n
			parts = append(parts, fmt.Sprintf("%d %s", n, rule))
		}
	}
	if total == 0 {
		return ""
	}
	return fmt.Sprintf("Adjudicated: %d of %d games (%s)", total, s.GamesPlayed, strings.Join(parts, ", "))
}
