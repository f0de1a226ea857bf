package nets

import "fmt"

// NNUE is the shipped net of the nnue engine (engines/nnue), trained by
// "arena train nnue" (docs/nnue.md); the file is engines/nn/nets/NNUE.nnue.
const NNUE = "nnue-256"

// nnueFile is the shipped NNUE net's file, empty in a build without one.
var nnueFile []byte

// NNUEFile returns the shipped NNUE net's file (read it with nnue.Parse;
// the slice must not be modified).
func NNUEFile() ([]byte, error) {
	if len(nnueFile) == 0 {
		return nil, fmt.Errorf("the shipped net %s%s is not in this build (engines/nn/nets/%s.nnue is missing; docs/nnue.md says how it is trained)", Prefix, NNUE, NNUE)
	}
	return nnueFile, nil
}
