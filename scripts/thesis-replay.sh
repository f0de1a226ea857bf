#!/bin/sh
# thesis-replay: replay the games of the committed movetime runs (the faithful and
# time-matched sets) that ended on time, with time_forfeit off, so that the runs hold
# no time forfeit, as the thesis's games had none (docs/reproduction.md).
#
# For each run directory of the sets whose games.jsonl(.gz) holds a game that ended on
# time: those games' lines are taken out (the rest stay byte for byte), time_forfeit: off
# is added to its config.yaml, and the directory is marked (.replay); then the run (or
# the sweep it belongs to) is resumed, which plays just the missing games and rewrites
# its games.pgn, moves.csv and summaries; its games are judged again with the second
# protocol (judge-PROTOCOL.json) and its report written again; the mark is removed.
# Interrupted, it resumes where it stopped: run it again. docs/reproduction.md is not
# regenerated here (make reproduce does, from every set).
#
# These are timed games: run it on a machine as quiet as you can get, and say the load
# (uptime) with the results.
set -eu
BIN=${BIN:-bin/arena}
RESULTS=${THESIS_RESULTS:-results/thesis}
SETS=${SETS:-faithful time}
PROTOCOL=${REJUDGE_PROTOCOL:-position}
FORFEIT='"termination":"time forfeit"'

echo "thesis-replay: $(uptime)"
for set in $SETS; do
	for cfg in "$RESULTS/$set"/*/config.yaml "$RESULTS/$set"/*/*/config.yaml; do
		[ -f "$cfg" ] || continue
		d=$(dirname "$cfg")
		if [ -f "$d/games.jsonl" ]; then
			n=$(grep -c -F "$FORFEIT" "$d/games.jsonl" || true)
			[ "$n" -gt 0 ] || continue
			grep -v -F "$FORFEIT" "$d/games.jsonl" > "$d/games.jsonl.replay" || true
			mv "$d/games.jsonl.replay" "$d/games.jsonl"
		elif [ -f "$d/games.jsonl.gz" ]; then
			n=$(gzip -dc "$d/games.jsonl.gz" | grep -c -F "$FORFEIT" || true)
			[ "$n" -gt 0 ] || continue
			{ gzip -dc "$d/games.jsonl.gz" | grep -v -F "$FORFEIT" || true; } | gzip -n > "$d/games.jsonl.gz.replay"
			mv "$d/games.jsonl.gz.replay" "$d/games.jsonl.gz"
		else
			continue
		fi
		echo "$d: $n game(s) ended on time: replaying with time_forfeit off"
		grep -q '^time_forfeit:' "$cfg" || sed -i 's/^time_margin: .*/&\ntime_forfeit: off/' "$cfg"
		# A sweep resumes only the settings whose summary says incomplete.
		sed -i '0,/"complete": true/s//"complete": false/' "$d/summary.json"
		touch "$d/.replay"
	done
done

for set in $SETS; do
	for mark in "$RESULTS/$set"/*/.replay "$RESULTS/$set"/*/*/.replay; do
		[ -f "$mark" ] || continue
		d=$(dirname "$mark")
		top=$d
		[ -f "$(dirname "$d")/sweep.json" ] && top=$(dirname "$d")
		if ! grep -q '"complete": true' "$d/summary.json"; then
			"$BIN" run --resume "$top"
		fi
		dep=$(grep -o '"depth": *[0-9]*' "$d/summary.json" | head -1 | grep -o '[0-9]*$')
		"$BIN" analyze "$d" --protocol "$PROTOCOL" --depth "$dep" --workers 2 --out "$d/judge-$PROTOCOL.json.tmp" > /dev/null
		mv "$d/judge-$PROTOCOL.json.tmp" "$d/judge-$PROTOCOL.json"
		"$BIN" report "$top"
		rm "$mark"
	done
done
left=$(cat "$RESULTS"/*/*/games.jsonl "$RESULTS"/*/*/*/games.jsonl 2>/dev/null | grep -c -F "$FORFEIT" || true)
echo "thesis-replay: done; $left game(s) of $RESULTS end on time. $(uptime)"
