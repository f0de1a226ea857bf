package nets

import _ "embed"

// Giraffe is the shipped net of the giraffe engine: an engines/nn/mlp net
// (not a ValueNet, so it is not among Names), trained by "arena train
// giraffe" on Stockfish-labelled positions (docs/models.md).
const Giraffe = "giraffe"

//go:embed giraffe.safetensors
var giraffeFile []byte

// GiraffeFile returns the shipped giraffe net's safetensors file (read it
// with mlp.ReadSafetensors; the slice must not be modified).
func GiraffeFile() []byte { return giraffeFile }
