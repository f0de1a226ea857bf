package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run's config.yaml reads back with LoadRecorded where its engines' model
// files are not found (a run started elsewhere); Load refuses it.
func TestLoadRecorded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	data := "limits: {depth: 1}\nengines: [{name: A, engine: nn, options: {model: gone.pt}}, {name: B, engine: random}]\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "gone.pt") {
		t.Errorf("Load: %v, want an error naming gone.pt", err)
	}
	cfg, err := LoadRecorded(path)
	if err != nil || len(cfg.Engines) != 2 || cfg.Engines[0].Options["model"] != "gone.pt" || cfg.Engines[0].Limits.Depth != 1 {
		t.Fatalf("LoadRecorded: %v, %+v", err, cfg)
	}
}
