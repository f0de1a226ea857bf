package arena

import "arena/arena/config"

// swapped reports whether game i (0-based) of a pairing has the pairing's
// second engine as White. By default colours alternate, the first engine
// White first; reverse starts with the second engine (fastchess's
// -reverse); noswap keeps the colours of the first game for every game
// (fastchess's and cutechess's -noswap), so with pairs: true both games of
// a pair are played with the same colours.
func swapped(cfg *config.Config, i int) bool {
	first := cfg.Reverse
	if cfg.NoSwap {
		return first
	}
	return first != (i%2 == 1)
}
