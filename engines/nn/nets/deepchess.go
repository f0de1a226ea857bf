package nets

import _ "embed"

// DeepChess is the shipped net of the deepchess engine: two mlp files
// (Pos2Vec and the comparison head) made by "arena train deepchess"
// (docs/models.md, "deepchess"). It is not a ValueNet, so it is not among
// Names; the engine reads it with deepchess.ParseModels.
const DeepChess = "deepchess"

var (
	//go:embed deepchess/pos2vec.safetensors
	deepChessPos2Vec []byte
	//go:embed deepchess/head.safetensors
	deepChessHead []byte
)

// DeepChessFiles returns the bytes of the shipped DeepChess net's
// pos2vec.safetensors and head.safetensors (shared: do not modify).
func DeepChessFiles() (pos2vec, head []byte) { return deepChessPos2Vec, deepChessHead }
