package report

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// RejudgePattern names the re-judgings of a run kept in its directory:
// `arena analyze RUN --protocol P --depth D --out RUN/judge-P.json` judges
// the run's games again (docs/judge.md), so one set of games carries the
// ACPL of both judge protocols, and the thesis comparison shows them side
// by side.
const RejudgePattern = "judge-*.json"

// Rejudge is one re-judging of a run's games: the parts of arena analyze's
// JSON report the comparison uses.
type Rejudge struct {
	File  string `json:"-"`
	Judge struct {
		Protocol string `json:"protocol"`
		Depth    int    `json:"depth"`
	} `json:"judge"`
	Games []struct {
		White      string       `json:"white"`
		Black      string       `json:"black"`
		WhiteStats rejudgeStats `json:"white_stats"`
		BlackStats rejudgeStats `json:"black_stats"`
	} `json:"games"`
}

type rejudgeStats struct {
	Moves  int     `json:"moves"`
	CPLSum float64 `json:"cpl_sum"`
}

// Label names the judging: "thesis protocol, depth 12".
func (j *Rejudge) Label() string {
	return fmt.Sprintf("%s protocol, depth %d", j.Judge.Protocol, j.Judge.Depth)
}

// loadRejudges reads the run directory's re-judgings, in file name order.
func loadRejudges(dir string) ([]*Rejudge, error) {
	files, err := filepath.Glob(filepath.Join(dir, RejudgePattern))
	if err != nil {
		return nil, err
	}
	var out []*Rejudge
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, unwrapPath(err))
		}
		j := &Rejudge{File: f}
		if err := json.Unmarshal(data, j); err != nil {
			return nil, fmt.Errorf("%s: %v (expected the JSON report of arena analyze --out)", f, err)
		}
		if j.Judge.Protocol == "" || j.Judge.Depth == 0 {
			return nil, fmt.Errorf("%s: no judge protocol and depth (expected the JSON report of arena analyze --out)", f)
		}
		out = append(out, j)
	}
	return out, nil
}

// rejudgeLabels are the judgings of a variant's runs other than the one
// made during the games, sorted.
func rejudgeLabels(v *variant) []string {
	var labels []string
	for _, s := range v.settings {
		for _, r := range s.runs {
			for _, j := range r.Rejudges {
				labels = append(labels, j.Label())
			}
		}
	}
	slices.Sort(labels)
	return slices.Compact(labels)
}

// rejudgedClusters are the engine's games at the setting as judged by the
// judging labelled label, over the runs that have it.
func rejudgedClusters(s *setting, name, label string) []clusterSum {
	var games []clusterSum
	for _, r := range s.runs {
		for _, j := range r.Rejudges {
			if j.Label() != label {
				continue
			}
			for _, g := range j.Games {
				switch name {
				case g.White:
					games = append(games, clusterSum{g.WhiteStats.CPLSum, float64(g.WhiteStats.Moves)})
				case g.Black:
					games = append(games, clusterSum{g.BlackStats.CPLSum, float64(g.BlackStats.Moves)})
				}
			}
		}
	}
	return games
}

// rejudgedACPL is the engine's ACPL at the setting by the judging labelled
// label, pooled over the runs that have it, with its 95% interval (games as
// clusters, as statsOf); "–" when no run has it.
func rejudgedACPL(s *setting, name, label string) string {
	acpl, half := ratioInterval(rejudgedClusters(s, name, label))
	if math.IsNaN(acpl) {
		return "–"
	}
	if math.IsNaN(half) {
		return fmt.Sprintf("%.0f", acpl)
	}
	return fmt.Sprintf("%.0f ± %.0f", acpl, half)
}

// rejudgeColumns are the comparison table's extra columns: per judging,
// both engines' ACPL (ours only).
func rejudgeColumns(v *variant) (header []string, cells func(s *setting) []string) {
	labels := rejudgeLabels(v)
	for _, l := range labels {
		header = append(header, "Heur ACPL, "+l+" (ours)", v.exp.Label+" ACPL, "+l+" (ours)")
	}
	return header, func(s *setting) []string {
		var out []string
		for _, l := range labels {
			if s == nil {
				out = append(out, "–", "–")
				continue
			}
			out = append(out, rejudgedACPL(s, s.heur.Name, l), rejudgedACPL(s, s.opp.Name, l))
		}
		return out
	}
}

// judgeNote says which judgings the table shows.
func judgeNote(v *variant) string {
	labels := rejudgeLabels(v)
	if len(labels) == 0 {
		return ""
	}
	return fmt.Sprintf("Judges: the ACPL columns are the judge's during the games; the games were judged again (%s), in the last columns. The thesis's protocol searches every position twice in one warm Stockfish with the game's history; the position protocol once, cold.", strings.Join(labels, "; "))
}
