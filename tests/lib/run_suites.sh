#!/bin/sh
# run_suites.sh JOBS CMD-PREFIX -- SUITE...: runs each Check suite binary,
# JOBS at a time, each as `CMD-PREFIX SUITE` (an environment and a tool such
# as valgrind, or nothing), and prints each suite's output whole once it ends,
# so that suites run side by side never interleave their lines.
#
# Why: CI's time is mostly the suites run four times over (plain, ASan, TSan,
# memcheck), one process after the other on a machine with two cores; the
# suites share nothing (each makes its own temporary files), so they run in
# parallel.  No suite depends on timing: its timeouts only end a hang.
# Exit status: 0 when every suite passed, 1 when one failed (each named).
set -u
[ $# -ge 3 ] || { echo "usage: $0 JOBS CMD-PREFIX -- SUITE..." >&2; exit 2; }
jobs=$1
prefix=$2
shift 2
[ "$1" = "--" ] || { echo "usage: $0 JOBS CMD-PREFIX -- SUITE..." >&2; exit 2; }
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/run_suites.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# One suite: its output to a file, printed with its status when it ends.
# The prefix is shell words, evaluated: assignments (quoted values too, as
# make's SAN_ENV has) and a tool, e.g. 'CK_FORK=no valgrind -q'.
i=0
for t in "$@"; do
	i=$((i + 1))
	printf '%s\n' "$i $t"
done | xargs -P "$jobs" -L 1 sh -c '
	tmp=$1 prefix=$2 n=$3 t=$4
	start=$(date +%s)
	eval "$prefix \"\$t\"" >"$tmp/$n.out" 2>&1
	st=$?
	end=$(date +%s)
	{
		echo "== $t ($((end - start)) s)"
		cat "$tmp/$n.out"
		[ "$st" = 0 ] || echo "FAILED: $t (exit $st)"
	} >"$tmp/$n.done"
	flock "$tmp/lock" cat "$tmp/$n.done"
	[ "$st" = 0 ] || touch "$tmp/$n.failed"
	exit 0
' sh "$tmp" "$prefix"
failed=$(ls "$tmp"/*.failed 2>/dev/null | wc -l)
if [ "$failed" -gt 0 ]; then
	echo "run_suites: $failed of $# suites failed"
	exit 1
fi
echo "run_suites: all $# suites passed"
exit 0
