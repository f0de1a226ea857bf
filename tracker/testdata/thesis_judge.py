#!/usr/bin/env python3
"""Judge one game as the thesis's arena script does, to make a fixture.

The listing (seed 000, "calculate_acpl" and "get_eval") judges each ply with
python-chess on one Stockfish process that lives for the whole match:

    best_eval = get_eval(board)          # analyse(board, Limit(depth=12))
    board.push(move)
    actual_eval = -get_eval(board)
    board.pop()
    loss = min(max(0, best_eval - actual_eval), cap)

with get_eval = info["score"].relative.score(mate_score=10000). python-chess
is not installed here, so this script speaks UCI itself and sends what
python-chess's SimpleEngine.analyse sends (python-chess 1.x, UciProtocol):
"uci"; before the first search "setoption name UCI_AnalyseMode value true"
(sent once, when the value differs from the engine's default), "ucinewgame"
and "isready"; then for every search "position startpos moves <the whole
game so far>" and "go depth N"; no "ucinewgame" between searches, so the
hash and history tables stay warm. The score is that of the last "info" line
with a score before "bestmove".

Usage: thesis_judge.py GAME.uci [STOCKFISH] [DEPTH] > FIXTURE
GAME.uci holds the game's UCI moves from the start position. Each output line
is "ply move best_eval actual_eval" (centipawns, mate_score 10000).
"""
import subprocess
import sys

MATE_SCORE = 10000


def main():
    moves = open(sys.argv[1]).read().split()
    engine = sys.argv[2] if len(sys.argv) > 2 else "/usr/games/stockfish"
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else 12
    sf = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        sf.stdin.write(line + "\n")
        sf.stdin.flush()

    def wait(prefix):
        for line in sf.stdout:
            if line.startswith(prefix):
                return line
        raise SystemExit("stockfish closed its output waiting for " + prefix)

    send("uci")
    wait("uciok")
    first = [True]

    def get_eval(history):
        if first[0]:
            send("setoption name UCI_AnalyseMode value true")
            send("ucinewgame")
            send("isready")
            wait("readyok")
            first[0] = False
        send("position startpos" + (" moves " + " ".join(history) if history else ""))
        send("go depth %d" % depth)
        score = None
        for line in sf.stdout:
            f = line.split()
            if f and f[0] == "info" and "score" in f:
                i = f.index("score")
                kind, value = f[i + 1], int(f[i + 2])
                if kind == "cp":
                    score = value
                elif value > 0:
                    score = MATE_SCORE - value
                else:
                    score = -MATE_SCORE - value
            elif f and f[0] == "bestmove":
                break
        if score is None:
            raise SystemExit("no score for position after %d moves" % len(history))
        return score

    print("# ply move best_eval actual_eval: %s depth %d, thesis protocol" % (sys.argv[1].split("/")[-1], depth))
    for ply, move in enumerate(moves):
        best = get_eval(moves[:ply])
        actual = -get_eval(moves[: ply + 1])
        print(ply, move, best, actual)
    send("quit")
    sf.wait()


if __name__ == "__main__":
    main()
