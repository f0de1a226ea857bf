package output

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"arena/arena/record"
	"arena/internal/atomicfile"
)

// RewriteLog rewrites dir/games.jsonl in game order with the games of sum
// (and their LLR).
func RewriteLog(dir string, sum *record.Summary) error {
	path := filepath.Join(dir, GamesFile)
	idx := Index{}
	f, err := idx.Add(path)
	if err != nil || f == nil {
		return err
	}
	defer f.Close()
	if sum.SPRT == nil && inGameOrder(idx, sum) {
		return nil // nothing to change: a run at concurrency 1 is already in order
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		for _, gs := range sum.Games {
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
			if _, err := bw.Write(append(line, '\n')); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
}

// inGameOrder reports whether the log holds exactly sum's games, in order.
func inGameOrder(idx Index, sum *record.Summary) bool {
	if len(idx) != len(sum.Games) {
		return false
	}
	for i, gs := range sum.Games {
		if ref, ok := idx[gs.Game]; !ok || ref.line != i+1 {
			return false
		}
	}
	return true
}
