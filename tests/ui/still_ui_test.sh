#!/usr/bin/env bash
# still_ui_test: numbers that are always true and a screen that holds still
# (issue 25), driven in a private tmux (see tmux.sh): each rank's traffic on
# an uneven split, the memory line's one comparison, the panels in the same
# place at every stop, the ring's shapes, the verification's box with no
# scraps beside it, a moving shard's label on the return lane, every
# blocked shard on its link, and the memory lesson's values and bars.
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
NAME=still
. "$(dirname "$0")/../lib/tmux.sh"

# wait_text PATTERN: until the screen matches as one text, its lines joined
# with a space and their edges' spaces dropped (a caption wraps).
flat() { screen | sed 's/^ *//; s/ *$//' | tr '\n' ' '; }
wait_text() {
	local pat=$1 i=0
	while [ "$i" -lt 300 ]; do
		flat | grep -Eq -- "$pat" && return 0
		sleep 0.05; i=$((i + 1))
	done
	bad "screen never showed /$pat/ (as one text)"; screen | sed 's/^/    | /'; return 1
}

# The panels' top-left corners, "y,x" a panel, as a line: where the grid is.
corners() { screen | awk '{ while ((i = index(substr($0, p + 1), "┌ rank")) > 0) { p += i; printf "%d,%d ", NR, p } p = 0 }'; }

test_name="an uneven split's traffic, rank by rank"
start 80x24 -d 3
wait_for 'ready  paused'
keys n n
wait_for 'transfer  paused'
# N = 4 on 3 ranks: shards of 2, 1 and 1 columns; rank r never sends shard r + 1
wait_text 'In all, each rank sends on average 2/3 of B \(ranks 0-1 3/4, rank 2 1/2\)\.' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
start 120x40 -d 4
wait_for 'ready  paused'
keys n n
wait_text 'In all, each rank sends 3/4 of B\.' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the memory line compares like with like, and says so"
# peaks so far on both sides, the other mode's at the same point of the
# product: at ready each mode's start, once C is computed FSDP's ring whole
start 120x40 -d 4
wait_for 'ready  paused'
wait_for 'peak [^ ]* 208 B vs DP 352 B' && pass
keys g 3 Enter
wait_for 'step s=3 \(4 of 4\)  compute'
wait_for 'peak [^ ]* 256 B vs DP 352 B' && pass
keys m
wait_for 'distmm-tui  DP '
wait_for 'peak [^ ]* 352 B vs FSDP 208 B' && pass
keys n
wait_for 'compute  paused'
wait_for 'peak [^ ]* 352 B vs FSDP 256 B' && pass
keys c
wait_for '"peak" is each rank.s peak so far, beside the other' && pass
keys q q
wait_for '^EXIT:0 TTY:RESTORED$'

echo "still_ui_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
