#!/usr/bin/env bash
# clock_ui_test: the model of time on screen (docs/clock.md), driven in a
# private tmux (tests/lib/tmux.sh): with --hw, --alpha, --bw or --flops the
# interface names the model and its values on every stop, in the status bar
# and above the caption, with the phase's modelled time and the time so far;
# at the end the total and the share spent communicating; a deadlock has no
# time; s shares the options; a preset file without F is refused before the
# screen starts.  Without them, nothing of it.
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
NAME=clock
. "$(dirname "$0")/../lib/tmux.sh"
W=$(mktemp -d)
flat() { screen | sed 's/^ *//; s/ *$//' | tr '\n' ' '; }
# wait_text REGEX: the screen's lines joined (the headline wraps) match it
wait_text() {
	local i
	for ((i = 0; i < 100; i++)); do
		flat | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	bad "never showed /$1/: $(flat | cut -c1-400)"
	return 1
}

test_name="the model on every stop, 80x24"
start 80x24 -d 4 --hw a100-nvlink
wait_for 'ready  paused  1x  a100-nvlink$' && pass
wait_text 'a100-nvlink \(alpha 2\.4 us, beta 300 GB/s, F 19\.5 TFLOPS fp64\): each phase is timed as it runs' && pass
keys n
wait_text 's=0 1/4 compute' && wait_text '\): this phase [0-9.]+ [np]s, [0-9.]+ [np]s so far' && pass
keys n
# a transfer of 48 B: alpha 2.4 us + 48 B / 300 GB/s
wait_text 's=0 1/4 transfer' && wait_text 'this phase 2\.4 us, 2\.4 us so far' && pass
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do keys n; sleep 0.1; done
wait_for 'verify: allclose ok' && pass
wait_text 'total [0-9.]+ us, [0-9]+% of it communicating \([0-9.]+ us\)' && pass
keys b
wait_text 'this phase [0-9.]+ [nu]s, [0-9.]+ us so far' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && pass

test_name="the values the command line set, 200x60, shared"
start 200x60 -d 3 -m dp --alpha 0 --bw 100 --flops 5
wait_text 'h100-nvlink \(alpha 0 us --alpha, beta 100 GB/s --bw, F 5 TFLOPS fp64 --flops\)' && pass
keys s
wait_text '--alpha=0 --bw=100 --flops=5' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the training step, a deadlock"
start 120x40 -d 3 --train --hw b200-nvlink-bf16
wait_text 'b200-nvlink-bf16 \(alpha 3\.4 us, beta 900 GB/s, F 2250 TFLOPS bf16\)' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
start 120x40 -d 3 --naive --capacity 0 --hw ib-ndr
keys n n
wait_for 'deadlock' && wait_text 'no time: the run deadlocked, and a deadlock has no time' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="no model, no clock; a file without F refused"
start 120x40 -d 4
wait_for 'ready  paused  1x *$' && pass
flat | grep -q 'TFLOPS' && bad "the clock's line without --hw"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
printf 'name = lab\nalpha_us = 5\nbw_gbps = 20\n' >"$W/lab.hw"
"$BIN" -d 2 --hw "$W/lab.hw" </dev/null >"$W/out" 2>"$W/err"; st=$?
[ "$st" = 2 ] && [ "$(wc -l <"$W/err")" = 1 ] &&
	grep -q "^distmm-tui: --hw .*lab.hw gives no peak F (no tflops in the file): a multiply's products need one (--flops TFLOPS)$" "$W/err" &&
	pass || bad "a file without F: exit $st, $(cat "$W/err")"
rm -rf "$W"

echo "clock_ui_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
