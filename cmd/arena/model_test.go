package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/engines/board"
	"arena/engines/nnue"
	"arena/internal/fixture"
)

const nnTestdata = "../../engines/nn/testdata/"

func TestModelAndEvalCommands(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "m.safetensors")
	ckpt := fixture.Gunzip(t, nnTestdata+"valuenet_ckpt.pt.gz")
	epd := filepath.Join(dir, "p.epd")
	if err := os.WriteFile(epd, []byte("8/8/4k3/8/8/4K3/4P3/8 w - - bm e4;\n4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args       []string
		code       int
		out, errit string
	}{
		{[]string{"model", "info", ckpt}, 0, "757,985 trainable", ""},
		{[]string{"model", "convert", ckpt, st}, 0, "generation 3", ""},
		{[]string{"model", "info", st}, 0, "valuenet_ckpt.pt\ntensors", ""},
		{[]string{"model", "info"}, 0, "file                          builtin:selfplay\n", ""},
		{[]string{"model", "info", "builtin:supervised"}, 0, "757,985 trainable", ""},
		{[]string{"model", "info", "builtin:nope"}, 1, "", `no shipped net "builtin:nope" (expected one of selfplay, supervised)`},
		{[]string{"model", "info", "a", "b"}, 2, "", "expected one FILE or builtin:NAME"},
		{[]string{"model", "info", filepath.Join(dir, "none.pt")}, 1, "", filepath.Join(dir, "none.pt")},
		{[]string{"model", "frobnicate"}, 2, "", `unknown subcommand "frobnicate"`},
		{[]string{"model", "convert", "a.pt"}, 2, "", "expected IN and OUT"},
		{[]string{"eval", "--model", st, "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}, 0,
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t-0.3109", ""},
		{[]string{"eval", "--model", st, "--epd", epd}, 0, "8/8/4k3/8/8/4K3/4P3/8 w - -\t0.0186", ""},
		{[]string{"eval", "--model", st, "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"}, 2, "", "--fen: fen"},
		{[]string{"eval", "--model", st, "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"}, 2, "", `"x": expected "w" or "b"`},
		{[]string{"eval", "--model", filepath.Join(dir, "none.pt"), "--epd", epd}, 1, "", filepath.Join(dir, "none.pt")},
		{[]string{"eval", "--model", st}, 2, "", "exactly one of --fen FEN and --epd FILE"},
		{[]string{"eval", "--fen", "x"}, 2, "", "--fen: "},
		// Without --model the shipped self-play net, as the nn engine; by
		// name any shipped net.
		{[]string{"eval", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}, 0,
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t-0.020006", ""},
		{[]string{"eval", "--model", "builtin:selfplay", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}, 0,
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t-0.020006", ""},
		{[]string{"eval", "--model", "builtin:supervised", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}, 0,
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t0.055421", ""},
		{[]string{"eval", "--model", st, "--epd", filepath.Join(dir, "none.epd")}, 2, "", "none.epd"},
	} {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		if code != c.code || !strings.Contains(out.String(), c.out) || !strings.Contains(errb.String(), c.errit) {
			t.Errorf("arena %s: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				strings.Join(c.args, " "), code, out.String(), errb.String(), c.code, c.out, c.errit)
		}
	}
}

// TestModelInfoNNUE: model info recognises an NNUE net by its magic and
// describes its shape, activation, quantisation and checksum; a damaged
// one is an error naming the file.
func TestModelInfoNNUE(t *testing.T) {
	dir := t.TempDir()
	data, err := nnue.RandomNet(1, 32, nnue.CReLU).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	good, bad := filepath.Join(dir, "n.bin"), filepath.Join(dir, "bad.nnue")
	if err := os.WriteFile(good, data, 0o644); err != nil {
		t.Fatal(err)
	}
	data[100] ^= 1
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"model", "info", good}, &out, &errb); code != 0 {
		t.Fatalf("model info %s: exit %d, %s", good, code, errb.String())
	}
	n, _ := nnue.Load(good)
	for _, want := range []string{"768 -> 32x2 -> 1", "clipped ReLU", "QA 255, QB 64, scale 400", "parameters    24,673",
		fmt.Sprintf("crc32         %08x", n.CRC), "fits int16"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("model info %s lacks %q:\n%s", good, want, out.String())
		}
	}
	// eval gives its values in centipawns from White's side.
	p, _ := board.ParseFEN("4k3/8/8/8/8/8/8/Q3K3 b - - 0 1")
	if n.Evaluate(p) == 0 {
		t.Fatal("the test net values the position at 0: the sign is not tested")
	}
	out.Reset()
	if code := run([]string{"eval", "--model", good, "--fen", "4k3/8/8/8/8/8/8/Q3K3 b - - 0 1"}, &out, &errb); code != 0 ||
		out.String() != fmt.Sprintf("4k3/8/8/8/8/8/8/Q3K3 b - - 0 1\t%d\n", -n.Evaluate(p)) {
		t.Errorf("eval with an NNUE net: exit %d, %q, %s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"model", "info", bad}, &out, &errb); code != 1 || !strings.Contains(errb.String(), bad+": CRC mismatch") {
		t.Errorf("model info of a damaged net: exit %d, %q", code, errb.String())
	}
}
