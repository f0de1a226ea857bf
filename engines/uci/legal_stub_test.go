package uci

import (
	"testing"

	"arena/engines"
)

func checkLegal(t *testing.T, pos engines.Position, move string) {
	if len(move) < 4 {
		t.Errorf("bad move %q", move)
	}
}
