package nn

import (
	"path/filepath"
	"strings"
	"testing"

	"arena/internal/fixture"
)

func TestConvert(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.safetensors")
	if _, err := Convert(fixture.Gunzip(t, "testdata/valuenet_ckpt.pt.gz"), out, "self-play, 3 generations"); err != nil {
		t.Fatal(err)
	}
	_, meta, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if meta.Format != FormatSafetensors || meta.Generation != 3 || meta.BestWR != 0.55 || meta.Source != "valuenet_ckpt.pt" || meta.Training != "self-play, 3 generations" {
		t.Errorf("converted file's metadata %+v", meta)
	}
	// Converting the safetensors again keeps the original source.
	out2 := filepath.Join(t.TempDir(), "m2.safetensors")
	if meta, err = Convert(out, out2, ""); err != nil {
		t.Fatal(err)
	}
	if meta.Source != "valuenet_ckpt.pt" || meta.Training != "self-play, 3 generations" {
		t.Errorf("second conversion's metadata %+v", meta)
	}
	if _, err := Convert("testdata/golden.json", out, ""); err == nil || !strings.Contains(err.Error(), "golden.json") {
		t.Errorf("converting a JSON file: error %v, expected one naming it", err)
	}
}
