package nn

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// Format values of Meta.Format.
const (
	FormatSafetensors     = "safetensors"
	FormatTorchStateDict  = "pytorch state_dict"
	FormatTorchCheckpoint = "pytorch checkpoint {m, g, best_wr}"
)

// Keys of safetensors metadata and of the self-play trainer's checkpoint dict.
const (
	metaKeyArchitecture     = "architecture"
	metaKeyGeneration       = "generation"
	metaKeyBestWR           = "best_wr"
	metaKeyTraining         = "training"
	metaKeySource           = "source"
	checkpointKeyStateDict  = "m"
	checkpointKeyGeneration = "g"
	checkpointKeyBestWR     = "best_wr"
)

// Meta describes a weight file beyond its tensors.
type Meta struct {
	Format       string // how the file was stored (Format* constants); set by readers
	Architecture string // always Architecture for a file that loaded

	// Generation and BestWR come from a self-play checkpoint ("g", "best_wr")
	// or from safetensors metadata.
	Generation    int
	HasGeneration bool
	BestWR        float64
	HasBestWR     bool

	Training string            // free text: how the weights were trained
	Source   string            // the file the weights were converted from, if any
	Extra    map[string]string // other safetensors metadata, kept on conversion
}

// metadata is m as a safetensors __metadata__ map.
func (m Meta) metadata() map[string]string {
	md := maps.Clone(m.Extra)
	if md == nil {
		md = map[string]string{}
	}
	md[metaKeyArchitecture] = Architecture
	if m.HasGeneration {
		md[metaKeyGeneration] = strconv.Itoa(m.Generation)
	}
	if m.HasBestWR {
		md[metaKeyBestWR] = strconv.FormatFloat(m.BestWR, 'g', -1, 64)
	}
	if m.Training != "" {
		md[metaKeyTraining] = m.Training
	}
	if m.Source != "" {
		md[metaKeySource] = m.Source
	}
	return md
}

// metaFromMetadata reads the safetensors __metadata__ map. A file of another
// architecture is refused here, before its tensors are looked at.
func metaFromMetadata(md map[string]string) (Meta, error) {
	m := Meta{Format: FormatSafetensors, Architecture: Architecture}
	for _, k := range slices.Sorted(maps.Keys(md)) {
		v := md[k]
		switch k {
		case metaKeyArchitecture:
			if v != Architecture {
				return m, fmt.Errorf("metadata %s is %q, expected %q", k, v, Architecture)
			}
		case metaKeyGeneration:
			g, err := strconv.Atoi(v)
			if err != nil {
				return m, fmt.Errorf("metadata %s is %q, expected an integer", k, v)
			}
			m.Generation, m.HasGeneration = g, true
		case metaKeyBestWR:
			r, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return m, fmt.Errorf("metadata %s is %q, expected a number", k, v)
			}
			m.BestWR, m.HasBestWR = r, true
		case metaKeyTraining:
			m.Training = v
		case metaKeySource:
			m.Source = v
		default:
			if m.Extra == nil {
				m.Extra = map[string]string{}
			}
			m.Extra[k] = v
		}
	}
	return m, nil
}
