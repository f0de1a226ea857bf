// Command fakeengine is a minimal UCI engine for the arena's tests. It plays
// the first legal move (in notnil/chess's order) and, once the game has at
// least -after plies, misbehaves as -mode says:
//
//	normal   never misbehaves
//	illegal  answers a well-formed but illegal move
//	nomove   answers "bestmove 0000"
//	crash    exits with status 3 on "go"
//	hang     never answers "go" and ignores "stop"
//	late     answers -late after "go" (ignoring "stop" until then)
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/notnil/chess"
)

func main() {
	mode := flag.String("mode", "normal", "normal, illegal, nomove, crash, hang or late")
	after := flag.Int("after", 0, "misbehave from this many plies into the game")
	late := flag.Duration("late", 3*time.Second, "delay of the answer in -mode late")
	flag.Parse()

	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	var game *chess.Game
	plies := 0
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
		case "isready":
			say("readyok")
		case "quit":
			return
		case "position":
			var err error
			game, plies, err = setPosition(f[1:])
			if err != nil {
				fmt.Fprintln(os.Stderr, "fakeengine:", err)
				os.Exit(2)
			}
		case "go":
			if game == nil {
				game = chess.NewGame()
			}
			misbehave := *mode != "normal" && plies >= *after
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
				case "nomove":
					say("bestmove 0000")
					continue
				case "illegal":
					say("bestmove %s", illegalMove(game))
					continue
				}
			}
			m := game.ValidMoves()[0].String()
			say("info depth 1 seldepth 1 score cp 0 nodes 1 time 0 pv %s", m)
			say("bestmove %s", m)
		}
	}
}

// setPosition applies "startpos|fen FEN [moves ...]".
func setPosition(args []string) (*chess.Game, int, error) {
	var opts []func(*chess.Game)
	i := 0
	switch {
	case len(args) > 0 && args[0] == "startpos":
		i = 1
	case len(args) > 6 && args[0] == "fen":
		opt, err := chess.FEN(strings.Join(args[1:7], " "))
		if err != nil {
			return nil, 0, err
		}
		opts = append(opts, opt)
		i = 7
	default:
		return nil, 0, fmt.Errorf("bad position command %q", strings.Join(args, " "))
	}
	g := chess.NewGame(opts...)
	n := 0
	if i < len(args) && args[i] == "moves" {
		for _, m := range args[i+1:] {
			mv, err := chess.UCINotation{}.Decode(g.Position(), m)
			if err != nil {
				return nil, 0, err
			}
			if err := g.Move(mv); err != nil {
				return nil, 0, err
			}
			n++
		}
	}
	return g, n, nil
}

// illegalMove returns a move in UCI notation that is not legal in the
// position: a piece of the side to move jumping to a square it cannot reach.
func illegalMove(g *chess.Game) string {
	legal := map[string]bool{}
	for _, m := range g.ValidMoves() {
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
