package nn

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/nlpodyssey/gopickle/pickle"

	"arena/internal/atomicfile"
)

// ReadFile reads a ValueNet weight file: safetensors or a torch.save
// checkpoint, told apart by content, not by name. The tensors are validated
// against the architecture. Errors start with the path.
func ReadFile(path string) (*Weights, Meta, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, Meta{}, fmt.Errorf("read model: %w", err)
	}
	var w *Weights
	var meta Meta
	if isZip(data) || isPickle(data) {
		w, meta, err = ReadPyTorch(data)
	} else {
		w, meta, err = ReadSafetensors(data)
	}
	if err == nil {
		err = w.Validate()
	}
	if err != nil {
		return nil, meta, fmt.Errorf("model %s: %w", path, err)
	}
	return w, meta, nil
}

// Load reads a weight file (see ReadFile) and builds the network.
func Load(path string) (*Net, Meta, error) {
	w, meta, err := ReadFile(path)
	if err != nil {
		return nil, meta, err
	}
	n, err := New(w)
	if err != nil {
		return nil, meta, fmt.Errorf("model %s: %w", path, err)
	}
	return n, meta, nil
}

func isZip(data []byte) bool { return bytes.HasPrefix(data, []byte("PK\x03\x04")) }

// isPickle recognises the legacy torch.save format, a bare pickle stream
// (PROTO opcode), so that it gets a helpful error instead of a safetensors one.
func isPickle(data []byte) bool {
	return len(data) >= 2 && data[0] == 0x80 && data[1] <= pickle.HighestProtocol
}

// SaveSafetensors writes w and m to path atomically (a temporary file in the
// same directory, synced, then renamed), so a crash never leaves half a model.
func SaveSafetensors(path string, w *Weights, m Meta) error {
	if err := w.Validate(); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err := atomicfile.Write(path, func(f io.Writer) error { return WriteSafetensors(f, w, m) }); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return nil
}
