package arena

import (
	"context"

	"arena/arena/record"
	"arena/tracker"
)

// judgeGame has the tracker's judge evaluate every position of a finished
// game once and stores each move's centipawn loss, accuracy and class and
// each side's statistics in rec. It runs after the game, never while an
// engine thinks. A judge failure is recorded in rec.JudgeError (the game
// itself stands); it is returned only when ctx was cancelled.
func judgeGame(ctx context.Context, j *tracker.Judge, rec *record.GameRecord) error {
	rec.JudgeError = ""
	if len(rec.Moves) == 0 {
		return nil
	}
	moves := make([]string, len(rec.Moves))
	var book []bool // the engines' own book moves, left out of their statistics
	for i, m := range rec.Moves {
		moves[i] = m.UCI
		if m.Book {
			if book == nil {
				book = make([]bool, len(rec.Moves))
			}
			book[i] = true
		}
	}
	start := j.Evaluations()
	before, after, err := j.EvaluateMoves(ctx, rec.FEN, moves)
	if err != nil {
		rec.JudgeError = err.Error()
		return ctx.Err()
	}
	first, err := tracker.SideToMove(rec.FEN)
	if err != nil {
		rec.JudgeError = err.Error()
		return nil
	}
	an, err := tracker.AnalyzeMovesExcept(before, after, first, moves, j.Scoring(), book)
	if err != nil {
		rec.JudgeError = err.Error()
		return nil
	}
	rec.JudgeEvals = int(j.Evaluations() - start)
	mate := j.Scoring().MateScore
	for i, jm := range an.Judgements {
		m := &rec.Moves[i]
		// After is from the opponent's side; turn it to White's.
		eval := jm.After.Score(mate)
		if jm.Side == tracker.White {
			eval = -eval
		}
		m.EvalCP, m.CPL, m.Accuracy, m.Class = new(eval), new(jm.CPL), new(jm.Accuracy), jm.Class
	}
	rec.WhiteStats, rec.BlackStats = new(an.White), new(an.Black)
	return nil
}
