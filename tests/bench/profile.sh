#!/bin/sh
# profile.sh [-n RUNS] [-c] [-k DIR] [-b] BIN ARGS...: where the time of a
# whole process goes.
# Puts perf uprobes on the entry and return of the functions that start each
# part of a batch run (tests/bench/phases.py names them), records them with
# the process's exec and exit, cpu-clock samples and page faults, and prints
# the breakdown: start-up, the inputs, the scatter (run_new), the run and its
# gather, the verification, the DP-vs-FSDP table, printing, exit, each with
# its wall time, every thread's CPU time in user code and in the kernel, and
# the page faults.  Then perf stat's counts and /usr/bin/time -v's page
# faults and times for the same command (-b: the breakdown alone).
# On a virtual machine that gives freed memory back to its host (virtio free
# page reporting, a few seconds after a free), a process's first touch of
# memory costs several times more once the machine has been idle: by default
# each measured run follows an untraced run of the same command, as in the
# side-by-side where one process follows another; -c (cold) waits 3 s before
# each instead.  -k DIR keeps each run's recording there (DIR/run-PID-I.txt),
# so that runs made in turn with another binary, alternated as the
# side-by-side does, can be put together later (one DIR a binary):
# tests/bench/phases.py DIR/*.txt.
# Needs root (uprobes) and tracefs; says so and stops when they are missing.
set -eu
runs=1
cold=0
keep=
counts=1
while [ $# -gt 0 ]; do
	case "$1" in
	-n) runs=$2; shift 2 ;;
	-c) cold=1; shift ;;
	-k) keep=$2; shift 2 ;;
	-b) counts=0; shift ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: $0 [-n RUNS] [-c] [-k DIR] [-b] BIN ARGS..." >&2; exit 2; }
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

before() { # what each measured run follows: a run of the same, or 3 s idle
	if [ "$cold" = 1 ]; then sleep 3; else "$bin" "$@" >/dev/null 2>&1 || true; fi
}
period_us=1000 # a cpu-clock sample every 1 ms of a thread's CPU time
i=0
while [ $i -lt "$runs" ]; do
	before "$@"
	perf record -q -e "$group:*" -e sched:sched_process_exec -e sched:sched_process_exit \
		-e "cpu-clock/period=${period_us}000/" -e page-faults/period=1/ \
		-o "$tmp/perf.data" -- "$bin" "$@" >/dev/null 2>"$tmp/err" || true
	perf script -i "$tmp/perf.data" -F tid,time,event,ip >"$tmp/run$i" 2>/dev/null
	[ -z "$keep" ] || { mkdir -p "$keep" && cp "$tmp/run$i" "$keep/run-$$-$i.txt"; }
	i=$((i + 1))
done
if [ "$cold" = 1 ]; then how="each after 3 s idle (-c)"; else how="each right after an untraced run"; fi
echo "$bin $*"
echo "  $runs run$([ "$runs" = 1 ] || echo s), $how; load average $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 "$here/phases.py" --group "$group" --period "${period_us}e-6" "$tmp"/run*
perf probe -q -d "$group:*" 2>/dev/null || true # not in the counts below
[ "$counts" = 1 ] || exit 0
echo
before "$@"
perf stat -e task-clock,page-faults,context-switches,cpu-migrations -- "$bin" "$@" 2>&1 >/dev/null |
	grep -E 'task-clock|page-faults|context|migrations|elapsed|user|sys' | sed 's/^ */  /'
before "$@"
/usr/bin/time -v "$bin" "$@" 2>&1 >/dev/null |
	grep -E 'Elapsed|User time|System time|Maximum resident|Minor|Percent of CPU' | sed 's/^\t*/  /'
