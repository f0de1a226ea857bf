package report

import (
	"encoding/json"
	"fmt"
)

// RejudgePattern names the re-judgings of a run kept in its directory:
// `arena analyze RUN --protocol P --depth D --out RUN/judge-P.json` judges
// the run's games again (docs/judge.md), so one set of games carries the
// ACPL of both judge protocols, which a report can show side by side.
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
		WhiteStats RejudgeStats `json:"white_stats"`
		BlackStats RejudgeStats `json:"black_stats"`
	} `json:"games"`
}

type RejudgeStats struct {
	Moves  int     `json:"moves"`
	CPLSum float64 `json:"cpl_sum"`
}

// Label names the judging: "thesis protocol, depth 12".
func (j *Rejudge) Label() string {
	return fmt.Sprintf("%s protocol, depth %d", j.Judge.Protocol, j.Judge.Depth)
}

// loadRejudges reads the run directory's re-judgings, in file name order,
// each stored plain or gzipped (judge-P.json.gz, a twentieth of the size).
func loadRejudges(dir string) ([]*Rejudge, error) {
	files, err := globRunFiles(dir, RejudgePattern)
	if err != nil {
		return nil, err
	}
	var out []*Rejudge
	for _, f := range files {
		data, f, err := readRunFile(f)
		if err != nil {
			return nil, err
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
