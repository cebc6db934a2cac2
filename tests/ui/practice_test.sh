#!/usr/bin/env bash
# practice_test: the practice lab on the real screen (issue 17), driven in a
# private tmux (see tmux.sh).  --quiz=derive: no formula and no answer on
# screen before the reveal, at every stop a candidate steps through (the
# panels' shard slots, the captions, the next line, the table, the moving
# shards, the worked cell, the memory table); the question at the last
# compute of a watched run of 3 or more; its verdicts: right for equivalent
# forms, the first counterexample for a wrong one, "works only for n = 2"
# for (r + s), the caret under a syntax error; Esc and a; the reveal; the
# follow-ups and the summary; what it says on two devices and after a jump;
# x ending the practice (its questions left count as shown).
# The lower quiz levels: no panel shows an answer while a question waits.
# The deadlock lab animated: receive first on unbounded queues deadlocks
# with every device's wait on its panel and the cycle in the caption; the
# receive-thread fix at capacity 0 completes and shows its extra threads.
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
NAME=practice
. "$(dirname "$0")/../lib/tmux.sh"

# wait_text PATTERN: as wait_for, on the screen's lines joined (a long
# message wraps; the joined text reads as it was written).
wait_text() {
	local pat=$1 i=0
	while [ "$i" -lt 300 ]; do
		screen | tr -d '\n' | grep -Eq -- "$pat" && return 0
		sleep 0.05; i=$((i + 1))
	done
	bad "screen never showed /$pat/"; screen | sed 's/^/    | /'; return 1
}

# The screen must give nothing away: no formula, no shard index in a slot,
# no answer to a follow-up.  $1 names the stop for the failure.
no_answers() {
	local s
	s=$(screen)
	# (the answer line's hint names the operator a candidate may type)
	echo "$s" | tr -d '\n' | sed 's/(or mod)//g' | grep -Eqw 'mod' && bad "$1: 'mod' on screen"
	echo "$s" | grep -Fq '(r - s)' && bad "$1: (r - s) on screen"
	echo "$s" | grep -Fq '(r + 1)' && bad "$1: (r + 1) on screen"
	echo "$s" | grep -Eq 'B\[[0-9]+\]' && bad "$1: a shard's index in a slot: $(echo "$s" | grep -Eo '.{20}B\[[0-9]+\].{10}' | head -1)"
	echo "$s" | grep -Eq '= [0-9]+ ->' && bad "$1: a formula's value on a panel"
	echo "$s" | grep -Eq 'of B in all|each rank sends|2\*B/n|A_r' && bad "$1: a follow-up's answer on screen"
	# the schedule table's cells: every one a ?
	echo "$s" | grep -oE '│ r[0-9]+ +[^│]*' | grep -Eq 'B[0-9]' && bad "$1: the table shows a shard"
	echo "$s" | grep -Fq 'next, s=' && bad "$1: the next line is on screen"
	return 0
}

test_name="derive: nothing given away before the reveal"
start 120x40 -d 4 --quiz=derive
wait_for 'ready  paused' && pass
wait_for 'derive 0/0' && pass
wait_for 'schedule: B\[\?\]' && pass
no_answers "ready"
# every stop up to the last compute: computes and transfers, the motion included
for stop in 's=0 \(1 of 4\)  compute' 's=0 \(1 of 4\)  transfer' 's=1 \(2 of 4\)  compute' \
	's=1 \(2 of 4\)  transfer' 's=2 \(3 of 4\)  compute' 's=2 \(3 of 4\)  transfer'; do
	keys n
	wait_for "$stop"
	no_answers "$stop"
	# a transfer's motion is over when no shard is on a wire (a moving
	# shard is "B?", a held one "B[?]"); a compute's text does not move
	case $stop in *transfer)
		wait_gone 'B\?'
		no_answers "$stop, at rest" ;;
	esac
done
wait_for 'B\[\?\] -> rank 3, B\[\?\] <- rank 1' && pass # a transfer's line, its shards hidden
keys w
wait_text 'computes it at the step when the shard with column [0-9]+ reaches it: *which step\?' && pass
no_answers "the worked cell"
keys Escape
keys c
wait_text 'the memory table gives the practice.s answers away' && pass
# in DP too: the table compares DP with FSDP, its 2*B/n and bytes sent are
# the follow-ups' answers whichever mode is on screen
keys m
wait_text 'practice: the questions are about the ring \(m goes back to FSDP\)' && pass
screen | tr -d '\n' | grep -q 'the memory table gives' && bad "the FSDP refusal is still on screen"
keys c
wait_text 'the memory table gives the practice.s answers away' && pass
no_answers "the memory table in DP"
keys m
wait_for 'ready  paused'
keys n n n n n n
wait_for 's=2 \(3 of 4\)  transfer'
keys s
wait_for 'share: ./distmm-tui' && pass
screen | tr -d '\n' | grep -q -- '--quiz=derive' && pass || bad "the share line lost --quiz=derive"
keys n
wait_for 'practice, question 1 of 5: at step s, which shard does rank r hold\?' && pass
wait_for 's=3 \(4 of 4\)  compute' && pass
no_answers "the question"
# (r + s) passes on two devices only
keys -l '(r + s) % n'
keys Enter
wait_text 'works only for n = 2: at r = 0, s = 1, n = 3: yours gives 1, the ring gives 2' && pass
no_answers "a wrong answer"
keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
keys -l 'r - s'
keys Enter
wait_for 'wrong: r = 0, s = 1, n = 2: yours gives -1, the ring gives 1' && pass
keys BSpace BSpace BSpace BSpace BSpace
keys -l '(r - s % n'
keys Enter
wait_for 'never closed' && pass
# the caret under the ( it names: the answer line is " > (r - s % n"
screen | grep -A1 -F ' > (r - s % n' | tail -1 | sed 's/ *$//' | grep -qx '   \^' && pass ||
	bad "no caret under the '(': $(screen | grep -A1 -F ' > (r - s % n' | tr '\n' '|')"
# Esc closes the line, the question waits, a opens it again
keys Escape
wait_for 'practice: a opens the question \(1 of 5\)' && pass
wait_for 'a answer' && pass
no_answers "the line closed"
keys a
wait_for 'practice, question 1 of 5' && pass
keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
keys -l '(r + n - s) % n'
keys Enter
wait_text 'right: at step s rank r holds shard \(r - s\) mod n' && pass
wait_for 'derive 1/1' && pass
wait_for 'B\[[0-9]\] ─' && pass   # revealed: the panels name their shards again
wait_for 'schedule: B\[\(r - s\) mod 4\]' && pass
keys Enter
wait_for 'practice, question 2 of 5: how many times does a rank pass its shard on' && pass
keys Escape
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && pass

test_name="derive: the right form at once, the follow-ups, the summary"
start 120x40 -d 3 --quiz=derive
wait_for 'ready  paused'
keys n n n n n
wait_for 'practice, question 1 of 5' && pass
keys -l '(r - s) % n'
keys Enter
wait_for 'right: at step s rank r holds' && pass
keys Enter
wait_for 'question 2 of 5'
keys -l 'n'
keys Enter
wait_for 'wrong: n = 1: yours gives 1, the ring gives 0' && pass
keys BSpace
keys -l 'n - 1'
keys Enter
wait_for 'right: n - 1 transfers' && pass
keys Enter
wait_for 'question 3 of 5: how many bytes does a rank send in all\?' && pass
keys -l 'K*N*(n-1)/n'
keys Enter
wait_text 'K = 1, N = 2, n = 2: yours gives 1, a rank sends 8 bytes \(that is in float64s' && pass
keys Tab
wait_text 'skipped: the answer is 8 \* K \* N \* \(n - 1\) / n' && pass
keys Enter
wait_for 'question 4 of 5' && pass
keys -l '2/n'
keys Enter
wait_for 'right: 2/n of B' && pass
keys Enter
wait_for 'question 5 of 5: at step s, which rank holds shard k\?' && pass
keys -l '(k - s) % n'
keys Enter
wait_text 'works only for n = 2: at k = 0, s = 1, n = 3' && pass
keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
keys -l '(k + s) mod n'
keys Enter
wait_for 'right: rank \(k \+ s\) mod n' && pass
keys Enter
wait_text 'practice: 4 of 5 right \(2 at the first try\), 1 shown, 3 wrong answers in all' && pass
wait_for 'derive 4/5' && pass
keys n n n
wait_for 'verify: allclose ok' && pass
screen | grep -q 'practice: 4 of 5 right' && pass || bad "the summary is gone at the end"
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && pass

test_name="derive: two devices, and a run jumped through"
start 120x40 -d 2 --quiz=derive
wait_text 'practice: the question needs n >= 3 devices' && pass
keys n n n
wait_for 's=1 \(2 of 2\)  compute' && pass
screen | grep -q 'practice, question' && bad "the question opened on two devices"
keys ']'
wait_for '3 devices' && pass
wait_gone 'needs n >= 3' && pass
keys End
wait_for 'verify  paused' && pass
screen | grep -q 'practice, question' && bad "the question opened on a jump to the end"
no_answers "the end, not revealed"
keys g 2 Enter
wait_text 'practice: the question comes once every step has been watched \(not yet: s=0, s=1\)' && pass
keys Home n n n n n
wait_for 'practice, question 1 of 5' && pass
keys Escape
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
start 80x24 -d 4 --quiz=derive
wait_for 'ready'
keys n n n n n n n
wait_for 'practice, question 1 of 5' && pass   # the question fits 80x24
no_answers "80x24"
keys Escape q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="derive: x ends the practice, its questions shown"
start 120x40 -d 3 --quiz=derive
wait_for 'ready'
keys n n
wait_for 's=0 \(1 of 3\)  transfer'
no_answers "before x"
keys x
wait_text 'x: the practice is off and every formula shown: its 5 questions left count as shown' && pass
wait_for 'derive 0/5' && pass
wait_for 'B\[[0-9]\]' && pass   # off: the panels name their shards
keys x
wait_text 'practice: 0 of 5 right \(0 at the first try\), 5 shown' && pass
keys n n n
wait_for 's=2 \(3 of 3\)  compute' && pass
screen | grep -q 'practice, question' && bad "a question opened after x ended the practice"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="quiz: no panel answers while a question waits"
start 120x40 -d 4 --quiz=2
wait_for 'ready'
keys n
wait_for 'question 1 of 4' && pass
screen | grep -Eq 'mod 4 = \?' && bad "a panel shows the formula beside the question"
screen | grep -Eq '\([0-9]-[0-9]\) mod' && bad "a panel shows a rank's formula while asked"
wait_for 'B\[\?\] -> C\[2:4, \?\]' && pass   # rank 1, not asked first, hidden too
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the deadlock lab: receive first on unbounded queues"
start 120x40 -d 4 --order recv-first --capacity unbounded
wait_for 'order recv-first' && pass
keys n n
wait_for 'deadlock: 0 -> 3 -> 2 -> 1 -> 0' && pass
for r in 0 1 2 3; do
	wait_for "blocked: receiving from rank $(( (r + 3) % 4 ))" || bad "rank $r's wait is not on screen"
done
pass
wait_text 'on Python.s unbounded Queue\(\) too' && pass
wait_for 'transfer deadlock' && pass
keys f
wait_for 'f: the fixed order runs now' && pass
wait_for 'sent B\[[0-9]\]->1, then got B\[[0-9]\]<-3' 20 && pass # the parity calls
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the deadlock lab: a receive thread at capacity 0"
start 120x40 -d 4 --fix recv-thread --capacity 0
wait_for 'fix recv-thread' && pass
wait_text 'Each device runs 2 threads: 8 for 4' && pass
keys n
wait_for 'sent 0 B  recv 0 B  2 threads' && pass
keys n
wait_for 'sent B\[0\]->1; rx got B\[3\]<-3' && pass
wait_text '8 threads for 4 devices' && pass
keys End
wait_for 'verify: allclose ok' && pass
screen | grep -q 'deadlock' && bad "the receive thread's ring deadlocked"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the deadlock lab: each fix's calls"
for fix in sendrecv buffered; do
	start 120x40 -d 4 --fix $fix --capacity 0
	wait_for "fix $fix"
	keys n n
	case $fix in
	sendrecv) wait_for 'sendrecv B\[0\]->1, B\[3\]<-3' && pass ;;
	buffered) wait_for 'B\[0\] buffered->1; got B\[3\]<-3' && pass
		wait_text 'one shard more at the peak' && pass ;;
	esac
	keys q
	wait_for '^EXIT:0 TTY:RESTORED$'
done
start 120x40 -d 4 --order send-first --capacity 1
wait_for 'order send-first'
keys n n
wait_text "each send waited in the next rank.s inbox \(room for 1 message\)" && pass
wait_for 'sent B\[1\]->2, then got B\[0\]<-0' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

echo "practice_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
