package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"arena/arena/record"
	"arena/internal/atomicfile"
)

// Files of a sweep's parent directory (each setting has a run directory of
// its own below it).
const (
	SweepJSON = "sweep.json"
	SweepMD   = "sweep.md"
)

// SweepSummary is sweep.json: the settings of a sweep, where their runs
// are, and the combined table (one row per setting and engine). It is
// written before the first game (it is what --resume reads) and rewritten
// after every setting.
type SweepSummary struct {
	Name     string    `json:"name"`
	RunDir   string    `json:"run_dir"`
	Key      string    `json:"key"`
	Started  time.Time `json:"started"`
	Updated  time.Time `json:"updated"`
	Complete bool      `json:"complete"`
	// Shard is the part of every setting's schedule this sweep plays
	// (arena run --shard); absent for a whole sweep.
	Shard    *record.Shard  `json:"shard,omitempty"`
	Settings []SweepSetting `json:"settings"`
	Rows     []SweepRow     `json:"rows"`
}

// SweepSetting is one value of the swept key and its run.
type SweepSetting struct {
	Setting      int      `json:"setting"` // 1-based
	Value        string   `json:"value"`
	X            *float64 `json:"x"`   // Value as a number (durations in seconds); null if not numeric
	Dir          string   `json:"dir"` // the setting's run directory, relative to the sweep's
	Complete     bool     `json:"complete"`
	GamesPlayed  int      `json:"games_played"`
	GamesPlanned int      `json:"games_planned"`
	Stopped      string   `json:"stopped,omitempty"`
}

// SweepRow is one engine under one setting: its summary.json aggregates.
type SweepRow struct {
	Setting  int      `json:"setting"`
	Value    string   `json:"value"`
	X        *float64 `json:"x"`
	Engine   string   `json:"engine"`
	Games    int      `json:"games"`
	Wins     int      `json:"wins"`
	Draws    int      `json:"draws"`
	Losses   int      `json:"losses"`
	Points   float64  `json:"points"`
	ScorePct float64  `json:"score_pct"`
	Moves    int      `json:"moves"`
	AvgTime  float64  `json:"avg_time_s"`
	AvgNodes float64  `json:"avg_nodes"`
	NPS      float64  `json:"nps"`
	AvgDepth float64  `json:"avg_depth"`
	AvgRAMMB float64  `json:"avg_ram_mb"`
	ACPL     *float64 `json:"acpl"`
	Accuracy *float64 `json:"accuracy"`
}

// IsSweepDir reports whether dir is the parent directory of a sweep.
func IsSweepDir(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, SweepJSON))
	return err == nil
}

// Values are the swept key's values, one a setting.
func (ss *SweepSummary) Values() []string {
	out := make([]string, len(ss.Settings))
	for i, st := range ss.Settings {
		out[i] = st.Value
	}
	return out
}

// Write replaces sweep.json and sweep.md.
func (ss *SweepSummary) Write() error {
	ss.Updated = time.Now().UTC().Truncate(time.Second)
	js, err := json.MarshalIndent(ss, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(ss.RunDir, SweepJSON), append(js, '\n')); err != nil {
		return fmt.Errorf("write %s: %w", SweepJSON, err)
	}
	md, err := ss.Markdown()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(ss.RunDir, SweepMD), md); err != nil {
		return fmt.Errorf("write %s: %w", SweepMD, err)
	}
	return nil
}

func (ss *SweepSummary) header() []string {
	return []string{ss.Key, "Engine", "Games", "W", "D", "L", "Score %", "Avg Time (s)", "Avg Nodes", "Avg Depth",
		"Avg RAM (MB)", "ACPL", "Accuracy"}
}

func (ss *SweepSummary) tableRows() [][]string {
	var rows [][]string
	for _, r := range ss.Rows {
		rows = append(rows, []string{r.Value, r.Engine, fmt.Sprint(r.Games), fmt.Sprint(r.Wins), fmt.Sprint(r.Draws),
			fmt.Sprint(r.Losses), fmt.Sprintf("%.1f", r.ScorePct), fmt.Sprintf("%.3f", r.AvgTime), fmt.Sprintf("%.0f", r.AvgNodes),
			fmt.Sprintf("%.1f", r.AvgDepth), fmt.Sprintf("%.1f", r.AvgRAMMB), FormatOpt(r.ACPL, "%.1f"), FormatOpt(r.Accuracy, "%.1f")})
	}
	return rows
}

// WriteTable prints the combined table: one row per setting and engine.
func (ss *SweepSummary) WriteTable(w io.Writer) error {
	return RenderTable(w, false, ss.header(), ss.tableRows(), 2)
}

// Markdown returns sweep.md: the combined table and each setting's run.
func (ss *SweepSummary) Markdown() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s: sweep of %s\n\n", ss.Name, ss.Key)
	status := "complete"
	if !ss.Complete {
		status = "in progress or interrupted"
	}
	fmt.Fprintf(&b, "%d settings (%s); updated %s.\n\n", len(ss.Settings), status, ss.Updated.Format(time.RFC3339))
	if err := RenderTable(&b, true, ss.header(), ss.tableRows(), 2); err != nil {
		return nil, err
	}
	b.WriteString("\n## Runs\n\n")
	for _, st := range ss.Settings {
		state := fmt.Sprintf("%d of %d games", st.GamesPlayed, st.GamesPlanned)
		if st.Stopped != "" {
			state += ", " + st.Stopped
		}
		if !st.Complete {
			state += ", not complete"
		}
		fmt.Fprintf(&b, "- %s = %s: [%s](%s/%s) (%s)\n", ss.Key, st.Value, st.Dir, st.Dir, SummaryMD, state)
	}
	return b.Bytes(), nil
}
