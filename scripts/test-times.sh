#!/usr/bin/env bash
# Times make test's three steps (docs/testing.md, "How to measure"): go vet, go test and
# make fuzz-short, run as the Makefile runs them but with -count=1 (no cached test results),
# and prints each step's wall and CPU time, the whole, the load average before and after,
# and the slowest packages' wall times as go test reports them. Warm the build cache first
# (run it twice and quote the second) and say which CPU it ran on.
#   scripts/test-times.sh [LOG]   the steps' output goes to LOG (default /tmp/test-times.log)
set -u
cd "$(dirname "$0")/.."
log=${1:-/tmp/test-times.log}
GO=${GO:-go}
: >"$log"
make --no-print-directory test-tools >>"$log" 2>&1 || exit 1
echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores"
echo "before: $(uptime)"
status=0
total_wall=0 total_cpu=0
step() {
	local name=$1 t
	shift
	t=$(mktemp)
	/usr/bin/time -f '%e %U %S' -o "$t" "$@" >>"$log" 2>&1 || { status=1; echo "$name FAILED (see $log)"; }
	read -r wall user sys < <(tail -1 "$t")
	rm -f "$t"
	printf '%-11s %7.1f s wall %7.1f s CPU (%.1f user, %.1f system)\n' "$name" "$wall" "$(awk "BEGIN {print $user + $sys}")" "$user" "$sys"
	total_wall=$(awk "BEGIN {print $total_wall + $wall}")
	total_cpu=$(awk "BEGIN {print $total_cpu + $user + $sys}")
}
step "go vet" "$GO" vet ./...
step "go test" env GOFLAGS="${GOFLAGS:+$GOFLAGS }-count=1" "$GO" test -timeout 20m ./...
step "fuzz-short" make --no-print-directory fuzz-short GO="$GO"
printf '%-11s %7.1f s wall %7.1f s CPU\n' "make test" "$total_wall" "$total_cpu"
echo "after:  $(uptime)"
echo "slowest packages (wall):"
awk '$1 == "ok" || $1 == "FAIL" { if ($3 ~ /s$/) print $3, $2, $1 }' "$log" | sort -rn | head -8 | sed 's/^/  /'
exit $status
