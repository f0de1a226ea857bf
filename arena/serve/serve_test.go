package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"arena/arena"
	"arena/arena/config"
	"arena/arena/output"
	"arena/arena/record"
	"arena/engines/uci"
)

// startRun starts a short match of Stockfish against itself at small
// depths, judged at depth 6, in a results directory, and returns the
// directory of the run (once its summary.json is there) and a channel that
// gets the run's error when it ends.
func startRun(t *testing.T, games int) (results, dir string, done <-chan error) {
	t.Helper()
	if _, err := uci.LocateEngine("stockfish"); err != nil {
		t.Fatalf("stockfish not found (apt-get install stockfish): %v", err)
	}
	results = t.TempDir()
	path := filepath.Join(results, "match.yaml")
	text := fmt.Sprintf(`name: served
games: %d
max_moves: 80
engines:
  - {name: SF depth 3, command: stockfish, limits: {depth: 3}}
  - {name: SF depth 1, command: stockfish, limits: {depth: 1}}
judge: {depth: 6}
`, games)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(results, "run")
	ch, over := make(chan error, 1), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer close(over)
		_, err := arena.Run(ctx, cfg, arena.Options{OutDir: dir})
		ch <- err
	}()
	t.Cleanup(func() {
		cancel()
		<-over
	})
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, output.SummaryJSON)); err == nil {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatal("the run wrote no summary.json in a minute")
		}
	}
	return results, dir, ch
}

// The dashboard's numbers are summary.json's: at the end of a run the
// rebuilt summary equals the one the runner wrote, field by field (all
// but the times of writing and the speed, which only the runner knows).
func TestRunViewEqualsSummaryJSON(t *testing.T) {
	results, dir, done := startRun(t, 4)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(results).Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/api/run?id=" + url.QueryEscape(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct {
		Run     RunInfo          `json:"run"`
		Summary *json.RawMessage `json:"summary"`
		Spread  map[string]map[string]Stat
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	var served, written record.Summary
	if err := json.Unmarshal(*v.Summary, &served); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, output.SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &written); err != nil {
		t.Fatal(err)
	}
	if v.Run.Status != "finished" || served.GamesPlayed != 4 {
		t.Errorf("run %+v, %d games", v.Run, served.GamesPlayed)
	}
	for _, s := range []*record.Summary{&served, &written} {
		s.Updated, s.Throughput, s.Cores = time.Time{}, nil, 0
	}
	// Compared as JSON, what summary.json holds: NaN (an undefined LOS)
	// is not DeepEqual to itself.
	a, _ := json.MarshalIndent(served, "", " ")
	b, _ := json.MarshalIndent(written, "", " ")
	if string(a) != string(b) {
		t.Errorf("served summary differs from summary.json:\n%s\nwant\n%s", a, b)
	}
	for _, e := range written.Engines {
		st := v.Spread[e.Name]["acpl"]
		if st.N != 4 || st.Low < 0 || st.Low > st.Mean || st.High < st.Mean || e.ACPL == nil {
			t.Errorf("%s: ACPL spread %+v, summary ACPL %v", e.Name, st, e.ACPL)
		}
	}
}

// Headless Chromium on the dashboard of a run being played: the standings
// appear, the game count rises without a reload as games finish, and a
// game's page shows its moves.
func TestDashboardInChromium(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium not found: apt-get install chromium (the dashboard is tested in a real browser)")
	}
	const games = 30
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.NoFirstRun, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1100, 900)}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// The first action starts the browser, under a context without a
	// timeout (a timeout would stop the browser); the rest have one.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	// The run starts once the browser is up, and has enough games to be
	// still playing when the page is: the test stops it when done.
	results, dir, done := startRun(t, games)
	srv := httptest.NewServer(New(results).Handler())
	defer srv.Close()
	ctx, cancel = context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()

	// The run page is redrawn at every poll: read it with a script, not by
	// DOM node ids, which a redraw invalidates.
	text := func(sel string) (string, error) {
		return chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("`+sel+`")?.textContent ?? ""`))
	}
	played := func() int {
		progress, err := text("#progress")
		if err != nil {
			t.Fatalf("reading the progress: %v", err)
		}
		m := regexp.MustCompile(fmt.Sprintf(`^(\d+) of %d games`, games)).FindStringSubmatch(progress)
		if m == nil {
			t.Fatalf("progress %q", progress)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/#/run/"+url.PathEscape(dir)),
		chromedp.WaitVisible("#standings"),
	); err != nil {
		t.Fatal(err)
	}
	standings, err := text("#standings")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.notReloaded = true`)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(standings, "SF depth 3") || !strings.Contains(standings, "SF depth 1") {
		t.Errorf("standings %q lack the engines", standings)
	}
	first := played()
	if first >= games {
		t.Fatalf("the run ended before the page was up (%d games): nothing to watch", first)
	}
	// The page polls every 2 s; on an idle machine the 30 games can end
	// before its next poll (it failed so on a fast Xeon): what the page
	// must do then is still show them, without a reload, within a few polls.
	var ended <-chan time.Time
	for played() <= first {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("the run failed: %v", err)
			}
			done, ended = nil, time.After(10*time.Second)
		case <-ended:
			t.Fatalf("the run ended and 10 s later the page still shows %d games", played())
		case <-time.After(500 * time.Millisecond):
		}
	}
	if same, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.notReloaded === true`)); err != nil || !same {
		t.Errorf("the page was reloaded to update (%v)", err)
	}
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible("#games tr.link"),
		chromedp.Click("#games tr.link"),
		chromedp.WaitVisible("#moves span"),
		chromedp.WaitVisible("#board"),
		chromedp.WaitVisible("#evalchart"),
	); err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(ctx, chromedp.Text("#gametitle"))
	if err != nil {
		t.Fatal(err)
	}
	moves, err := chromedp.Run(ctx, chromedp.Text("#moves"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^Game (\d+):`).FindStringSubmatch(title)
	if m == nil {
		t.Fatalf("game page title %q", title)
	}
	n, _ := strconv.Atoi(m[1])
	g, err := arena.ReadGame(n, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(moves, "1. "+g.Moves[0].SAN) || !strings.Contains(moves, g.Moves[len(g.Moves)-1].SAN) {
		t.Errorf("game %d's page shows moves %q, want %s ... %s", n, moves, g.Moves[0].SAN, g.Moves[len(g.Moves)-1].SAN)
	}
}

// Two shards of one run side by side in one directory are listed one by
// one and once merged; the merged view's numbers are arena merge's.
func TestShardsMergedView(t *testing.T) {
	if _, err := uci.LocateEngine("stockfish"); err != nil {
		t.Fatalf("stockfish not found (apt-get install stockfish): %v", err)
	}
	results := t.TempDir()
	path := filepath.Join(t.TempDir(), "match.yaml")
	if err := os.WriteFile(path, []byte(`name: sharded
games: 4
max_moves: 40
engines:
  - {name: SF depth 2, command: stockfish, limits: {depth: 2}}
  - {name: SF depth 1, command: stockfish, limits: {depth: 1}}
judge: {depth: 4}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for i := range 2 {
		cfg, err := config.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(results, fmt.Sprintf("shard-%d", i))
		if _, err := arena.Run(context.Background(), cfg, arena.Options{OutDir: dir, Shard: record.Shard{Index: i, Count: 2}}); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	merged, err := arena.Merge(filepath.Join(t.TempDir(), "merged"), dirs, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	s := New(results)
	runs := s.find()
	var whole []RunInfo
	for _, r := range runs {
		if r.Shards == 2 {
			whole = append(whole, r)
		}
	}
	if len(runs) != 3 || len(whole) != 1 {
		t.Fatalf("runs %+v: want the two shards and their merge", runs)
	}
	for _, r := range whole {
		v, err := s.view(r)
		if err != nil {
			t.Fatal(err)
		}
		got, want := v.Summary, merged
		// As JSON: NaN (an undefined LOS) is not DeepEqual to itself.
		same := func(a, b any) bool {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			return string(ja) == string(jb)
		}
		if got.GamesPlayed != 4 || r.Played != 4 || r.Planned != 4 || !same(got.Engines, want.Engines) || !same(got.Pairs, want.Pairs) ||
			!same(got.Crosstable, want.Crosstable) || !same(got.Ratings, want.Ratings) || len(got.Games) != 4 {
			a, _ := json.MarshalIndent(got, "", " ")
			b, _ := json.MarshalIndent(want, "", " ")
			t.Errorf("merged view differs from arena merge:\n%s\nwant\n%s", a, b)
		}
	}
}

// The live view's bars over a few games are Student's t intervals: three
// games 10, 12, 14 (sd 2) give 12 ± 4.303·2/√3 = [7.03, 16.97], where the
// normal 1.96 would claim [9.74, 14.26].
func TestMeanCIIsStudentsT(t *testing.T) {
	s := MeanCI([]float64{10, 12, 14})
	if s.N != 3 || s.Mean != 12 || math.Abs(s.Low-7.032) > 0.001 || math.Abs(s.High-16.968) > 0.001 {
		t.Fatalf("MeanCI(10, 12, 14) = %+v, want mean 12 in [7.032, 16.968] over 3 games", s)
	}
	if one := MeanCI([]float64{5}); one.Low != 5 || one.High != 5 {
		t.Fatalf("one game: %+v, want the mean alone", one)
	}
}
