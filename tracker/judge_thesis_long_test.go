//go:build long

package tracker

import "testing"

// Every ply of the fixture game (TestThesisProtocolReproducesListing checks
// the first 24).
func TestThesisProtocolReproducesListingWholeGame(t *testing.T) {
	checkThesisProtocol(t, 0)
}
