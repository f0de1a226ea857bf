package engines

// WinScale is lichess's winning-chances slope per centipawn: a score of cp
// centipawns is worth winning chances tanh(WinScale*cp) in [-1, 1], i.e.
// 2/(1+exp(-0.00368208*cp)) - 1 (lichess's MULTIPLIER is 2*WinScale). It is
// declared once for everything that maps centipawns to expected results:
// the judge's accuracy (tracker), the value engines' scores
// (nnengine.ValueToCP) and the value nets' training targets, so that they
// all read scores on the one curve.
const WinScale = 0.00368208 / 2
