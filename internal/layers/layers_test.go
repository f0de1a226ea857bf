// Package layers checks the import rules of docs/architecture.md: every
// package of the module belongs to a layer, and imports (its tests' too)
// only packages of its own layer or of lower ones. The layers are declared
// once, below; the doc's "Layers" table is checked against the declaration,
// so the rule the doc states and the rule the test enforces cannot drift.
package layers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// layer is a set of packages, named by module-relative patterns: "x" is
// the package x, "x/..." is x and every package below it. A package belongs
// to the layer of its longest matching pattern (an exact name beats "x/..."
// of the same length).
type layer struct {
	patterns []string
	what     string
}

// layers, lowest first. A package may import packages of its own layer and
// of lower layers. Go's lack of import cycles orders the packages inside a
// layer.
var layers = []layer{
	{[]string{"internal/..."}, "utilities every layer may use"},
	{[]string{"engines/board"}, "the bitboard position"},
	{[]string{"engines/..."}, "the Engine interface, the registry and the engines, their nets and trainers, the UCI client and server"},
	{[]string{"tracker/..."}, "the Stockfish judge, statistics, PGN"},
	{[]string{"arena/openings", "arena/book/polyglot"}, "opening books"},
	{[]string{"arena/config"}, "the config schema"},
	{[]string{"arena/record"}, "what a run records"},
	{[]string{"arena/output", "arena/launch"}, "the run directory's files; starting an engine's process"},
	{[]string{"arena/..."}, "the libraries of the commands (report, suite, datagen, book): never the runner"},
	{[]string{"arena"}, "the runner"},
	{[]string{"arena/serve"}, "the dashboard, which rebuilds runs as the runner does"},
	{[]string{"cmd/...", "scripts/..."}, "the CLI and the measuring tools of scripts/"},
	{[]string{"studies/..."}, "studies: clients of the tool, which never imports them"},
	{[]string{"configs/..."}, "checks of the shipped configs and deployment files (tests only)"},
}

const module = "arena"

// layerOf returns the index of rel's layer (a module-relative path), or -1.
func layerOf(rel string) int {
	best, bestLen := -1, -1
	for i, l := range layers {
		for _, p := range l.patterns {
			n := -1
			if base, ok := strings.CutSuffix(p, "/..."); ok {
				if rel == base || strings.HasPrefix(rel, base+"/") {
					n = 2 * len(base)
				}
			} else if rel == p {
				n = 2*len(p) + 1
			}
			if n > bestLen {
				best, bestLen = i, n
			}
		}
	}
	return best
}

// relative returns an import path relative to the module, and whether it
// is the module's.
func relative(path string) (string, bool) {
	if path == module {
		return "", true
	}
	rel, ok := strings.CutPrefix(path, module+"/")
	return rel, ok
}

type pkg struct {
	ImportPath, Dir                    string
	Imports, TestImports, XTestImports []string
}

// listPackages runs go list on the whole module.
func listPackages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -json ./...: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list -json: %v", err)
		}
		pkgs = append(pkgs, p)
		watch(t, p.Dir)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages; is the test run from internal/layers?", len(pkgs))
	}
	return pkgs
}

// watch reads dir and stats its Go files: go test caches a passing result
// keyed by the files the test opened itself, and the sources go list read
// are not among them, so without this an import added later would leave
// the cached pass standing.
func watch(t *testing.T, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") {
			if _, err := os.Stat(filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// violations lists every import against the layers, and every package in
// no layer.
func violations(pkgs []pkg) []string {
	var bad []string
	name := func(i int) string { return fmt.Sprintf("layer %d, %s", i+1, layers[i].what) }
	for _, p := range pkgs {
		rel, _ := relative(p.ImportPath)
		from := layerOf(rel)
		if from < 0 {
			bad = append(bad, fmt.Sprintf("%s is in no layer: add it to the layers of internal/layers and docs/architecture.md", p.ImportPath))
			continue
		}
		for kind, imports := range map[string][]string{"imports": p.Imports, "tests import": append(slices.Clone(p.TestImports), p.XTestImports...)} {
			for _, imp := range imports {
				irel, own := relative(imp)
				if !own || imp == p.ImportPath {
					continue
				}
				if to := layerOf(irel); to > from {
					bad = append(bad, fmt.Sprintf("%s (%s) %s %s (%s): a package may import only its own layer and those below", p.ImportPath, name(from), kind, imp, name(to)))
				}
			}
		}
	}
	slices.Sort(bad)
	return slices.Compact(bad)
}

func TestImportsFollowTheLayers(t *testing.T) {
	for _, v := range violations(listPackages(t)) {
		t.Error(v)
	}
}

// The check itself: an engine importing the runner's datagen, the report
// importing the runner, and a package outside every layer are each caught.
func TestViolationsAreFound(t *testing.T) {
	pkgs := []pkg{
		{ImportPath: "arena/engines/giraffe", Imports: []string{"fmt", "arena/engines/board", "arena/arena/datagen"}},
		{ImportPath: "arena/arena/report", XTestImports: []string{"arena/arena", "arena/arena/output"}},
		{ImportPath: "arena/arena/output", Imports: []string{"arena/arena/record", "arena/tracker"}},
		{ImportPath: "arena/elsewhere"},
	}
	got := violations(pkgs)
	want := []string{"arena/arena/report (layer 9", "arena/elsewhere is in no layer", "arena/engines/giraffe (layer 3"}
	if len(got) != len(want) {
		t.Fatalf("violations %q, want %d", got, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("violation %q, want one starting %q", got[i], w)
		}
	}
}

// docs/architecture.md's table "| N | `pattern`, ... | what |" is the
// declaration above, row for row.
func TestDocTableIsTheDeclaration(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| (\\d+) \\| (`[^|]+`) \\| ([^|]+) \\|$").FindAllStringSubmatch(string(doc), -1)
	var got, want []string
	for _, r := range rows {
		pats := regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(r[2], -1)
		var ps []string
		for _, p := range pats {
			ps = append(ps, p[1])
		}
		got = append(got, fmt.Sprintf("%s | %s | %s", r[1], strings.Join(ps, ", "), strings.TrimSpace(r[3])))
	}
	for i, l := range layers {
		want = append(want, fmt.Sprintf("%d | %s | %s", i+1, strings.Join(l.patterns, ", "), l.what))
	}
	if !slices.Equal(got, want) {
		t.Errorf("docs/architecture.md's layer table is not internal/layers' declaration:\ndoc:\n  %s\ndeclared:\n  %s",
			strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
