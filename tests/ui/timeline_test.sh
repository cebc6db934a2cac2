#!/usr/bin/env bash
# timeline_test: the timeline view (l, --timeline) and --prefetch in the
# interface, driven in a private tmux (tests/lib/tmux.sh) at 80x24 and
# 200x60.  The modelled clock's figures are batch mode's for the same run
# (-b --timeline prints them); the mark under the lanes moves with the stop;
# l goes on to the measured clock, then back to the panels; 16 lanes at
# 80x24 show a window that Tab scrolls; at 200x60 the panels stay above
# the lanes.  With --prefetch a step and its transfer are one stop whose
# caption says what the product hides, and the lanes overlap (#).  Tensor
# parallel says in one line that the model does not time it.  Every wait
# is for something on screen, never for a time.
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
NAME=timeline
. "$(dirname "$0")/../lib/tmux.sh"
flat() { screen | sed 's/^ *//; s/ *$//' | tr '\n' ' '; }
# the column of the mark under the lanes (where the stop shown ends)
mark_col() { screen | grep '▲' | head -1 | awk '{ print index($0, "▲") }'; }

RUN="-d 4 --hw a100-nvlink --flops 0.01 -M 64 -K 64 -N 64"

test_name="the modelled clock, 80x24, as batch mode times it"
# shellcheck disable=SC2086
want=$("$BIN" -b $RUN --timeline | grep -o 'exposed communication: [0-9.]* us of [0-9.]* us ([0-9.]*%)' |
	sed 's/communication:/communication/')
[ -n "$want" ] && pass || bad "batch mode printed no exposed communication"
# shellcheck disable=SC2086
start 80x24 $RUN
wait_for 'ready  paused  1x  a100-nvlink$' && pass
keys l
wait_for 'timeline: the modelled clock \(l: measured\)' && pass
wait_for "$(printf '%s' "$want" | sed 's/[().]/\\&/g')" && pass
wait_for '^│r3   C+=+C' && wait_for '^│crit 0+1+│' && pass
at_ready=$(mark_col)
keys n n n
wait_for 's=1 2/4 compute' && pass
[ "$(mark_col)" -gt "$at_ready" ] && pass || bad "the mark stayed at column $at_ready"
screen | grep -q '┌ rank 0' && bad "the panels beside the lanes at 80x24"
keys l
wait_for 'timeline: the measured clock \(l: off\)' && wait_for 'the events. own times' && pass
keys l
wait_for '┌ rank 0 ' && wait_gone 'timeline:' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && pass

test_name="16 lanes at 80x24: a window, Tab scrolls"
start 80x24 -d 16 --timeline
wait_for 'ranks 0-[0-9]+ of 16, Tab scrolls' && pass
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do keys Tab; done
wait_for 'ranks [0-9]+-15 of 16' && wait_for '^│r15 ' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="200x60: the panels above the lanes; s shares it"
start 200x60 -d 8 -M 16 -K 8 -N 16 --timeline
wait_for 'timeline: the modelled clock' && wait_for 'rank 7  A rows' && wait_for '^│r7 ' && pass
screen | grep -q 'ranks .* of 8' && bad "a window of 8 lanes at 200x60"
keys s
wait_for '--timeline' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="--prefetch: a step and its transfer, one stop"
# shellcheck disable=SC2086
start 80x24 $RUN --prefetch --timeline
wait_for '  # both  \. wait' && wait_for '^│r0   #+C+#' && wait_for '% hidden  a100-nvlink$' && pass
wait_for 'exposed communication 2\.427 us of 15\.53 us \(15\.6%\); 7\.282 us hidden' && pass
keys l l n
wait_for 's=0 1/4 transfer' && pass
flat | grep -qE 'step s=0 and its transfer at once \(--prefetch\).* a100-nvlink: the slowest rank.s product hides 2\.427 us of its 2\.427 us sent, 0 us exposed\.' &&
	pass || bad "the pair's caption: $(flat | cut -c1-600)"
keys s
wait_for '--prefetch' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
# full panels: the product written and the shard in flight on one stop
start 80x24 -d 4 --prefetch
keys n
wait_for 's=0 1/4 transfer' && wait_for '│  23   ·   ·   ·' && wait_for 'B\[0\] -> rank 1, B\[3\] <- rank 3' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="tensor parallel: not timed, said once"
"$BIN" -d 4 -m tp-col --timeline </dev/null >/dev/null 2>"$SOCK.err"; st=$?
[ "$st" = 2 ] && [ "$(wc -l <"$SOCK.err")" = 1 ] && grep -q 'does not time tensor parallel' "$SOCK.err" &&
	pass || bad "--timeline with tp-col: exit $st, $(cat "$SOCK.err")"
rm -f "$SOCK.err"
start 80x24 -d 4 -m tp-col
keys l
wait_for 'does not time tensor parallel' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

echo "timeline_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
