package nets

import (
	"embed"
	"fmt"
)

// NNUE is the shipped net of the nnue engine (engines/nnue), trained by
// "arena train nnue" (docs/nnue.md); the file is engines/nn/nets/NNUE.nnue.
const NNUE = "nnue-256"

// nnueFiles embeds the shipped NNUE net when its file exists at build
// time. The pattern also matches this source file, so that it matches
// something in a tree without the net (go:embed refuses a pattern that
// matches nothing) and such a tree still builds, with an engine that says
// what is missing.
//
//go:embed nnue*
var nnueFiles embed.FS

// NNUEFile returns the shipped NNUE net's file (read it with nnue.Parse;
// the slice must not be modified).
func NNUEFile() ([]byte, error) {
	data, err := nnueFiles.ReadFile(NNUE + ".nnue")
	if err != nil {
		return nil, fmt.Errorf("the shipped net %s%s is not in this build (engines/nn/nets/%s.nnue was missing when it was built; docs/nnue.md says how it is trained)", Prefix, NNUE, NNUE)
	}
	return data, nil
}
