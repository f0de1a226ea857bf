package output

// The columns form of a games log (games.jsonl.cols) is the archival form of
// a finished run: gzip compresses a log's lines as they are, each move's keys
// and numbers interleaved, while the columns form stores each move key's
// values in a stream of their own (every time_s together, every depth
// together), which gzip compresses 1.6 to 1.9 times smaller than the same
// lines (measured on the committed runs: docs/report.md). Readers see no
// difference: Open decodes it back into the exact lines, so every reader of
// run directories reads it as it reads games.jsonl.gz. Runs still compress to
// gzip when they end (a second's work, and `zcat` reads it); `arena archive`
// turns a finished run's log into columns, and checks before it removes
// anything that the columns decode to the log byte for byte.
//
// Layout: the line "arena-columns 1", one JSON line indexing the sections
// (name and compressed size, in file order), then the sections, each one gzip
// stream of newline-ended lines:
//   - "@head": each game's line with its moves array cut out;
//   - "@moves": per game, the byte offset where the array was cut (or "-" for
//     a line without moves) and the moves' key lists as "ID*COUNT" runs;
//   - "@keys": the key lists, one JSON array of key names per line, ID = line;
//   - "KEY" for each move key: its raw JSON values, one per move having it.
// Compact JSON has no raw newline inside a value, which is what lets one value
// sit on one line; a log that is not compact is refused (the check above).

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"arena/internal/atomicfile"
)

// ColumnsExt ends the name of a games log stored in columns.
const ColumnsExt = ".cols"

const columnsMagic = "arena-columns 1\n"

// Section names that cannot be move keys ("@" never starts one we write).
const (
	secHead  = "@head"
	secMoves = "@moves"
	secKeys  = "@keys"
)

type colIndex struct {
	Games    int          `json:"games"`
	Dropped  []string     `json:"dropped,omitempty"` // move keys left out by the archive
	Sections []colSection `json:"sections"`
}

type colSection struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// gameLine is one log line taken apart: the line without its moves array,
// where the array was, and each move's keys and raw values in order.
type gameLine struct {
	head  []byte
	at    int // -1: the line has no moves key
	moves [][]keyValue
}

type keyValue struct {
	key string
	val []byte
}

// splitGame takes a compact games.jsonl line apart. The moves array is found
// by decoding the top-level object token by token, so that a key named moves
// inside a string or a nested object is never mistaken for it.
func splitGame(line []byte) (gameLine, error) {
	g := gameLine{at: -1}
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return g, fmt.Errorf("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return g, err
		}
		start := int(dec.InputOffset()) + 1 // past the key and its colon
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return g, err
		}
		if tok != "moves" || string(raw) == "null" { // a game without moves: the line stays whole
			continue
		}
		end := int(dec.InputOffset())
		if start > end || !bytes.Equal(line[start:end], raw) || line[start-1] != ':' {
			return g, errNotCompact
		}
		if g.moves, err = splitMoves(raw); err != nil {
			return g, fmt.Errorf("moves: %w", err)
		}
		g.at = start
		g.head = append(line[:start:start], line[end:]...) // a copy: the capacity ends at start
	}
	if g.at < 0 {
		g.head = line
	}
	return g, nil
}

func splitMoves(raw []byte) ([][]keyValue, error) {
	var objs []json.RawMessage
	if err := json.Unmarshal(raw, &objs); err != nil {
		return nil, err
	}
	moves := make([][]keyValue, len(objs))
	for i, obj := range objs {
		dec := json.NewDecoder(bytes.NewReader(obj))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return nil, fmt.Errorf("move %d: not a JSON object", i+1)
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, fmt.Errorf("move %d: %w", i+1, err)
			}
			var val json.RawMessage
			if err := dec.Decode(&val); err != nil {
				return nil, fmt.Errorf("move %d: %w", i+1, err)
			}
			moves[i] = append(moves[i], keyValue{tok.(string), val})
		}
	}
	return moves, nil
}

// appendMove writes one move object; drop leaves keys out.
func appendMove(b []byte, kvs []keyValue, drop []string) []byte {
	b = append(b, '{')
	n := 0
	for _, kv := range kvs {
		if slices.Contains(drop, kv.key) {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = strconv.AppendQuote(b, kv.key)
		b = append(b, ':')
		b = append(b, kv.val...)
	}
	return append(b, '}')
}

// join puts a line back together, without the dropped move keys.
func (g gameLine) join(drop []string) []byte {
	if g.at < 0 {
		return slices.Clone(g.head)
	}
	b := append([]byte{}, g.head[:g.at]...)
	b = append(b, '[')
	for i, m := range g.moves {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendMove(b, m, drop)
	}
	b = append(b, ']')
	return append(b, g.head[g.at:]...)
}

var errNotCompact = errors.New("not compact JSON as arena writes it")

// colWriter gathers the sections in memory, compressed: a run's columns
// take a few MB.
type colWriter struct {
	drop   []string
	games  int
	order  []string // sections in order of first use
	bufs   map[string]*bytes.Buffer
	zs     map[string]*gzip.Writer
	keyIDs map[string]int
}

func newColWriter(drop []string) *colWriter {
	w := &colWriter{drop: drop, bufs: map[string]*bytes.Buffer{}, zs: map[string]*gzip.Writer{}, keyIDs: map[string]int{}}
	for _, s := range []string{secHead, secMoves, secKeys} {
		w.section(s)
	}
	return w
}

func (w *colWriter) section(name string) *gzip.Writer {
	if z, ok := w.zs[name]; ok {
		return z
	}
	buf := &bytes.Buffer{}
	z, _ := gzip.NewWriterLevel(buf, gzip.BestCompression) // a valid level: no error
	w.order = append(w.order, name)
	w.bufs[name], w.zs[name] = buf, z
	return z
}

func (w *colWriter) writeLine(section string, b []byte) {
	z := w.section(section)
	z.Write(b) // a bytes.Buffer takes every write
	z.Write([]byte{'\n'})
}

// add stores one line taken apart.
func (w *colWriter) add(g gameLine) {
	w.games++
	w.writeLine(secHead, g.head)
	if g.at < 0 {
		w.writeLine(secMoves, []byte("-"))
		return
	}
	runs := []byte(strconv.Itoa(g.at))
	last, count := -1, 0
	flush := func() {
		if count > 0 {
			runs = fmt.Appendf(runs, " %d*%d", last, count)
		}
	}
	for _, m := range g.moves {
		var keys []string
		for _, kv := range m {
			if !slices.Contains(w.drop, kv.key) {
				keys = append(keys, kv.key)
				w.writeLine(kv.key, kv.val)
			}
		}
		sig, _ := json.Marshal(keys) // strings always marshal
		id, ok := w.keyIDs[string(sig)]
		if !ok {
			id = len(w.keyIDs)
			w.keyIDs[string(sig)] = id
			w.writeLine(secKeys, sig)
		}
		if id != last {
			flush()
			last, count = id, 0
		}
		count++
	}
	flush()
	w.writeLine(secMoves, runs)
}

func (w *colWriter) writeTo(out io.Writer) error {
	idx := colIndex{Games: w.games, Dropped: w.drop}
	for _, name := range w.order {
		if err := w.zs[name].Close(); err != nil {
			return err
		}
		idx.Sections = append(idx.Sections, colSection{name, int64(w.bufs[name].Len())})
	}
	head, err := json.Marshal(idx)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(out, columnsMagic); err != nil {
		return err
	}
	if _, err := out.Write(append(head, '\n')); err != nil {
		return err
	}
	for _, name := range w.order {
		if _, err := w.bufs[name].WriteTo(out); err != nil {
			return err
		}
	}
	return nil
}

// colReader decodes the columns form back into the log's lines.
type colReader struct {
	in      *int64 // compressed bytes read from every section
	secs    map[string]*bufio.Reader
	zs      []*gzip.Reader
	keys    [][]string
	pending []byte // the rest of the line being returned
	games   int
	dropped []string
	err     error
}

// newColReader reads the index of the columns file in f and opens its
// sections; in counts the compressed bytes read, for Reader's bounds.
func newColReader(f io.ReaderAt, in *int64) (*colReader, error) {
	br := bufio.NewReader(io.NewSectionReader(f, 0, 1<<62))
	magic, err := br.ReadString('\n')
	if err != nil || magic != columnsMagic {
		return nil, fmt.Errorf("not a columns file (expected the line %q)", strings.TrimSpace(columnsMagic))
	}
	line, err := readLine(br)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	var idx colIndex
	if err := json.Unmarshal(line, &idx); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	r := &colReader{in: in, secs: map[string]*bufio.Reader{}}
	off := int64(len(magic) + len(line))
	for _, s := range idx.Sections {
		if s.Size < 0 || r.secs[s.Name] != nil {
			return nil, fmt.Errorf("index: section %q repeated or of negative size", s.Name)
		}
		z, err := gzip.NewReader(&counter{r: io.NewSectionReader(f, off, s.Size), n: in})
		if err != nil {
			return nil, fmt.Errorf("section %s: %w", s.Name, err)
		}
		z.Multistream(false)
		r.zs = append(r.zs, z)
		r.secs[s.Name] = bufio.NewReaderSize(z, 1<<12)
		off += s.Size
	}
	for _, s := range []string{secHead, secMoves, secKeys} {
		if r.secs[s] == nil {
			return nil, fmt.Errorf("index: no %s section", s)
		}
	}
	r.games, r.dropped = idx.Games, idx.Dropped
	return r, nil
}

func (r *colReader) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		if r.games == 0 {
			r.err = r.end()
			continue
		}
		line, err := r.game()
		if err != nil {
			r.err = err
			continue
		}
		r.games--
		r.pending = append(line, '\n')
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// end checks that every section ends where its last value does, which
// also checks each gzip stream's checksum: io.EOF when they all do.
func (r *colReader) end() error {
	for name, br := range r.secs {
		if n, err := io.Copy(io.Discard, br); err != nil || n > 0 {
			if err == nil {
				err = fmt.Errorf("%d bytes past its last value", n)
			}
			return fmt.Errorf("section %q: %w", name, err)
		}
	}
	return io.EOF
}

// value reads the next line of a section, without its newline.
func (r *colReader) value(section string) ([]byte, error) {
	br := r.secs[section]
	if br == nil {
		return nil, fmt.Errorf("no section %q", section)
	}
	line, err := readLine(br)
	if err == io.EOF {
		return nil, fmt.Errorf("section %q ends early", section)
	}
	if err != nil {
		return nil, fmt.Errorf("section %q: %w", section, err)
	}
	return line[:len(line)-1], nil
}

func (r *colReader) keyList(id int) ([]string, error) {
	for len(r.keys) <= id {
		line, err := r.value(secKeys)
		if err != nil {
			return nil, err
		}
		var keys []string
		if err := json.Unmarshal(line, &keys); err != nil {
			return nil, fmt.Errorf("section @keys: %w", err)
		}
		r.keys = append(r.keys, keys)
	}
	return r.keys[id], nil
}

func (r *colReader) game() ([]byte, error) {
	head, err := r.value(secHead)
	if err != nil {
		return nil, err
	}
	runs, err := r.value(secMoves)
	if err != nil {
		return nil, err
	}
	if string(runs) == "-" {
		return slices.Clone(head), nil
	}
	fields := strings.Fields(string(runs))
	if len(fields) == 0 {
		return nil, fmt.Errorf("section @moves: an empty line")
	}
	at, err := strconv.Atoi(fields[0])
	if err != nil || at < 0 || at > len(head) {
		return nil, fmt.Errorf("section @moves: bad offset %q", fields[0])
	}
	b := append([]byte{}, head[:at]...)
	b = append(b, '[')
	n := 0
	for _, run := range fields[1:] {
		id, count, ok := strings.Cut(run, "*")
		i, err1 := strconv.Atoi(id)
		c, err2 := strconv.Atoi(count)
		if !ok || err1 != nil || err2 != nil || i < 0 || c < 1 {
			return nil, fmt.Errorf("section @moves: bad run %q", run)
		}
		keys, err := r.keyList(i)
		if err != nil {
			return nil, err
		}
		for range c {
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = append(b, '{')
			for k, key := range keys {
				val, err := r.value(key)
				if err != nil {
					return nil, err
				}
				if k > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendQuote(b, key)
				b = append(b, ':')
				b = append(b, val...)
			}
			b = append(b, '}')
			if len(b) > MaxGameLine {
				return nil, fmt.Errorf("a line of more than %d bytes: not a game record", MaxGameLine)
			}
		}
	}
	b = append(b, ']')
	return append(b, head[at:]...), nil
}

func (r *colReader) Close() error {
	for _, z := range r.zs {
		z.Close()
	}
	return nil
}

// Archive replaces the games log of the finished run in dir (games.jsonl or
// games.jsonl.gz; or its columns, to drop more keys) by games.jsonl.cols,
// leaving out the move keys in drop (e.g. "pv": the principal variations,
// most of a node-limited run's bytes, which a replay of its games gives
// back). The columns are decoded and compared line by line with the log
// (without the dropped keys) before anything is written, and the log is
// removed only once they are written whole. It returns the log's size on
// disk before and after. The caller holds the run's lock.
func Archive(dir string, drop []string) (before, after int64, err error) {
	path, err := Locate(filepath.Join(dir, GamesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, fmt.Errorf("%s: no games log (%s, .gz or %s): not a run directory of arena run, or one that played no game", dir, GamesFile, ColumnsExt)
	}
	if err != nil {
		return 0, 0, err
	}
	r, err := Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer r.Close()
	w := newColWriter(drop)
	var want [][sha256.Size]byte
	br := bufio.NewReaderSize(r, 1<<16)
	for n := 1; ; n++ {
		line, err := readLine(br)
		if err == io.EOF && len(line) == 0 {
			break
		}
		if err == io.EOF {
			return 0, 0, fmt.Errorf("%s:%d: the last line is cut short (the run did not finish writing it): resume the run first", path, n)
		}
		if err != nil {
			return 0, 0, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		line = line[:len(line)-1]
		g, err := splitGame(line)
		if err == nil && !bytes.Equal(g.join(nil), line) {
			err = errNotCompact
		}
		if err != nil {
			return 0, 0, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		w.add(g)
		want = append(want, sha256.Sum256(g.join(drop)))
	}
	var buf bytes.Buffer
	if err := w.writeTo(&buf); err != nil {
		return 0, 0, err
	}
	if err := checkColumns(buf.Bytes(), want); err != nil {
		return 0, 0, fmt.Errorf("%s: the columns do not decode to the log (%v); nothing was changed", path, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return 0, 0, err
	}
	cols := filepath.Join(dir, GamesFile+ColumnsExt)
	if err := atomicfile.WriteFile(cols, buf.Bytes()); err != nil {
		return 0, 0, err
	}
	for _, ext := range []string{"", GzipExt} {
		if err := os.Remove(filepath.Join(dir, GamesFile+ext)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, 0, err
		}
	}
	return st.Size(), int64(buf.Len()), atomicfile.SyncDir(dir)
}

// Archived says whether the games log of the run in dir is stored in
// columns, and which move keys its archive left out: a resumed run stores
// its log so again when it ends, its new games without those keys too.
func Archived(dir string) (drop []string, archived bool, err error) {
	path, err := Locate(filepath.Join(dir, GamesFile))
	if err != nil || storedExt(path) != ColumnsExt {
		return nil, false, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	var in int64
	cr, err := newColReader(f, &in)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	defer cr.Close()
	return cr.dropped, true, nil
}

// checkColumns decodes columns and compares each line with its hash.
func checkColumns(cols []byte, want [][sha256.Size]byte) error {
	var in int64
	cr, err := newColReader(bytes.NewReader(cols), &in)
	if err != nil {
		return err
	}
	for i, h := range want {
		line, err := cr.game()
		if err != nil {
			return fmt.Errorf("line %d: %w", i+1, err)
		}
		if sha256.Sum256(line) != h {
			return fmt.Errorf("line %d differs", i+1)
		}
	}
	if err := cr.end(); err != io.EOF {
		return err
	}
	if cr.games != len(want) {
		return fmt.Errorf("%d games indexed, %d in the log", cr.games, len(want))
	}
	return nil
}
