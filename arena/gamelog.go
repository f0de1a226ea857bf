package arena

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
)

// games.jsonl holds one GameRecord per line in the order the games finished
// (with concurrency that is not game order); a run that ends complete
// rewrites it in game order. The arena never holds the finished games in
// memory: logIndex remembers where each one is on disk.

// logRef is where one game's line is.
type logRef struct {
	f    *os.File
	off  int64
	size int
	line int // 1-based, for messages
}

// read decodes the game at r.
func (r logRef) read() (*GameRecord, error) {
	buf := make([]byte, r.size)
	if _, err := r.f.ReadAt(buf, r.off); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", r.f.Name(), r.line, err)
	}
	var g GameRecord
	if err := json.Unmarshal(buf, &g); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", r.f.Name(), r.line, err)
	}
	return &g, nil
}

// logIndex maps game numbers to their lines.
type logIndex map[int]logRef

// add indexes the games.jsonl at path into idx and returns the open file
// (nil when there is none); the caller closes it. A last line cut short by
// a kill is ignored (its game is replayed); a bad line or a game recorded
// twice is an error naming the line.
func (idx logIndex) add(path string) (*os.File, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r := bufio.NewReaderSize(f, 1<<16)
	var off int64
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			// No newline: the write of this record did not finish.
			return f, nil
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		var head struct {
			Game int `json:"game"`
		}
		if err := json.Unmarshal(line, &head); err != nil || head.Game < 1 {
			f.Close()
			if err == nil {
				err = fmt.Errorf("game number %d (expected 1 or more)", head.Game)
			}
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if prev, dup := idx[head.Game]; dup {
			f.Close()
			return nil, fmt.Errorf("%s:%d: game %d recorded twice (first in %s:%d)", path, n, head.Game, prev.f.Name(), prev.line)
		}
		idx[head.Game] = logRef{f: f, off: off, size: len(line) - 1, line: n}
		off += int64(len(line))
	}
}

// readGames reads every finished game of games.jsonl, in game order (for
// tests and tools; runs stream through logIndex instead).
func readGames(path string) ([]*GameRecord, error) {
	idx := logIndex{}
	f, err := idx.add(path)
	if f == nil || err != nil {
		return nil, err
	}
	defer f.Close()
	var games []*GameRecord
	for _, n := range slices.Sorted(maps.Keys(idx)) {
		g, err := idx[n].read()
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	return games, nil
}
