package board

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"

	"arena/internal/clip"
)

// EPD is one position of an EPD or FEN list file. Every reader of such lists
// (opening books, perft suites, positions to evaluate, positions to exclude
// from generated data) goes through ReadEPD, so they accept the same lines
// and reject the same bad ones with the same file:line messages.
type EPD struct {
	Line int    // 1-based line number in the file
	FEN  string // the position as written: the four EPD fields, plus the two clocks of a FEN line
	Ops  []EPDOp
}

// EPDOp is one EPD operation: "id \"book 1\";" is {Code: "id", Operand:
// "book 1"} (a fully quoted operand is unquoted); "D1 20" is {"D1", "20"}.
type EPDOp struct {
	Code    string
	Operand string
}

// Op returns the operand of the first operation with the given code.
func (e EPD) Op(code string) (string, bool) {
	for _, o := range e.Ops {
		if o.Code == code {
			return o.Operand, true
		}
	}
	return "", false
}

// FullFEN is the position with the clocks "0 1" added when the line has none.
func (e EPD) FullFEN() string {
	if len(strings.Fields(e.FEN)) == 4 {
		return e.FEN + " 0 1"
	}
	return e.FEN
}

// maxEPDLine bounds a line; a longer one is an error naming its line, not
// an out-of-memory.
const maxEPDLine = 1 << 20

// ReadEPD reads a list of positions, one a line: a FEN, or an EPD line (the
// four position fields, then operations such as `bm e4; id "x";`). Blank
// lines and lines starting with '#' are skipped. Every position must pass
// ParseFEN (one king a side, no pawn on the first or last rank, the side not
// to move not in check, castling rights backed by king and rook); errors name
// the file (name) and the line. A list without any position is an error.
func ReadEPD(r io.Reader, name string) ([]EPD, error) {
	var out []EPD
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxEPDLine)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		e, err := ParseEPDLine(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		e.Line = line
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", name, line+1, maxEPDLine)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no positions (expected one FEN or EPD line per position)", name)
	}
	return out, nil
}

// ReadEPDFile is ReadEPD on the file at path.
func ReadEPDFile(path string) ([]EPD, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadEPD(f, path)
}

// ParseEPDLine parses one FEN or EPD line (Line is left 0). Two numbers
// after the four position fields are a FEN's clocks; anything else there
// begins the operations.
func ParseEPDLine(text string) (EPD, error) {
	fields, rest := cutFields(text, 6)
	if len(fields) < 4 {
		return EPD{}, fmt.Errorf("%q is not a FEN or EPD position (expected 4 fields: pieces, side, castling, en passant; then optionally the two clocks or EPD operations)", clip.String(text))
	}
	n := 4
	if len(fields) == 6 && isCount(fields[4]) && isCount(strings.TrimSuffix(fields[5], ";")) {
		n = 6
		fields[5] = strings.TrimSuffix(fields[5], ";")
	} else {
		_, rest = cutFields(text, 4)
	}
	if strings.HasSuffix(fields[n-1], ";") {
		fields[n-1] = strings.TrimSuffix(fields[n-1], ";")
		rest = ";" + rest
	}
	e := EPD{FEN: strings.Join(fields[:n], " ")}
	if _, err := ParseFEN(e.FEN); err != nil {
		return EPD{}, err
	}
	ops, err := parseOps(rest)
	if err != nil {
		return EPD{}, err
	}
	e.Ops = ops
	return e, nil
}

func isCount(s string) bool {
	_, err := strconv.ParseUint(s, 10, 31)
	return err == nil
}

// cutFields returns the first n whitespace-separated fields of s and the
// text after them.
func cutFields(s string, n int) ([]string, string) {
	var out []string
	for len(out) < n {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		if s == "" {
			break
		}
		end := strings.IndexFunc(s, unicode.IsSpace)
		if end < 0 {
			end = len(s)
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out, s
}

// parseOps splits EPD operations at semicolons outside double quotes.
func parseOps(s string) ([]EPDOp, error) {
	var ops []EPDOp
	var cur strings.Builder
	quoted := false
	flush := func() error {
		op := strings.TrimSpace(cur.String())
		cur.Reset()
		if op == "" {
			return nil
		}
		code, operand, _ := strings.Cut(op, " ")
		code = strings.TrimSpace(code)
		if !validOpcode(code) {
			return fmt.Errorf("EPD operation %q: expected an opcode (a letter, then letters, digits or _) and its operands, ending with \";\"", clip.String(op))
		}
		operand = strings.TrimSpace(operand)
		if len(operand) >= 2 && operand[0] == '"' && operand[len(operand)-1] == '"' && !strings.Contains(operand[1:len(operand)-1], `"`) {
			operand = operand[1 : len(operand)-1]
		}
		ops = append(ops, EPDOp{Code: code, Operand: operand})
		return nil
	}
	for _, c := range s {
		switch {
		case c == '"':
			quoted = !quoted
		case c == ';' && !quoted:
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		}
		cur.WriteRune(c)
	}
	if quoted {
		return nil, fmt.Errorf("EPD operations %q: a string is not closed with '\"'", clip.String(strings.TrimSpace(s)))
	}
	return ops, flush()
}

func validOpcode(code string) bool {
	if code == "" || !isASCIILetter(code[0]) {
		return false
	}
	for i := 1; i < len(code); i++ {
		if c := code[i]; !isASCIILetter(c) && !(c >= '0' && c <= '9') && c != '_' {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
