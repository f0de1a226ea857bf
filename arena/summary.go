package arena

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

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
	Stopped      string          `json:"stopped,omitempty"`
	GamesPlanned int             `json:"games_planned"`
	GamesPlayed  int             `json:"games_played"`
	MaxMoves     int             `json:"max_moves"`
	TimeMargin   string          `json:"time_margin"`
	Openings     string          `json:"openings,omitempty"`
	GamePairs    bool            `json:"game_pairs"` // the config's pairs: games 2k-1 and 2k of a pairing share an opening
	Judge        JudgeSummary    `json:"judge"`
	Versions     Versions        `json:"versions"`
	Engines      []EngineSummary `json:"engines"`
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
	SPRT  *SPRTSummary  `json:"sprt,omitempty"`
	Games []GameSummary `json:"games"`
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
	Name      string  `json:"name"`
	Engine    string  `json:"engine"` // built-in engine name or "uci"
	Command   string  `json:"command,omitempty"`
	ID        string  `json:"id,omitempty"`
	Limits    string  `json:"limits"`
	Games     int     `json:"games"`
	Wins      int     `json:"wins"`
	Draws     int     `json:"draws"`
	Losses    int     `json:"losses"`
	Points    float64 `json:"points"`
	ScorePct  float64 `json:"score_pct"`
	Moves     int     `json:"moves"`
	AvgTime   float64 `json:"avg_time_s"`
	MaxTime   float64 `json:"max_time_s"`
	AvgNodes  float64 `json:"avg_nodes"`
	NPS       float64 `json:"nps"`
	AvgDepth  float64 `json:"avg_depth"`
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

// summarize aggregates the finished games.
func summarize(cfg *Config, dir string, started time.Time, planned int, games []*GameRecord, ids map[string]string, judgeID string) *Summary {
	s := &Summary{
		Name:         cfg.Name,
		RunDir:       dir,
		Started:      started,
		Updated:      time.Now().UTC().Truncate(time.Second),
		Format:       cfg.format(),
		Complete:     len(games) >= planned,
		GamePairs:    cfg.Pairs,
		GamesPlanned: planned,
		GamesPlayed:  len(games),
		MaxMoves:     cfg.MaxMoves,
		TimeMargin:   cfg.TimeMargin.String(),
		Judge:        JudgeSummary{Enabled: !cfg.Judge.Off},
		Versions: Versions{
			Arena:   arenaVersion(),
			Go:      runtime.Version(),
			OS:      runtime.GOOS + "/" + runtime.GOARCH,
			Engines: map[string]string{},
			Judge:   judgeID,
		},
		Games: []GameSummary{},
		Pairs: []PairSummary{},
	}
	if cfg.Openings != nil {
		s.Openings = cfg.Openings.File
	}
	if !cfg.Judge.Off {
		s.Judge = JudgeSummary{Enabled: true, Engine: cfg.Judge.Command, Depth: cfg.Judge.Depth,
			Cap: cfg.Judge.Cap, MateScore: cfg.Judge.MateScore, Timing: JudgeTiming, Protocol: cfg.Judge.Protocol}
	}
	index := map[string]int{}
	type acc struct {
		time, nodes, depth, sel, ram float64
		judge                        tracker.PlayerStats
		judged                       bool
	}
	sums := make([]acc, len(cfg.Engines))
	for i, e := range cfg.Engines {
		index[e.Name] = i
		s.Engines = append(s.Engines, EngineSummary{Name: e.Name, Engine: e.Engine, Command: e.Command,
			ID: ids[e.Name], Limits: e.Limits.String()})
		if id := ids[e.Name]; id != "" {
			s.Versions.Engines[e.Name] = id
		}
	}
	type pairKey = [2]int
	wdl := map[pairKey]*[3]int{}
	penta := map[pairKey]*tracker.Penta{}
	open := map[int]*GameRecord{} // first game of each game pair not yet complete
	var pairOrder []pairKey
	for _, g := range games {
		w, b := index[g.White], index[g.Black]
		for _, id := range []struct{ name, id string }{{g.White, g.WhiteID}, {g.Black, g.BlackID}} {
			if id.id != "" && s.Versions.Engines[id.name] == "" {
				s.Versions.Engines[id.name] = id.id
				s.Engines[index[id.name]].ID = id.id
			}
		}
		gs := GameSummary{Game: g.Game, Pair: g.Pair, White: g.White, Black: g.Black, Opening: g.Opening, Result: g.Result,
			Termination: g.Termination, Reason: g.Reason, Plies: g.Plies, Duration: g.Duration, JudgeError: g.JudgeError, LLR: g.LLR}
		if g.WhiteStats != nil && g.WhiteStats.Moves > 0 {
			gs.WhiteACPL, gs.WhiteAccuracy = ptr(g.WhiteStats.ACPL), ptr(g.WhiteStats.Accuracy)
			sums[w].judge.Add(*g.WhiteStats)
			sums[w].judged = true
		}
		if g.BlackStats != nil && g.BlackStats.Moves > 0 {
			gs.BlackACPL, gs.BlackAccuracy = ptr(g.BlackStats.ACPL), ptr(g.BlackStats.Accuracy)
			sums[b].judge.Add(*g.BlackStats)
			sums[b].judged = true
		}
		s.Games = append(s.Games, gs)
		if g.WhiteStats != nil {
			s.Judge.Evaluations += g.JudgeEvals
			s.Judge.JudgedPlies += len(g.Moves)
		}

		winner := g.winner()
		for side, e := range []int{w, b} {
			es := &s.Engines[e]
			es.Games++
			switch {
			case winner == -1:
				es.Draws++
			case winner == side:
				es.Wins++
			default:
				es.Losses++
				switch g.Termination {
				case TermTimeForfeit:
					es.Errors.TimeForfeits++
				case TermIllegalMove:
					es.Errors.IllegalMoves++
				case TermAbandoned:
					es.Errors.Crashes++
				}
			}
		}
		k, flip := pairKey{w, b}, false
		if w > b {
			k, flip = pairKey{b, w}, true
		}
		if g.Pair != 0 {
			if prev := open[g.Pair]; prev != nil {
				if penta[k] == nil {
					penta[k] = &tracker.Penta{}
				}
				first := cfg.Engines[k[0]].Name
				// Scores are 0, 0.5 or 1, which AddPair accepts.
				_ = penta[k].AddPair(prev.score(first), g.score(first))
				delete(open, g.Pair)
			} else {
				open[g.Pair] = g
			}
		}
		if wdl[k] == nil {
			wdl[k] = &[3]int{}
			pairOrder = append(pairOrder, k)
		}
		switch {
		case winner == -1:
			wdl[k][1]++
		case (winner == 0) != flip:
			wdl[k][0]++
		default:
			wdl[k][2]++
		}
		for _, m := range g.Moves {
			i := index[m.Engine]
			es, a := &s.Engines[i], &sums[i]
			es.Moves++
			a.time += m.Time
			a.nodes += float64(m.Nodes)
			a.depth += float64(m.Depth)
			a.sel += float64(m.SelDepth)
			a.ram += m.PeakMB
			es.MaxTime = math.Max(es.MaxTime, m.Time)
			es.PeakRSSMB = math.Max(es.PeakRSSMB, m.PeakMB)
		}
	}
	for i := range s.Engines {
		es, a := &s.Engines[i], sums[i]
		es.Points = float64(es.Wins) + float64(es.Draws)/2
		if es.Games > 0 {
			es.ScorePct = 100 * es.Points / float64(es.Games)
		}
		if n := float64(es.Moves); n > 0 {
			es.AvgTime, es.AvgNodes, es.AvgDepth, es.AvgSelDep, es.AvgRAMMB = a.time/n, a.nodes/n, a.depth/n, a.sel/n, a.ram/n
		}
		if a.time > 0 {
			es.NPS = a.nodes / a.time
		}
		if a.judged {
			st := a.judge
			es.Judge = &st
			es.ACPL, es.Accuracy = ptr(st.ACPL), ptr(st.Accuracy)
		}
	}
	if s.Judge.JudgedPlies > 0 {
		s.Judge.EvalsPerPly = float64(s.Judge.Evaluations) / float64(s.Judge.JudgedPlies)
	}
	for _, k := range pairOrder {
		r := wdl[k]
		ps := PairSummary{A: cfg.Engines[k[0]].Name, B: cfg.Engines[k[1]].Name, Elo: tracker.Elo(r[0], r[1], r[2])}
		if p := penta[k]; p != nil {
			ps.Penta = ptr(tracker.EloPenta(*p))
		}
		s.Pairs = append(s.Pairs, ps)
	}
	s.Crosstable = crosstable(cfg, wdl)
	var err error
	if s.Ratings, err = fitRatings(cfg, wdl); err != nil {
		s.RatingsError = err.Error()
	}
	if s.SPRT = sprtStatus(cfg, games); s.SPRT.Decided() {
		s.Complete = true
		s.Stopped = "SPRT " + s.SPRT.Status
	}
	return s
}

func ptr[T any](v T) *T { return &v }

// JSON returns summary.json's content.
func (s *Summary) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

var tableHeader = []string{"Engine", "Games", "Wins", "Draws", "Losses", "Score %", "Avg Time (s)",
	"Avg Nodes", "Avg Depth", "Avg RAM (MB)", "Avg ACPL", "Accuracy"}

func (s *Summary) tableRows() [][]string {
	var rows [][]string
	for _, e := range s.Engines {
		rows = append(rows, []string{
			e.Name, fmt.Sprint(e.Games), fmt.Sprint(e.Wins), fmt.Sprint(e.Draws), fmt.Sprint(e.Losses),
			fmt.Sprintf("%.1f", e.ScorePct), fmt.Sprintf("%.3f", e.AvgTime), fmt.Sprintf("%.0f", e.AvgNodes),
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
		fmt.Fprintf(w, "\nRatings (maximum likelihood over all games, %s = 0; ± is half the 95%% interval):\n", s.Ratings.Anchor)
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

// Markdown returns summary.md: the configuration, the results table, the
// pairings' Elo and one line per game.
func (s *Summary) Markdown(cfg *Config) ([]byte, error) {
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
	gt := tablewriter.NewTable(&b, tablewriter.WithRenderer(renderer.NewMarkdown()), tablewriter.WithHeaderAutoFormat(tw.Off))
	header := []string{"Game", "Pair", "White", "Black", "Opening", "Result", "Termination", "Reason", "Plies", "White ACPL", "Black ACPL"}
	if s.SPRT != nil {
		header = append(header, "LLR")
	}
	gt.Header(toAny(header)...)
	for _, g := range s.Games {
		pair := "-"
		if g.Pair > 0 {
			pair = fmt.Sprint(g.Pair)
		}
		row := []string{fmt.Sprint(g.Game), pair, g.White, g.Black, strings.ReplaceAll(g.Opening, "|", "/"), g.Result, g.Termination,
			strings.ReplaceAll(g.Reason, "|", "/"), fmt.Sprint(g.Plies), fmtOpt(g.WhiteACPL, "%.1f"), fmtOpt(g.BlackACPL, "%.1f")}
		if s.SPRT != nil {
			row = append(row, fmtLLR(g.LLR))
		}
		if err := gt.Append(row); err != nil {
			return nil, err
		}
	}
	if err := gt.Render(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
