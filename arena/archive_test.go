package arena

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"arena/arena/output"
)

// A resumed run whose log was archived (arena archive --drop pv) stores it
// in columns again when it ends, its new games without PVs too; a finished
// one is left as it was.
func TestResumeKeepsTheArchive(t *testing.T) {
	cfg := fakeMatch(t, 4)
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(t.Context(), cfg, Options{Binary: arenaBin, OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	games := filepath.Join(dir, output.GamesFile)
	data, err := os.ReadFile(games)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"pv":`)) {
		t.Fatal("the fake engine's games have no PVs: nothing to drop")
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if err := os.WriteFile(games, bytes.Join(lines[:2], nil), 0o644); err != nil { // games 3 and 4 to play again
		t.Fatal(err)
	}
	if err := Archive(dir, []string{"pv"}, os.Stderr); err != nil {
		t.Fatal(err)
	}
	for round, want := range []int{4, 4} { // the resume plays 2 games; the next has none to play
		sum, err := Resume(t.Context(), dir, Options{Binary: arenaBin})
		if err != nil || sum.GamesPlayed != want {
			t.Fatalf("resume %d: %v (%v)", round+1, err, sum)
		}
		if found, _ := output.Locate(games); found != games+output.ColumnsExt {
			t.Fatalf("resume %d: the log is %s, want it in columns", round+1, found)
		}
		drop, archived, err := output.Archived(dir)
		if err != nil || !archived || len(drop) != 1 || drop[0] != "pv" {
			t.Errorf("resume %d: Archived = %v, %v, %v", round+1, drop, archived, err)
		}
		recs, err := output.ReadGames(games)
		if err != nil || len(recs) != 4 {
			t.Fatalf("resume %d: %d games, %v", round+1, len(recs), err)
		}
		for _, g := range recs {
			for _, m := range g.Moves {
				if m.PV != nil {
					t.Fatalf("resume %d: game %d ply %d has a PV", round+1, g.Game, m.Ply)
				}
			}
		}
	}
}
