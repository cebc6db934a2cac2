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
HERE=$(cd "$(dirname "$0")" && pwd)
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

test_name="the panels hold still from stop to stop"
# the training step at 120x40: its forward, its backward and the backward's
# transfer (49 columns against 40, once), its reduce-scatter, its end (the
# verification's box closed): one place
start 120x40 -d 4 --train
wait_for 'ready  paused'
here=$(corners)
[ -n "$here" ] || bad "no panels at ready"
for go in 'g 0 Enter' 'g 3 Enter n' n n 'End Escape'; do
	keys $go
	wait_still
	[ "$(corners)" = "$here" ] && pass || { bad "after '$go' the panels moved: $here -> $(corners)"; screen | sed 's/^/    | /'; }
done
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
# the forward at 80x24: ready, a compute, a transfer, and w over the
# compute keeps every panel and C's values (not marks)
start 80x24 -d 4
wait_for 'ready  paused'
here=$(corners)
keys n
wait_for 'compute  paused'
[ "$(corners)" = "$here" ] && pass || bad "the compute moved the panels: $here -> $(corners)"
keys n
wait_for 'transfer  paused'
wait_still
[ "$(corners)" = "$here" ] && pass || bad "the transfer moved the panels: $here -> $(corners)"
keys b w Right
wait_for 'C\[0,1\] = A\[0,:\]'
[ "$(corners)" = "$here" ] && pass || bad "w moved the panels: $here -> $(corners)"
[ "$(screen | grep -o 'C B0  B1  B2  B3' | wc -l)" = 4 ] && pass || { bad "w took C's values off the panels"; screen | sed 's/^/    | /'; }
wait_text 'Rank 0 computes it at step s=3, when shard B\[1\] arrives: \(0 - 3\) mod 4 = 1\.' && pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="grids that read as a ring"
# grid_rows: the ranks of each grid row, left to right, rows apart by "|"
grid_rows() {
	screen | grep '┌ rank' | while IFS= read -r line; do
		printf '%s| ' "$(printf '%s\n' "$line" | grep -o '┌ rank [0-9]*' | sed 's/.* //' | tr '\n' ' ')"
	done
}
for want in "4:0 1 | 3 2 | " "16:0 1 2 3 | 7 6 5 4 | 8 9 10 11 | 15 14 13 12 | " "8:0 1 2 3 | 7 6 5 4 | "; do
	start 200x60 -d "${want%%:*}"
	wait_for 'ready  paused'
	[ "$(grid_rows)" = "${want#*:}" ] && pass || bad "-d ${want%%:*} at 200x60: $(grid_rows), want ${want#*:}"
	keys q
	wait_for '^EXIT:0 TTY:RESTORED$'
done
# 8 devices at 200x60: the B shard whole, never "1 of 6 rows"
start 200x60 -d 8
wait_for 'ready  paused'
keys n
wait_for 'compute  paused'
[ "$(screen | grep -o 'B\[:, [0-9:]*\] = shard B\[[0-9]\]' | wc -l)" = 8 ] && pass || bad "not every panel labels its shard"
screen | grep -q 'of 6 rows' && bad "a B shard cut at 200x60: $(screen | grep -o '[^│]*of 6 rows' | head -1)" || pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

test_name="the verification's box leaves no scrap of a panel"
# every letter of the panels' area is in the box, in a panel seen whole or
# in the table (still_scraps.py): on screen, and in an exported still
W=$(mktemp -d /tmp/distmm-still.XXXXXX)
for run in "80x24 -d 4" "200x60 -d 4" "120x40 -d 8" "80x24 -d 3 --train --bug rs-off-by-one" \
	"120x40 -d 4 --train"; do
	set -- $run
	start "$@"
	wait_for 'ready  paused'
	keys End
	wait_for 'verify  paused'
	wait_still
	screen > "$W/screen"
	python3 "$HERE/still_scraps.py" "$W/screen" > "$W/why" && pass ||
		{ bad "$run: $(cat "$W/why")"; sed 's/^/    | /' "$W/screen"; }
	keys q
	wait_for '^EXIT:0 TTY:RESTORED$'
done
for size in 80x24 200x60; do
	(cd "$W" && "$BIN" -d 4 --ascii --export "$W/x.svg" --size $size > /dev/null 2>&1)
	python3 "$HERE/still_scraps.py" "$W/x.svg" > "$W/why" && pass || bad "the still at $size: $(cat "$W/why")"
done
rm -rf "$W"

test_name="a moving shard keeps its B on the return lane"
# read off an exported cast, frame by frame (cast_tokens.py: the virtual
# clock draws the same frames every time, no race with the motion): every
# label moving along a link reads "B3", never a lone "3".  At 80 columns
# the return lane hugs the screen's edge and turns into its arrowhead:
# there the label goes down the lane, a character a row (-d 4: "down" > 0)
W=$(mktemp -d /tmp/distmm-still.XXXXXX)
for run in "80x24 -d 4" "80x24 -d 4 --ascii" "80x24 -d 8" "80x24 -d 8 --ascii" "120x40 -d 4" \
	"200x60 -d 16" "200x60 -d 16 --ascii"; do
	set -- $run
	size=$1; shift
	(cd "$W" && "$BIN" "$@" --size "$size" --export "$W/t.cast" > /dev/null 2>&1) ||
		{ bad "$run: the export failed"; continue; }
	if python3 "$HERE/cast_tokens.py" "$W/t.cast" > "$W/why"; then
		case "$run" in
		"80x24 -d 4"*) grep -q 'down [1-9]' "$W/why" && pass ||
			bad "$run: no label down the return lane ($(cat "$W/why"))" ;;
		*) pass ;;
		esac
	else
		bad "$run: $(head -1 "$W/why")"; sed '1d; s/^/    | /' "$W/why"
	fi
done
rm -rf "$W"

test_name="every blocked shard on its link"
# the exercise's last part: four ranks blocked in their sends, each shard
# at its sender's door, rank 1's on the one-row gap down to rank 2 too
for size in 80x24 120x40; do
	start $size --lesson assets/lessons/the-exercise.lesson
	wait_for 'part 1/4'
	keys End n End n End n
	wait_for 'part 4/4'
	keys n n
	wait_for 'deadlock  paused'
	for k in 0 1 2 3; do
		screen | grep -Eq "([─▶▼◀┤├┘└│]B$k|B$k[─▶◀┘┤])" && pass ||
			{ bad "$size: B$k is not on its link"; screen | sed 's/^/    | /'; }
	done
	keys q
	wait_for '^EXIT:0 TTY:RESTORED$'
done

test_name="the memory lesson: C's values, and bars for both modes"
# part 1 (DP) at 120x40 keeps a bar beside its words; part 2 (FSDP) shows
# DP's reach past its own bar, and at a transfer the columns just computed
# (the window no longer on the next step's, empty: a screen of dots)
for glyphs in "" --ascii; do
	if [ -z "$glyphs" ]; then full='█' other='▒' empty='░' dot='·'; else full='#' other=':' empty='\.' dot='\.'; fi
	start 120x40 --lesson memory $glyphs
	wait_for 'part 1/2'
	keys n
	wait_for 'compute  paused'
	[ "$(screen | grep -cE "peak $full+$empty* 40\.0 KiB, FSDP 16\.0 KiB")" = 3 ] && pass ||
		{ bad "$glyphs: DP's panels have no bar"; screen | sed 's/^/    | /'; }
	keys End n
	wait_for 'part 2/2'
	keys n n
	wait_for 'transfer  paused'
	[ "$(screen | grep -cE "peak $full+$other+$empty* 16\.0 KiB vs DP 40\.0 KiB")" = 3 ] && pass ||
		{ bad "$glyphs: FSDP's bars do not show DP's"; screen | sed 's/^/    | /'; }
	screen | grep -qE "[│|] +$dot( +$dot){4} +[│|]" && { bad "$glyphs: a row of C all dots at a transfer"; screen | sed 's/^/    | /'; } || pass
	[ "$(screen | grep -cE '[│|] +-?[0-9]+\.[0-9]+( +-?[0-9]+\.[0-9]+){4} +[│|]')" -ge 9 ] && pass ||
		{ bad "$glyphs: C's values not on the panels at a transfer"; screen | sed 's/^/    | /'; }
	keys q
	wait_for '^EXIT:0 TTY:RESTORED$'
done

test_name="a lesson caption tied to one transfer shows at that one"
# the training lesson's "During this first transfer..." is transfer 0's:
# the next transfer says its own words
start 120x40 --lesson training
wait_for 'part 1/'
keys n n
wait_for 'transfer  paused'
wait_text 'During this first transfer it sends its own shard' && pass
keys n n
wait_for 'step s=1 .*transfer  paused'
wait_text 'keeping its own for the backward' && pass
flat | grep -q 'first transfer' && bad "the first transfer's caption at the second" || pass
keys q
wait_for '^EXIT:0 TTY:RESTORED$'

echo "still_ui_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
