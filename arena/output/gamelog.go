package output

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"arena/arena/record"
)

// games.jsonl holds one GameRecord per line in the order the games
// finished (with concurrency that is not game order); a run that ends
// complete rewrites it in game order. The arena never holds the finished games in
// memory: Index remembers where each one is on disk.

// Ref is where one game's line is.
type Ref struct {
	f    *os.File
	path string // the file indexed, for messages: f is a scratch copy of a .gz
	off  int64
	size int
	line int // 1-based, for messages
}

// Path is the file that holds the game.
func (r Ref) Path() string { return r.path }

// Line is the game's line number in it (1-based).
func (r Ref) Line() int { return r.line }

// Read decodes the game at r.
func (r Ref) Read() (*record.GameRecord, error) {
	buf := make([]byte, r.size)
	if _, err := r.f.ReadAt(buf, r.off); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", r.path, r.line, err)
	}
	var g record.GameRecord
	if err := json.Unmarshal(buf, &g); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", r.path, r.line, err)
	}
	return &g, nil
}

// Index maps game numbers to their lines.
type Index map[int]Ref

// Add indexes the games.jsonl at path (or games.jsonl.gz: Locate) into idx
// and returns the open file (nil when there is none); the caller closes it.
// A last line cut short by a kill is ignored (its game is replayed); a bad
// line or a game recorded twice is an error naming the line.
func (idx Index) Add(path string) (*os.File, error) {
	r, err := OpenLogReader(path)
	if r == nil || err != nil {
		return nil, err
	}
	for {
		game, line, err := r.Next()
		if err == io.EOF {
			return r.f, nil
		}
		if err != nil {
			r.Close()
			return nil, err
		}
		if prev, dup := idx[game]; dup {
			r.Close()
			return nil, fmt.Errorf("%s: game %d recorded twice (first in %s:%d)", r.Pos(), game, prev.path, prev.line)
		}
		idx[game] = Ref{f: r.f, path: r.path, off: r.off - int64(len(line)) - 1, size: len(line), line: r.line}
	}
}

// LogReader reads a games log line by line in the order of the file,
// holding one line at a time: what merges shards and follows logs with
// memory flat in the number of games.
type LogReader struct {
	f    *os.File
	path string // the log, for messages: f is a scratch copy of a .gz
	br   *bufio.Reader
	off  int64 // bytes of the lines read
	line int   // lines read
}

// OpenLogReader opens the games.jsonl (or games.jsonl.gz: Locate) at path;
// nil and no error when there is none. A nil LogReader reads as an empty
// log (a shard that played no game has none).
func OpenLogReader(path string) (*LogReader, error) {
	f, path, err := openLog(path)
	if f == nil || err != nil {
		return nil, err
	}
	return &LogReader{f: f, path: path, br: bufio.NewReaderSize(f, 1<<16)}, nil
}

// Next returns the next game's number and line (without its newline);
// io.EOF at the end. A last line cut short by a kill is not returned (its
// game is replayed); a bad line is an error naming it.
func (r *LogReader) Next() (int, []byte, error) {
	if r == nil {
		return 0, nil, io.EOF
	}
	line, err := readLine(r.br)
	if err == io.EOF {
		return 0, nil, io.EOF // no newline: the write of this record did not finish
	}
	if err != nil {
		return 0, nil, fmt.Errorf("%s:%d: %w", r.path, r.line+1, err)
	}
	r.off += int64(len(line))
	r.line++
	line = line[:len(line)-1]
	var head struct {
		Game int `json:"game"`
	}
	if err := json.Unmarshal(line, &head); err != nil || head.Game < 1 {
		if err == nil {
			err = fmt.Errorf("game number %d (expected 1 or more)", head.Game)
		}
		return 0, nil, fmt.Errorf("%s: %v", r.Pos(), err)
	}
	return head.Game, line, nil
}

// Rewind starts the log again from its first line.
func (r *LogReader) Rewind() error {
	if r == nil {
		return nil
	}
	if _, err := r.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	r.br.Reset(r.f)
	r.off, r.line = 0, 0
	return nil
}

// Pos is "path:line" of the line Next returned last.
func (r *LogReader) Pos() string { return fmt.Sprintf("%s:%d", r.path, r.line) }

// Close closes the log.
func (r *LogReader) Close() error {
	if r == nil {
		return nil
	}
	return r.f.Close()
}

// MaxGameLine bounds a line of games.jsonl: the longest game of the
// committed runs takes 91 KB; a line without end is not read into memory.
const MaxGameLine = 64 << 20

// readLine reads a line with its newline, of at most MaxGameLine bytes.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > MaxGameLine {
			return nil, fmt.Errorf("a line of more than %d bytes: not a game record", MaxGameLine)
		}
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// openLog opens the games.jsonl Locate finds for path, positioned at its
// start, and returns the name it found (nil and no error when there is
// none). Games are read back by offset, which a gzip stream does not allow:
// a compressed log is decompressed into a scratch file, unlinked at once
// and kept beside the log for GameLines's reason (not in a memory-backed
// /tmp).
func openLog(path string) (*os.File, string, error) {
	r, err := Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	if r.z == nil {
		return r.f, r.Name(), nil
	}
	defer r.Close()
	tmp, err := os.CreateTemp(filepath.Dir(r.Name()), ".games-*.jsonl")
	if err != nil {
		return nil, "", fmt.Errorf("scratch file for %s: %w", r.Name(), err)
	}
	if err := os.Remove(tmp.Name()); err != nil {
		tmp.Close()
		return nil, "", err
	}
	if _, err := io.Copy(tmp, r); err != nil {
		tmp.Close()
		return nil, "", err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		tmp.Close()
		return nil, "", err
	}
	return tmp, r.Name(), nil
}

// ReadGames reads every finished game of games.jsonl (or games.jsonl.gz),
// in game order (for tests and tools; runs stream through Index instead).
func ReadGames(path string) ([]*record.GameRecord, error) {
	var games []*record.GameRecord
	_, err := EachGame(path, func(g *record.GameRecord) error {
		games = append(games, g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return games, nil
}

// EachGame calls fn with every finished game of games.jsonl (or
// games.jsonl.gz) in game order, one game in memory at a time, and returns
// how many there were (0 without a log).
func EachGame(path string, fn func(*record.GameRecord) error) (int, error) {
	idx := Index{}
	f, err := idx.Add(path)
	if f == nil || err != nil {
		return 0, err
	}
	defer f.Close()
	for _, n := range slices.Sorted(maps.Keys(idx)) {
		g, err := idx[n].Read()
		if err != nil {
			return 0, err
		}
		if err := fn(g); err != nil {
			return 0, err
		}
	}
	return len(idx), nil
}
