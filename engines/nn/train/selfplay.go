package train

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"arena/engines/board"
	"arena/engines/nn"
)

// SelfPlayConfig controls SelfPlay, the thesis's reinforcement loop.
type SelfPlayConfig struct {
	Generations int     // candidates trained and gated (default 5)
	Games       int     // self-play games per generation (default 200)
	RandomPlies int     // uniformly random opening plies per game (default 4)
	Temperature float64 // softmax temperature over move values after the opening (default 0.1; 0 = greedy)
	Epsilon     float64 // chance of a uniformly random move after the opening (default 0.05)
	MaxPlies    int     // a game still running after this many plies is adjudicated (default 160)
	Window      int     // generations of games a candidate trains on (default 2)
	// Discount, when in (0, 1), scales the outcome target of a position
	// n plies before the game's end by Discount^n, so that positions
	// closer to a win are worth more (progress towards mate); 0 or 1: the
	// plain outcome for every position.
	Discount  float64
	GateGames int     // candidate vs best games, colours alternating (default 20)
	Threshold float64 // score the candidate needs against the best (default 0.55)
	Train     Config  // the candidate's training on the games' positions
	Seed      uint64
	Workers   int    // goroutines playing games (default GOMAXPROCS)
	Init      *Model // generation 0 (default: a fresh model from Seed)
	// InitGeneration and InitBestWR describe Init (from its metadata) when
	// a run continues an earlier one: generations are numbered after it.
	InitGeneration int
	InitBestWR     float64
	Progress       io.Writer
	// Checkpoint, when set, is called with the best model after each
	// generation (to save it, so an interrupted run keeps its progress).
	Checkpoint func(best *Model, generation int, bestWR float64) error
}

func (c SelfPlayConfig) withDefaults() SelfPlayConfig {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.Generations, 5)
	def(&c.Games, 200)
	def(&c.RandomPlies, 4)
	def(&c.MaxPlies, 160)
	def(&c.Window, 2)
	def(&c.GateGames, 20)
	def(&c.Workers, runtime.GOMAXPROCS(0))
	if c.Threshold == 0 {
		c.Threshold = 0.55
	}
	if c.Temperature == 0 {
		c.Temperature = 0.1
	}
	if c.Epsilon == 0 {
		c.Epsilon = 0.05
	}
	if c.Train.Epochs == 0 {
		c.Train.Epochs = 2
	}
	return c
}

func (c SelfPlayConfig) validate() error {
	switch {
	case c.Generations < 1:
		return fmt.Errorf("generations is %d, expected >= 1", c.Generations)
	case c.Games < 2:
		return fmt.Errorf("games is %d, expected >= 2", c.Games)
	case c.RandomPlies < 0:
		return fmt.Errorf("random plies is %d, expected >= 0", c.RandomPlies)
	case c.Temperature < 0:
		return fmt.Errorf("temperature is %v, expected >= 0", c.Temperature)
	case c.Epsilon < 0 || c.Epsilon > 1:
		return fmt.Errorf("epsilon is %v, expected 0..1", c.Epsilon)
	case c.MaxPlies < 1:
		return fmt.Errorf("max plies is %d, expected >= 1", c.MaxPlies)
	case c.Discount < 0 || c.Discount > 1:
		return fmt.Errorf("discount is %v, expected 0..1", c.Discount)
	case c.Window < 1:
		return fmt.Errorf("window is %d, expected >= 1", c.Window)
	case c.GateGames < 2 || c.GateGames%2 != 0:
		return fmt.Errorf("gate games is %d, expected an even number >= 2", c.GateGames)
	case c.Threshold <= 0 || c.Threshold > 1:
		return fmt.Errorf("threshold is %v, expected in (0, 1]", c.Threshold)
	case c.Workers < 1:
		return fmt.Errorf("workers is %d, expected >= 1", c.Workers)
	}
	return c.Train.withDefaults().validate()
}

// Generation is the record of one generation of SelfPlay.
type Generation struct {
	Generation int
	Games      int
	Positions  int     // training positions (window)
	Decisive   float64 // share of the self-play games won by either side
	ValLoss    float64 // the candidate's best validation loss
	Score      float64 // the candidate's score against the best
	Accepted   bool
	Elapsed    time.Duration
}

// SelfPlayResult is what SelfPlay returns.
type SelfPlayResult struct {
	Best        *Model
	Generation  int     // the best model's generation (0: the initial one)
	BestWR      float64 // the score with which it passed its gate
	Generations []Generation
}

// SelfPlay runs the reinforcement loop. Each generation the best model
// plays Games games against itself (1-ply: every legal move evaluated, a
// move drawn by softmax over the values, after RandomPlies random moves and
// with Epsilon random moves); every position of a game gets the game's
// outcome from White's point of view (+1, 0, -1) as its value target
// (times Discount^plies-to-the-end when Discount is set); a
// candidate, starting from the best weights, is trained on the positions of
// the last Window generations, each also mirrored (ranks flipped, colours
// swapped, target negated: the same game with the colours exchanged, which
// doubles the data and teaches the net that a piece is worth as much to
// either side); it then plays GateGames greedy games against
// the best (the same random opening with each colour) and becomes the best
// when it scores at least Threshold.
//
// A game still running after MaxPlies plies is adjudicated by material
// (pawn 1, knight and bishop 3, rook 5, queen 9): a lead of at least 3 is a
// win, else a draw; draws by rule (stalemate, repetition, fifty moves,
// insufficient material) are draws.
// Without adjudication almost every game of an untrained net is drawn and
// the outcome targets carry no signal.
func SelfPlay(ctx context.Context, cfg SelfPlayConfig) (SelfPlayResult, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return SelfPlayResult{}, err
	}
	best := cfg.Init
	if best == nil {
		best = NewModel(cfg.Seed)
	}
	res := SelfPlayResult{Best: best, Generation: cfg.InitGeneration, BestWR: cfg.InitBestWR}
	var window [][]Sample
	for gen := cfg.InitGeneration + 1; gen <= cfg.InitGeneration+cfg.Generations; gen++ {
		t0 := time.Now()
		bestNet, err := nn.New(best.Weights())
		if err != nil {
			return res, err
		}
		games, err := playGames(ctx, cfg, bestNet, bestNet, cfg.Games, gen, false)
		if err != nil {
			return res, err
		}
		samples, decisive := outcomeSamples(games, cfg.Discount)
		window = append(window, samples)
		if len(window) > cfg.Window {
			window = window[1:]
		}
		var all []Sample
		for _, w := range window {
			all = append(all, w...)
		}
		tc := cfg.Train
		tc.Init = best
		tc.Seed = cfg.Seed + uint64(gen)
		tc.Progress = cfg.Progress
		fit, err := Fit(ctx, all, tc)
		if err != nil {
			return res, fmt.Errorf("generation %d: %w", gen, err)
		}
		candNet, err := nn.New(fit.Best.Weights())
		if err != nil {
			return res, err
		}
		gate, err := playGames(ctx, cfg, candNet, bestNet, cfg.GateGames, gen, true)
		if err != nil {
			return res, err
		}
		score := gateScore(gate)
		g := Generation{Generation: gen, Games: len(games), Positions: len(all), Decisive: float64(decisive) / float64(len(games)),
			ValLoss: fit.BestVal, Score: score, Accepted: score >= cfg.Threshold}
		if g.Accepted {
			best, res.Best, res.Generation, res.BestWR = fit.Best, fit.Best, gen, score
		}
		g.Elapsed = time.Since(t0)
		res.Generations = append(res.Generations, g)
		if cfg.Progress != nil {
			fmt.Fprintln(cfg.Progress, g)
		}
		if cfg.Checkpoint != nil {
			if err := cfg.Checkpoint(res.Best, res.Generation, res.BestWR); err != nil {
				return res, err
			}
		}
	}
	return res, nil
}

// outcomeSamples turns self-play games into training samples: every
// position with the game's outcome from White's side (discounted by the
// plies to the end when discount is in (0, 1)) and its mirror image with the
// outcome negated. It also counts the decisive games.
func outcomeSamples(games []game, discount float64) (samples []Sample, decisive int) {
	for _, g := range games {
		if g.result != 0 {
			decisive++
		}
		for i, pl := range g.positions {
			z := g.result
			if discount > 0 && discount < 1 {
				z *= math.Pow(discount, float64(len(g.positions)-1-i))
			}
			samples = append(samples, Sample{Board: pl, Target: float32(z)},
				Sample{Board: mirror(pl), Target: float32(-z)})
		}
	}
	return samples, decisive
}

// gateScore is the candidate's score per game in the gate games, where it
// has White in the even ones.
func gateScore(gate []game) float64 {
	var score float64
	for i, g := range gate {
		s := (g.result + 1) / 2
		if i%2 == 1 {
			s = 1 - s
		}
		score += s
	}
	return score / float64(len(gate))
}

// String is the generation's progress line.
func (g Generation) String() string {
	verdict := "rejected"
	if g.Accepted {
		verdict = "accepted"
	}
	return fmt.Sprintf("generation %d: %d games (%.0f%% decisive), %d positions, val loss %.4f, candidate scored %.3f vs best: %s (%s)",
		g.Generation, g.Games, 100*g.Decisive, g.Positions, g.ValLoss, g.Score, verdict, g.Elapsed.Round(time.Second))
}

// game is one finished game: the positions reached (the start included)
// and the result from White's point of view.
type game struct {
	positions []nn.Placement
	result    float64
}

// playGames plays n games between white and black nets in parallel; with
// gate set the nets swap colours every game (odd games: black plays White)
// and play greedily after the random opening, games 2k and 2k+1 sharing an
// opening. Game i is seeded from (Seed, gen, i).
func playGames(ctx context.Context, cfg SelfPlayConfig, white, black *nn.Net, n, gen int, gate bool) ([]game, error) {
	out := make([]game, n)
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(cfg.Workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ew, eb := white.NewEvaluator(), black.NewEvaluator()
			for ctx.Err() == nil {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				seedIdx := uint64(i)
				players := [2]*nn.Evaluator{ew, eb}
				temp, eps := cfg.Temperature, cfg.Epsilon
				if gate {
					seedIdx = uint64(i / 2)
					if i%2 == 1 {
						players = [2]*nn.Evaluator{eb, ew}
					}
					temp, eps = 0, 0
				}
				rng := rand.New(rand.NewPCG(cfg.Seed^uint64(gen)<<32, seedIdx<<1|b2u(gate)))
				out[i] = playGame(players, rng, cfg.RandomPlies, cfg.MaxPlies, temp, eps)
			}
		}()
	}
	wg.Wait()
	return out, ctx.Err()
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// playGame plays one 1-ply game; players[0] has White.
func playGame(players [2]*nn.Evaluator, rng *rand.Rand, randomPlies, maxPlies int, temp, eps float64) game {
	p := board.NewPosition()
	var g game
	var ml board.MoveList
	inputs := make([]nn.Input, 0, 256)
	values := make([]float32, 256)
	for ply := 0; ; ply++ {
		g.positions = append(g.positions, placement(p))
		p.GenerateLegal(&ml)
		switch st := p.Status(); {
		case st == board.Checkmate && p.SideToMove() == board.White:
			g.result = -1
			return g
		case st == board.Checkmate:
			g.result = 1
			return g
		case st != board.Ongoing:
			return g
		}
		if ply >= maxPlies {
			g.result = adjudicate(p)
			return g
		}
		if ply < randomPlies || rng.Float64() < eps {
			p.MakeMove(ml.Moves[rng.IntN(ml.Len)])
			continue
		}
		// Value of each move from the mover's point of view: a mate is 2,
		// a draw by rule 0, else the network.
		sign := float32(1)
		if p.SideToMove() == board.Black {
			sign = -1
		}
		scores := make([]float64, ml.Len)
		inputs = inputs[:0]
		var netMoves []int
		for i := range ml.Len {
			p.MakeMove(ml.Moves[i])
			switch st := p.Status(); {
			case st == board.Checkmate:
				scores[i] = 2
			case st != board.Ongoing:
				scores[i] = 0
			default:
				var in nn.Input
				in.SetPosition(p)
				inputs = append(inputs, in)
				netMoves = append(netMoves, i)
			}
			p.UnmakeMove()
		}
		evaluator := players[p.SideToMove()]
		evaluator.EvaluateBatch(inputs, values)
		for k, i := range netMoves {
			scores[i] = float64(sign * values[k])
		}
		p.MakeMove(ml.Moves[choose(scores, rng, temp)])
	}
}

// choose picks the index of the best score (temp 0; ties to the first) or
// draws one with probability proportional to exp(score/temp).
func choose(scores []float64, rng *rand.Rand, temp float64) int {
	best := 0
	for i, s := range scores {
		if s > scores[best] {
			best = i
		}
	}
	if temp == 0 || scores[best] >= 2 {
		return best
	}
	var total float64
	w := make([]float64, len(scores))
	for i, s := range scores {
		w[i] = math.Exp((s - scores[best]) / temp)
		total += w[i]
	}
	r := rng.Float64() * total
	for i, x := range w {
		r -= x
		if r < 0 {
			return i
		}
	}
	return best
}

// adjudicate scores a game stopped without mate by material: a lead of at
// least 3 pawns wins, else a draw.
func adjudicate(p *board.Position) float64 {
	values := [...]int{1, 3, 3, 5, 9, 0}
	diff := 0
	for pt := board.Pawn; pt <= board.King; pt++ {
		diff += values[pt] * (p.Pieces(board.White, pt).Count() - p.Pieces(board.Black, pt).Count())
	}
	switch {
	case diff >= 3:
		return 1
	case diff <= -3:
		return -1
	}
	return 0
}

// placement is p's pieces as an nn.Placement.
func placement(p *board.Position) nn.Placement {
	var pl nn.Placement
	for sq := range board.Square(64) {
		pc := p.PieceAt(sq)
		if pc == board.NoPiece {
			continue
		}
		v := int8(pc.Type()) + 1
		if pc.Color() == board.Black {
			v = -v
		}
		pl[sq] = v
	}
	return pl
}

// mirror flips pl's ranks and swaps the colours of its pieces.
func mirror(pl nn.Placement) nn.Placement {
	var m nn.Placement
	for sq, v := range pl {
		m[sq^56] = -v
	}
	return m
}
