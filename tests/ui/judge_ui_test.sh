#!/usr/bin/env bash
# judge_ui_test: --judge without -b, driven in a private tmux (see tmux.sh):
# the verdict on screen, stepping to the first wrong event's phase shows its
# mark ('!', reversed) and the explanation, j shows the correct ring at the
# same stop and back; m says why a judged run does not take it, and the help
# marks it; a correct solution says pass; a deadlock shows each
# rank's wait; a wrong neighbour's send is marked on its link; 80x24,
# --no-color and --ascii keep the mark; no Python process is left after q,
# after Ctrl-C in the interface, or after Ctrl-C while the judge runs; the
# judge's errors are one line before any screen; and the export of a judged
# run has the mark's caption among its markers.
#
# The solutions are judged from a private folder, whose path the judge's
# processes carry on their command line (distmm-judge PATH), so pgrep finds
# any that outlive a run.  Waits are "until the screen shows X" (tmux.sh).
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
HERE=$(cd "$(dirname "$0")/../.." && pwd)
NAME=judgeui
. "$(dirname "$0")/../lib/tmux.sh"
W=$(mktemp -d /tmp/distmm-judgeui.XXXXXX)
# left_pids: the judge's processes of this test still alive, by their ids.
left_pids() { pgrep -f "distmm-judge $W"; }
trap 'T kill-server 2>/dev/null; left_pids | xargs -r kill -KILL 2>/dev/null; rm -rf "$W"' EXIT
# The shipped solutions (assets/solutions) win over the tests' own files of
# the same name: a teacher's files are what the screen is checked on.
cp "$HERE"/tests/app/judge/solutions/*.py "$W"/ && cp "$HERE"/assets/solutions/*.py "$W"/
cd "$W" || exit 1

# wait_text PATTERN [SECONDS]: as wait_for, on the screen read as one line
# (each line's edge spaces cut), so that words a caption wrapped still match.
flat() { screen | sed 's/^ *//; s/ *$//' | tr '\n' ' '; }
wait_text() {
	local pat=$1 limit=${2:-15} i=0
	while [ "$i" -lt $((limit * 20)) ]; do
		flat | grep -Eq -- "$pat" && return 0
		sleep 0.05; i=$((i + 1))
	done
	bad "screen never showed /$pat/ (as one text)"; screen | sed 's/^/    | /'; return 1
}

# No process of this test's judging is alive.
none_left() {
	if left_pids >/dev/null; then
		bad "python left behind after $1: $(left_pids | xargs -r ps -o pid=,args= -p | cut -c1-100)"
	else pass; fi
}

test_name="a wrong result: the verdict, the mark, the ring and back"
start 80x24 --judge "$W/r_plus_s.py" -d 3 -M 9 -K 5 -N 6
wait_for 'ready  paused' 30 && pass
none_left "the judge, before the screen"
wait_text 'your fsdp_mat_mul, case [0-9]+ \(n = 3, A 9x5 @ B 5x6\): wrong result: step 1, rank 0' && pass
wait_text 'marked ! at step 1.s compute' && pass
screen | grep -Eq 'j (compare|ring large)' && pass || bad "the key bar has no j"
screen | grep -q 'terminal too small' && bad "80x24 is too small for the judged run"
screen | grep -q '! rank' && bad "the mark is on screen before its phase"
# a key the judged run does not take says why, and the help marks it
keys m
wait_text "m: a judged run is your code's, on its case's devices: the mode is the case's" && pass
screen | grep -q 'FSDP judged' && pass || bad "m changed the judged run"
keys '?'
wait_for 'keys \(- not in a judged run\)' && pass
wait_for '│-m \[ \] +restarts' && pass
screen | grep -q '│-Tab' && bad "the help marks a key the judged run takes"
keys Escape
wait_gone 'keys \(- not in' && pass
keys n n n
wait_for 's=1 2/3 compute' && pass
wait_text 'marked ! here \(event [0-9]+ of [0-9]+\)' && pass
wait_for '! rank 0' && pass
wait_text '! wrong result: step 1, rank 0 wrote C\[0:3, 2:4\] \(shard 1\) but holds shard 2' && pass
screen | grep -q '! rank [12]' && bad "a rank other than 0 carries the first mark"
wait_for 'B\[2\] -> cols 2:4' && pass   # what rank 0's compute did, not the ring's formula
keys j
wait_for 'FSDP ring' && pass
wait_for 's=1 2/3 compute' && pass       # the same stop
wait_for '\(0-1\) mod 3 = 2' && pass
wait_text 'the correct ring, run by the engine' && pass
screen | grep -q '! rank' && bad "the correct ring carries the candidate's mark"
keys n
wait_for 's=1 2/3 transfer' && pass      # a live engine run goes on
keys j
wait_for 'FSDP judged' && pass
wait_for 's=1 2/3 transfer' && pass
keys b
wait_for '! rank 0' && pass              # back at the mark
keys End
wait_text 'the judge: wrong result' && pass
wait_text 'differs from A @ B in [0-9]+ of 54 elements' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && pass
none_left "q"
screen | grep -q 'judging' && bad "the judging line stayed on the terminal"

test_name="a correct solution passes"
start 80x24 --judge "$W/correct.py" -m fsdp -d 4
wait_for 'ready  paused' 30
wait_text 'your fsdp_mat_mul, case [0-9]+ \(n = 4, A 8x6 @ B 6x4\): pass; j: the correct ring' && pass
keys End
wait_text 'is allclose to A @ B; the judge: pass' && pass
screen | grep -q '!' && bad "a passing run shows a mark: $(screen | grep '!')"
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && pass

test_name="a deadlock shows each rank's wait"
start 100x30 --judge "$W/send_first.py" --capacity 0 -d 3 -M 9 -K 5 -N 6
wait_for 'ready  paused' 30
wait_text 'deadlock \(it hangs at the transfer after step 0\)' && pass
keys n n
wait_for 'transfer deadlock' && pass
wait_text 'deadlock, here: each rank.s wait is in its panel' && pass
for r in 0 1 2; do
	wait_for "blocked: B$r -> $(( (r + 1) % 3 ))|blocked: sending B\\[$r\\] to rank $(( (r + 1) % 3 ))" && pass
done
wait_text 'deadlock: rank 0 waits to send shard 0' && pass
wait_text 'alternate by rank parity' && pass
keys j
wait_for 'FSDP ring' && pass             # parity completes at capacity 0
keys End
wait_for 'verify: allclose ok' 30 && pass
keys j
wait_for 'transfer deadlock' && pass     # back where the candidate's run stopped
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && pass
none_left "q after a deadlock"

test_name="a wrong neighbour: the send marked on its link"
start 120x40 --judge "$W/wrong_neighbour.py" -d 3 -M 9 -K 5 -N 6
wait_for 'ready  paused' 30
keys n n
wait_for 'step s=0 \(1 of 3\)  transfer' && pass
wait_for '! rank 0  A rows 0:3' && pass
wait_for '!B0' && pass
wait_text '! wrong neighbour: step 0: rank 0 sent shard 0 \(B\[:, 0:2\]\) to rank 2' && pass
wait_for 'B\[0\] -> rank 2, B\[1\] <- rank 1' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

# The links are the ones the shards took, read off the recorded sends: the
# left-sending ring's arrows point left (and the ring's, after j, right);
# a shard sent two ranks on is drawn on its own link, not the ring's.
test_name="the links a left-sending ring took point left"
start 80x24 --judge "$W/wrong_neighbour.py" -d 3 -M 9 -K 5 -N 6
wait_for 'ready  paused' 30
keys n n
wait_for 's=0 1/3 transfer' && pass
wait_for '◀─+┤' && pass
screen | grep -Eq '├─+▶' && bad "a left-sending run drawn with the ring's right arrows"
wait_for '!B0─' && pass                  # the mark on the link it took
screen | grep -q '!B0->' && bad "the mark names a link the screen does not draw"
keys j
wait_for 'FSDP ring' && pass
wait_for '├─+▶' && pass                  # the correct ring goes right
screen | grep -Eq '◀─+┤' && bad "the correct ring drawn with the candidate's links"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="a left-sending ring in ASCII without colour at 200x60"
START_ENV=NO_COLOR=1 start 200x60 --judge "$W/wrong_neighbour.py" -d 4 -M 8 -K 6 -N 8 --ascii
wait_for 'ready  paused' 30
keys n n
wait_for 'step s=0 \(1 of 4\)  transfer' && pass
wait_for '\|<-+\+' && pass             # 1 -> 0, right to left
wait_for '   \^   ' && pass              # 2 -> 1, up the snake (the ring's goes down)
screen | grep -Eq '   v   ' && bad "--ascii: 1 -> 2 drawn down the snake"
wait_for '!B0' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="a shard sent two ranks on is drawn on its own link"
start 200x60 --judge "$W/skip_neighbour.py" -d 4 -M 8 -K 6 -N 8
wait_for 'ready  paused' 30
keys n n
wait_for 'step s=0 \(1 of 4\)  transfer' && pass
wait_text '! wrong neighbour: step 0: rank 0 sent shard 0 \(B\[:, 0:2\]\) to rank 2' && pass
wait_for '!B0' && pass
screen | grep -q '!B0->' && bad "the detour to rank 2 is not drawn: the mark names it"
screen | grep -Eq '├─+▶' && bad "a run that never sends to r + 1 drawn with the ring's arrows"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

# Every wrong write is marked, not only the first: held to the engine's
# correct run at the same stop, each rank's cells that differ from it (or
# that it had not written by then) carry a '!'; the caption explains the
# first alone; the correct ring, after j, has none.
test_name="every wrong write marked at 80x24"
start 80x24 --judge "$W/r_plus_s.py" -d 3 -M 9 -K 5 -N 6
wait_for 'ready  paused' 30
keys n n n
wait_for 's=1 2/3 compute' && pass
wait_for 'C 00!!··' && pass              # rank 0: the first wrong event
wait_for 'C ··11!!' && pass              # and ranks 1 and 2 as well
wait_for 'C !!··22' && pass
wait_text '! wrong result: step 1, rank 0 wrote' && pass
keys b
wait_for 's=0 1/3 transfer' && pass
screen | grep -q '!!' && bad "step 0 was right, yet marked: $(screen | grep '!!')"
keys j
wait_for 'FSDP ring' && pass
keys n
wait_for 's=1 2/3 compute' && pass
screen | grep -q 'C [0-9·]*!' && bad "the correct ring carries the candidate's marks"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="every wrong write marked at 200x60, each value"
start 200x60 --judge "$W/wrong_neighbour.py" -d 4 -M 8 -K 6 -N 8
wait_for 'ready  paused' 30
keys n n n
wait_for 'step s=1 \(2 of 4\)  compute' && pass
wait_for '![-0-9]' && pass
marks=$(screen | grep -o '![-0-9]' | wc -l)
# each rank wrote a 2x2 block of C with the shard it wrongly held: 16 values
[ "$marks" -ge 16 ] && pass || bad "only $marks wrong values marked at step 1 (want 16)"
keys End
wait_text 'differs from A @ B in [0-9]+ of 64 elements' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

# The correct ring beside the candidate's run, at the same stop, where the
# screen has room (in the schedule table's place, compact, from the
# engine's own run rebuilt at that phase); the key bar says j makes it
# large; without room (t takes the table off) j compares as before.
test_name="the correct ring beside, at the same stop"
start 80x24 --judge "$W/r_plus_s.py" -d 3 -M 9 -K 5 -N 6
wait_for 'ready  paused' 30
wait_for 'the correct ring, this stop \(j: large\)' && pass
wait_for 'j ring large' && pass
screen | grep -q 'j compare' && bad "the key bar says compare with the ring beside"
keys n n n
wait_for 's=1 2/3 compute' && pass
wait_for 'r0 +B2 +00··22' && pass         # the ring's rank 0 at step 1: B2 into C[:, 4:6]
wait_for 'r1 +B0 +0011··' && pass
wait_for 'C 00!!··' && pass              # the candidate's, marked, on the panels above
keys n
wait_for 's=1 2/3 transfer' && pass
wait_for 'r0 +B2->1 ' && pass            # the same stop: what the ring moved there
keys t
wait_gone 'the correct ring, this stop' && pass
wait_for 'j compare' && pass
keys t
wait_for 'the correct ring, this stop' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the correct ring beside at 200x60, ASCII, no colour"
START_ENV=NO_COLOR=1 start 200x60 --judge "$W/wrong_neighbour.py" -d 4 -M 8 -K 6 -N 8 --ascii
wait_for 'ready  paused' 30
keys n n
wait_for 'step s=0 \(1 of 4\)  transfer' && pass
wait_for 'the correct ring, this stop \(j: large\)' && pass
wait_for 'r0 +B0->1 ' && pass            # the ring passes right ...
wait_for 'B\[0\] -> rank 3, B\[1\] <- rank 1' && pass   # ... the candidate left
wait_for 'j ring large' && pass
keys j
wait_for 'FSDP ring' && pass
wait_gone 'the correct ring, this stop' && pass   # the ring large: the schedule table
wait_for 'j compare' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the mark without colour, in ASCII, at 80x24"
START_ENV=NO_COLOR=1 start 80x24 --judge "$W/r_plus_s.py" -d 3 -M 9 -K 5 -N 6 --ascii --start-at 1
wait_for 's=1 2/3 compute' 30 && pass
wait_for '! rank 0' && pass
wait_for 'C \.\.11!!' && pass             # another rank's wrong write, in ASCII
screen | grep -q '[┌│─]' && bad "--ascii drew box glyphs"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="Ctrl-C leaves no python, in the interface and while judging"
start 80x24 --judge "$W/r_plus_s.py" -d 3 -M 9 -K 5 -N 6
wait_for 'ready  paused' 30
keys C-c
wait_for '^EXIT:130 TTY:RESTORED$' && pass
none_left "Ctrl-C in the interface"
start 80x24 --judge "$W/infinite_loop.py" -d 3 --judge-timeout 60
seen=0
for _ in $(seq 1 300); do
	if [ "$(left_pids | wc -l)" -ge 2 ]; then seen=1; break; fi
	sleep 0.05
done
[ $seen = 1 ] || bad "the judge's run never showed up"
wait_for 'judging .*infinite_loop.py: [0-9]+ cases?\.\.\.' && pass
keys C-c
wait_for '^EXIT:130' && pass
none_left "Ctrl-C while judging"

test_name="the judge's errors: one line, exit 2, before any screen"
"$BIN" --judge "$W/syntax_error.py" >"$W/out" 2>"$W/err"
st=$?
[ $st = 2 ] && [ "$(wc -l <"$W/err")" = 1 ] && grep -q 'syntax_error.py:8: SyntaxError' "$W/err" &&
	[ ! -s "$W/out" ] && pass || bad "a syntax error: exit $st, $(cat "$W/err")"
"$BIN" --judge "$W/neither.py" >"$W/out" 2>"$W/err"
[ $? = 2 ] && grep -q 'defines none of' "$W/err" && pass || bad "neither: $(cat "$W/err")"
DISTMM_PYTHON=/nonexistent "$BIN" --judge "$W/correct.py" >"$W/out" 2>"$W/err"
[ $? = 2 ] && grep -q 'DISTMM_PYTHON=/nonexistent cannot be run' "$W/err" && pass || bad "no python: $(cat "$W/err")"
"$BIN" --judge "$W/correct.py" --quiz >"$W/out" 2>"$W/err"
[ $? = 2 ] && grep -q -- '--quiz has no effect with --judge' "$W/err" && pass ||
	bad "--quiz with --judge: $(cat "$W/err")"
"$BIN" --judge "$W/correct.py" -m fsdp -d 2 </dev/null >"$W/out" 2>"$W/err"
[ $? = 2 ] && grep -q 'needs a terminal' "$W/err" && pass || bad "no terminal: $(cat "$W/err")"
none_left "the errors"

test_name="the export of a judged run"
"$BIN" --judge "$W/r_plus_s.py" -d 3 -M 9 -K 5 -N 6 --export "$W/j.cast" >"$W/out" 2>"$W/err"
st=$?
[ $st = 0 ] && [ ! -s "$W/out" ] && [ ! -s "$W/err" ] && pass || bad "export: exit $st, $(cat "$W/err")"
grep -q '"m", "! wrong result: step 1, rank 0 wrote' "$W/j.cast" && pass ||
	bad "the cast has no marker with the mark's caption: $(grep -o '"m", "[^"]*' "$W/j.cast" | head -3)"
grep -q 'judged' "$W/j.cast" && pass || bad "the cast does not say judged"
none_left "the export"

echo "judge_ui_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
