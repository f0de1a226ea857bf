// Package texel fits the heuristic engine's evaluation weights (piece-square
// tables and eval_terms, heuristic.Weights) to game results by Texel's
// method: the evaluation e of a position, in centipawns from White's point
// of view, predicts White's score as sigmoid(K*e) = 1/(1+10^(-K*e/400)), and
// the weights minimise the mean squared error between that and the game's
// result (1, 0.5, 0).
//
// The evaluation is linear in its weights but for king safety (the square
// of the attack weights, capped), so each position is traced once into its
// terms (heuristic.Tracer: coefficient times weight, tapered by the phase)
// plus a rest held fixed; the fit is then full-batch Adam on that linear
// model, which is exact for every weight it moves. K is fitted first, on the
// starting weights, by golden-section search, and kept: fitting it again on
// the tuned weights would trade the evaluation's scale against K. The
// held-out positions are the data's last ones (the file is in game order, so
// they are other games than the training ones, as correlated positions of
// one game would flatter the held-out error). Data read with weights w give
// at Theta(w) the engine's own evaluation exactly (the rest holds the
// integer rounding), so the held-out error of the rounded tuned weights is
// measured by reading the held-out positions again with them.
package texel

import (
	"bufio"
	"context"
	"fmt"
	"go/format"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"arena/engines/board"
	"arena/engines/heuristic"
)

// Position is a traced position: its terms and the rest of its evaluation.
type Position struct {
	Terms  []heuristic.Term
	Rest   float64 // evaluation minus sum(Coef x parameter) at the weights traced with
	Result float64 // White's score: 1, 0.5 or 0
}

// Data are traced positions.
type Data struct {
	Pos    []Position
	Params int // the number of parameters of the weights traced with
}

// Read reads "FEN | score | result" lines (docs/nnue.md; the score is not
// used) and traces them with weights w. With limit > 0 only the first limit
// positions are read and fewer is an error. Errors name the file and line.
func Read(r io.Reader, name string, limit int, w *heuristic.Weights) (*Data, error) {
	tr := heuristic.NewTracer(w)
	params := w.Params()
	d := &Data{Params: len(params)}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var terms []heuristic.Term
	for n := 1; (limit <= 0 || len(d.Pos) < limit) && sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Split(line, "|")
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s:%d: %d |-separated fields, expected 3 (FEN | score | result)", name, n, len(fields))
		}
		p, err := board.ParseFEN(strings.TrimSpace(fields[0]))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		res, err := strconv.ParseFloat(strings.TrimSpace(fields[2]), 64)
		if err != nil || res != 0 && res != 0.5 && res != 1 {
			return nil, fmt.Errorf("%s:%d: result %q: expected 1.0, 0.5 or 0.0", name, n, strings.TrimSpace(fields[2]))
		}
		var eval int32
		terms, eval = tr.Trace(p, terms)
		rest := float64(eval)
		for _, t := range terms {
			rest -= t.Coef * float64(*params[t.Param].V)
		}
		d.Pos = append(d.Pos, Position{Terms: append([]heuristic.Term(nil), terms...), Rest: rest, Result: res})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if limit > 0 && len(d.Pos) < limit {
		return nil, fmt.Errorf("%s: %d positions, expected at least %d", name, len(d.Pos), limit)
	}
	return d, nil
}

// ReadFile is Read of a file.
func ReadFile(path string, limit int, w *heuristic.Weights) (*Data, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(bufio.NewReaderSize(f, 1<<20), path, limit, w)
}

// Split returns the first positions and the last share of them (held out).
func (d *Data) Split(share float64) (train, held *Data) {
	n := len(d.Pos) - int(math.Round(share*float64(len(d.Pos))))
	return &Data{Pos: d.Pos[:n], Params: d.Params}, &Data{Pos: d.Pos[n:], Params: d.Params}
}

// ln10over400 turns K*e (centipawns) into the logistic's argument.
const ln10over400 = math.Ln10 / 400

func sigmoid(k, e float64) float64 { return 1 / (1 + math.Exp(-k*ln10over400*e)) }

// eval is the linear model's evaluation of p with parameters theta.
func eval(p *Position, theta []float64) float64 {
	e := p.Rest
	for _, t := range p.Terms {
		e += t.Coef * theta[t.Param]
	}
	return e
}

// MSE is the mean squared error of sigmoid(k*e) against the results, with
// the linear model at theta.
func (d *Data) MSE(k float64, theta []float64) float64 {
	var s float64
	for i := range d.Pos {
		p := &d.Pos[i]
		r := p.Result - sigmoid(k, eval(p, theta))
		s += r * r
	}
	return s / float64(len(d.Pos))
}

// FitK returns the K in [0.05, 5] that minimises the MSE at theta
// (golden-section search; the error is unimodal in K).
func (d *Data) FitK(theta []float64) float64 {
	lo, hi := 0.05, 5.0
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := d.MSE(a, theta), d.MSE(b, theta)
	for hi-lo > 1e-4 {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = d.MSE(a, theta)
		} else {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = d.MSE(b, theta)
		}
	}
	return (lo + hi) / 2
}

// gradParts is the number of parts of the training set whose gradients are
// summed in a fixed order: the fit does not depend on the number of threads
// (at most gradParts) that compute them.
const gradParts = 2

// Config is a fit's settings.
type Config struct {
	Epochs  int     // full-batch Adam steps
	LR      float64 // Adam's step in centipawns
	Threads int     // goroutines for the gradient (the fit does not depend on it)
	Frozen  []bool  // by parameter: kept at its starting value (nil: none)
	// Progress, if set, gets a line every ProgressEvery epochs.
	Progress      io.Writer
	ProgressEvery int
}

// Fit minimises the training MSE at fixed k from theta (changed in place)
// and reports the held-out MSE as it goes. It stops early, keeping theta,
// when ctx is cancelled.
func Fit(ctx context.Context, cfg Config, k float64, train, held *Data, theta []float64) error {
	threads := max(1, min(cfg.Threads, gradParts))
	n := len(theta)
	m, v := make([]float64, n), make([]float64, n)
	grads := make([][]float64, gradParts)
	for i := range grads {
		grads[i] = make([]float64, n)
	}
	chunk := (len(train.Pos) + gradParts - 1) / gradParts
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	start := time.Now()
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var wg sync.WaitGroup
		for w := 0; w < threads; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for part := w; part < gradParts; part += threads {
					g := grads[part]
					clear(g)
					pos := train.Pos[min(part*chunk, len(train.Pos)):min((part+1)*chunk, len(train.Pos))]
					for i := range pos {
						p := &pos[i]
						s := sigmoid(k, eval(p, theta))
						// d/de of (r - s)^2.
						d := -2 * (p.Result - s) * s * (1 - s) * k * ln10over400
						for _, t := range p.Terms {
							g[t.Param] += d * t.Coef
						}
					}
				}
			}()
		}
		wg.Wait()
		b1, b2 := 1-math.Pow(beta1, float64(epoch)), 1-math.Pow(beta2, float64(epoch))
		for j := range theta {
			if cfg.Frozen != nil && cfg.Frozen[j] {
				continue
			}
			var g float64
			for w := range grads {
				g += grads[w][j]
			}
			g /= float64(len(train.Pos))
			m[j] = beta1*m[j] + (1-beta1)*g
			v[j] = beta2*v[j] + (1-beta2)*g*g
			theta[j] -= cfg.LR * (m[j] / b1) / (math.Sqrt(v[j]/b2) + eps)
		}
		if cfg.Progress != nil && cfg.ProgressEvery > 0 && (epoch%cfg.ProgressEvery == 0 || epoch == cfg.Epochs) {
			fmt.Fprintf(cfg.Progress, "epoch %d/%d: train MSE %.6f, held-out MSE %.6f, %s\n",
				epoch, cfg.Epochs, train.MSE(k, theta), held.MSE(k, theta), time.Since(start).Round(time.Second))
		}
	}
	return nil
}

// Theta returns w's parameters as floats, in Params order.
func Theta(w *heuristic.Weights) []float64 {
	ps := w.Params()
	theta := make([]float64, len(ps))
	for i, p := range ps {
		theta[i] = float64(*p.V)
	}
	return theta
}

// SetWeights rounds theta into w's parameters.
func SetWeights(w *heuristic.Weights, theta []float64) {
	for i, p := range w.Params() {
		*p.V = int32(math.Round(theta[i]))
	}
}

// GoSource returns tuned.go of package heuristic: weights as the variable
// tunedWeights (option eval_weights=tuned), after a comment that says how
// they were made (one line per element of comment).
func GoSource(w *heuristic.Weights, comment []string) ([]byte, error) {
	var b strings.Builder
	b.WriteString("// Code generated by arena train texel; DO NOT EDIT.\n\n")
	b.WriteString("package heuristic\n\n")
	for _, c := range comment {
		b.WriteString("// " + c + "\n")
	}
	b.WriteString("var tunedWeights = Weights{\n")
	table := func(name string, t *[6][64]int32) {
		b.WriteString(name + ": [6][64]int32{\n")
		for pt := range t {
			b.WriteString("{\n")
			for r := 0; r < 8; r++ {
				for f := 0; f < 8; f++ {
					fmt.Fprintf(&b, "%d, ", t[pt][r*8+f])
				}
				b.WriteString("\n")
			}
			b.WriteString("},\n")
		}
		b.WriteString("},\n")
	}
	table("MgPST", &w.MgPST)
	table("EgPST", &w.EgPST)
	elem := func(v [2]int32) string { return fmt.Sprintf("{%d, %d}", v[0], v[1]) }
	pair := func(v [2]int32) string { return "[2]int32" + elem(v) }
	b.WriteString("Mobility: [6][2]int32{")
	for pt := range w.Mobility {
		b.WriteString(elem(w.Mobility[pt]) + ", ")
	}
	b.WriteString("},\n")
	fmt.Fprintf(&b, "BishopPair: %s, DoubledPawn: %s, IsolatedPawn: %s,\n", pair(w.BishopPair), pair(w.DoubledPawn), pair(w.IsolatedPawn))
	b.WriteString("PassedPawn: [8][2]int32{")
	for r := range w.PassedPawn {
		b.WriteString(elem(w.PassedPawn[r]) + ", ")
	}
	b.WriteString("},\n")
	fmt.Fprintf(&b, "RookOpen: %s, RookSemiOpen: %s,\n}\n", pair(w.RookOpen), pair(w.RookSemiOpen))
	return format.Source([]byte(b.String()))
}
