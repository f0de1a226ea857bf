package nnue

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/heuristic"
	"arena/engines/nn/nets"
)

// checked is an Evaluator that compares every evaluation the search asks
// for with the net's value of the position from scratch.
type checked struct {
	*Evaluator
	t          *testing.T
	evals, bad int
}

func (c *checked) Evaluate(p *board.Position) int32 {
	got := c.Evaluator.Evaluate(p)
	c.evals++
	if want := c.net.Evaluate(p); got != want && c.bad == 0 {
		c.t.Errorf("search at %s: incremental eval %d, from scratch %d", p.FEN(), got, want)
		c.bad++
	}
	return got
}

func resolved(t testing.TB, values map[string]string) engines.Options {
	t.Helper()
	spec, err := engines.Lookup(Name)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := spec.Resolve(values)
	if err != nil {
		t.Fatal(err)
	}
	return opts
}

// TestSearchKeepsAccumulatorsInStep: through the strong search's whole
// tree (null moves, reductions, quiescence, re-searches, moves made and
// skipped) every evaluation equals the net's value from scratch.
func TestSearchKeepsAccumulatorsInStep(t *testing.T) {
	net := RandomNet(9, 32, SCReLU)
	for _, k := range paths() {
		ev := &checked{Evaluator: newEvaluator(net, k), t: t}
		e, err := heuristic.NewWithEvaluator(Name, resolved(t, nil), ev)
		if err != nil {
			t.Fatal(err)
		}
		for _, fen := range treePositions {
			e.NewGame()
			res, err := e.Search(context.Background(), engines.Position{FEN: fen}, engines.Limits{Nodes: 30000}, nil)
			if err != nil || res.Move == "" {
				t.Fatalf("%s: %+v, %v", fen, res, err)
			}
		}
		if ev.evals < 1000 {
			t.Errorf("%s kernels: only %d evaluations checked", k.name, ev.evals)
		}
	}
}

// TestKernelPathsSearchAlike: the assembly and Go kernels give the same
// search, node for node.
func TestKernelPathsSearchAlike(t *testing.T) {
	net := RandomNet(10, 64, SCReLU)
	var first []engines.Result
	for i, k := range paths() {
		e, err := heuristic.NewWithEvaluator(Name, resolved(t, nil), newEvaluator(net, k))
		if err != nil {
			t.Fatal(err)
		}
		for j, fen := range treePositions[:4] {
			res, err := e.Search(context.Background(), engines.Position{FEN: fen}, engines.Limits{Nodes: 20000}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = append(first, res)
			} else if f := first[j]; res.Move != f.Move || res.Nodes != f.Nodes || res.Score != f.Score || res.Depth != f.Depth {
				t.Errorf("%s: %s kernels %s %v %d nodes depth %d, %s kernels %s %v %d nodes depth %d", fen,
					k.name, res.Move, res.Score, res.Nodes, res.Depth, paths()[0].name, f.Move, f.Score, f.Nodes, f.Depth)
			}
		}
	}
}

// TestOptions: the engine's defaults are preset strong's search, without
// PeSTO's options, and the net option names the shipped net.
func TestOptions(t *testing.T) {
	opts := resolved(t, nil)
	_, presets := heuristic.SearchOptions()
	for name, v := range presets[0].Values {
		if opts[name] != v {
			t.Errorf("option %s defaults to %q, preset strong sets %q", name, opts[name], v)
		}
	}
	for _, name := range []string{"eval_terms", "pst", "preset"} {
		if _, ok := opts[name]; ok {
			t.Errorf("the nnue engine has option %s", name)
		}
	}
	if opts[optModel] != "builtin:"+nets.NNUE {
		t.Errorf("model defaults to %q", opts[optModel])
	}
	if user := resolved(t, map[string]string{"lmr": "false"}); user["lmr"] != "false" || user["pvs"] != "true" {
		t.Errorf("lmr=false resolves to lmr %s pvs %s", user["lmr"], user["pvs"])
	}
}

func TestNewEngine(t *testing.T) {
	path := writeNet(t, RandomNet(11, 32, CReLU))
	e, err := New(resolved(t, map[string]string{optModel: path}))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if !strings.HasPrefix(e.Name(), "nnue (pvs,") {
		t.Errorf("name %q", e.Name())
	}
	res, err := e.Search(context.Background(), engines.Position{}, engines.Limits{Depth: 4}, nil)
	if err != nil || res.Depth != 4 || res.Move == "" {
		t.Errorf("depth 4 from the start: %+v, %v", res, err)
	}
	for model, want := range map[string]string{
		"builtin:nope":              `no shipped NNUE net "builtin:nope"`,
		path + ".missing":           path + ".missing",
		"/dev/null":                 "nnue net /dev/null: 0 bytes, too short",
		"builtin:" + nets.NNUE + "": nets.NNUE,
	} {
		_, err := New(resolved(t, map[string]string{optModel: model}))
		if _, shippedErr := nets.NNUEFile(); model == "builtin:"+nets.NNUE && shippedErr == nil {
			if err != nil {
				t.Errorf("the shipped net: %v", err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("model %s: error %v, want one saying %q", model, err, want)
		}
	}
}

// TestShippedNetEmbedded: the binary carries the shipped net exactly when
// its file is in the tree, byte for byte, and it is a valid net.
func TestShippedNetEmbedded(t *testing.T) {
	file, fileErr := os.ReadFile(filepath.Join("..", "nn", "nets", nets.NNUE+".nnue"))
	data, err := nets.NNUEFile()
	switch {
	case fileErr != nil && err == nil:
		t.Errorf("no %s.nnue in the tree (%v), yet NNUEFile returns %d bytes", nets.NNUE, fileErr, len(data))
	case fileErr == nil && (err != nil || !bytes.Equal(data, file)):
		t.Errorf("%s.nnue is in the tree but not embedded as it is: %v", nets.NNUE, err)
	case fileErr == nil:
		if _, err := LoadModel("builtin:" + nets.NNUE); err != nil {
			t.Error(err)
		}
	}
}
