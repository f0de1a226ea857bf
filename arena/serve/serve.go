// Package serve is `arena serve`: a local web dashboard over run
// directories, finished or still being played, read-only. It lists the
// runs under the directories it is given with their status and progress,
// and shows each run's standings, Elo and pentanomial counts with their
// intervals, the SPRT's LLR game by game, the crosstable, per-engine time,
// nodes, RAM and ACPL with 95% intervals, and every game (board, moves,
// the judge's evaluation and centipawn loss move by move). The page polls
// the server every two seconds, so a running match updates without a
// reload.
//
// The numbers come from arena.Rebuild, which feeds the games of
// games.jsonl through record.Builder in game order exactly as the runner
// does before it writes summary.json: the dashboard and summary.json
// cannot disagree (a test checks it). Rebuilds are cached by the size and
// time of the files they read. The shards of one run in one directory (a
// cluster's shared directory) are shown as one run as well as one by one.
// The page and its script are embedded in the binary: no CDN, no network.
package serve

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/notnil/chess"

	"arena/arena"
	"arena/arena/output"
	"arena/arena/record"
	"arena/arena/report"
	"arena/tracker"
)

//go:embed assets
var assets embed.FS

// Server serves the runs found under its roots.
type Server struct {
	roots     []string
	mu        sync.Mutex
	cache     map[string]cached
	summaries map[string]summaryFile // summary.json by path, for the list
}

// summaryFile is a parsed summary.json and the size and time it had.
type summaryFile struct {
	stamp string
	sum   *record.Summary
}

type cached struct {
	stamp string
	view  *RunView
}

// New returns a Server over the run directories under roots (a root may
// be a run directory itself).
func New(roots ...string) *Server {
	return &Server{roots: roots, cache: map[string]cached{}, summaries: map[string]summaryFile{}}
}

// Handler is the dashboard: the page at /, its JSON under /api/.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(assets, "assets")
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /api/runs", s.runs)
	mux.HandleFunc("GET /api/run", s.run)
	mux.HandleFunc("GET /api/game", s.game)
	return mux
}

// RunInfo is one run in the list.
type RunInfo struct {
	ID      string   `json:"id"`   // its directory, or directories joined by "|" for shards
	Name    string   `json:"name"` // the config's
	Status  string   `json:"status"`
	Played  int      `json:"played"`
	Planned int      `json:"planned"`
	Started string   `json:"started"`
	Shards  int      `json:"shards,omitempty"`
	dirs    []string `json:"-"`
}

// find lists the run directories under the roots: those with a summary.json.
func (s *Server) find() []RunInfo {
	var runs []RunInfo
	shards := map[string][]RunInfo{} // config hash in one parent -> its shards
	for _, root := range s.roots {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			sum := s.readSummary(path)
			if sum == nil {
				return nil
			}
			r := RunInfo{ID: path, Name: sum.Name, Status: status(path, sum), Played: sum.GamesPlayed, Planned: sum.GamesPlanned,
				Started: sum.Started.Format(time.DateTime), dirs: []string{path}}
			runs = append(runs, r)
			if sum.Shard != nil && sum.Shard.Count > 1 {
				key := filepath.Dir(path) + "\x00" + sum.ConfigHash
				shards[key] = append(shards[key], r)
			}
			return filepath.SkipDir
		})
	}
	for _, group := range shards {
		if len(group) < 2 {
			continue
		}
		all := RunInfo{Name: group[0].Name + " (shards merged)", Shards: len(group), Status: "finished"}
		var ids []string
		for _, r := range group {
			ids = append(ids, r.ID)
			all.dirs = append(all.dirs, r.ID)
			all.Played += r.Played
			all.Planned += r.Planned
			if r.Status != "finished" {
				all.Status = r.Status
			}
			if all.Started == "" || r.Started < all.Started {
				all.Started = r.Started
			}
		}
		all.ID = strings.Join(ids, "|")
		runs = append(runs, all)
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Started > runs[j].Started })
	return runs
}

// readSummary reads dir's summary.json, parsed again only when its size
// or time has changed: the list is polled, and a long run's summary.json
// runs to megabytes.
func (s *Server) readSummary(dir string) *record.Summary {
	path := filepath.Join(dir, output.SummaryJSON)
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	stamp := fmt.Sprintf("%d:%d", st.Size(), st.ModTime().UnixNano())
	s.mu.Lock()
	c, ok := s.summaries[path]
	s.mu.Unlock()
	if ok && c.stamp == stamp {
		return c.sum
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var sum record.Summary
	if json.Unmarshal(data, &sum) != nil {
		return nil
	}
	s.mu.Lock()
	s.summaries[path] = summaryFile{stamp: stamp, sum: &sum}
	s.mu.Unlock()
	return &sum
}

// status is "finished", "running" (a run holds the directory's lock) or
// "stopped" (interrupted; arena run --resume continues it). The lock is
// looked up in /proc/locks, not taken: taking it, even for a moment, could
// refuse a run starting at that moment.
func status(dir string, s *record.Summary) string {
	if s.Complete {
		return "finished"
	}
	var st syscall.Stat_t
	if syscall.Stat(filepath.Join(dir, arena.LockFile), &st) == nil {
		if locks, err := os.ReadFile("/proc/locks"); err == nil {
			ino := ":" + strconv.FormatUint(st.Ino, 10) + " "
			for line := range strings.SplitSeq(string(locks), "\n") {
				if strings.Contains(line, "FLOCK") && strings.Contains(line, ino) {
					return "running"
				}
			}
		}
	}
	return "stopped"
}

func (s *Server) runs(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, s.find())
}

// lookup returns the run with the given id, only among those found.
func (s *Server) lookup(id string) (RunInfo, bool) {
	for _, r := range s.find() {
		if r.ID == id {
			return r, true
		}
	}
	return RunInfo{}, false
}

// RunView is what the run page shows: the summary as summary.json has
// it, and per engine the 95% intervals of its per-game means.
type RunView struct {
	Run     RunInfo                    `json:"run"`
	Summary *record.Summary            `json:"summary"`
	Spread  map[string]map[string]Stat `json:"spread"` // engine -> measure -> stat
}

func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	info, ok := s.lookup(r.URL.Query().Get("id"))
	if !ok {
		http.Error(w, "no such run", http.StatusNotFound)
		return
	}
	v, err := s.view(info)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, v)
}

// view rebuilds a run's view, or takes it from the cache when its files
// have not changed.
func (s *Server) view(info RunInfo) (*RunView, error) {
	var stamp strings.Builder
	for _, d := range info.dirs {
		files := []string{output.SummaryJSON, output.GamesFile}
		for _, ext := range output.StoredExts {
			files = append(files, output.GamesFile+ext)
		}
		for _, f := range files {
			if st, err := os.Stat(filepath.Join(d, f)); err == nil {
				fmt.Fprintf(&stamp, "%s:%d:%d;", f, st.Size(), st.ModTime().UnixNano())
			}
		}
	}
	s.mu.Lock()
	c, ok := s.cache[info.ID]
	s.mu.Unlock()
	if ok && c.stamp == stamp.String() {
		v := *c.view
		v.Run = info
		return &v, nil
	}
	acc := spreads{}
	sum, err := arena.Rebuild(acc.add, info.dirs...)
	if err != nil {
		return nil, err
	}
	v := &RunView{Run: info, Summary: sum, Spread: acc.stats()}
	s.mu.Lock()
	s.cache[info.ID] = cached{stamp: stamp.String(), view: v}
	s.mu.Unlock()
	return v, nil
}

// GameView is a game with the position before each move, for the board.
type GameView struct {
	Game *record.GameRecord `json:"game"`
	FENs []string           `json:"fens"` // FENs[i] is the position after i plies
}

func (s *Server) game(w http.ResponseWriter, r *http.Request) {
	info, ok := s.lookup(r.URL.Query().Get("id"))
	n, err := strconv.Atoi(r.URL.Query().Get("n"))
	if !ok || err != nil {
		http.Error(w, "no such run or game", http.StatusNotFound)
		return
	}
	g, err := arena.ReadGame(n, info.dirs...)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	v := GameView{Game: g}
	var opts []func(*chess.Game)
	if g.FEN != "" {
		if opt, err := chess.FEN(g.FEN); err == nil {
			opts = append(opts, opt)
		}
	}
	cg := chess.NewGame(opts...)
	v.FENs = append(v.FENs, cg.Position().String())
	for _, m := range g.Moves {
		if err := cg.MoveStr(m.SAN); err != nil {
			break
		}
		v.FENs = append(v.FENs, cg.Position().String())
	}
	writeJSON(w, v)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// Stat is a mean with its 95% interval (normal approximation over the
// games), the interval's ends never below zero: these measures cannot be
// negative, and an interval that says they might misleads.
type Stat struct {
	Mean float64 `json:"mean"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	N    int     `json:"n"`
}

// spreads collects, per engine, each game's mean time, nodes, peak RAM
// and ACPL (one value per engine and game: a game's moves are not
// independent, games are).
type spreads map[string]map[string][]float64

func (sp spreads) add(g *record.GameRecord) {
	for _, side := range []struct {
		name, color string
		stats       bool
	}{{g.White, "white", g.WhiteStats != nil}, {g.Black, "black", g.BlackStats != nil}} {
		var t, n, ram float64
		k := 0
		for _, m := range g.Moves {
			if m.Engine != side.name || m.Book {
				continue
			}
			t += m.Time
			n += float64(m.Nodes)
			ram = max(ram, m.PeakMB)
			k++
		}
		if k == 0 {
			continue
		}
		if sp[side.name] == nil {
			sp[side.name] = map[string][]float64{}
		}
		e := sp[side.name]
		e["time_s"] = append(e["time_s"], t/float64(k))
		e["nodes"] = append(e["nodes"], n/float64(k))
		e["ram_mb"] = append(e["ram_mb"], ram)
		if side.color == "white" && side.stats {
			e["acpl"] = append(e["acpl"], g.WhiteStats.ACPL)
		} else if side.color == "black" && side.stats {
			e["acpl"] = append(e["acpl"], g.BlackStats.ACPL)
		}
	}
}

func (sp spreads) stats() map[string]map[string]Stat {
	out := map[string]map[string]Stat{}
	for name, ms := range sp {
		out[name] = map[string]Stat{}
		for m, xs := range ms {
			out[name][m] = MeanCI(xs)
		}
	}
	return out
}

// MeanCI is the mean of xs with its 95% Student's t interval over the
// games (k-1 degrees of freedom: early in a run, with a handful of games,
// the normal 1.96 would draw bars several times too narrow), clamped at
// zero as arena report's error bars are (report.ErrorRange). One game has
// no interval: its bar is the mean alone.
func MeanCI(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{}
	}
	e := tracker.Mean(xs)
	half := 0.0
	if len(xs) > 1 {
		half = e.Half()
	}
	low, high := report.ErrorRange(e.Value, half, false)
	return Stat{Mean: e.Value, Low: low, High: high, N: len(xs)}
}
