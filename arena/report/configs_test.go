package report

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	// The built-in engines register themselves; configs name them.
	"arena/arena/config"
	_ "arena/engines/deepchess"
	_ "arena/engines/giraffe"
	_ "arena/engines/heuristic"
	_ "arena/engines/mcts"
	_ "arena/engines/neural"
	_ "arena/engines/nnue"
	_ "arena/engines/random"
	_ "arena/engines/supervised"
)

// configsDir is the repository's configs/ directory, from its root: the
// tests change there, as configs name files relative to it (make runs
// from there).
const configsDir = "configs"

// k8sDir holds the Kubernetes manifests of docs/cluster.md.
var k8sDir = filepath.Join(configsDir, "deploy", "k8s")

// studyConfigs are the studies' config folders (studies/README.md).
const studyConfigs = "studies/*/configs"

// Every shipped config, the tool's and the studies', loads: names, options
// and openings resolve.
func TestShippedConfigsLoad(t *testing.T) {
	t.Chdir("../..")
	n := 0
	walk := func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path == k8sDir {
			return filepath.SkipDir // Kubernetes manifests, not arena configs
		}
		if d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return nil
		}
		n++
		if _, err := config.Load(path); err != nil {
			t.Errorf("%v", err)
		}
		return nil
	}
	studies, err := filepath.Glob(studyConfigs)
	if err != nil || len(studies) == 0 {
		t.Fatalf("no study configs in %s (%v)", studyConfigs, err)
	}
	for _, dir := range append([]string{configsDir}, studies...) {
		if err := filepath.WalkDir(dir, walk); err != nil {
			t.Fatal(err)
		}
	}
	if n < 7 {
		t.Errorf("%d configs under %s and %s, want at least the demo and the 6 thesis configs", n, configsDir, studyConfigs)
	}
}
