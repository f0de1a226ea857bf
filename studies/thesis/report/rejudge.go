package report

import (
	"fmt"
	"slices"
	"strings"

	"arena/tracker"
)

// The re-judgings of a run (arena report's Rejudge, RUN/judge-P.json) in the
// comparison: per setting, both engines' ACPL by each judging beside the
// games' own judge's.

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

// rejudgedClusters are the engine's distinct games at the setting as judged
// by the judging labelled label, over the runs that have it. A re-judging
// lists the run's games in their order, so its i-th game is the summary's.
func rejudgedClusters(s *setting, name, label string) []tracker.Cluster {
	var games []tracker.Cluster
	for _, r := range s.runs {
		for _, j := range r.Rejudges {
			if j.Label() != label {
				continue
			}
			for i, g := range j.Games {
				if i < len(r.Summary.Games) && !s.first[gameRef{r, r.Summary.Games[i].Game}] {
					continue
				}
				switch name {
				case g.White:
					games = append(games, tracker.Cluster{Sum: g.WhiteStats.CPLSum, N: float64(g.WhiteStats.Moves)})
				case g.Black:
					games = append(games, tracker.Cluster{Sum: g.BlackStats.CPLSum, N: float64(g.BlackStats.Moves)})
				}
			}
		}
	}
	return games
}

// rejudgedACPL is the engine's ACPL at the setting by the judging labelled
// label, pooled over the runs that have it, with its 95% t interval (games
// as clusters, as statsOf); "–" when no run has it.
func rejudgedACPL(s *setting, name, label string) string {
	return fmtEstimate(tracker.Ratio(rejudgedClusters(s, name, label)), 0)
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
