package arena

import (
	"fmt"
	"time"

	"arena/arena/output"
	"arena/arena/record"
)

// Taking games in game order: workers finish games in any order; each is
// appended to games.jsonl at once and waits (pendingGame) until every
// earlier game is in, and only then goes into games.pgn, moves.csv, the
// summaries, the SPRT and a knockout's bracket.

// pendingGame is a finished game not yet taken in game order: in memory
// while few are waiting, else only where it is in games.jsonl.
type pendingGame struct {
	rec *record.GameRecord
	ref output.Ref
}

// summaryInterval and summaryRate bound how often summary.json and
// summary.md are rewritten: they grow with the games, so rewriting them
// after every game of a long run of short games would cost quadratic time
// and disk writes. They wait at least a second, 20 times as long as the
// last write took (so writing them costs at most about 5% of the run), and
// as long as writing their size at summaryRate takes (so a long run does
// not rewrite megabytes every second: at 10,000 games, 4.9 MB, every 9.5 s).
// They are always written before the first game and at the end.
const (
	summaryInterval = time.Second
	summaryRate     = 512 << 10 // bytes per second
)

// takeInOrder takes every pending game that is next in game order into
// games.pgn, moves.csv and the summary, stopping when the SPRT decides.
func (m *match) takeInOrder(report bool) error {
	for m.hasNext && !m.b.Decided() {
		pg, ok := m.pending[m.next.Number]
		if !ok {
			return nil
		}
		g := pg.rec
		if g == nil {
			var err error
			if g, err = pg.ref.Read(); err != nil {
				return err
			}
		}
		s := m.next
		if g.White != m.cfg.Engines[s.White].Name || g.Black != m.cfg.Engines[s.Black].Name {
			return fmt.Errorf("%s: recorded game %d (%s vs %s) does not match the config's schedule (%s vs %s)",
				m.dir, g.Game, g.White, g.Black, m.cfg.Engines[s.White].Name, m.cfg.Engines[s.Black].Name)
		}
		// Records written before games carried their pair number get it
		// from the schedule they were played by.
		g.Pair = s.Pair
		delete(m.pending, s.Number)
		if err := m.out.AppendOrdered(g); err != nil {
			return err
		}
		rounds := 0
		if m.ko != nil {
			rounds = m.ko.RoundsDecided()
			if err := m.ko.Add(g); err != nil {
				return fmt.Errorf("%s: %w", m.dir, err)
			}
			m.total, m.planned = m.ko.Planned(), m.ko.Planned()
			if m.prog != nil {
				m.prog.setPlanned(m.total, m.planned)
			}
		}
		if err := m.lines.Add(m.b.Add(g)); err != nil {
			return err
		}
		m.next, m.hasNext = m.commit.next()
		if report {
			sum := m.b.Summary()
			m.prog.gameDone(g, sum)
			if m.ko != nil && m.ko.RoundsDecided() > rounds {
				m.prog.roundDone(sum.Knockout.Rounds[rounds])
			}
			if err := m.writeSummaries(sum, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeSummaries writes summary.json and summary.md, at most once per
// summaryInterval unless forced.
func (m *match) writeSummaries(s *record.Summary, force bool) error {
	if !force && time.Since(m.wrote) < m.wait {
		return nil
	}
	m.wrote = time.Now()
	err := output.WriteSummaryFiles(m.dir, m.cfg, s, m.lines)
	m.wait = max(summaryInterval, 20*time.Since(m.wrote), time.Duration(float64(m.lines.Size())/summaryRate*float64(time.Second)))
	return err
}
