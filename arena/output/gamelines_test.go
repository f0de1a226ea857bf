package output

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"arena/arena/config"
	"arena/arena/record"
	_ "arena/engines/heuristic" // the built-in engines the fixtures name
	_ "arena/engines/neural"
	_ "arena/engines/random"
)

// The summary.json streamed from GameLines has the bytes of the summary
// marshalled whole, as the arena wrote it when it kept every game in
// memory (the committed fixture runs' summaries, written again from their
// own games), and summary.md has one row per game, in order, after the
// table's header.
func TestSummaryFromGameLinesIsByteIdentical(t *testing.T) {
	t.Chdir("../..") // the fixtures' configs name files from the repository's root
	runs, _ := filepath.Glob("arena/report/testdata/runs/*/summary.json")
	more, _ := filepath.Glob("arena/report/testdata/runs/*/*/summary.json")
	runs = append(runs, more...)
	if len(runs) < 4 {
		t.Fatalf("found %d fixture runs, want at least 4", len(runs))
	}
	for _, path := range runs {
		dir := filepath.Dir(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var s record.Summary
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		cfg, err := config.LoadRecorded(filepath.Join(dir, ConfigFile))
		if err != nil {
			t.Fatal(err)
		}
		whole, err := json.MarshalIndent(&s, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		whole = append(whole, '\n')
		got := rewriteSummaries(t, cfg, &s)
		if !bytes.Equal(got[0], whole) {
			t.Errorf("%s: summary.json differs from the summary marshalled whole:\n%s", dir, firstDiff(got[0], whole))
		}
		_, rows, ok := bytes.Cut(got[1], []byte("\n| Game | Pair | White | Black | Opening | Result | Termination | Reason | Plies | White ACPL | Black ACPL |\n|---|---|---|---|---|---|---|---|---|---|---|\n"))
		if !ok {
			t.Fatalf("%s: summary.md has no games table:\n%s", dir, got[1])
		}
		var want bytes.Buffer
		for _, g := range s.Games {
			writeMarkdownRow(&want, markdownGameRow(nil, g, false))
		}
		if !bytes.Equal(rows, want.Bytes()) || len(s.Games) == 0 {
			t.Errorf("%s: summary.md's %d games:\n%s\nwant:\n%s", dir, len(s.Games), rows, want.Bytes())
		}
	}
}

// With an SPRT every game carries its LLR, in summary.json and in
// summary.md's last column, and the games decode back in order.
func TestGameLinesWithLLR(t *testing.T) {
	cfg, err := config.Parse("x.yaml", []byte("judge: off\nlimits: {depth: 1}\nsprt: {elo0: 0, elo1: 10}\nengines: [{name: A, engine: random}, {name: B, engine: random}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	b := record.NewBuilder(cfg, record.RunInfo{Planned: 3})
	var games []record.GameSummary
	for i, r := range []string{"1-0", "1/2-1/2", "0-1"} {
		games = append(games, b.Add(&record.GameRecord{Game: i + 1, White: "A", Black: "B", Result: r, Termination: record.TermNormal, Reason: "x|y", Plies: 7}))
	}
	s := b.Summary()
	s.Games = games
	want, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got := rewriteSummaries(t, cfg, s)
	if !bytes.Equal(got[0], append(want, '\n')) {
		t.Errorf("summary.json differs from the summary marshalled whole:\n%s", firstDiff(got[0], append(want, '\n')))
	}
	if !bytes.Contains(got[1], []byte("| Black ACPL | LLR |\n")) || !bytes.Contains(got[1], []byte("| 3 | - | A | B |  | 0-1 | normal | x/y | 7 | - | - | "+record.FormatLLR(games[2].LLR)+" |\n")) {
		t.Errorf("summary.md lacks the LLR column or game 3's row:\n%s", got[1])
	}
}

// rewriteSummaries writes s's summaries from a GameLines holding s.Games
// and returns summary.json and summary.md; the lines decode back to s.Games.
func rewriteSummaries(t *testing.T, cfg *config.Config, s *record.Summary) [2][]byte {
	t.Helper()
	out := t.TempDir()
	lines, err := NewGameLines(out, s.SPRT != nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lines.Close()
	for _, g := range s.Games {
		if err := lines.Add(g); err != nil {
			t.Fatal(err)
		}
	}
	var back []record.GameSummary
	if err := lines.Each(func(g record.GameSummary) error { back = append(back, g); return nil }); err != nil {
		t.Fatal(err)
	}
	if a, b := jsonOf(t, back), jsonOf(t, s.Games); !bytes.Equal(a, b) {
		t.Errorf("games decoded back:\n%s\nwant:\n%s", a, b)
	}
	head := *s
	head.Games = nil
	if err := WriteSummaryFiles(out, cfg, &head, lines); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 2 {
		t.Errorf("%d files in the run directory, want summary.json and summary.md (the scratch files unlinked)", len(entries))
	}
	var got [2][]byte
	for i, name := range []string{SummaryJSON, SummaryMD} {
		if got[i], err = os.ReadFile(filepath.Join(out, name)); err != nil {
			t.Fatal(err)
		}
	}
	return got
}

func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// firstDiff shows where got and want part.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(i-80, 0)
	return "got:  ..." + string(got[lo:min(i+80, len(got))]) + "\nwant: ..." + string(want[lo:min(i+80, len(want))])
}
