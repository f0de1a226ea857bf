package nn

import "path/filepath"

// Convert reads a weight file (usually a torch.save checkpoint) and writes it
// as safetensors, keeping the tensor names, generation and best_wr, and
// recording the input's file name as the source. A non-empty training
// replaces the description of how the weights were trained.
func Convert(in, out, training string) (Meta, error) {
	w, meta, err := ReadFile(in)
	if err != nil {
		return meta, err
	}
	if meta.Format != FormatSafetensors {
		meta.Source = filepath.Base(in)
	}
	if training != "" {
		meta.Training = training
	}
	if err := SaveSafetensors(out, w, meta); err != nil {
		return meta, err
	}
	meta.Format = FormatSafetensors
	return meta, nil
}
