#!/usr/bin/env bash
# Runs Go fuzz targets (Makefile: make fuzz, make fuzz-short; docs/fuzzing.md).
#   scripts/fuzz.sh JOBS FUZZTIME MINIMIZE WORKERS PKG:FUNC...
# Each target is `go test PKG -run '^$' -fuzz '^FUNC$'` for FUZZTIME with WORKERS fuzz
# processes, minimizing a new input for at most MINIMIZE. JOBS targets run at a time:
# one target is a coordinator and WORKERS workers, and its instrumented build and link are
# mostly one process, so a single target leaves a core of two idle (make fuzz-short runs
# two at a time). With JOBS above 1 each target's output is held and printed whole when it
# ends. Fails when any target fails, after the others have run.
set -u
jobs=$1 fuzztime=$2 minimize=$3 workers=$4
shift 4
GO=${GO:-go}
one() {
	local pkg=${1%%:*} fn=${1##*:}
	echo "fuzz $fn ($pkg) for $fuzztime"
	"$GO" test "$pkg" -run '^$' -fuzz "^$fn\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimize" -parallel "$workers"
}
if [ "$jobs" -le 1 ]; then
	status=0
	for t in "$@"; do one "$t" || status=1; done
	exit $status
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
export -f one
export GO fuzztime minimize workers logs
printf '%s\n' "$@" | xargs -P "$jobs" -I{} bash -c '
	log=$logs/$(printf %s "$1" | tr /: __)
	if one "$1" >"$log" 2>&1; then status=0; else status=1; fi
	flock "$logs/.print" cat "$log"
	exit $status' _ {}
