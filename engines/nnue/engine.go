package nnue

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"arena/engines"
	"arena/engines/heuristic"
	"arena/engines/nn/nets"
)

// Name is the registry name of the engine.
const Name = "nnue"

const optModel = "model"

func init() {
	engines.Register(engines.Spec{
		Name: Name,
		Description: "NNUE: preset strong's alpha-beta search (engines/heuristic) with an efficiently updatable " +
			"768->Nx2->1 network as its evaluation, updated incrementally on make/unmake (model: the shipped net by default)",
		Options: Options(),
		New: func(opts engines.Options) (engines.Engine, error) {
			return New(opts)
		},
	})
}

// Options are the engine's options: the net, then the heuristic engine's
// search options with preset strong's values as their defaults, so that
// "engine: nnue" is strong's search and each technique can still be
// switched off ({lmr: false}).
func Options() []engines.Option {
	searchOpts, presets := heuristic.SearchOptions()
	strong := presets[0].Values
	opts := []engines.Option{{Name: optModel, Type: engines.String, Default: nets.Prefix + nets.NNUE,
		Help: "the net: an NNUE file (format in docs/nnue.md, 'arena model info FILE' describes one) or the shipped " + nets.Prefix + nets.NNUE}}
	for _, o := range searchOpts {
		if v, ok := strong[o.Name]; ok {
			o.Default = v
		}
		opts = append(opts, o)
	}
	return opts
}

// shipped is the shipped net, parsed once and shared (a Net is immutable).
var shipped = sync.OnceValues(func() (*Net, error) {
	data, err := nets.NNUEFile()
	if err != nil {
		return nil, err
	}
	return Parse(data, nets.Prefix+nets.NNUE)
})

// LoadModel reads the net a model option names: a file, or the shipped net
// as builtin:NAME.
func LoadModel(spec string) (*Net, error) {
	if name, ok := strings.CutPrefix(spec, nets.Prefix); ok {
		if name != nets.NNUE {
			return nil, fmt.Errorf("no shipped NNUE net %q (expected %s%s)", spec, nets.Prefix, nets.NNUE)
		}
		return shipped()
	}
	return Load(spec)
}

// Engine is the nnue engine. It is not safe for concurrent searches.
type Engine struct {
	search *heuristic.Engine
}

// New builds the engine from resolved options; the net is loaded now.
func New(opts engines.Options) (*Engine, error) {
	net, err := LoadModel(opts[optModel])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	s, err := heuristic.NewWithEvaluator(Name, opts, NewEvaluator(net))
	if err != nil {
		return nil, err
	}
	return &Engine{search: s}, nil
}

// Name identifies the engine and the search techniques switched on.
func (e *Engine) Name() string { return e.search.Name() }

// NewGame forgets the search's tables.
func (e *Engine) NewGame() { e.search.NewGame() }

// Close releases the tables.
func (e *Engine) Close() error { return e.search.Close() }

// Search finds a move for pos within lim.
func (e *Engine) Search(ctx context.Context, pos engines.Position, lim engines.Limits, info engines.InfoFunc) (engines.Result, error) {
	return e.search.Search(ctx, pos, lim, info)
}
