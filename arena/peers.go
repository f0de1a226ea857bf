package arena

// An SPRT played in shards stops as soon as the games of all its shards
// decide it, as fishtest's and OpenBench's tests do however many workers
// play them. Shards share nothing but a directory (NFS on Slurm, a volume
// on Kubernetes): the shard directories of one run are siblings
// (OUT/shard-0, OUT/shard-1, ...), so a shard finds its peers there, as the
// sibling directories whose summary.json names the same config hash and
// shard count, and reads their games.jsonl while they write it. It only
// reads: a peer may be on another node, crash, resume or be re-run at any
// time, and nothing it does can harm another shard.
//
// After each game the shard finishes, and every peerPoll while it finishes
// none, a shard reads what each peer appended since the last poll (whole
// lines only: a line being written is read at the next poll), its own
// games included, and counts them in one record.SPRTTally, whose LLR
// does not depend on the order games come in. When the combined test
// decides, the shard stops its games in progress and ends complete, its
// summary saying why (sprt_shards); `arena merge` then takes every game the
// shards played and gives the verdict over all of them. A peer's log that
// is replaced (a finished run rewrites its log in game order; compression
// turns it into games.jsonl.gz) or shrinks (a resume drops a torn last
// line) is read again from its start. What is kept per game is its pair
// and its score (8 bytes), not the game.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"arena/arena/config"
	"arena/arena/output"
	"arena/arena/record"
	"arena/tracker/pgn"
)

// A shard polls when one of its games ends, so that fast games cannot
// outrun the test (50 games of a node-limited check end in 4 s), and every
// peerPoll while none ends. Each poll costs the shared filesystem a stat
// per shard, so two polls of a run of N shards are at least N times
// peerPollPerShard apart (0.4 s at 4 shards, 100 s at 1,000): the
// filesystem serves at most 10 N stats a second, 10,000 at 1,000 shards
// (docs/cluster.md).
var peerPoll = 5 * time.Second

var peerPollPerShard = 100 * time.Millisecond

// pollGap is the least time between two polls of a run of n shards.
func pollGap(n int) time.Duration { return time.Duration(n) * peerPollPerShard }

// pollInterval is the time between two polls of a run of n shards when
// the shard finishes no game.
func pollInterval(n int) time.Duration { return max(peerPoll, pollGap(n)) }

// peerWatch follows the shards of one SPRT run, this one's included.
type peerWatch struct {
	cfg   *config.Config
	dir   string // this shard's directory
	hash  string
	shard record.Shard

	peers map[string]int // sibling directories known to be shards of the run: their shard index

	mu       sync.Mutex
	logs     map[string]*peerLog // by shard directory
	combined *record.SPRTSummary
	shards   int // shard directories counted in combined

	ended chan struct{} // a game of this shard ended since the last poll
}

// peerLog is what has been read of one shard's games.jsonl.
type peerLog struct {
	first string      // the engine whose score the SPRT counts
	info  fs.FileInfo // the file read, to notice it being replaced
	off   int64       // bytes of whole lines read
	gz    bool        // read whole from games.jsonl.gz (the shard has ended)
	games []pairScore
}

// pairScore is one finished game as the SPRT counts it: its pair and the
// first engine's score in half points.
type pairScore struct {
	pair  int32
	halfs int8
}

// newPeerWatch returns nil unless the run is a shard of an SPRT run.
func newPeerWatch(cfg *config.Config, dir string, shard record.Shard) (*peerWatch, error) {
	if cfg.SPRT == nil || shard.Count <= 1 {
		return nil, nil
	}
	hash, err := ConfigHash(cfg)
	if err != nil {
		return nil, err
	}
	return &peerWatch{cfg: cfg, dir: dir, hash: hash, shard: shard, peers: map[string]int{}, logs: map[string]*peerLog{},
		ended: make(chan struct{}, 1)}, nil
}

// run polls until ctx ends or the combined test decides, then calls
// decided (once, when it did).
func (w *peerWatch) run(ctx context.Context, decided func()) {
	for {
		last := time.Now()
		if w.poll() {
			decided()
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pollInterval(w.shard.Count)):
			continue
		case <-w.ended:
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pollGap(w.shard.Count) - time.Since(last)):
		}
	}
}

// gameEnded tells the watch that this shard finished a game.
func (w *peerWatch) gameEnded() {
	if w == nil {
		return
	}
	select {
	case w.ended <- struct{}{}:
	default: // a poll is already due
	}
}

// decided is the combined test when it has decided, else nil.
func (w *peerWatch) decided() *record.SPRTSummary {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.combined.Decided() {
		return w.combined
	}
	return nil
}

// poll reads every shard's new games and reports whether the combined test
// has decided. Errors reading a peer are not the shard's: that peer is
// read again at the next poll.
func (w *peerWatch) poll() bool {
	for _, d := range w.shardDirs() {
		l := w.logs[d]
		if l == nil {
			l = &peerLog{first: w.cfg.Engines[0].Name}
			w.logs[d] = l
		}
		_ = l.refresh(filepath.Join(d, output.GamesFile))
	}
	tally := record.NewSPRTTally(w.cfg)
	first, second := w.cfg.Engines[0].Name, w.cfg.Engines[1].Name
	results := [3]string{"0-1", "1/2-1/2", "1-0"}
	for _, l := range w.logs {
		for _, g := range l.games {
			tally.Add(&record.GameRecord{White: first, Black: second, Result: results[g.halfs], Pair: int(g.pair)})
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.combined, w.shards = tally.Status(), len(w.logs)
	return w.combined.Decided()
}

// shardDirs is this shard's directory and every sibling holding a shard of
// the same run (same config hash, same shard count). A sibling's summary is
// read until it names a shard of the run (a peer that has not started yet
// has none), then never again.
func (w *peerWatch) shardDirs() []string {
	if len(w.peers) < w.shard.Count-1 {
		w.findPeers()
	}
	dirs := []string{w.dir}
	for d := range w.peers {
		dirs = append(dirs, d)
	}
	return dirs
}

func (w *peerWatch) findPeers() {
	entries, err := os.ReadDir(filepath.Dir(w.dir))
	if err != nil {
		return
	}
	for _, e := range entries {
		d := filepath.Join(filepath.Dir(w.dir), e.Name())
		if _, known := w.peers[d]; known || !e.IsDir() {
			continue
		}
		if same, _ := sameDir(d, w.dir); same {
			continue
		}
		s, err := readSummaryHead(d)
		if err != nil || s == nil || s.Shard == nil || s.Shard.Count != w.shard.Count || s.ConfigHash != w.hash {
			continue
		}
		// A copy of a shard (the same index twice) would count its games
		// twice: the first found is read, as merge refuses such copies.
		if taken := s.Shard.Index == w.shard.Index || slices.Contains(slices.Collect(maps.Values(w.peers)), s.Shard.Index); taken {
			continue
		}
		w.peers[d] = s.Shard.Index
	}
}

// refresh reads what was appended to the log at path since the last call,
// or the whole log again when it was replaced or cut.
func (l *peerLog) refresh(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		if l.gz {
			return nil
		}
		// Ended and compressed: read once, whole.
		r, err := output.Open(path)
		if err != nil {
			return err
		}
		defer r.Close()
		games, _, err := readScores(r, l.first)
		if err != nil {
			return err
		}
		l.games, l.gz, l.info = games, true, nil
		return nil
	}
	if err != nil {
		return err
	}
	if l.gz || l.info == nil || !os.SameFile(l.info, fi) || fi.Size() < l.off {
		l.games, l.off, l.gz = nil, 0, false
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(l.off, io.SeekStart); err != nil {
		return err
	}
	games, n, err := readScores(f, l.first)
	l.games = append(l.games, games...)
	l.off += n
	l.info = fi
	return err
}

// readScores reads the whole lines of a games log from r: each game's pair
// and the score of the engine named first, and the bytes of the whole
// lines read.
func readScores(r io.Reader, first string) ([]pairScore, int64, error) {
	var games []pairScore
	var n int64
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			return games, n, nil // a line still being written, if any
		}
		if err != nil {
			return games, n, err
		}
		n += int64(len(line))
		var g struct {
			Pair   int    `json:"pair"`
			White  string `json:"white"`
			Result string `json:"result"`
		}
		if err := json.Unmarshal(bytes.TrimSpace(line), &g); err != nil {
			return games, n, err
		}
		score, finished := pgn.WhiteScore(g.Result)
		if !finished {
			continue
		}
		halfs := int8(2 * score)
		if g.White != first {
			halfs = 2 - halfs
		}
		games = append(games, pairScore{pair: int32(g.Pair), halfs: halfs})
	}
}
