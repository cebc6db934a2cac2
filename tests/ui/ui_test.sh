#!/usr/bin/env bash
# ui_test: the interface, driven in a private tmux (see tmux.sh): panels,
# stepping, play, DP, devices, help, resize, sizes, colours, signals, the
# quiz, the deadlock, the bugs, the memory table, lessons, stepping back and
# replay; and the classroom screen (issue 16): the schedule table against
# (r - s) mod n, the worked cell against numpy, overlays that pause, the
# gather and the verification as stops, values at 200x60, whole captions at
# 80x24, focus, go to, --start-at and the shared command line, the failed
# step named, NaN-equal; and the deadlock lab and the Python mistakes on it
# (the order in the status bar, a shard held unsent, f, --fix shared, a
# bug's note, an empty slice whole at 80 columns).
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
NAME=ui
. "$(dirname "$0")/../lib/tmux.sh"

test_name="panels and stepping"
start 120x40 -d 4
wait_for 'ready  paused' && pass
# the key bar's words come from the key table; "f" only after a deadlock
bar=$(screen | tail -2 | sed 's/ *$//' | tr '\n' '|')
[ "$bar" = " n next  b back  p +/- play/speed  g step  m [ ] mode/devs  r reset  Tab rank  v panel  w cell  t table  x quiz  c mem| s share  T theme  ? help  q quit|" ] && pass ||
	bad "the key bar at 120x40 is '$bar'"
screen | grep -q 'f fix it' && bad "the footer offers f without a deadlock"
for r in 0 1 2 3; do screen | grep -q "rank $r " || bad "no panel for rank $r"; done
keys n
wait_for 'step s=0 \(1 of 4\)  compute' && pass
wait_for '\(2-0\) mod 4 = 2 -> C\[4:6, 2:3\]' && pass
keys n
wait_for 'step s=0 \(1 of 4\)  transfer' && pass
wait_for 'B\[0\] -> rank 1, B\[3\] <- rank 3' && pass
keys n      # cuts the transfer's motion short if it is still on screen
wait_for 'step s=1 \(2 of 4\)  compute' && pass
wait_for '\(0-1\) mod 4 = 3 -> C\[0:2, 3:4\]' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && pass
screen | grep -q 'rank 0 ' && bad "the interface is still on screen after q"

test_name="play, pause and the end"
start 120x40 -d 3
wait_for 'ready  paused'
keys p
wait_for 'playing' && pass
keys p
wait_for 'paused' && pass   # paused mid-run (or, on a very slow machine, at the end)
keys p
wait_for 'playing'
keys + + + +
wait_for 'verify: allclose ok, max \|err\| = 0' 30 && pass
wait_for 'verify  paused' && pass   # at the end it stops and stays
keys n p
sleep 0.3
screen | grep -q 'verify: allclose ok' || bad "n or p at the end left the final screen"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="DP and back"
start 120x40 -d 4
wait_for 'FSDP'
keys m
wait_for 'distmm-tui  DP ' && pass
wait_for 'all of B' && pass
keys n n n
wait_for 'verify: allclose ok' && pass
# m cycles FSDP, DP, tp-col, tp-row, tp-mlp (tp_ui_test.sh shows the last three)
keys m
wait_for 'distmm-tui  tp-col ' && pass
keys m
wait_for 'distmm-tui  tp-row ' && pass
keys m
wait_for 'distmm-tui  tp-mlp ' && pass
keys m
wait_for 'distmm-tui  FSDP ' && pass
wait_for 'ready  paused' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="devices and restart"
start 120x40 -d 4
wait_for '4 devices'
keys '['
wait_for '3 devices' && pass
keys ']' ']'
wait_for '5 devices' && pass
wait_for 'rank 4 ' && pass
keys n r
wait_for 'ready  paused' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="help overlay"
start 100x30 -d 4
wait_for 'ready'
keys '?'
wait_for 'one device fewer / more' && pass
# every binding of keys.c's table, in its order: the key column of the box
screen | grep -q '─ keys ─' || bad "the help has no title"
help_keys=$(screen | grep -oE '│ [^│]{13} [a-z][^│]*│' | cut -c5-17 | sed 's/ *$//' | tr '\n' ,)
[ "$help_keys" = "space n Right,b Left,p + -,Home End g,m [ ],d,r,Tab 0-9,v,w,t l,x,a,Enter,c,f,s,j,T,Esc,? h F1,q," ] && pass ||
	bad "the help lists the keys '$help_keys'"
screen | grep -Eq 'this help \(Ctrl-L redraws\)' && pass || bad "the help lacks Ctrl-L"
keys x
wait_gone 'one device fewer / more' && pass
keys F1
wait_for 'any key closes this' && pass
keys Escape
wait_gone 'any key closes this' && pass
keys Escape   # Esc backs out of modes; it never quits
sleep 0.3
screen | grep -q '^EXIT:' && bad "Esc quit the program"
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && pass

test_name="help in pages"
# a screen too short for the help's 22 lines: a page at a time, Space on,
# the page's number in the border, the last page holds q, then it closes
start 60x14 -d 1
wait_for 'rank 0 '
keys '?'
wait_for '1/[0-9] Space' && pass
screen | grep -q 'space n Right' && pass || bad "the help's first page lacks the first key"
screen | grep -q 'q  *quit' && bad "the first page already shows q"
pages=$(screen | grep -oE ' 1/[0-9]+ Space' | grep -oE '/[0-9]+' | tr -d /)
[ "${pages:-0}" -ge 2 ] && pass || bad "the help's page count: '$pages'"
for page in $(seq 2 "${pages:-1}"); do   # each Space once its page showed
	keys Space
	wait_for " $page/$pages " || break
done
wait_for 'any key closes' && pass
screen | grep -Eq '│ *q  *quit' && pass || bad "the help's last page lacks q"
keys Space
wait_gone 'any key closes' && pass
keys '?'
wait_for '1/[0-9] Space' && pass
keys Escape   # any other key closes at once
wait_gone 'Space more' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && pass

test_name="resize"
start 120x40 -d 4
wait_for 'rank 3 '
T resize-window -t 0 -x 30 -y 10
wait_for 'need [0-9]+x[0-9]+' && pass
screen | grep -q 'now 30x10' && pass || bad "at 30x10 the message does not say the size now"
T resize-window -t 0 -x 20 -y 5   # the smallest the message keeps whole
wait_for 'now 20x5' && pass
screen | grep -Eq '^ *need [0-9]+x[0-9]+ *$' && screen | grep -q 'q quits' && pass ||
	bad "at 20x5 the size to reach or how to quit is cut"
T resize-window -t 0 -x 30 -y 10
wait_for 'now 30x10'
keys n
T resize-window -t 0 -x 120 -y 40
wait_for 'rank 3 ' && pass
screen | grep -q 'ready  paused' || bad "a key pressed while too small changed the run"
keys n n
T resize-window -t 0 -x 80 -y 24   # during the motion
wait_for 'rank 3 ' && pass
T resize-window -t 0 -x 30 -y 10
wait_for 'need [0-9]+x[0-9]+'
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && pass

test_name="sizes"
for spec in "80x24 4" "80x24 1" "80x24 3" "120x40 8" "120x40 16" "200x60 16" "200x60 64"; do
	set -- $spec
	start "$1" -d "$2"
	last=$(($2 - 1))
	if wait_for "(rank $last |─$last─|[^0-9]$last[^0-9:])" ; then
		screen | grep -q 'terminal too small' && bad "$1 with $2 devices is too small" || pass
	fi
	keys q
	wait_for '^EXIT:0 TTY:RESTORED$'
done

test_name="monochrome and ascii"
start 100x30 -d 4 --no-color --ascii
wait_for '\+ rank 0  A rows 0:2 -+' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
START_ENV=NO_COLOR=1 start 100x30 -d 2
wait_for 'rank 1 ' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
start 100x30 -d 4 --play
wait_for 'playing' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="signals restore the terminal"
start 100x30 -d 4 --play
wait_for 'playing'
keys C-c
wait_for '^EXIT:130 TTY:RESTORED$' && pass
start 100x30 -d 4
wait_for 'ready'
pid=$(pid_of)
kill -TERM "$pid"
wait_for '^EXIT:143 TTY:RESTORED$' && pass
start 100x30 -d 4
wait_for 'ready'
pid=$(pid_of)
kill -HUP "$pid"
wait_for '^EXIT:129 TTY:RESTORED$' && pass
# every other signal whose default ends the program (issue 28): the
# terminal restored, the exit status the signal's (128 + its number)
for sig in QUIT PIPE ALRM USR1 USR2 XCPU; do
	start 100x30 -d 4
	wait_for 'ready'
	pid=$(pid_of)
	kill -"$sig" "$pid"
	wait_for "^EXIT:$((128 + $(kill -l "$sig"))) TTY:RESTORED\$" && pass
done
start 100x30 -d 4
wait_for 'ready'
keys -H 1c # Ctrl-\\, as the terminal sends it
wait_for '^EXIT:131 TTY:RESTORED$' && pass

test_name="a terminal that cannot move its cursor"
# (tmux sets the pane's TERM itself: env sets the program's)
real_bin=$BIN; BIN=/usr/bin/env start 100x30 TERM=dumb "$real_bin" -d 2; BIN=$real_bin
wait_for "^distmm-tui: the interface needs a terminal that can move its cursor, not 'dumb'" && pass
wait_for '^EXIT:2 TTY:RESTORED$' && pass

test_name="quiz: right and wrong answers, the score"
start 120x40 -d 4 --quiz
wait_for 'ready  paused'
keys n
wait_for 'which shard does rank [0-9]+ hold' && pass
q=$(screen | grep -Eo 'step s=[0-9]+: which shard does rank [0-9]+ hold')
s_=$(echo "$q" | sed -E 's/step s=([0-9]+).*/\1/'); r_=$(echo "$q" | sed -E 's/.*rank ([0-9]+).*/\1/')
keys "$(( ((r_ - s_) % 4 + 4) % 4 ))" Enter
wait_for "right: \\($r_ - $s_\\) mod 4 = " && pass
wait_for 'quiz 1/1' && pass
keys n
wait_for 'which columns of C will rank' && pass
keys 9 : 9 Enter                       # wrong on purpose
wait_for 'wrong: it holds shard' && pass
wait_for 'quiz 1/2' && pass
keys n
wait_for 'step s=0 \(1 of 4\)  compute' && pass   # answered: the phase runs
keys n
wait_for 'sends its shard to which rank' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="quiz: the hint for C's %"
start 120x40 -d 4 --quiz=2
wait_for 'ready'
keys n
wait_for 'question 1 of 4' && pass
for _ in 1 2 3 4; do keys 0 Enter n; done
wait_for 'step s=0 \(1 of 4\)  compute'
keys n
wait_for 'transfer after s=0: rank 0 sends its shard to which rank'
for _ in 1 2 3 4; do keys 1 Enter n; done
wait_for 'transfer  '
keys n
wait_for 'step s=1: which shard does rank 0 hold' && pass
keys - 1 Enter
wait_for "wrong: \\(0 - 1\\) mod 4 = 3. -1 is C's %" && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="deadlock and the fix"
start 120x40 -d 4 --naive --capacity 0
wait_for 'ready'
keys n n
wait_for 'deadlock: 0 -> 1 -> 2 -> 3 -> 0' && pass
wait_for 'blocked: sending B\[0\] to rank 1' && pass
wait_for 'f fix it' && pass
keys f + + + +
wait_for 'verify: allclose ok' 30 && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the deadlock lab on the classroom screen"
start 120x40 -d 4 --order recv-first
wait_for 'order recv-first' && pass   # the status bar says what runs
wait_for 'Ready: every rank receives, then sends \(recv-first\)' && pass
keys n n
wait_for 'deadlock: 0 -> 3 -> 2 -> 1 -> 0' && pass
wait_for 'blocked: receiving from rank 3' && pass
# the shard never left: the panel says it is held, unsent, as its bytes are
wait_for 'B\[0\], (not sent yet|unsent)' && pass
wait_for 'f fix it' && pass
keys f
wait_for 'f: the fixed order runs now' && pass
wait_for 'fixed order' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
start 120x40 -d 3 --fix sendrecv
wait_for 'fix sendrecv' && pass
keys n s
wait_for 'share: ./distmm-tui' && pass
screen | tr -d '\n' | grep -q -- '--fix sendrecv --start-at 0' && pass || bad "the share line lost --fix"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="a bug's note and a Python mistake on screen"
start 120x40 -d 2 --bug r-plus-s
wait_for 'ready'
keys End
wait_for 'The run has the bug r-plus-s, but' && pass
wait_for 'verify: allclose ok' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
start 80x24 -d 4 --bug py-no-mod
wait_for 'ready'
keys n n n
wait_for '\(0-1\) = -1, no mod: empty' && pass   # the empty slice, whole at 80 columns
keys End
wait_for 'verify: MISMATCH' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="spot the bug"
start 120x40 -d 4 --bug r-plus-s --play
wait_for 'playing'
keys + + + +
wait_for 'verify: MISMATCH' 30 && pass
wait_for '!' && pass
wait_for 'Found it\?' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="memory table"
start 120x40 -d 4
wait_for 'ready'
keys c
wait_for 'memory and traffic: DP vs FSDP' && pass
wait_for 'rank 3 +352 B +352 B +256 B +256 B' && pass
keys x
wait_gone 'memory and traffic: DP vs FSDP' && pass
# Space pages on to the memory argument at real scale: this run's B (6 x 4 =
# 24 parameters) as the model, 16 bytes a parameter in DP, 16P/N in ZeRO-3
keys c
wait_for 'Space: at real scale, any other key closes' && pass
keys Space
wait_for 'at real scale: model states a device \(ZeRO\)' && pass
wait_for 'DP +16P +384 B +yes +72 B' && pass
wait_for 'ZeRO-3/FSDP +16P/N +96 B +yes +108 B' && pass
wait_for "P = 24 parameters: this run's B" && pass
keys Space
wait_gone 'at real scale' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the ZeRO paper's example on c's second page, 200x60"
start 200x60 -d 64 --params 7.5e9
wait_for 'ready'
keys c Space
wait_for 'DP +16P +120\.0 GB +no +29\.5 GB' && pass
wait_for 'ZeRO-1 +4P \+ 12P/N +31\.4 GB +yes' && pass
wait_for 'ZeRO-2 +2P \+ 14P/N +16\.6 GB +yes' && pass
wait_for 'ZeRO-3/FSDP +16P/N +1\.9 GB +yes +44\.3 GB' && pass
keys q q
wait_for '^EXIT:0 TTY:RESTORED$'
start 120x40 -m tp-row -d 3 --params 400B --gpu-mem 141
wait_for 'ready'
keys c
wait_for 'Space: at real scale' && pass
keys Space
wait_for 'DP +16P +6400\.0 GB +no' && pass
wait_for 'devices of 141 GB' && pass
keys q q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the tensor-parallel lesson, 120x40"
start 120x40 --lesson tensor-parallel
wait_for 'part 1/4' && pass
keys End n
wait_for 'part 2/4' && pass
keys n
wait_for 'Rank 0 sends all of A to every other rank' && pass
keys End
wait_for 'Bytes sent: rank 0 1\.1 KiB, the others 64 B each' && pass
keys n End
wait_for 'Bytes sent: 384 B each, 2\(n - 1\)/n of C' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the lesson 'Why a ring', 120x40: collectives in a lesson, timed"
start 120x40 --lesson why-a-ring
wait_for 'part 1/4' && wait_for 'allreduce by tree' && pass
keys End
wait_for 'The tree took 9\.6 us\. At this size latency is everything: ring 14\.4 us, tree 9\.6 us' && pass
keys n n
wait_for 'part 2/4' && wait_for 'Reduce-scatter step s=0: every link busy' && pass
keys End n End
wait_for 'The ring took 19\.6 us, its bus bandwidth 80\.1 GB/s' && pass
keys n End
wait_for 'ring 19\.6 us, tree 23\.6 us: bandwidth wins large messages' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the lesson 'Hiding communication', 120x40: the timeline, plain then prefetch"
start 120x40 --lesson hiding-communication
wait_for 'part 1/2' && wait_for 'timeline: the modelled clock' && pass
keys n n
wait_for 'The transfer, while the GPU sits idle' && wait_for ': nothing overlaps' && pass
keys End n n n
wait_for 'part 2/2' && wait_for 'Step s=1 and its transfer together' && pass
wait_for '[0-9]+% hidden' && wait_for '#####' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="lesson player"
start 120x40 --lesson "$(cd "$(dirname "$0")/../.." && pwd)/assets/lessons/the-exercise.lesson"
wait_for 'part 1/4' && pass
wait_for 'rank 0 owns A\[0:4\]' && pass
keys n
wait_for 'Step s=0: each rank multiplies' && pass
keys n n n     # transfer, s=1, gather
wait_for 'The row blocks travel to rank 0' && pass
keys n         # the verification, a stop of its own
wait_for 'Two steps, one transfer' && pass
wait_for 'Next \(n\): Four devices' && pass
keys n
wait_for 'part 2/4' && pass
wait_for '4 devices' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
out=$("$BIN" --lesson /nonexistent.lesson 2>&1); st=$?
[ "$st" = 2 ] && echo "$out" | grep -q 'cannot read /nonexistent.lesson' && pass || bad "missing lesson: exit $st, '$out'"

test_name="step back and forward again"
start 120x40 -d 4
wait_for 'ready'
keys n n
wait_for 'step s=0 \(1 of 4\)  transfer'
wait_still
before=$(screen)
keys n n
wait_for 'step s=1 \(2 of 4\)  transfer' && pass
keys b b
wait_for 'step s=0 \(1 of 4\)  transfer' && pass
keys Left Left
wait_for 'ready  paused' && pass
screen | grep -q '23' && bad "back at the start, C should be empty"
keys n n
wait_for 'step s=0 \(1 of 4\)  transfer'
keys b n   # a motion cut short, then the same screen again
wait_for 'step s=0 \(1 of 4\)  transfer'
wait_still  # the motion over, the screen must be the one seen before
after=$(screen)
[ "$before" = "$after" ] && pass || { bad "forward again differs"; diff <(echo "$before") <(echo "$after") | head; }
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="replay a recorded trace"
TR=$(mktemp /tmp/distmm-ui-trace.XXXXXX)
"$BIN" -b -q -d 5 -M 11 -N 7 --trace "$TR" >/dev/null
start 120x40 --replay "$TR" -M 11 -N 7
wait_for 'FSDP replay' && pass
wait_for '5 devices' && pass
keys p + + + +
wait_for 'verify: allclose ok' 30 && pass
keys b
wait_for ' gather  paused' && pass
keys b
wait_for 'step s=4 \(5 of 5\)  compute' && pass
# a replay offers no m, [ ] or x: they would do nothing
screen | grep -Eq ' m \[ \] mode/devs | x quiz ' && bad "the replay's key bar offers m, [ ] or x" || pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
out=$("$BIN" --replay "$TR" -M 12 -N 7 2>&1); st=$?
[ "$st" = 2 ] && echo "$out" | grep -q 'the trace is for 11 rows, A has 12' && pass || bad "a trace for other matrices: exit $st, '$out'"
printf '{"op":"compute"\n' > "$TR"
out=$("$BIN" --replay "$TR" 2>&1); st=$?
[ "$st" = 2 ] && echo "$out" | grep -q "$TR" && pass || bad "a malformed trace: exit $st, '$out'"
rm -f "$TR"

test_name="not a terminal"
out=$("$BIN" -d 4 </dev/null 2>&1 >/dev/null); st=$?
[ "$st" = 2 ] && echo "$out" | grep -q 'needs a terminal.*-b' && pass || bad "stdin not a tty: exit $st, '$out'"
out=$("$BIN" -d 65 2>&1 </dev/null); st=$?
[ "$st" = 2 ] && pass || bad "-d 65 interactive: exit $st"

PY=/usr/bin/python3
W=$(mktemp -d /tmp/distmm-ui.XXXXXX)

test_name="the schedule table: cells are (r - s) mod n"
for n in 3 4 5; do
	start 200x60 -d "$n"
	wait_for 'schedule: B\[\(r - s\) mod '"$n"'\]'
	rows=$(screen | grep -oE '│ r[0-9]+ +(B[0-9]+ +)+' | sed 's/│ //')
	[ "$(echo "$rows" | grep -c .)" = "$n" ] || bad "n=$n: the table has rows '$rows'"
	ok=1
	while read -r label cells; do
		r=${label#r}; s=0
		for c in $cells; do
			[ "$c" = "B$(( ((r - s) % n + n) % n ))" ] || { ok=0; bad "n=$n rank $r step $s shows $c"; }
			s=$((s + 1))
		done
		[ "$s" = "$n" ] || { ok=0; bad "n=$n rank $r: $s steps"; }
	done <<<"$rows"
	[ "$ok" = 1 ] && pass
	keys q
	wait_for '^EXIT:0 TTY:RESTORED$'
done

test_name="the worked cell equals numpy's dot product"
$PY -c "
import numpy as np
r = np.random.default_rng(5)
np.save('$W/a.npy', r.integers(-9, 10, (6, 5)).astype(float))
np.save('$W/b.npy', r.integers(-9, 10, (5, 4)).astype(float))"
start 120x40 -d 3 -A "$W/a.npy" -B "$W/b.npy"
wait_for 'ready  paused'
keys w Down Down Down Down Right Right   # C[4,2]
wait_for 'C\[4,2\] = A\[4,:\] . B\[:,2\] = ' && pass
line=$(screen | tr -d '\n' | grep -oE 'C\[4,2\] = A\[4,:\] . B\[:,2\] = [^=]+ = -?[0-9]+\.' | head -1)
got=$(echo "$line" | sed -E 's/.* = (-?[0-9]+)\.$/\1/')
terms=$(echo "$line" | sed -E 's/^.* = (.*) = -?[0-9]+\.$/\1/' | tr -d '() ')
want=$($PY -c "
import numpy as np
a = np.load('$W/a.npy'); b = np.load('$W/b.npy')
print(int(a[4] @ b[:, 2]), '+'.join('%d*%d' % (x, y) for x, y in zip(a[4], b[:, 2])))")
[ "$got $terms" = "$want" ] && pass || bad "worked cell: '$got $terms', numpy: '$want'"
# the rank that computes it and the step its shard arrives (rows 4:6 on rank 2, B[1] at s=1)
screen | tr -d '\n' | grep -q 'Rank 2 computes it at step s=1, when shard B\[1\] arrives' && pass ||
	bad "worked cell: rank and step"
keys Escape
wait_gone 'C\[4,2\] = ' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="overlays pause playback"
start 120x40 -d 4 --play
wait_for 'playing'
keys '?'
wait_for 'any key closes this'
wait_for 'paused' && pass
before=$(screen | head -1)
sleep 3.5   # two stops' dwell at 1x
[ "$(screen | head -1)" = "$before" ] && pass || bad "the run moved under the help: '$before' -> '$(screen | head -1)'"
keys x     # any key closes, and playing goes on
wait_gone 'any key closes this'
wait_for 'playing' && pass
keys c
wait_for 'memory and traffic: DP vs FSDP'
wait_for 'paused' && pass
keys q     # closes it; then q quits
wait_gone 'memory and traffic'
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the gather and the verification are stops of their own"
start 120x40 -d 2
wait_for 'ready'
keys n n n
wait_for 'step s=1 \(2 of 2\)  compute'
keys n
wait_for ' gather  paused' && pass
screen | grep -q 'verify: allclose' && bad "the verification came with the gather"
keys n
wait_for ' verify  paused' && pass
wait_for 'verify: allclose ok' && pass
wait_for 'C = A @ B on rank 0: verified' && pass
keys Escape   # the final C closes with Esc
wait_gone 'C = A @ B on rank 0: verified' && pass
keys b
wait_for ' gather  paused' && pass
keys b
wait_for 'step s=1 \(2 of 2\)  compute' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="8 devices at 200x60 show values"
start 200x60 -d 8 -M 16 -K 8 -N 16
wait_for 'ready'
keys n
wait_for 'step s=0 \(1 of 8\)  compute'
# C[0:2, 0:2] on rank 0: the values, not "2 rows x 16 columns"
want=$("$BIN" -b -d 8 -M 16 -K 8 -N 16 -o "$W/c.csv" >/dev/null; head -1 "$W/c.csv" | cut -d, -f1 | sed 's/\.0*$//')
screen | grep -Eq "│ +$want +-?[0-9]+ +· +·" && pass || { bad "no values of C (want $want)"; screen | sed -n 1,8p; }
screen | grep -q 'rows x 16 columns' && bad "a panel says rows x columns where values fit"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="a caption at 80x24 ends with its last word"
start 80x24 --lesson "$(cd "$(dirname "$0")/../.." && pwd)/assets/lessons/the-exercise.lesson"
wait_for 'rank 0 owns A\[0:4\]'
wait_for 'rank 1 owns A\[4:8\] and B\[:, 2:4\]\. Press n\.' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
start 80x24 -d 4 --naive --capacity 0
wait_for 'ready'
keys n n
wait_for 'deadlock: 0 -> 1 -> 2 -> 3 -> 0'
screen | tr -d '\n' | grep -q 'a send ends only when it is *received\.' && pass || bad "the deadlock caption is cut"
wait_for 'deadlock  paused' && pass
keys f
wait_for 'the fixed order runs now' && pass
wait_for 'fixed order' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
for d in 1 2; do
	start 80x24 -d $d
	wait_for 'ready'
	screen | tr -d '\n' | grep -Eq 'Press n( for s=0)?\.' && pass || bad "-d $d: the ready caption is cut"
	keys q
	wait_for '^EXIT:0 TTY:RESTORED$'
done

test_name="the failed step is named"
start 120x40 -d 4 --bug c-mod
wait_for 'ready'
keys n n n
wait_for 'step s=1 \(2 of 4\)  compute failed' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="focus, go to, start and end"
start 120x40 -d 5
wait_for 'ready'
keys 2
# the grid shows rank 2 too: the focus is there once rank 4 has gone
wait_gone 'rank 4 ' && pass
screen | grep -q 'rank 2  A rows' || bad "the focus does not show rank 2"
for r in 1 3; do screen | grep -q "rank $r " || bad "focus: no neighbour $r"; done
keys Escape
wait_for 'rank 4 ' && pass
keys g 3 Enter
wait_for 'step s=3 \(4 of 5\)  compute' && pass
keys Home
wait_for 'ready  paused' && pass
keys End
wait_for 'verify  paused' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="--start-at and the shared command line"
start 120x40 -d 3 -M 7 -K 5 -N 5 --start-at 1t
wait_for 'step s=1 \(2 of 3\)  transfer' && pass
keys n s
wait_for 'share: ./distmm-tui' && pass
cmd=$(screen | tr -d '\n' | grep -oE 'share: ./distmm-tui[^│]*--start-at [0-9a-z]+' | sed 's/^share: //; s/ *$//')
case "$cmd" in *"-d 3 -M 7 -K 5 -N 5 --values ints --seed 1 --start-at 2") pass ;; *) bad "shared '$cmd'" ;; esac
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
# the command line opens the same screen
start 120x40 -d 3 -M 7 -K 5 -N 5 --start-at 2
wait_for 'step s=2 \(3 of 3\)  compute'
first=$(screen)
eval "set -- ${cmd#./distmm-tui }"
start 120x40 "$@"
wait_for 'step s=2 \(3 of 3\)  compute'
[ "$(screen)" = "$first" ] && pass || bad "the shared command line opens another screen"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
out=$("$BIN" -d 3 --start-at 5 2>&1 </dev/null); st=$?
[ "$st" = 2 ] && echo "$out" | grep -q 'start-at 5: the run.s steps are s=0 to s=2' && pass || bad "--start-at 5: exit $st, '$out'"
out=$("$BIN" -b --start-at 1 2>&1); st=$?
[ "$st" = 2 ] && echo "$out" | grep -q -- '--start-at has no effect with -b' && pass || bad "-b --start-at: exit $st, '$out'"

test_name="a NaN in the input is NaN-equal, not a mismatch"
$PY -c "
import numpy as np
a = np.arange(12.0).reshape(4, 3); a[1, 2] = np.nan
np.save('$W/nan.npy', a)"
start 120x40 -d 2 -A "$W/nan.npy" -N 3
wait_for 'ready'
keys End
wait_for 'verify: NaN-equal' && pass
screen | grep -q 'MISMATCH' && bad "a NaN-equal result called a mismatch"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="quiz: n skips a question"
start 120x40 -d 4 --quiz
wait_for 'ready'
keys n
wait_for 'which shard does rank'
keys n
wait_for 'skipped, not counted. The answer is' && pass
wait_for 'quiz 0/0' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the themes: T steps default, projector, light; each sets its background"
start 120x40 -d 4 --theme projector
wait_for 'ready  paused' && pass
# the projector's black (colour 16) painted as the background, not the terminal's own
T capture-pane -e -p -t 0 | grep -q $'\e\[[0-9;]*48;5;16m' && pass ||
	bad "no projector background in: $(T capture-pane -e -p -t 0 | cat -v | head -c 300)"
keys T s
wait_for 'share: ./distmm-tui .*--theme light' && pass
T capture-pane -e -p -t 0 | grep -q $'\e\[[0-9;]*48;5;231m' && pass ||
	bad "no white background in the light theme"
keys T
wait_gone 'share: ' # a key clears the message: T is back on the default theme
keys s
wait_for 'share: ./distmm-tui' && ! screen | grep -q -- '--theme' && pass ||
	bad "T after light is not the default theme: $(screen | grep share)"
keys T n
wait_for 'compute' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
rm -rf "$W"

echo "ui_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
