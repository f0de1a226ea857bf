package report

import (
	"os"
	"path/filepath"
	"testing"

	arep "arena/arena/report"
)

// docs/reproduction.md is what the generator makes of the committed runs
// today: a change to the report code or to thesis-tables.yaml without
// regenerating it (make reproduce, or go run ./studies/thesis/cmd/thesis-report
// --out docs/reproduction.md results/thesis/*) fails here.
func TestReproductionDocIsGenerated(t *testing.T) {
	t.Chdir("../../..")
	var dirs []string
	for _, set := range []string{"compute", "compute-more", "faithful", "time"} {
		dirs = append(dirs, filepath.Join(ResultsDir, set))
	}
	runs, err := arep.Load(dirs...)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "reproduction.md")
	if err := WriteReproduction(runs, file); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("docs", "reproduction.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(doc) {
		t.Errorf("docs/reproduction.md is not what the generator writes from %v: regenerate it (make reproduce-fast resumes the runs and does)", dirs)
	}
}
