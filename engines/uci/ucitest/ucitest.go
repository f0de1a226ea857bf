// Package ucitest connects the UCI client to a built-in engine served in
// process, for tests, as net/http/httptest does for HTTP.
//
// It is apart from engines/internal/enginetest (the engine test kit) so that
// the kit does not import engines/uci: the uci package's own tests use the
// kit's checks, which an import of uci by the kit would make a cycle.
package ucitest

import (
	"context"
	"io"
	"testing"

	"arena/engines"
	"arena/engines/uci"
)

// Serve serves the registered engine name with the initial options over
// in-process pipes, as "arena uci NAME --option ..." does, and connects the
// UCI client to it with the client options. The client is closed and the
// server's result checked when the test ends.
func Serve(t *testing.T, name string, initial, clientOpts map[string]string) *uci.Client {
	t.Helper()
	spec, err := engines.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		err := uci.Serve(spec, initial, inR, outW)
		outW.Close()
		served <- err
	}()
	c, err := uci.Connect(context.Background(), outR, inW, uci.ClientConfig{Command: "arena uci " + name, Options: clientOpts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return c
}
