package dctrain

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"arena/engines/board"
	"arena/engines/deepchess"
)

// SkipPlies is the opening part of every game left out of the data:
// DeepChess's first five moves, counted from the game's start position
// (after the book opening).
const SkipPlies = 10

// gameLine is the part of a games.jsonl record (arena.GameRecord) the
// extraction reads.
type gameLine struct {
	Game   int    `json:"game"`
	Pair   int    `json:"pair"`
	FEN    string `json:"fen"`
	Result string `json:"result"`
	Moves  []struct {
		UCI string `json:"uci"`
	} `json:"moves"`
}

// Positions is a set of positions stored as their active inputs
// (deepchess.Active), back to back.
type Positions struct {
	idx []int16
	off []int32 // position i is idx[off[i]:off[i+1]]
}

// Len is the number of positions.
func (s *Positions) Len() int { return max(len(s.off)-1, 0) }

// At returns the active inputs of position i.
func (s *Positions) At(i int) []int16 { return s.idx[s.off[i]:s.off[i+1]] }

func (s *Positions) add(active []int32) {
	if len(s.off) == 0 {
		s.off = append(s.off, 0)
	}
	for _, a := range active {
		s.idx = append(s.idx, int16(a))
	}
	s.off = append(s.off, int32(len(s.idx)))
}

// Dense writes position i's 773 inputs into dst as 0/1 floats.
func (s *Positions) Dense(i int, dst []float32) {
	clear(dst[:deepchess.Inputs])
	for _, a := range s.At(i) {
		dst[a] = 1
	}
}

// Split is the data of one side of the held-out split: positions from games
// White won and from games Black won.
type Split struct {
	WhiteWon, BlackWon Positions
	Games              int // decisive games read into it
}

// Data is the extracted training and held-out positions and what was
// skipped.
type Data struct {
	Train, Held  Split
	Draws        int // games skipped as drawn
	Skipped      int // positions skipped: the first SkipPlies, after a capture
	HeldOutEvery int
}

// HeldOut reports whether a game is held out: every n-th opening (game
// pair), so the two games of an opening never fall on both sides.
func HeldOut(game, pair, n int) bool {
	k := pair
	if k == 0 {
		k = game
	}
	return n > 0 && k%n == 0
}

// Opener opens a games file. The CLI passes arena/output's, which also
// reads the games.jsonl.gz of compressed runs; engines may not import the
// arena's packages.
type Opener func(path string) (io.ReadCloser, error)

// ReadGames extracts positions from the decisive games of arena run
// games.jsonl files, opened with open, holding out every heldOutEvery-th
// opening.
func ReadGames(paths []string, heldOutEvery int, open Opener) (*Data, error) {
	d := &Data{HeldOutEvery: heldOutEvery}
	for _, path := range paths {
		f, err := open(path)
		if err != nil {
			return nil, err
		}
		name := path
		if n, ok := f.(interface{ Name() string }); ok {
			name = n.Name() // the file found: games.jsonl.gz for games.jsonl
		}
		err = d.read(f, name)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (d *Data) read(r io.Reader, name string) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var g gameLine
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			return fmt.Errorf("%s:%d: not a games.jsonl record: %v", name, line, err)
		}
		if err := d.addGame(&g); err != nil {
			return fmt.Errorf("%s:%d: game %d: %v", name, line, g.Game, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}

// addGame replays a decisive game and keeps its positions after the
// opening part that do not follow a capture: DeepChess's rule, as such
// positions are mid-exchange and say little about who is better.
func (d *Data) addGame(g *gameLine) error {
	split := &d.Train
	if HeldOut(g.Game, g.Pair, d.HeldOutEvery) {
		split = &d.Held
	}
	var into *Positions
	switch g.Result {
	case "1-0":
		into = &split.WhiteWon
	case "0-1":
		into = &split.BlackWon
	case "1/2-1/2", "*":
		d.Draws++
		return nil
	default:
		return fmt.Errorf("result %q, expected 1-0, 0-1, 1/2-1/2 or *", g.Result)
	}
	fen := g.FEN
	if fen == "" {
		fen = board.StartFEN
	}
	p, err := board.ParseFEN(fen)
	if err != nil {
		return err
	}
	var buf [40]int32
	for i, mv := range g.Moves {
		m, err := p.ParseMove(mv.UCI)
		if err != nil {
			return fmt.Errorf("ply %d: %v", i+1, err)
		}
		p.MakeMove(m)
		if i+1 <= SkipPlies || m.IsCapture() {
			d.Skipped++
			continue
		}
		into.add(deepchess.Active(p, buf[:0]))
	}
	split.Games++
	return nil
}

// AddMirrors adds to the training split the colour-flipped mirror of every
// training position (deepchess.Mirror), on the other side: a position from
// a game White won, mirrored, is as good for Black as the original was for
// White. That doubles the positions at no cost, and teaches the net the
// symmetry the engine relies on when it compares a position with its mirror
// (draws, scores). The held-out split is left as played.
func (d *Data) AddMirrors() {
	w, b := &d.Train.WhiteWon, &d.Train.BlackWon
	nw, nb := w.Len(), b.Len()
	var buf [40]int32
	for i := range nw {
		b.add(deepchess.Mirror(w.At(i), buf[:0]))
	}
	for i := range nb {
		w.add(deepchess.Mirror(b.At(i), buf[:0]))
	}
}
