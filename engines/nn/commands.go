package nn

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"arena/engines/board"
)

// Describe writes what "arena model info" shows about a weight file: format,
// architecture, parameter counts, checkpoint metadata and the tensors.
func Describe(out io.Writer, path string) error {
	w, meta, err := ReadFile(path)
	if err != nil {
		return err
	}
	trainable, buffers := w.ParamCounts()
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", path)
	fmt.Fprintf(tw, "format\t%s\n", meta.Format)
	fmt.Fprintf(tw, "architecture\t%s\n", meta.Architecture)
	fmt.Fprintf(tw, "parameters\t%s trainable, %s BatchNorm running statistics\n", thousands(trainable), thousands(buffers))
	fmt.Fprintf(tw, "generation\t%s\n", orDash(meta.HasGeneration, strconv.Itoa(meta.Generation)))
	fmt.Fprintf(tw, "best_wr\t%s\n", orDash(meta.HasBestWR, strconv.FormatFloat(meta.BestWR, 'g', -1, 64)))
	fmt.Fprintf(tw, "training\t%s\n", orDash(meta.Training != "", meta.Training))
	if meta.Source != "" {
		fmt.Fprintf(tw, "source\t%s\n", meta.Source)
	}
	for _, k := range slices.Sorted(maps.Keys(meta.Extra)) {
		fmt.Fprintf(tw, "metadata %s\t%s\n", k, meta.Extra[k])
	}
	fmt.Fprintf(tw, "tensors\t%d\n", len(w.Tensors))
	for _, t := range w.Tensors {
		fmt.Fprintf(tw, "  %s\t%s %v\n", t.Name, t.DType, t.Shape)
	}
	return tw.Flush()
}

func orDash(ok bool, s string) string {
	if ok {
		return s
	}
	return "-"
}

// thousands formats n as 757,985.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Convert reads a weight file (usually a torch.save checkpoint) and writes it
// as safetensors, keeping the tensor names, generation and best_wr, and
// recording the input's file name as the source. A non-empty training
// replaces the description of how the weights were trained.
func Convert(in, out, training string) (Meta, error) {
	w, meta, err := ReadFile(in)
	if err != nil {
		return meta, err
	}
	if meta.Format != FormatSafetensors {
		meta.Source = filepath.Base(in)
	}
	if training != "" {
		meta.Training = training
	}
	if err := SaveSafetensors(out, w, meta); err != nil {
		return meta, err
	}
	meta.Format = FormatSafetensors
	return meta, nil
}

// ReadPositions reads positions to evaluate, one per line: a FEN, or an EPD
// line (the four position fields, then operations such as "bm e4;"). Blank
// lines and lines starting with '#' are skipped. Every position is checked
// with board.ParseFEN; errors name the file (name) and line.
func ReadPositions(r io.Reader, name string) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		fields := strings.Fields(text)
		n := min(4, len(fields))
		// A FEN's two clocks are numbers; EPD operations are not.
		if len(fields) >= 6 && isNumber(fields[4]) && isNumber(strings.TrimSuffix(fields[5], ";")) {
			n = 6
		}
		fen := strings.Join(fields[:n], " ")
		fen = strings.TrimSuffix(fen, ";")
		if _, err := board.ParseFEN(fen); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		out = append(out, fen)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no positions (expected one FEN or EPD line per position)", name)
	}
	return out, nil
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// ReadPositionsFile is ReadPositions on the file at path.
func ReadPositionsFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadPositions(f, path)
}

// WriteValues evaluates the positions (FENs, validated with board.ParseFEN)
// in batches and writes one line each: the FEN, a tab, and the value from
// White's point of view with 6 decimals.
func WriteValues(out io.Writer, n *Net, fens []string) error {
	inputs := make([]Input, len(fens))
	for i, fen := range fens {
		p, err := board.ParseFEN(fen)
		if err != nil {
			return err
		}
		inputs[i].SetPosition(p)
	}
	values := make([]float32, len(inputs))
	n.EvaluateBatch(inputs, values)
	bw := bufio.NewWriter(out)
	for i, fen := range fens {
		fmt.Fprintf(bw, "%s\t%.6f\n", fen, values[i])
	}
	return bw.Flush()
}
