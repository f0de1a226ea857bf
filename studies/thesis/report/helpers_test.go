package report

import (
	"encoding/xml"
	"image/png"
	"os"
	"testing"

	arep "arena/arena/report"
)

// The run fixtures are arena report's (arena/report/testdata/runs, made
// by arena run from its testdata/configs): thesis-exp1, a sweep over
// movetime of experiment 1 in miniature (nn with the nn package's test net
// against the heuristic engine), thesis-exp1-book-50ms the same from a
// book, sweep and roundrobin-depth runs of the heuristic engine alone.
const (
	runs      = "../../../arena/report/testdata/runs/"
	sweep50   = "sweep/01-movetime-50ms"
	exp1at50  = "thesis-exp1/01-movetime-50ms"
	exp1at100 = "thesis-exp1/02-movetime-100ms"
)

func loadRuns(t *testing.T, dirs ...string) []*arep.Run {
	t.Helper()
	for i, d := range dirs {
		dirs[i] = runs + d
	}
	rs, err := arep.Load(dirs...)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// checkPNG decodes the file as a PNG of the report's plot size.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != 576 || b.Dy() < 384 {
		t.Errorf("%s: %v, want 576 wide and at least 384 high", path, b)
	}
}

// checkSVG parses the file as XML with an <svg> root.
func checkSVG(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var root struct{ XMLName xml.Name }
	if err := xml.Unmarshal(data, &root); err != nil || root.XMLName.Local != "svg" {
		t.Errorf("%s: root %q, %v; want a well-formed <svg>", path, root.XMLName.Local, err)
	}
}
