#!/bin/sh
# before_after.sh [-n ROUNDS] [COMMIT]: the README's before and after of the
# whole job.  Builds the program as it was at COMMIT (default c862b7e, before
# issue 14's changes) in build/before, then: the side-by-side against the
# Python peer for this build and for that one (run.sh --side, --bin), and
# profile.sh's breakdown of FSDP and DP at 1024^3 and 2048^3, d = 2, --values
# floats, for both builds.  The profiles of the two builds are made in turn,
# one run each at a time, ROUNDS of each (default 7), so that a change in the
# machine's load hits both alike; each part's median is printed.  Needs what
# run.sh and profile.sh need (root for the uprobes).  About 4 minutes.
set -eu
cd "$(dirname "$0")/../.."
rounds=7
if [ "${1:-}" = -n ]; then rounds=$2; shift 2; fi
commit=${1:-c862b7e}
before=build/before
out=build/bench/before-after

if [ ! -x "$before/distmm-tui" ] || [ "$(cat "$before/.commit" 2>/dev/null)" != "$commit" ]; then
	echo "building $commit in $before..." >&2
	rm -rf "$before"
	mkdir -p "$before"
	git archive "$commit" | tar -x -C "$before"
	make -s -C "$before" -j2 distmm-tui >&2
	echo "$commit" >"$before/.commit"
fi
make -s --no-print-directory distmm-tui >&2
rm -rf "$out"
mkdir -p "$out"

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "== the whole job against the Python peer: this build (./distmm-tui)"
tests/bench/run.sh --side --json "$out/side-now.json" 2>/dev/null | sed -n '/^0\./,/^$/p'
echo "== the same, built at $commit"
tests/bench/run.sh --side --bin "$before/distmm-tui" --json "$out/side-before.json" 2>/dev/null |
	sed -n '/^0\./,/^$/p'

for s in 1024 2048; do
	for m in fsdp dp; do
		l0=$(load)
		i=0
		while [ $i -lt "$rounds" ]; do
			for who in before now; do
				bin=./distmm-tui
				[ $who = before ] && bin=$before/distmm-tui
				tests/bench/profile.sh -b -k "$out/$who-$s-$m" "$bin" \
					-b --values floats -M $s -K $s -N $s -d 2 -m $m >/dev/null
			done
			i=$((i + 1))
		done
		for who in before now; do
			echo "== $who: -b --values floats -M $s -K $s -N $s -d 2 -m $m (load average $l0, then $(load))"
			/usr/bin/python3 tests/bench/phases.py "$out/$who-$s-$m"/*.txt
		done
	done
done
