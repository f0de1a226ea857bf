// Command fakeengine is a minimal UCI engine for the arena's tests. It plays
// the first legal move in notnil/chess's order (with -spread, a move that
// varies with the ply, so that games run long without repeating) and, once
// the game has at least -after plies, misbehaves as -mode says:
//
//	normal   never misbehaves
//	illegal  answers a well-formed but illegal move
//	nomove   answers "bestmove 0000"
//	crash    exits with status 3 on "go"
//	hang     never answers "go" and ignores "stop"
//	late     answers -late after "go" (ignoring "stop" until then)
//	latecrash exits with status 3 -late after "go" (ignoring "stop")
//	absurd   plays normally but reports negative nodes and a mate in
//	         99999999999 moves
//	slownewgame answers the isready after each ucinewgame -late late
//	twice    writes its bestmove twice, as if a stale answer of this
//	         search were the next one's
//	slowstart answers its process's first "go" -late late (a start-up
//	         cost: a net loaded at the first search), the rest at once
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/notnil/chess"
)

func main() {
	mode := flag.String("mode", "normal", "normal, illegal, nomove, crash, hang, late, latecrash, absurd, slownewgame, twice or slowstart")
	after := flag.Int("after", 0, "misbehave from this many plies into the game")
	late := flag.Duration("late", 3*time.Second, "delay of the answer in -mode late and slownewgame")
	spread := flag.Bool("spread", false, "vary the move with the ply instead of playing the first legal one")
	flag.Parse()

	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	var b board
	newGame := false // an isready after ucinewgame is due (slownewgame)
	started := false // a "go" has come (slowstart)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			say("id name fake-%s", *mode)
			say("option name Dummy type spin default 1 min 0 max 10")
			say("uciok")
		case "ucinewgame":
			newGame = *mode == "slownewgame"
		case "isready":
			if newGame {
				time.Sleep(*late)
				newGame = false
			}
			say("readyok")
		case "quit":
			return
		case "position":
			if err := b.set(f[1:]); err != nil {
				fmt.Fprintln(os.Stderr, "fakeengine:", err)
				os.Exit(2)
			}
		case "go":
			if *mode == "slowstart" && !started {
				time.Sleep(*late)
			}
			started = true
			if b.pos == nil {
				b.pos = chess.StartingPosition()
			}
			plies := len(b.moves)
			misbehave := *mode != "normal" && *mode != "slowstart" && plies >= *after
			if misbehave {
				switch *mode {
				case "crash":
					fmt.Fprintln(os.Stderr, "fakeengine: crashing as asked")
					os.Exit(3)
				case "hang":
					// Swallow everything, "stop" included, until killed.
					for in.Scan() {
					}
					return
				case "late":
					time.Sleep(*late)
				case "latecrash":
					time.Sleep(*late)
					fmt.Fprintln(os.Stderr, "fakeengine: crashing late as asked")
					os.Exit(3)
				case "nomove":
					say("bestmove 0000")
					continue
				case "illegal":
					say("bestmove %s", illegalMove(b.pos))
					continue
				}
			}
			moves := b.pos.ValidMoves()
			m := moves[0].String()
			if *spread {
				m = moves[(plies*7+3)%len(moves)].String()
			}
			if misbehave && *mode == "absurd" {
				say("info depth 1 seldepth 1 score mate 99999999999 nodes -5 time 0 pv %s", m)
			} else {
				say("info depth 1 seldepth 1 score cp 0 nodes 1 time 0 pv %s", m)
			}
			say("bestmove %s", m)
			if misbehave && *mode == "twice" {
				say("bestmove %s", m)
			}
		}
	}
}

// board is the fake's game state. Positions are updated move by move with
// Position.Update (notnil/chess's Game re-scans the history for repetitions
// on every move), and a "position" command that extends the previous one
// only plays the new moves, so that the fake stays near-instant in long games.
type board struct {
	base  string // the FEN or "startpos" of the last position command
	moves []string
	pos   *chess.Position
}

// set applies "startpos|fen FEN [moves ...]".
func (b *board) set(args []string) error {
	base, i := "", 0
	switch {
	case len(args) > 0 && args[0] == "startpos":
		base, i = "startpos", 1
	case len(args) > 6 && args[0] == "fen":
		base, i = strings.Join(args[1:7], " "), 7
	default:
		return fmt.Errorf("bad position command %q", strings.Join(args, " "))
	}
	var moves []string
	if i < len(args) && args[i] == "moves" {
		moves = args[i+1:]
	}
	if b.pos == nil || base != b.base || len(moves) < len(b.moves) || !slices.Equal(moves[:len(b.moves)], b.moves) {
		b.base, b.moves = base, nil
		b.pos = chess.StartingPosition()
		if base != "startpos" {
			opt, err := chess.FEN(base)
			if err != nil {
				return err
			}
			b.pos = chess.NewGame(opt).Position()
		}
	}
	for _, m := range moves[len(b.moves):] {
		var next *chess.Move
		for _, v := range b.pos.ValidMoves() {
			if v.String() == m {
				next = v
			}
		}
		if next == nil {
			return fmt.Errorf("illegal move %s in %s", m, b.pos)
		}
		b.pos = b.pos.Update(next)
		b.moves = append(b.moves, m)
	}
	return nil
}

// illegalMove returns a move in UCI notation that is not legal in the
// position: a piece of the side to move jumping to a square it cannot reach.
func illegalMove(pos *chess.Position) string {
	legal := map[string]bool{}
	for _, m := range pos.ValidMoves() {
		legal[m.String()] = true
	}
	for from := chess.A1; from <= chess.H8; from++ {
		for to := chess.A1; to <= chess.H8; to++ {
			s := from.String() + to.String()
			if from != to && !legal[s] {
				return s
			}
		}
	}
	return "a1a1"
}
