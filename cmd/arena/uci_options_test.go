package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"arena/engines"
)

// uciSession is an "arena uci ENGINE" subprocess driven line by line.
type uciSession struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Scanner
}

func startUCI(t *testing.T, engine string) *uciSession {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "uci", engine)
	cmd.Env = append(os.Environ(), "ARENA_TEST_MAIN=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	return &uciSession{t: t, in: in, out: bufio.NewScanner(out)}
}

func (s *uciSession) send(lines ...string) {
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			s.t.Fatal(err)
		}
	}
}

// search sends the commands, then reads up to bestmove and returns it with
// the depth and nodes of the last info line that has them.
func (s *uciSession) search(lines ...string) (best string, depth int, nodes int64) {
	s.t.Helper()
	s.send(lines...)
	for s.out.Scan() {
		f := strings.Fields(s.out.Text())
		if len(f) > 1 && f[0] == "bestmove" {
			return f[1], depth, nodes
		}
		if len(f) == 0 || f[0] != "info" {
			continue
		}
		for i := 1; i+1 < len(f); i++ {
			switch f[i] {
			case "depth":
				depth, _ = strconv.Atoi(f[i+1])
			case "nodes":
				nodes, _ = strconv.ParseInt(f[i+1], 10, 64)
			}
		}
	}
	s.t.Fatalf("no bestmove after %q: %v", lines, s.out.Err())
	return "", 0, 0
}

// TestUCISetOptionLayers: a setoption is a user value layered over the
// preset whatever the order the lines arrive in, so preset=strong with
// lmr=false and max_depth=10 searches without LMR (node for node what the
// engine does in process with those options) and stops at depth 10 with
// nodes to spare, whether preset comes first or last.
func TestUCISetOptionLayers(t *testing.T) {
	const fen = "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1"
	want := func(opts map[string]string) engines.Result {
		e, err := engines.New("heuristic", opts)
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		r, err := e.Search(context.Background(), engines.Position{FEN: fen}, engines.Limits{Nodes: 400000}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	noLMR := want(map[string]string{"preset": "strong", "lmr": "false", "max_depth": "10"})
	withLMR := want(map[string]string{"preset": "strong", "max_depth": "10"})
	if noLMR.Nodes == withLMR.Nodes {
		t.Fatalf("with and without LMR both search %d nodes: the test cannot tell them apart", noLMR.Nodes)
	}
	preset := "setoption name preset value strong"
	user := []string{"setoption name lmr value false", "setoption name max_depth value 10"}
	for name, order := range map[string][]string{
		"preset first": append([]string{preset}, user...),
		"preset last":  append(append([]string{}, user...), preset),
	} {
		s := startUCI(t, "heuristic")
		cmds := append(append([]string{"uci"}, order...), "ucinewgame", "position fen "+fen, "go nodes 400000")
		best, depth, nodes := s.search(cmds...)
		if best != noLMR.Move || depth != 10 || nodes != noLMR.Nodes {
			t.Errorf("%s: bestmove %s depth %d nodes %d, want %s depth 10 nodes %d (strong without LMR; with LMR: %d)",
				name, best, depth, nodes, noLMR.Move, noLMR.Nodes, withLMR.Nodes)
		}
	}
}

// TestUCIThesisPresetCannotMateAsWhite: the listing's White-relative mate
// score makes preset=thesis refuse Rd8# as White, while the default engine
// plays it, and as Black the thesis preset mates in the mirrored position.
func TestUCIThesisPresetCannotMateAsWhite(t *testing.T) {
	const white = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
	const black = "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"
	def := startUCI(t, "heuristic")
	if best, _, _ := def.search("uci", "position fen "+white, "go depth 4"); best != "d1d8" {
		t.Errorf("default: bestmove %s, want the mate d1d8", best)
	}
	thesis := startUCI(t, "heuristic")
	thesis.send("uci", "setoption name preset value thesis")
	if best, _, _ := thesis.search("position fen "+white, "go depth 4"); best == "d1d8" {
		t.Error("preset thesis as White: plays the mate d1d8, the listing does not")
	}
	if best, _, _ := thesis.search("position fen "+black, "go depth 4"); best != "d8d1" {
		t.Errorf("preset thesis as Black: bestmove %s, want the mate d8d1", best)
	}
}
