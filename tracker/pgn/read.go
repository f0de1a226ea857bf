// Package pgn reads and writes PGN, the one home of both sides: the
// reader (Reader, Read) used by the judge's `arena analyze`, the opening
// books and datagen, and the writer (Write) behind every games.pgn and
// last.pgn the arena writes. It sits under tracker, which is below arena,
// so both the runner and the tracker import it; it works on
// notnil/chess, the arena-level board (engines never need PGN).
package pgn

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/notnil/chess"

	"arena/engines/board"
	"arena/internal/clip"
)

// Game is one game read from a PGN file: its tags and its main line as
// UCI moves from the start position.
type Game struct {
	Number   int               // 1-based position in the file
	Line     int               // the line of its first tag or move
	Tags     map[string]string // tag pairs as written
	StartFEN string            // the FEN tag; empty for the standard start position
	SAN      []string          // the main line as written, annotations stripped
	Moves    []string          // the same moves in UCI notation
	Result   string            // the game termination marker ("1-0", "0-1", "1/2-1/2", "*"), else the Result tag
}

// Tag returns a tag's value, or def when the tag is missing or empty.
func (g Game) Tag(name, def string) string {
	if v := g.Tags[name]; v != "" {
		return v
	}
	return def
}

// Reader reads games one at a time from a PGN file in export or import
// format, as written by this tool, cutechess-cli, fastchess or lichess.
//
// notnil/chess v1.10.0's own scanner is not used because it panics on a
// comment before the first move, reads the text of ";" comments as moves and
// does not accept "0-0" castling. This reader keeps only the main line: it
// skips brace and rest-of-line comments, "%" escape lines, NAGs ($n and
// !, ?, !?, ...), move numbers and (nested) variations, then replays the SAN
// moves with notnil/chess to check them and obtain UCI moves. Errors name
// the game number and the move.
type Reader struct {
	r      *bufio.Reader
	number int
	line   int  // current line, 1-based, for error messages
	bol    bool // the next rune begins a line
	// lastBOL is whether the rune last read began a line (for "%" escapes).
	lastBOL bool
	peeked  *token
}

// NewReader reads PGN from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReader(r), line: 1, bol: true}
}

type tokenKind int

const (
	tokTag tokenKind = iota
	tokSymbol
	tokResult
)

type token struct {
	kind  tokenKind
	text  string // symbol, result, or tag name
	value string // tag value
	line  int
}

// Next returns the next game, or io.EOF after the last one.
func (p *Reader) Next() (Game, error) {
	g := Game{Tags: map[string]string{}}
	started := false // a tag or a move of this game has been read
	inMoves := false
	var sanLines []int
	for {
		t, err := p.token()
		if err == io.EOF {
			if !started {
				return Game{}, io.EOF
			}
			break
		}
		if err != nil {
			n := p.number
			if !started {
				n++
			}
			return Game{}, fmt.Errorf("PGN game %d, line %d: %w", n, p.line, err)
		}
		if _, dup := g.Tags[t.text]; t.kind == tokTag && (inMoves || dup) {
			// The previous game had no termination marker: the tag begins
			// the next game.
			p.peeked = &t
			break
		}
		if !started {
			started = true
			p.number++
			g.Number, g.Line = p.number, t.line
		}
		switch t.kind {
		case tokTag:
			g.Tags[t.text] = t.value
			continue
		case tokResult:
			g.Result = t.text
		case tokSymbol:
			inMoves = true
			g.SAN = append(g.SAN, t.text)
			sanLines = append(sanLines, t.line)
			continue
		}
		break
	}
	if g.Result == "" {
		g.Result = g.Tag("Result", "*")
	}
	if err := g.replay(sanLines); err != nil {
		return Game{}, err
	}
	return g, nil
}

// Read reads every game of a PGN file.
func Read(r io.Reader) ([]Game, error) {
	p := NewReader(r)
	var games []Game
	for {
		g, err := p.Next()
		if err == io.EOF {
			return games, nil
		}
		if err != nil {
			return games, err
		}
		games = append(games, g)
	}
}

// replay checks the moves from the start position and fills Moves.
func (g *Game) replay(lines []int) error {
	where := fmt.Sprintf("PGN game %d", g.Number)
	if ev := g.Tags["Event"]; ev != "" {
		where += fmt.Sprintf(" (%q)", ev)
	}
	if v := g.Tags["Variant"]; v != "" && !strings.EqualFold(v, "standard") && !strings.EqualFold(v, "from position") {
		return fmt.Errorf("%s: variant %q is not supported (expected standard chess)", where, v)
	}
	var opts []func(*chess.Game)
	if fen := g.Tags["FEN"]; fen != "" {
		// notnil/chess accepts positions without kings (and then fails
		// or loops in its move generator): the board package's checks
		// come first.
		if _, err := board.ParseFEN(fen); err != nil {
			return fmt.Errorf("%s, line %d: FEN tag: %v", where, g.Line, err)
		}
		opt, err := chess.FEN(fen)
		if err != nil {
			return fmt.Errorf("%s: FEN tag %q: %v", where, clip.String(fen), err)
		}
		opts = append(opts, opt)
		g.StartFEN = fen
	}
	pos := chess.NewGame(opts...).Position()
	g.Moves = make([]string, len(g.SAN))
	for i, san := range g.SAN {
		m, err := decodeSAN(pos, san)
		if err != nil {
			return fmt.Errorf("%s, line %d, move %s: %v", where, lines[i], moveLabel(pos, san), err)
		}
		g.Moves[i] = chess.UCINotation{}.Encode(pos, m)
		pos = pos.Update(m)
	}
	return nil
}

// moveLabel names a move as a reader finds it in the file: "12. Nf3" or "12... Nf6".
func moveLabel(pos *chess.Position, san string) string {
	// The move number is the FEN's last field (notnil writes an empty
	// castling field as nothing, so its index varies).
	f := strings.Fields(pos.String())
	n := f[len(f)-1]
	if pos.Turn() == chess.Black {
		return n + "... " + clip.String(san)
	}
	return n + ". " + clip.String(san)
}

var (
	sanRe = regexp.MustCompile(`^([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([NBRQnbrq]))?$`)
	// annotationRe is what may trail a move: check and mate signs, move
	// assessments (!, ?, !?, ...) and an en passant mark.
	annotationRe = regexp.MustCompile(`(?:[+#!?]|e\.p\.)+$`)
)

// decodeSAN finds the legal move a SAN (or long algebraic / UCI) token names.
// It accepts "0-0" for "O-O", a promotion with or without "=", and
// over-specified origins ("Ng1f3", "e2e4"); it refuses an ambiguous or
// illegal move, saying why.
func decodeSAN(pos *chess.Position, san string) (*chess.Move, error) {
	s := annotationRe.ReplaceAllString(san, "")
	if s == "--" || s == "Z0" {
		return nil, fmt.Errorf("null moves are not supported")
	}
	s = strings.ReplaceAll(s, "0", "O")
	var candidates []*chess.Move
	switch s {
	case "O-O", "O-O-O":
		tag := chess.KingSideCastle
		if s == "O-O-O" {
			tag = chess.QueenSideCastle
		}
		for _, m := range pos.ValidMoves() {
			if m.HasTag(tag) {
				candidates = append(candidates, m)
			}
		}
		if len(candidates) == 0 {
			return nil, fmt.Errorf("castling %s is not legal in %s", s, pos)
		}
		return candidates[0], nil
	}
	// "Ng1-f3" long algebraic
	if len(s) > 4 && !strings.HasPrefix(s, "O") {
		s = strings.Replace(s, "-", "", 1)
	}
	sm := sanRe.FindStringSubmatch(s)
	if sm == nil {
		return nil, fmt.Errorf("%q is not a move in algebraic notation (expected e.g. e4, Nxf3, exd6, e8=Q, O-O)", clip.String(san))
	}
	piece, fromFile, fromRank, to, promo := sm[1], sm[2], sm[3], sm[4], strings.ToUpper(sm[5])
	// A full origin square without a piece letter is long algebraic or UCI
	// ("e2e4", "e1g1"): the piece is whatever stands there.
	anyPiece := piece == "" && fromFile != "" && fromRank != ""
	want := chess.Pawn
	if piece != "" {
		want = pieceTypes[piece]
	}
	for _, m := range pos.ValidMoves() {
		if m.S2().String() != to {
			continue
		}
		from := m.S1().String()
		if fromFile != "" && from[:1] != fromFile || fromRank != "" && from[1:] != fromRank {
			continue
		}
		if !anyPiece && pos.Board().Piece(m.S1()).Type() != want {
			continue
		}
		if promo != "" && m.Promo() != pieceTypes[promo] || promo == "" && m.Promo() != chess.NoPieceType {
			continue
		}
		candidates = append(candidates, m)
	}
	switch len(candidates) {
	case 1:
		return candidates[0], nil
	case 0:
		if promo == "" && strings.ContainsAny(to[1:], "18") && want == chess.Pawn && !anyPiece {
			return nil, fmt.Errorf("%q is not legal in %s (a pawn reaching the last rank needs a promotion piece, e.g. %s=Q)", clip.String(san), pos, s)
		}
		return nil, fmt.Errorf("%q is not legal in %s", clip.String(san), pos)
	}
	var alts []string
	for _, m := range candidates {
		alts = append(alts, m.S1().String()+m.S2().String())
	}
	return nil, fmt.Errorf("%q is ambiguous in %s (could be %s)", clip.String(san), pos, strings.Join(alts, ", "))
}

var pieceTypes = map[string]chess.PieceType{
	"N": chess.Knight, "B": chess.Bishop, "R": chess.Rook, "Q": chess.Queen, "K": chess.King,
}

// token returns the next token of the main text; comments, escapes and NAGs
// are consumed here, and tokens inside variations are marked.
func (p *Reader) token() (token, error) {
	if p.peeked != nil {
		t := *p.peeked
		p.peeked = nil
		return t, nil
	}
	depth := 0
	for {
		c, err := p.readRune()
		if err != nil {
			if err == io.EOF && depth > 0 {
				return token{}, fmt.Errorf("unterminated variation: %d \"(\" without \")\"", depth)
			}
			return token{}, err
		}
		switch {
		case c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
		case c == '%' && p.lastBOL:
			if err := p.skipLine(); err != nil {
				return token{}, err
			}
		case c == ';':
			if err := p.skipLine(); err != nil {
				return token{}, err
			}
		case c == '{':
			start := p.line
			if err := p.skipUntil('}'); err != nil {
				return token{}, fmt.Errorf("comment opened on line %d is not closed with \"}\"", start)
			}
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return token{}, fmt.Errorf("\")\" without a matching \"(\"")
			}
			depth--
		case c == '[' && depth == 0:
			return p.tag()
		case c == '$':
			if _, err := p.readWhile(isDigit); err != nil && err != io.EOF {
				return token{}, err
			}
		default:
			line := p.line
			p.unreadRune(c)
			sym, err := p.readWhile(isSymbolChar)
			if err != nil && err != io.EOF {
				return token{}, err
			}
			if sym == "" {
				return token{}, fmt.Errorf("unexpected character %q", c)
			}
			t, ok := symbolToken(sym)
			if !ok {
				continue
			}
			t.line = line
			if depth > 0 {
				continue
			}
			return t, nil
		}
	}
}

// WhiteScore is White's points in a game of the given result ("1-0": 1,
// "1/2-1/2": 0.5, "0-1": 0); ok is false for an unfinished game ("*") or
// anything else. Every reader that scores a game result reads it here.
func WhiteScore(result string) (score float64, ok bool) {
	switch result {
	case "1-0":
		return 1, true
	case "1/2-1/2":
		return 0.5, true
	case "0-1":
		return 0, true
	}
	return 0, false
}

// symbolToken turns a symbol into a move or a result; move numbers ("12.",
// "12...") and stand-alone assessments ("!?") yield nothing. A move number
// glued to its move ("3...Nxf6") is split off.
func symbolToken(sym string) (token, bool) {
	switch sym {
	case "1-0", "0-1", "1/2-1/2", "*":
		return token{kind: tokResult, text: sym}, true
	}
	i := 0
	for i < len(sym) && isDigit(rune(sym[i])) {
		i++
	}
	if i > 0 && i < len(sym) && sym[i] == '.' {
		sym = strings.TrimLeft(sym[i:], ".")
	}
	sym = strings.TrimRight(sym, "!?")
	if sym == "" {
		return token{}, false
	}
	return token{kind: tokSymbol, text: sym}, true
}

// tag reads `Name "value"]` after '['.
func (p *Reader) tag() (token, error) {
	line := p.line
	rest, err := p.readUntilUnquoted(']')
	if err != nil {
		return token{}, fmt.Errorf("tag opened with \"[\" is not closed with \"]\"")
	}
	rest = strings.TrimSpace(rest)
	sp := strings.IndexAny(rest, " \t")
	if sp <= 0 {
		return token{}, fmt.Errorf("tag [%s]: expected [Name \"value\"]", rest)
	}
	name, val := rest[:sp], strings.TrimSpace(rest[sp:])
	if len(val) < 2 || val[0] != '"' || val[len(val)-1] != '"' {
		return token{}, fmt.Errorf("tag %s: value %s is not a quoted string", name, val)
	}
	val = val[1 : len(val)-1]
	val = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(val)
	return token{kind: tokTag, text: name, value: val, line: line}, nil
}

func (p *Reader) readRune() (rune, error) {
	c, _, err := p.r.ReadRune()
	if err != nil {
		return 0, err
	}
	p.lastBOL = p.bol
	p.bol = c == '\n'
	if c == '\n' {
		p.line++
	}
	return c, nil
}

// unreadRune puts back the rune c just read.
func (p *Reader) unreadRune(c rune) {
	_ = p.r.UnreadRune()
	p.bol = p.lastBOL
	if c == '\n' {
		p.line--
	}
}

func (p *Reader) skipLine() error {
	for {
		c, err := p.readRune()
		if err != nil || c == '\n' {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

func (p *Reader) skipUntil(end rune) error {
	for {
		c, err := p.readRune()
		if err != nil {
			if err == io.EOF {
				return errors.New("unexpected end of file")
			}
			return err
		}
		if c == end {
			return nil
		}
	}
}

func (p *Reader) readUntilUnquoted(end rune) (string, error) {
	var sb strings.Builder
	quoted, escaped := false, false
	for {
		c, err := p.readRune()
		if err != nil {
			return "", err
		}
		switch {
		case escaped:
			escaped = false
		case quoted && c == '\\':
			escaped = true
		case c == '"':
			quoted = !quoted
		case !quoted && c == end:
			return sb.String(), nil
		}
		sb.WriteRune(c)
	}
}

func (p *Reader) readWhile(ok func(rune) bool) (string, error) {
	var sb strings.Builder
	for {
		c, err := p.readRune()
		if err != nil {
			return sb.String(), err
		}
		if !ok(c) {
			p.unreadRune(c)
			return sb.String(), nil
		}
		sb.WriteRune(c)
	}
}

func isDigit(c rune) bool { return c >= '0' && c <= '9' }

// isSymbolChar: PGN symbol characters plus the assessment glyphs and "/"
// of "1/2-1/2".
func isSymbolChar(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) ||
		strings.ContainsRune("_+#=:-./!?*", c)
}
