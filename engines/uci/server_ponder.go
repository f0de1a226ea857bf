package uci

import (
	"slices"
	"sync/atomic"

	"arena/engines"
)

// Pondering in the server. A built-in engine's Search takes its limits
// when it starts and cannot be told later that its clock now runs, so the
// server does the simplest thing that keeps the protocol: "go ponder"
// starts an unbounded search of the ponder position (its info lines go
// out as usual, so the GUI sees it think), "stop" ends it and answers its
// bestmove as for "go infinite", and "ponderhit" ends it without an answer
// and starts a normal search of the same position with the limits the
// "go ponder" carried, timed from the ponderhit. What the ponder phase
// leaves behind is what the engine keeps between searches (the heuristic
// engine's transposition table with hash: N);
// the move's nodes and depth are those of the search after ponderhit.

// serverPonder is a running ponder search: the limits of the search that
// replaces it at ponderhit, and whether the ponderhit came.
type serverPonder struct {
	lim  engines.Limits
	hold bool
	hit  atomic.Bool
}

// uciPonder is the option every built-in engine announces so that a GUI
// knows it may send "go ponder".
var uciPonder = engines.Option{Name: PonderOption, Type: engines.Check, Default: "false"}

// withoutPonder takes the word "ponder" out of a go command's fields.
func withoutPonder(f []string) ([]string, bool) {
	if !slices.Contains(f, "ponder") {
		return f, false
	}
	return slices.DeleteFunc(slices.Clone(f), func(w string) bool { return w == "ponder" }), true
}

// ponderHit turns the running ponder search into a normal search; without
// one it is ignored.
func (s *Server) ponderHit() {
	pd := s.ponder
	if pd == nil || !s.searching() {
		return
	}
	s.ponder = nil
	pd.hit.Store(true)
	s.cancel()
	<-s.done
	s.launch(pd.lim, pd.hold, nil)
}
