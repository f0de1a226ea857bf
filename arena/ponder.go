package arena

import (
	"fmt"
	"slices"

	"arena/arena/config"
	"arena/engines"
)

// Pondering (engines[].ponder), as cutechess-cli plays it. An engine that
// announces the UCI option Ponder gets "setoption name Ponder value true"
// when its process starts. After each of its moves the bestmove's ponder
// move is its expected reply; when its opponent starts to think, it gets
// the position after that reply and "go ponder" with the clocks as they
// stand (uci.Client.Ponder). When the opponent plays the expected move the
// engine gets "ponderhit" and its clock starts then: the move's time, its
// deadline and what its clock is charged all count from the ponderhit, and
// the move is recorded with ponderhit set. On any other move it gets
// "stop", its answer is discarded, and it searches the real position as
// usual. A bestmove without a ponder move, or a ponder move that is not
// legal, means no pondering on that move; an engine without the Ponder
// option plays without pondering (the run warns once). Its own book moves
// end a ponder search like a miss. The engines' moves are otherwise
// measured as always; with pondering two engines of a game think at once,
// which the core count warning counts.

// prepareSearch readies side's search: it reports whether side pondered
// on the move just played (a ponderhit follows), stops a ponder search on
// any other move, and starts the opponent's ponder search on its expected
// reply to the move side is about to choose.
func (g *game) prepareSearch(side int) bool {
	hit := g.pondering[side] != "" && len(g.moves) > 0 && g.pondering[side] == g.moves[len(g.moves)-1]
	if hit {
		g.pondering[side] = ""
	} else {
		g.endPonder(side)
	}
	g.startPonder(1 - side)
	return hit
}

// startPonder starts side's ponder search on its expected reply, when it
// has one that is legal here.
func (g *game) startPonder(side int) {
	mv := g.expect[side]
	g.expect[side] = ""
	p := g.players[side]
	if mv == "" || !p.canPonder || !p.alive() {
		return
	}
	if _, err := g.pos.ParseMove(mv); err != nil {
		return
	}
	lim, _, _ := g.limits(side)
	// A failed send is a dying engine, which its next search reports.
	if p.client.Ponder(engines.Position{FEN: g.fen, Moves: append(slices.Clone(g.moves), mv)}, lim) == nil {
		g.pondering[side] = mv
	}
}

// endPonder stops side's ponder search, if one runs, and discards its
// answer. An engine that does not answer is killed by the client, and its
// next search or game start finds it dead.
func (g *game) endPonder(side int) {
	if g.pondering[side] == "" {
		return
	}
	g.pondering[side] = ""
	if p := g.players[side]; p.client != nil {
		_ = p.client.StopPonder()
	}
}

// ponderWarnings names the engines configured to ponder whose engine has
// no Ponder option; players is one worker's, an engine each.
func ponderWarnings(players []*player) []string {
	var out []string
	for _, p := range players {
		if p.cfg.Ponder && !p.canPonder && p.client != nil {
			out = append(out, fmt.Sprintf("engine %q has no UCI option Ponder, so it plays without pondering (ponder: true asks for it)", p.cfg.Name))
		}
	}
	return out
}

// perGame is how many engines of a game think at once: 2 when one of the
// config's engines ponders, else 1.
func perGame(cfg *config.Config) int {
	for _, e := range cfg.Engines {
		if e.Ponder {
			return 2
		}
	}
	return 1
}

// ponderMoveWarnings names, once each, the pondering engines that never
// named a ponder move in their bestmoves over all workers, and so never
// pondered. An engine that names one only sometimes (not after a mate in
// one, say) is not warned about.
func ponderMoveWarnings(workers []*runner) []string {
	var out []string
	if len(workers) == 0 {
		return nil
	}
	for i, p := range workers[0].players {
		asked, named := 0, 0
		for _, r := range workers {
			asked, named = asked+r.players[i].ponderAsked, named+r.players[i].ponderNamed
		}
		if asked > 0 && named == 0 {
			out = append(out, fmt.Sprintf("warning: engine %q named no ponder move in any of its %d bestmoves, so it never pondered", p.cfg.Name, asked))
		}
	}
	return out
}
