// Package clip shortens values echoed in messages. An error that quotes what
// the user wrote is only useful while it fits on a screen: a 52 MB engine
// name or FEN quoted whole buries the rest of the message (and the terminal).
package clip

import (
	"fmt"
	"unicode/utf8"
)

// Max is how many bytes of a value a message keeps.
const Max = 100

// String returns s when it is at most Max bytes long, else its first Max
// bytes (cut at a character boundary) followed by "... (N bytes)".
func String(s string) string {
	if len(s) <= Max {
		return s
	}
	cut := Max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:cut], len(s))
}
