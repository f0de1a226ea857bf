package config

// Pairings lists the pairings of engines (indices, the lower first) that the
// format plays: every pair of engines for a match or round robin, engines[0]
// with each of the others for a gauntlet. For a knockout it is every pair
// that may meet (any two engines can, depending on the results); which do is
// known only as the games are played.
func (c *Config) Pairings() [][2]int {
	var ps [][2]int
	for a := range c.Engines {
		if c.Format == FormatGauntlet && a > 0 {
			break
		}
		for b := a + 1; b < len(c.Engines); b++ {
			ps = append(ps, [2]int{a, b})
		}
	}
	return ps
}

// ScheduledGames is the number of games the format schedules before any
// result is known: games per pairing times pairings, and for a knockout
// games per encounter times its engines minus one encounters (every
// encounter eliminates one engine; byes play no game). A knockout's
// tie-break games come on top.
func (c *Config) ScheduledGames() int {
	if c.Format == FormatKnockout {
		return c.Games * (len(c.Engines) - 1)
	}
	return c.Games * len(c.Pairings())
}

// ResolvedFormat is c.Format, or its default for a config built in code.
func (c *Config) ResolvedFormat() string {
	switch {
	case c.Format != "":
		return c.Format
	case len(c.Engines) == 2:
		return FormatMatch
	}
	return FormatRoundRobin
}

// ResolvedAnchor is c.Anchor, or its default (the first engine).
func (c *Config) ResolvedAnchor() string {
	if c.Anchor == "" && len(c.Engines) > 0 {
		return c.Engines[0].Name
	}
	return c.Anchor
}
