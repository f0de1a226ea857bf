package uci

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"arena/engines"
)

// BenchmarkGoToBestmove measures what the client adds to every move's
// time: against an engine that answers "go" at once, the time a search
// records (Result.Time, from just before "go" is written to when
// "bestmove" is read off the pipe) is the round trip through both pipes,
// the engine's read and write, and the scheduler's wake-ups on both sides.
// "engines=2" runs two such engines at once, each searched by its own
// goroutine, as a match at concurrency 2 does. Reported per search: the
// mean, median, 99th percentile and largest recorded time in
// microseconds; ns/op is the whole Search call.
func BenchmarkGoToBestmove(b *testing.B) {
	for _, n := range []int{1, 2} {
		b.Run(map[int]string{1: "engines=1", 2: "engines=2"}[n], func(b *testing.B) {
			clients := make([]*Client, n)
			for i := range clients {
				c, err := fake(b, "instant", ClientConfig{})
				if err != nil {
					b.Fatal(err)
				}
				clients[i] = c
			}
			pos := engines.Position{FEN: engines.StartFEN}
			times := make([][]time.Duration, n)
			var wg sync.WaitGroup
			b.ResetTimer()
			for i, c := range clients {
				wg.Go(func() {
					for range b.N {
						res, err := c.Search(context.Background(), pos, engines.Limits{Depth: 1}, nil)
						if err != nil || res.Move != "e2e4" {
							b.Errorf("search: %+v, %v", res, err)
							return
						}
						times[i] = append(times[i], res.Time)
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			all := slices.Concat(times...)
			if len(all) == 0 {
				b.Fatal("no search recorded")
			}
			slices.Sort(all)
			var sum time.Duration
			for _, d := range all {
				sum += d
			}
			us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
			b.ReportMetric(us(sum/time.Duration(len(all))), "mean-us")
			b.ReportMetric(us(all[len(all)/2]), "p50-us")
			b.ReportMetric(us(all[len(all)*99/100]), "p99-us")
			b.ReportMetric(us(all[len(all)-1]), "max-us")
		})
	}
}
