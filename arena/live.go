package arena

import (
	"sync"
	"time"

	"arena/tracker"
)

// status is what a run is doing right now, shared by the workers, the
// judges and the live line: the games in play and their plies, the games
// being judged and their positions, and where the wall time went. Every
// change first charges the time since the last change to the state the
// run was in (playing, judging only, idle), so that the split is exact
// however many games and judges overlap.
type status struct {
	mu      sync.Mutex
	last    time.Time
	playing int // games in play
	judging int // games being judged
	// wall time with a game in play, with the judge busy (beside play or
	// not), with the judge busy and no game in play, and with neither.
	play, judgeBusy, judgeOnly, idle time.Duration
	// this session's finished games and their plies; the plies of the
	// games in play, by game number.
	played, plies int
	ply           map[int]int
	// positions: handed to the judge in this session, of the games whose
	// judging ended, and the judge's count of positions evaluated (cache
	// hits and terminal ones included) when judging began and as credited
	// to ended games.
	positions, judgedDone int
	counted0, credited    int64
	judge                 *tracker.Judge
	thesis                bool // the judge's thesis protocol: two positions a ply
}

func newStatus(j *tracker.Judge, now time.Time) *status {
	s := &status{last: now, ply: map[int]int{}, judge: j}
	if j != nil {
		s.counted0 = judgeCount(j)
		s.thesis = j.Config().Protocol == tracker.ProtocolThesis
	}
	return s
}

func judgeCount(j *tracker.Judge) int64 {
	return j.Evaluations() + j.CacheHits() + j.TerminalPositions()
}

// charge adds the time since the last change to the current state.
func (s *status) charge(now time.Time) {
	d := now.Sub(s.last)
	s.last = now
	switch {
	case s.playing > 0:
		s.play += d
	case s.judging > 0:
		s.judgeOnly += d
	default:
		s.idle += d
	}
	if s.judging > 0 {
		s.judgeBusy += d
	}
}

// positionsOf is how many positions the judge evaluates for a game of
// plies plies.
func (s *status) positionsOf(plies int) int {
	if s.thesis {
		return 2 * plies
	}
	return plies + 1
}

func (s *status) gameStarted(game int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.charge(time.Now())
	s.playing++
	s.ply[game] = 0
}

func (s *status) move(game, ply int) {
	s.mu.Lock()
	s.ply[game] = ply
	s.mu.Unlock()
}

// gameEnded ends a game in play; finished says it was played to its end
// (not stopped by an interruption).
func (s *status) gameEnded(game, plies int, finished bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.charge(time.Now())
	s.playing--
	delete(s.ply, game)
	if finished {
		s.played++
		s.plies += plies
	}
}

func (s *status) judgeStarted(plies int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.charge(time.Now())
	s.judging++
	s.positions += s.positionsOf(plies)
}

func (s *status) judgeEnded(plies int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.charge(time.Now())
	s.judging--
	n := s.positionsOf(plies)
	s.judgedDone += n
	s.credited += int64(n)
}

// judged is the positions judged in this session: those of the games whose
// judging ended and, of the games being judged, as many as the judge has
// evaluated since (never more than they have).
func (s *status) judged() int {
	if s.judge == nil {
		return 0
	}
	extra := judgeCount(s.judge) - s.counted0 - s.credited
	return s.judgedDone + int(min(max(extra, 0), int64(s.positions-s.judgedDone)))
}

// snapshot is the status at one moment, for the live line and the ETA.
type snapshot struct {
	elapsed                          time.Duration
	play, judgeBusy, judgeOnly, idle time.Duration
	playing, played, plies, inPlay   int // inPlay: plies of the games in play
	positions, judged                int
	judge, thesis                    bool
}

func (s *status) snapshot(now time.Time, began time.Time) snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.charge(now)
	sn := snapshot{elapsed: now.Sub(began), play: s.play, judgeBusy: s.judgeBusy, judgeOnly: s.judgeOnly, idle: s.idle,
		playing: s.playing, played: s.played, plies: s.plies, positions: s.positions, judged: s.judged(),
		judge: s.judge != nil, thesis: s.thesis}
	for _, p := range s.ply {
		sn.inPlay += p
	}
	return sn
}

// eta estimates the time to the end of the run, judging included, with
// left games of the run not yet played to their end (those in play among
// them). Play goes at the plies per second of wall time with a game in
// play so far (games in play counted), the unplayed games at the mean
// length of the finished ones; the judge at the positions per second of
// wall time it was busy. The run ends when the last game is played and
// judged, or when the judge has caught up with every game, whichever is
// later. Without a finished game, or with a judge that has not yet judged
// a position, there is nothing to estimate from: ok is false.
func (sn snapshot) eta(left int) (time.Duration, bool) {
	if left <= 0 && sn.judged >= sn.positions {
		return 0, true
	}
	var playLeft, lastGame float64
	meanPlies := 0.0
	if sn.played > 0 {
		meanPlies = float64(sn.plies) / float64(sn.played)
	}
	if left > 0 {
		if sn.played == 0 || sn.play <= 0 || sn.plies+sn.inPlay == 0 {
			return 0, false
		}
		rate := float64(sn.plies+sn.inPlay) / sn.play.Seconds()
		playLeft = max(meanPlies*float64(left)-float64(sn.inPlay), 0) / rate
	}
	var judgeLeft float64
	if sn.judge {
		if sn.judged == 0 || sn.judgeBusy <= 0 {
			return 0, false
		}
		rate := float64(sn.judged) / sn.judgeBusy.Seconds()
		perGame := meanPlies + 1
		if sn.thesis {
			perGame = 2 * meanPlies
		}
		judgeLeft = (float64(sn.positions-sn.judged) + perGame*float64(left)) / rate
		if left > 0 {
			lastGame = perGame / rate
		}
	}
	return time.Duration(max(playLeft+lastGame, judgeLeft) * float64(time.Second)), true
}
