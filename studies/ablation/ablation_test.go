package ablation

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	arep "arena/arena/report"
	"arena/tracker"
)

// The ablation table of docs/ablation.md says what the committed runs under
// results/ablation/ hold: each row's Elo and interval is its run's
// pentanomial estimate (Strong's, the first engine's), its W-L-D the run's,
// its game count the games played, its Holm p the adjusted p-value of the
// rows played as one family; a config not yet played has no run. Its
// nodes at depth 8 and time to depth 10 are those of the fixed-depth table
// above it (which TestAblationNodeTable in engines/heuristic checks against
// the search). Every config in studies/ablation/configs/no-*.yaml has its row.
func TestAblationDocMatchesResults(t *testing.T) {
	t.Chdir("../..")
	doc, err := os.ReadFile("docs/ablation.md")
	if err != nil {
		t.Fatal(err)
	}
	// | `X` | nodes at depth 8 | nodes at depth 10 | CPU s to depth 10 | time to depth 10 vs strong |
	fixed := map[string][]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| `(\\w+)` \\|([^|]*)\\|[^|]*\\|[^|]*\\|([^|]*)\\|$").FindAllStringSubmatch(string(doc), -1) {
		fixed["no-"+m[1]] = []string{strings.TrimSpace(m[2]), strings.TrimSpace(m[3])}
	}
	row := regexp.MustCompile("(?m)^\\| `(\\w+)` \\(`(no-\\w+)\\.yaml`\\) \\|([^|]*)\\|([^|]*)\\|([^|]*)\\|([^|]*)\\|([^|]*)\\|([^|]*)\\|$")
	rows := map[string][]string{}
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		if m[2] != "no-"+m[1] {
			t.Errorf("row %q names config %s", m[1], m[2])
		}
		var cols []string
		for _, c := range m[3:] {
			cols = append(cols, strings.TrimSpace(c))
		}
		rows[m[2]] = cols
		if f, ok := fixed[m[2]]; !ok {
			t.Errorf("docs/ablation.md: %s has no row in the fixed-depth table", m[1])
		} else if cols[0] != f[0] || cols[1] != f[1] {
			t.Errorf("docs/ablation.md: %s: nodes at depth 8 %q and time to depth 10 %q, the fixed-depth table says %q and %q",
				m[1], cols[0], cols[1], f[0], f[1])
		}
	}
	// The rows played form one family: their Holm-adjusted p-values are
	// printed beside them.
	type docP struct {
		name, doc string
		p         float64
	}
	var family []docP
	configs, err := filepath.Glob("studies/ablation/configs/no-*.yaml")
	if err != nil || len(configs) == 0 {
		t.Fatalf("no ablation configs: %v", err)
	}
	for _, c := range configs {
		name := strings.TrimSuffix(filepath.Base(c), ".yaml")
		cols, ok := rows[name]
		if !ok {
			t.Errorf("docs/ablation.md has no row for %s", c)
			continue
		}
		delete(rows, name)
		elo, wld, games, holm := cols[2], cols[3], cols[4], cols[5]
		dir := filepath.Join("results", "ablation", name)
		if _, err := os.Stat(filepath.Join(dir, "summary.json")); os.IsNotExist(err) {
			if elo != "not played yet" || wld != "" || !strings.HasPrefix(games, "0 of ") {
				t.Errorf("%s: no run in %s, but the row says %q | %q | %q", name, dir, elo, wld, games)
			}
			continue
		}
		sum, err := arep.LoadSummary(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(sum.Pairs) != 1 || sum.Pairs[0].Penta == nil || sum.Pairs[0].A != "Strong" {
			t.Fatalf("%s: want one pairing of Strong with game pairs, have %+v", dir, sum.Pairs)
		}
		p := sum.Pairs[0]
		want := "**" + p.Penta.Estimate() + "**"
		wantGames := thousands(float64(sum.GamesPlayed))
		if !sum.Complete {
			want = "so far " + p.Penta.Estimate()
			wantGames += " of " + thousands(float64(sum.GamesPlanned)) + " (resumable)"
		}
		if elo != want {
			t.Errorf("%s: Elo %q, the run's pairs say %q", name, elo, want)
		}
		if w := fmt.Sprintf("+%d -%d =%d", p.Elo.Wins, p.Elo.Losses, p.Elo.Draws); wld != w {
			t.Errorf("%s: W-L-D %q, the run has %q", name, wld, w)
		}
		if games != wantGames {
			t.Errorf("%s: games %q, the run has %q", name, games, wantGames)
		}
		// The row's two-sided p from the pairs' LOS (the normal
		// approximation of the interval), for Holm over the family.
		family = append(family, docP{name, holm, 2 * math.Min(p.Penta.LOS, 1-p.Penta.LOS)})
	}
	ps := make([]float64, len(family))
	for i, f := range family {
		ps[i] = f.p
	}
	for i, adj := range tracker.Holm(ps) {
		if want := fmtP(adj); family[i].doc != want {
			t.Errorf("%s: Holm p %q, the runs give %s (p %.3g alone, %d rows)", family[i].name, family[i].doc, want, family[i].p, len(family))
		}
	}
	for name := range rows {
		t.Errorf("docs/ablation.md has a row for %s, which has no config", name)
	}
}

// thousands writes a count with comma separators, as the document does.
func thousands(n float64) string {
	s := fmt.Sprintf("%.0f", n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// fmtP writes a p-value as the document does: two significant digits,
// "<0.001" below that.
func fmtP(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return strconv.FormatFloat(p, 'g', 2, 64)
}
