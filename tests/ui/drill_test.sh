#!/usr/bin/env bash
# drill_test: --quiz=clock and --quiz=tp in a private tmux (tests/lib/tmux.sh):
# the question on the hardware and ranks given, a wrong answer told which
# side it fell, a right one with its worked answer from the engine's model,
# Tab shows, the score at the end and on stdout after q; tensor parallel's
# at 200x60; the refusals as one line.  The checks themselves are
# check_drills'; this is the screen a candidate types into.
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
NAME=drill
. "$(dirname "$0")/../lib/tmux.sh"
flat() { screen | sed 's/^ *//; s/ *$//' | tr '\n' ' '; }
wait_text() {
	local i
	for ((i = 0; i < 100; i++)); do
		flat | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	bad "never showed /$1/: $(flat | cut -c1-400)"
	return 1
}
answer() { keys -l "$1"; keys Enter; }

test_name="the clock's drill, 80x24, a100-nvlink on 8"
start 80x24 --quiz=clock --hw a100-nvlink
wait_text "the clock's follow-ups, on a100-nvlink, n = 8" && wait_text 'question 1 of 6' && pass
answer 'S*(n-1)/n'
wait_text 'not yet: .*yours lacks the factor 2' && pass
keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
answer '2*S*(n-1)/n'
wait_text 'right\. 2\*S\*\(n - 1\)/n: the reduce-scatter' && pass
keys Enter
wait_text 'question 2 of 6 \(1 right so far\)' && pass
keys Tab
wait_text 'shown \(counted as missed\): 2\*\(n - 1\)/n' && pass
keys Enter
answer 126
keys Enter
# a100-nvlink: alpha 2.4 us, 300 GB/s; the crossover lies between two sweep sizes
wait_text 'On a100-nvlink \(alpha = 2\.4 us a message, beta = 300 GB/s a link\) with n = 8' && pass
answer '8 B'
wait_text '8 B is not it: that is less than the answer' && pass
keys C-u
for i in 1 2 3; do keys BSpace; done
answer '1GiB'
wait_text 'is not it: that is more than the answer' && pass
keys Tab
wait_text 'between [0-9.]+ [KMG]iB and [0-9.]+ [KMG]iB: at' && pass
keys Enter
wait_text 'An all-gather of a bf16\[1024, 16384\]' && pass
keys Tab
wait_text '[0-9.]+ us: \(n - 1\) alpha' && pass
t=$(flat | grep -oE '[0-9.]+ us: \(n - 1\) alpha' | cut -d' ' -f1)
model=$("$BIN" -b -q --collective allgather -d 8 --bytes 32M --hw a100-nvlink | grep -oE '^time: [0-9.]+ us' | cut -d' ' -f2)
[ -n "$t" ] && [ "$t" = "$model" ] && pass || bad "the drill's $t us against the batch run's $model us"
keys Enter
answer a
wait_text 'right\. a, max\(0, m - c\)' && pass
keys Enter
wait_text '3 of 6 right; to practise: all-reduce.s bus bandwidth factor \(shown\); where the ring overtakes the tree \(shown\); an all-gather.s time \(shown\)' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && pass
wait_text -- '--quiz=clock: 3 of 6 right' && pass

test_name="tensor parallel's drill, 200x60"
start 200x60 --quiz=tp --theme light
wait_text "tensor parallel's follow-ups" && wait_text 'Column-parallel \(tp-col\)' && pass
answer 'r*N/n'
wait_text 'right\. r\*N/n: the shards are numpy' && pass
keys Enter
answer 'r'
wait_text 'not yet: r = 1, K = 4, n = 2: yours gives 1, rank r starts at row 2' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && pass
wait_text -- '--quiz=tp: 1 of 6 right; to practise: tp-row: the rows of B rank r holds;' && pass

test_name="the refusals"
for args in "--quiz=clock -b" "--quiz=tp -d 4" "--quiz=clock -d 2" "--quiz=clock -m dp"; do
	"$BIN" $args </dev/null >/dev/null 2>"/tmp/drill_err.$$"; st=$?
	[ "$st" = 2 ] && [ "$(wc -l <"/tmp/drill_err.$$")" = 1 ] && pass ||
		bad "$args: exit $st, $(cat "/tmp/drill_err.$$")"
done
rm -f "/tmp/drill_err.$$"
T kill-server 2>/dev/null

echo "drill_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
