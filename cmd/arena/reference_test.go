//go:build !worker

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/config"
	"arena/engines"
)

// TestReferenceDocIsGenerated fails when docs/reference-keys.md is not what
// arena reference prints from the declarations: a key or option declared,
// changed or removed without regenerating the reference.
func TestReferenceDocIsGenerated(t *testing.T) {
	var got bytes.Buffer
	writeReference(&got)
	doc, err := os.ReadFile(filepath.Join("..", "..", ReferenceDoc))
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(doc) {
		t.Errorf("%s is not what arena reference prints from the declarations: regenerate it with go generate ./cmd/arena", ReferenceDoc)
	}
}

// TestReferenceNamesEveryKeyAndOption checks the generator: every declared
// config key and every option of every built-in engine has its row.
func TestReferenceNamesEveryKeyAndOption(t *testing.T) {
	var out bytes.Buffer
	if code := runReference(nil, &out, os.Stderr); code != 0 {
		t.Fatalf("arena reference exited %d", code)
	}
	text := out.String()
	for _, s := range config.Sections {
		for _, k := range s.Keys {
			if !strings.Contains(text, "| `"+k.Name+"` |") {
				t.Errorf("no row for config key %s.%s", s.Path, k.Name)
			}
		}
	}
	for _, s := range engines.List() {
		_, section, ok := strings.Cut(text, "\n### "+s.Name+"\n")
		if !ok {
			t.Errorf("no section for engine %s", s.Name)
			continue
		}
		section, _, _ = strings.Cut(section, "\n### ")
		for _, o := range s.Options {
			if !strings.Contains(section, "| `"+o.Name+"` |") {
				t.Errorf("engine %s: no row for option %s", s.Name, o.Name)
			}
		}
	}
}
