package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTrainTexel(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "texel", "--out", "x.go"}, "--data and --out are required"},
		{[]string{"train", "texel", "--data", "x.txt", "--out", "x.go", "--val", "1"}, "0 < --val < 1"},
	} {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
	// 1,000 positions of the self-play data (engines/heuristic/texel's
	// fixture: the data's first 3,000 lines, docs/nnue.md).
	dir := t.TempDir()
	data, goFile := filepath.Join(dir, "sp.txt"), filepath.Join(dir, "tuned.go")
	f, err := os.Open("../../engines/heuristic/texel/testdata/selfplay-3000.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var lines bytes.Buffer
	sc := bufio.NewScanner(z)
	for i := 0; i < 1000 && sc.Scan(); i++ {
		lines.WriteString(sc.Text() + "\n")
	}
	if err := os.WriteFile(data, lines.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"train", "texel", "--data", data, "--out", goFile, "--epochs", "5", "--quiet"}, &out, &errb); code != 0 {
		t.Fatalf("train texel: exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"1000 positions (900 training, 100 held out)", "K ", "MSE before", "held-out", "CPU-seconds"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("train texel printed %q, expected %q", out.String(), want)
		}
	}
	src, err := os.ReadFile(goFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(gotoken.NewFileSet(), goFile, src, 0); err != nil || !bytes.Contains(src, []byte("var tunedWeights = Weights{")) {
		t.Errorf("%s does not declare tunedWeights in Go: %v", goFile, err)
	}
	errb.Reset()
	if code := run([]string{"train", "texel", "--data", data, "--out", goFile, "--positions", "5000", "--quiet"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "expected at least 5000") {
		t.Errorf("--positions beyond the file: exit %d, stderr %q", code, errb.String())
	}
}
