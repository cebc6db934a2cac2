#!/usr/bin/env bash
# ccl_ui_test: one collective in the interface (--collective without -b:
# app/tui/modes/ccl.c), driven in a private tmux (see tmux.sh): a ring
# all-reduce on 4 devices at 80x24 stepped through its 2(n-1) steps, each
# stop's caption and what rank 1 does and holds (whose parts each chunk
# holds); a tree all-reduce on 8 at 200x60, g to its broadcast; an
# all-gather on 3; the verification line at the end; the model's time on
# screen equal to what -b --collective prints for the same arguments.  k
# presses of n are k stops however fast they come (view_next); every wait
# is "until the screen shows X" (tmux.sh), never a time.
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
NAME=cclui
. "$(dirname "$0")/../lib/tmux.sh"

quit_clean() {
	keys q
	wait_for 'EXIT:0 TTY:RESTORED' && pass
}

# batch's modelled time for these arguments ("20.4 us"), as a pattern
batch_time() {
	"$BIN" -b -q "$@" | sed -n 's/^time: \(.*\) from the run.s events.*/\1/p' | sed 's/\./\\./g'
}

test_name="ring all-reduce at 80x24, 4 devices: 2(n-1) steps"
T=$(batch_time --collective allreduce -d 4 --bytes 64)
[ -n "$T" ] && pass || bad "batch printed no time"
start 80x24 --collective allreduce -d 4
wait_for 'all-reduce by ring on 4 ranks: a reduce-scatter round the ring' && pass
wait_for "in all $T by the model" && pass
# rank 1 starts with its own part in every chunk
wait_for '│1 1 1 1 ' && pass
keys n
wait_for 'reduce-scatter 0 \(1 of 3\): each step every rank sends one chunk' && pass
wait_for '│c0>2 \+c3 ' && pass
wait_for '│1 1 1 0\+1 ' && pass
keys n
wait_for 'reduce-scatter 1 \(2 of 3\)' && pass
wait_for '│c3>2 \+c2 ' && pass
wait_for '│1 1 0\+1\+3 0\+1 ' && pass
keys n
wait_for 'reduce-scatter 2 \(3 of 3\).*' && pass
wait_for 'Last step: rank r.s chunk r now holds all n' && pass
wait_for '│1 0\.\.3 0\+1\+3 0\+1 ' && pass
keys n
wait_for 'all-gather 0 \(1 of 3\): every rank passes a finished chunk' && pass
wait_for '│c1>2 =c0 ' && pass
wait_for '│0\.\.3 0\.\.3 013 01 ' && pass  # a rank a digit where the ranks' names do not fit
keys n n
wait_for 'all-gather 2 \(3 of 3\)' && pass
keys n
wait_for 'verify: every rank.s result equals the sum of every rank.s buffer \(32' && pass
wait_for "total $T," && pass
# b: the last step again, the engine's run to that phase
keys b
wait_for 'all-gather 2 \(3 of 3\)' && pass
quit_clean

test_name="tree all-reduce at 200x60, 8 devices"
T=$(batch_time --collective allreduce --algo tree -d 8 --bytes 128)
start 200x60 --collective allreduce --algo tree -d 8
wait_for "in all $T by the model \(closed form 2L \(alpha \+ S/beta\)" && pass
keys n
wait_for 'tree reduce 0 \(1 of 3\): up the tree: in each pair the upper rank sends its whole' && pass
wait_for 'r1: sends c0:8 to rank 0' && pass
wait_for 'c0:0\+1 c1:0\+1 c2:0\+1' && pass
keys g 3 Enter
wait_for 'tree broadcast 0 \(1 of 3\): down the tree' && pass
wait_for 'r0: sends c0:8 to rank 4' && pass
keys End
wait_for 'verify: every rank.s result equals the sum of every rank.s buffer \(128 elements' && pass
wait_for "total $T," && pass
quit_clean

test_name="all-gather at 80x24, 3 devices"
start 80x24 --collective allgather -d 3
wait_for 'all-gather by ring on 3 ranks' && pass
keys n
wait_for 'all-gather 0 \(1 of 2\)' && pass
keys End
wait_for 'verify: every rank.s result equals every rank.s own chunk, concatenated' && pass
quit_clean

test_name="rhd on 3 ranks: one line, exit 2"
start 80x24 --collective allreduce --algo rhd -d 3
wait_for 'rhd \(recursive halving-doubling\) needs a power of two ranks, not 3' && pass
wait_for 'EXIT:2' && pass

T kill-server 2>/dev/null
echo "ccl_ui_test: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
