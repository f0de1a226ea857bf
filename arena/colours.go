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

// coloursLine describes noswap and reverse for the run header ("" when
// colours alternate from the first engine).
func coloursLine(cfg *config.Config) string {
	first, second := cfg.Engines[0].Name, cfg.Engines[1].Name
	if len(cfg.Engines) > 2 {
		first, second = "each pairing's first engine", "each pairing's second engine"
	}
	switch {
	case cfg.NoSwap && cfg.Reverse:
		return second + " White in every game (noswap, reverse)"
	case cfg.NoSwap:
		return first + " White in every game (noswap)"
	case cfg.Reverse:
		return "alternating, " + second + " White first (reverse)"
	}
	return ""
}
