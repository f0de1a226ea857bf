// Package nets holds the ValueNet weights shipped with arena, embedded in
// the binary so that the network engines work without any file outside the
// repository: "selfplay", trained by "arena train selfplay" (the default of
// the nn and mcts engines, as the thesis's NN_Reinforced net), and
// "supervised", trained by "arena train supervised" on Stockfish-labelled
// positions (the default of the supervised engine). docs/models.md records
// how each was made.
package nets

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"sync"

	"arena/engines/nn"
)

// Names of the shipped nets.
const (
	SelfPlay   = "selfplay"
	Supervised = "supervised"
)

// Prefix marks a model option naming a shipped net ("builtin:selfplay")
// rather than a file.
const Prefix = "builtin:"

var (
	//go:embed selfplay.safetensors
	selfPlayFile []byte
	//go:embed supervised.safetensors
	supervisedFile []byte

	files = map[string][]byte{SelfPlay: selfPlayFile, Supervised: supervisedFile}
)

type loaded struct {
	once sync.Once
	net  *nn.Net
	meta nn.Meta
	err  error
}

var cache = map[string]*loaded{SelfPlay: {}, Supervised: {}}

// Names lists the shipped nets.
func Names() []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Weights reads the weights and metadata of the shipped net called name
// (with or without Prefix), for inspecting them ("arena model info").
func Weights(name string) (*nn.Weights, nn.Meta, error) {
	data, ok := files[strings.TrimPrefix(name, Prefix)]
	if !ok {
		return nil, nn.Meta{}, fmt.Errorf("no shipped net %q (expected one of %s)", name, strings.Join(Names(), ", "))
	}
	return nn.ReadSafetensors(data)
}

// Load returns the shipped net called name (with or without Prefix). The
// net is built once and shared: nn.Net is immutable and safe for
// concurrent use.
func Load(name string) (*nn.Net, nn.Meta, error) {
	name = strings.TrimPrefix(name, Prefix)
	c, ok := cache[name]
	if !ok {
		return nil, nn.Meta{}, fmt.Errorf("no shipped net %q (expected one of %s)", name, strings.Join(Names(), ", "))
	}
	c.once.Do(func() {
		w, meta, err := nn.ReadSafetensors(files[name])
		if err == nil {
			c.net, err = nn.New(w)
		}
		c.meta, c.err = meta, err
		if err != nil {
			c.err = fmt.Errorf("shipped net %s: %w", name, err)
		}
	})
	return c.net, c.meta, c.err
}
