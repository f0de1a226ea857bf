package output

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"arena/arena/record"
	"arena/internal/atomicfile"
)

// RewriteLog rewrites dir/games.jsonl in game order with the games of
// lines (and their pair numbers and, with an SPRT, their LLR).
func RewriteLog(dir string, sprt bool, lines *GameLines) error {
	path := filepath.Join(dir, GamesFile)
	idx := Index{}
	f, err := idx.Add(path)
	if err != nil || f == nil {
		return err
	}
	defer f.Close()
	if !sprt {
		ordered, err := inGameOrder(idx, lines)
		if err != nil || ordered {
			return err // nothing to change: a run at concurrency 1 is already in order
		}
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		err := lines.Each(func(gs record.GameSummary) error {
			ref, ok := idx[gs.Game]
			if !ok {
				return fmt.Errorf("%s: game %d is in the summary but not in %s", dir, gs.Game, GamesFile)
			}
			g, err := ref.Read()
			if err != nil {
				return err
			}
			g.LLR, g.Pair = gs.LLR, gs.Pair
			line, err := json.Marshal(g)
			if err != nil {
				return err
			}
			_, err = bw.Write(append(line, '\n'))
			return err
		})
		if err != nil {
			return err
		}
		return bw.Flush()
	})
}

// errOutOfOrder stops inGameOrder's walk at the first game out of place.
var errOutOfOrder = errors.New("out of order")

// inGameOrder reports whether the log holds exactly the games of lines, in
// order.
func inGameOrder(idx Index, lines *GameLines) (bool, error) {
	if len(idx) != lines.Len() {
		return false, nil
	}
	i := 0
	err := lines.Each(func(gs record.GameSummary) error {
		i++
		if ref, ok := idx[gs.Game]; !ok || ref.line != i {
			return errOutOfOrder
		}
		return nil
	})
	if errors.Is(err, errOutOfOrder) {
		return false, nil
	}
	return err == nil, err
}
