#!/bin/sh
# profile.sh [-n RUNS] BIN ARGS...: where the wall time of a whole process goes.
# Puts perf uprobes on the entry and return of the functions that start each
# part of a batch run (tests/bench/phases.py names them), records them with
# the process's exec and exit, and prints the breakdown: start-up, the
# inputs, the scatter (run_new), the run and its gather, the verification,
# the DP-vs-FSDP table, printing, exit.  Then perf stat's counts and
# /usr/bin/time -v's page faults and times for the same command.
# Needs root (uprobes) and tracefs; says so and stops when they are missing.
set -eu
runs=1
if [ "${1:-}" = -n ]; then runs=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: $0 [-n RUNS] BIN ARGS..." >&2; exit 2; }
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
here=$(cd "$(dirname "$0")" && pwd)
command -v perf >/dev/null || { echo "profile: perf is not installed" >&2; exit 1; }
if [ ! -e /sys/kernel/tracing/uprobe_events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		{ echo "profile: no tracefs (uprobes need root)" >&2; exit 1; }
fi
tmp=$(mktemp -d /tmp/distmm-profile.XXXXXX)
group=dmprof$$
cleanup() {
	perf probe -q -d "$group:*" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# perf refuses an event name that any group already has, and a profile.sh
# killed before its trap ran leaves its probes behind: remove the groups of
# the dead ones (their group is named for their pid).
for g in $(sed -n 's/^[pr]:\(dmprof[0-9]*\)\/.*/\1/p' /sys/kernel/tracing/uprobe_events | sort -u); do
	kill -0 "${g#dmprof}" 2>/dev/null || perf probe -q -d "$g:*" 2>/dev/null || true
done

# every function phases.py knows that this binary has (an older binary may
# lack some: their parts are left out)
placed=0
for f in $(/usr/bin/python3 "$here/phases.py" --functions); do
	perf probe -q -x "$bin" -a "$group:$f=$f" 2>/dev/null &&
		perf probe -q -x "$bin" -a "$group:$f=$f%return" 2>/dev/null &&
		placed=$((placed + 1)) || true
done
if [ "$placed" = 0 ]; then
	echo "profile: no probe could be placed on $bin (another profile.sh running? perf probe -l)" >&2
	exit 1
fi
i=0
while [ $i -lt "$runs" ]; do
	perf record -q -e "$group:*" -e sched:sched_process_exec -e sched:sched_process_exit \
		-o "$tmp/perf.data" -- "$bin" "$@" >/dev/null 2>"$tmp/err" || true
	perf script -i "$tmp/perf.data" -F tid,time,event >"$tmp/run$i" 2>/dev/null
	i=$((i + 1))
done
/usr/bin/python3 "$here/phases.py" --group "$group" "$tmp"/run*
perf probe -q -d "$group:*" 2>/dev/null || true # not in the counts below
echo
perf stat -e task-clock,page-faults,context-switches,cpu-migrations -- "$bin" "$@" 2>&1 >/dev/null |
	grep -E 'task-clock|page-faults|context|migrations|elapsed|user|sys' | sed 's/^ */  /'
/usr/bin/time -v "$bin" "$@" 2>&1 >/dev/null |
	grep -E 'Elapsed|User time|System time|Maximum resident|Minor|Percent of CPU' | sed 's/^\t*/  /'
