#!/bin/sh
# The checksums of the NNUE self-play data (docs/nnue.md, "Training"). The data are not
# committed: the generator is deterministic, so data/nnue/selfplay.sums records what it
# must produce, as sha256 of the first 1,000 lines and of each whole 100,000-line part.
#   scripts/nnue-sums.sh check DATA SUMS   compare DATA's whole parts with SUMS
#   scripts/nnue-sums.sh write DATA SUMS   record them (after growing the data)
set -eu
mode=$1 data=$2 sums=$3
part=100000
[ -f "$data" ] || { echo "$data: no such file (make nnue-data generates it)" >&2; exit 1; }
sums_of() {
	head -n 1000 "$data" | sha256sum | sed 's/ .*/  lines 1-1000/'
	n=$(wc -l < "$data")
	head -n $((n / part * part)) "$data" | split -l $part --filter='sha256sum' - |
		awk -v p=$part '{ printf "%s  lines %d-%d\n", $1, (NR-1)*p+1, NR*p }'
}
case $mode in
write)
	state=$(sed -n 's/^ *"config": "\(.*\)",$/\1/p' "$data.state" | sed 's/\\"/"/g')
	{ echo "# arena datagen selfplay: $state"
	  echo "# sha256 of the first 1,000 lines of the data and of each whole $part-line part"
	  sums_of; } > "$sums.tmp"
	mv "$sums.tmp" "$sums"
	echo "$sums: $(grep -c ' lines ' "$sums") checksums" ;;
check)
	sums_of > "$data.sums.tmp"
	have=$(wc -l < "$data.sums.tmp")
	want=$(grep -v '^#' "$sums" | head -n "$have")
	if [ "$(cat "$data.sums.tmp")" = "$want" ]; then
		echo "$data: $((have - 1)) whole parts equal to $sums"
		rm -f "$data.sums.tmp"
	else
		echo "$data differs from $sums:" >&2
		echo "$want" | diff - "$data.sums.tmp" >&2 || true
		rm -f "$data.sums.tmp"
		exit 1
	fi ;;
*) echo "usage: $0 check|write DATA SUMS" >&2; exit 2 ;;
esac
