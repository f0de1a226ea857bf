#!/usr/bin/env bash
# slurm-check: play a config as a Slurm array job on a real single-node Slurm
# cluster brought up on this machine, merge the shards, and check that the
# merged games equal a single-process run of the same config game by game.
#
#   scripts/slurm-check.sh [CONFIG]      (make slurm-check)
#
# CONFIG defaults to configs/deploy/check.yaml; it must be node- or
# depth-limited (time limits make moves depend on the machine's load).
# Environment: ARENA (binary, default bin/arena), SHARDS (array size, default 4),
# SLURM_CHECK_KEEP=1 keeps the temporary directory after a successful check.
#
# Everything the cluster needs lives in one temporary directory: a fresh munge
# key and munged on its own socket, a slurm.conf for one node (this host, its
# CPUs, jobs as root, no cgroups: proctrack/linuxproc and task/none work in a
# container), the state and spool directories and the logs. slurmctld and
# slurmd run in the foreground as children of this script on free ports, so
# they touch no system Slurm or munge, and the EXIT trap cancels the jobs and
# stops the daemons whether the check passes or fails. Debian's Slurm daemons
# and client (the parts of slurm-wlm this needs), munge and jq are installed
# with apt-get when missing. Must run as root:
# slurmd starts job steps as the submitting user and needs root to do so.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '[slurm-check %(%H:%M:%S)T] %s\n' -1 "$*"; }
# The last line is always the plain "N passed, N failed" a CI log reader looks
# for: the EXIT trap prints it however the script ends (a failed check, a
# command that failed under set -e, an interrupt), counting what did not pass
# as failed.
PASSED=0
FAILED=0
CHECKS=3 # the shards equal a single run; the SPRT across shards; the container image
passed() {
	PASSED=$((PASSED + 1))
	say "PASS: $*"
}
die() {
	say "FAIL: $*"
	FAILED=$((FAILED + 1))
	exit 1
}
closing_line() {
	[ $((PASSED + FAILED)) -lt "$CHECKS" ] && FAILED=$((CHECKS - PASSED))
	echo "slurm-check: $PASSED passed, $FAILED failed"
}
trap closing_line EXIT
ROOT=$PWD
CONFIG=$(realpath "${1:-configs/deploy/check.yaml}")
ARENA=$(realpath "${ARENA:-bin/arena}")
SHARDS=${SHARDS:-4}
SBATCH_FILE=$ROOT/configs/deploy/slurm/arena-array.sbatch


[ "$(id -u)" = 0 ] || die "must run as root (slurmd starts job steps as the submitting user)"
[ -x "$ARENA" ] || die "$ARENA is not an executable (make build)"
[ -f "$CONFIG" ] || die "$CONFIG: no such config"

# A run inside a Slurm job or a Kubernetes indexed pod would otherwise shard the
# single-process run and hand the array job the outer cluster's settings.
unset SLURM_CONF JOB_COMPLETION_INDEX ARENA_SHARD_COUNT
for v in $(compgen -e | grep '^SLURM_' | grep -v '^SLURM_CHECK_' || true); do unset "$v"; done

PATH=$PATH:/usr/sbin
install_missing() {
	local missing=()
	for c in slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client munged:munge jq:jq podman:podman; do
		command -v "${c%%:*}" >/dev/null 2>&1 || missing+=("${c#*:}")
	done
	[ ${#missing[@]} = 0 ] && return
	say "installing ${missing[*]} with apt-get"
	export DEBIAN_FRONTEND=noninteractive
	# Another apt (an unattended upgrade, a second install) may hold the
	# package locks: wait for them rather than fail.
	local lock=(-o DPkg::Lock::Timeout=600)
	for i in $(seq 60); do
		apt-get "${lock[@]}" update -qq && break
		[ "$i" = 60 ] && die "apt-get update failed for 10 minutes"
		say "apt-get update failed (another apt holds the lock?); trying again in 10 s"
		sleep 10
	done
	apt-get "${lock[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
		die "apt-get install ${missing[*]} failed"
}
install_missing

T=$(mktemp -d /tmp/slurm-check.XXXXXX)
chmod 755 "$T" # munged wants its socket's directories searchable by everyone
mkdir -p "$T"/{etc,state,spool,log,out,run} "$T/munge"
chmod 700 "$T/munge"
PIDS=()
OK=0

teardown() {
	set +e
	if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then
		scancel --quiet --user=root 2>/dev/null
		for _ in $(seq 30); do
			[ -z "$(squeue -h 2>/dev/null)" ] && break
			sleep 1
		done
	fi
	# Stop slurmd and slurmctld before munged: they need it to say goodbye.
	for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
		kill "${PIDS[i]}" 2>/dev/null && wait "${PIDS[i]}" 2>/dev/null
	done
	if [ "$OK" = 1 ] && [ "${SLURM_CHECK_KEEP:-0}" != 1 ]; then
		rm -rf "$T"
	else
		say "logs and outputs kept in $T"
	fi
}
trap 'teardown; closing_line' EXIT
trap 'exit 130' INT TERM

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
	local p=$1
	while ! port_free "$p" || ! port_free "$((p + 1))"; do p=$((p + 2)); done
	echo "$p"
}

start_munge() {
	mungekey --create --keyfile="$T/munge/munge.key" 2>/dev/null ||
		head -c 1024 /dev/urandom >"$T/munge/munge.key"
	chmod 600 "$T/munge/munge.key"
	munged --foreground --key-file="$T/munge/munge.key" --socket="$T/run/munge.sock" \
		--pid-file="$T/run/munged.pid" --log-file="$T/log/munged.log" \
		--seed-file="$T/munge/munged.seed" >"$T/log/munged.out" 2>&1 &
	PIDS+=($!)
	for _ in $(seq 50); do
		munge -S "$T/run/munge.sock" -n 2>/dev/null | unmunge -S "$T/run/munge.sock" >/dev/null 2>&1 && return
		sleep 0.1
	done
	cat "$T/log/munged.out" "$T/log/munged.log" 2>/dev/null
	die "munged did not start"
}

write_conf() {
	local host port cpus
	host=$(hostname -s)
	port=$(free_port 16817)
	cpus=$(nproc)
	: >"$T/etc/plugstack.conf"
	cat >"$T/etc/slurm.conf" <<EOF
ClusterName=arenacheck
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/run/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/run/slurmctld.pid
SlurmdPidFile=$T/run/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
PlugStackConfig=$T/etc/plugstack.conf
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
	export SLURM_CONF=$T/etc/slurm.conf
	say "slurm.conf for $host ($cpus CPUs), slurmctld on port $port, slurmd on $((port + 1))"
}

start_slurm() {
	slurmctld -D -i >"$T/log/slurmctld.out" 2>&1 &
	PIDS+=($!)
	slurmd -D >"$T/log/slurmd.out" 2>&1 &
	PIDS+=($!)
	local state=
	for _ in $(seq 60); do
		state=$(sinfo -h -o %T 2>/dev/null || true)
		[ "$state" = idle ] && { sinfo; return; }
		sleep 1
	done
	tail -n 20 "$T"/log/slurm*.log
	die "the node is not idle after 60 s (state: ${state:-none})"
}

# What must match, game by game and move by move: everything the run writes
# except when games started, how long moves took and the engines' memory.
games() {
	jq -c 'del(.start, .duration_s) | .moves |= map(del(.time_s, .rss_mb, .peak_rss_mb))' "$1/games.jsonl" |
		jq -s -c 'sort_by(.game)[]'
}
pgn() { # one line: wrapping depends on the length of the dropped comments
	tr -s '\n' ' ' <"$1/games.pgn" | sed -E 's/\[(Date|GameStartTime|GameDuration) "[^"]*"\]//g
		s/ [0-9.]+s n=/ n=/g; s/ mem=[0-9.]+MB//g'
}
moves_csv() { # PVs hold no commas
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) drop[i] = $i ~ /^(time_s|rss_mb|peak_rss_mb)$/ }
		{ line = ""; for (i = 1; i <= NF; i++) if (!drop[i]) line = line $i ","; print line }' "$1/moves.csv"
}
totals() { jq -c '[.games_played, [.engines[] | {name, wins, draws, losses, points}]]' "$1/summary.json"; }

compare() {
	local single=$1 merged=$2 n f
	n=$(games "$single" | wc -l)
	[ "$n" -gt 0 ] || die "the single run played no games"
	for f in games pgn moves_csv totals; do
		if ! diff <($f "$single") <($f "$merged") >"$T/log/$f.diff"; then
			head -c 2000 "$T/log/$f.diff"
			die "merged shards differ from the single run ($f; diff in $T/log/$f.diff)"
		fi
	done
	say "identical: $n games (games.jsonl, games.pgn, moves.csv: moves, nodes, depth, scores, PVs, results)"
	say "merged summary: $(totals "$merged")"
}

# sbatch --wait polls at growing intervals (up to ~15 s late here); squeue
# every second is prompt, and scontrol keeps finished jobs for MinJobAge (300 s).
wait_job() {
	local job=$1 deadline=$((SECONDS + ${SLURM_CHECK_TIMEOUT:-1200}))
	while [ -n "$(squeue -h -j "$job" -o %i 2>/dev/null)" ]; do
		[ "$SECONDS" -lt "$deadline" ] || die "array job $job still running after ${SLURM_CHECK_TIMEOUT:-1200} s"
		sleep 1
	done
	local bad
	bad=$(scontrol -o show job "$job" | grep -v 'JobState=COMPLETED .*ExitCode=0:0' || true)
	if [ -n "$bad" ]; then
		tail -n 20 "$T"/log/arena-*.out
		echo "$bad" | sed -E 's/.*ArrayTaskId=([^ ]*).*JobState=([^ ]*).*ExitCode=([^ ]*).*/task \1: \2, exit code \3/'
		die "array job $job: not every task completed with exit code 0"
	fi
}

START=$SECONDS
start_munge
write_conf
start_slurm
say "cluster up in $((SECONDS - START)) s"

t=$SECONDS
job=$(ARENA=$ARENA ARENA_CONFIG=$CONFIG ARENA_OUT=$T/out sbatch --parsable \
	--array="0-$((SHARDS - 1))" --chdir="$T/out" --output="$T/log/arena-%A_%a.out" "$SBATCH_FILE")
wait_job "$job"
say "array job $job ($SHARDS tasks) finished in $((SECONDS - t)) s"
grep -h -E '^(Shard|Speed):' "$T"/log/arena-*.out

t=$SECONDS
"$ARENA" merge "$T/merged" "$T"/out/shard-* >"$T/log/merge.out" 2>&1 || {
	cat "$T/log/merge.out"
	die "arena merge failed"
}
say "merged in $((SECONDS - t)) s"

t=$SECONDS
"$ARENA" run "$CONFIG" --out "$T/single" >"$T/log/single.out" 2>&1 || {
	tail -n 20 "$T/log/single.out"
	die "the single-process run failed"
}
say "single-process run in $((SECONDS - t)) s"

compare "$T/single" "$T/merged"
passed "4 shards merged equal the single-process run ($((SECONDS - START)) s)"

# An SPRT played by the same array: the shards read each other's games and
# stop together when the combined test decides, far short of the schedule;
# the merge gives the verdict over every game they played.
SPRT_CONFIG=$ROOT/configs/deploy/sprt-check.yaml
t=$SECONDS
job=$(ARENA=$ARENA ARENA_CONFIG=$SPRT_CONFIG ARENA_OUT=$T/sprt sbatch --parsable \
	--array="0-$((SHARDS - 1))" --chdir="$T/out" --output="$T/log/sprt-%A_%a.out" "$SBATCH_FILE")
wait_job "$job"
"$ARENA" merge "$T/sprt/merged" "$T"/sprt/shard-* >"$T/log/sprt-merge.out" 2>&1 || {
	cat "$T/log/sprt-merge.out"
	die "arena merge of the SPRT shards failed"
}
planned=$(jq .games_planned "$T/sprt/merged/summary.json")
played=$(jq .games_played "$T/sprt/merged/summary.json")
verdict=$(jq -r '.sprt.status + " (LLR " + (.sprt.llr | tostring) + " after " + (.sprt.count | tostring) + " " + .sprt.unit + ")"' "$T/sprt/merged/summary.json")
for d in "$T"/sprt/shard-*; do
	say "$(basename "$d"): $(jq -r '"\(.games_played) games, stopped: \(.stopped)"' "$d/summary.json")"
done
[ "$(jq -r .sprt.status "$T/sprt/merged/summary.json")" = "H1 accepted" ] ||
	die "the merged SPRT says $verdict, want H1 accepted (H-20k is far stronger)"
[ "$played" -lt $((planned / 2)) ] || die "the SPRT shards played $played of $planned games: they did not stop early"
passed "SPRT across $SHARDS shards stopped after $played of $planned games: $verdict ($((SECONDS - t)) s)"

# The container image of the Kubernetes manifests, built FROM scratch with
# podman; its filesystem is checked in a chroot (scripts/image.sh).
t=$SECONDS
scripts/image.sh --check >"$T/log/image.out" 2>&1 || {
	tail -n 20 "$T/log/image.out"
	die "the container image did not build or check"
}
grep '^image:' "$T/log/image.out"
passed "container image built and checked ($((SECONDS - t)) s)"

OK=1
