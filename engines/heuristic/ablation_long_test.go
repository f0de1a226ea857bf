//go:build long

package heuristic

import (
	"regexp"
	"testing"
)

// The depth-10 column of docs/ablation.md's fixed-depth table (make
// test-long; TestAblationNodeTable checks the depth-8 column).
func TestAblationNodeTableDepth10(t *testing.T) {
	checkNodeTable(t, 1)
}

// "the default preset (the thesis core, no technique) N nodes,
// `preset=thesis` M": the depth-8 baselines the 1/100 claim divides by.
func TestAblationBaselines(t *testing.T) {
	doc, _ := ablationRows(t)
	baselines := regexp.MustCompile("default preset \\(the thesis core, no technique\\)\\s+([\\d,]+) nodes, `preset=thesis` ([\\d,]+)").FindStringSubmatch(doc)
	if baselines == nil {
		t.Fatal("docs/ablation.md: the depth-8 baselines of the default preset and preset=thesis are missing")
	}
	for i, opts := range []map[string]string{{}, {"preset": "thesis"}} {
		if got, want := benchNodes(t, newEngine(t, opts), 8), number(t, baselines[1+i]); got != want {
			t.Errorf("docs/ablation.md: %v searches %d nodes to depth 8, the text says %d", opts, got, want)
		}
	}
}
