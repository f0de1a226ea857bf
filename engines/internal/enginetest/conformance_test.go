package enginetest_test

import (
	"testing"

	"arena/engines"
	"arena/engines/internal/enginetest"
	"arena/engines/uci/ucitest"

	// The built-in engines register themselves.
	_ "arena/engines/deepchess"
	_ "arena/engines/giraffe"
	_ "arena/engines/heuristic"
	_ "arena/engines/mcts"
	_ "arena/engines/neural"
	_ "arena/engines/nnue"
	_ "arena/engines/random"
	_ "arena/engines/supervised"
)

// subject describes the registered engine name, built by enginetest.New
// (with the model fixture when it takes a model), seeded when it takes a
// seed.
func subject(t *testing.T, name string) enginetest.Subject {
	spec, err := engines.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	_, seeded := spec.Option("seed")
	return enginetest.Subject{
		Name:         name,
		Seeded:       seeded,
		IgnoresNodes: name == "random",
		New: func(t *testing.T, opts map[string]string) engines.Engine {
			return enginetest.New(t, name, opts)
		},
	}
}

// TestConformance runs the suite against every built-in engine.
func TestConformance(t *testing.T) {
	names := engines.Names()
	if len(names) < 6 {
		t.Fatalf("registered engines %v: want at least heuristic, nn, mcts, supervised, random and giraffe", names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) { enginetest.Conformance(t, subject(t, name)) })
	}
}

// TestConformanceOverUCI runs the suite against the UCI client driving
// built-in engines served as "arena uci NAME" does: the client and the
// server together must keep the contract.
func TestConformanceOverUCI(t *testing.T) {
	for _, name := range []string{"heuristic", "mcts", "supervised", "giraffe", "deepchess", "nnue"} {
		s := subject(t, name)
		s.Name = "uci " + name
		s.New = func(t *testing.T, opts map[string]string) engines.Engine {
			return ucitest.Serve(t, name, enginetest.Options(t, name, nil), opts)
		}
		t.Run(name, func(t *testing.T) { enginetest.Conformance(t, s) })
	}
}
