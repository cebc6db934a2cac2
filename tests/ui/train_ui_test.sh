#!/usr/bin/env bash
# train_ui_test: the training step in the interface (--train without -b),
# driven in a private tmux (see tmux.sh): FSDP stepped to a reduce-scatter
# step shows its caption with the index formulas and each rank's dB chunks
# filling; DP's all-reduce reaches its all-gather and every rank ends with
# all of dB; the run ends verified (C, dA and dB); a backward bug fails dB;
# d switches forward only / training step; the training lesson sets the
# training step itself; 80x24 works; q exits with the terminal restored.
# k presses of n are k stops however fast they come (view_next), so keys
# go in at once; every wait is "until the screen shows X" (tmux.sh).
# The memory line during the reduce-scatter compares the training model;
# t's table lists the backward's phases, the reduce-scatter's chunks;
# --start-at opens at a backward stop, the share line names it, and a
# backward stop the run has not is refused; --replay of a training step's
# trace (-b --train --trace) steps through its backward and verifies.
# Issue 25's backward made visible: at 120x40 and 200x60, FSDP and DP,
# every backward stop shows values of dA, dC or dB under their labels, on
# the panels and in v's view of that block; v cycles dC, the B shard, the
# chunk sent, dB in place; the dA formula's shape; the first backward
# caption's bytes and the memory line's words; nothing cut at 120x40;
# rs-off-by-one and no-sum, both modes: every backward stop's caption is
# its own, the end marks dB's wrong cells '!' (overlay and panels), the
# table shows the chunks the buggy code moved; c's figures are the
# panels', read off the screen for every rank.
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
NAME=trainui
. "$(dirname "$0")/../lib/tmux.sh"

# nkeys N: n pressed N times
nkeys() { local i; for ((i = 0; i < $1; i++)); do keys n; done; }

quit_clean() {
	keys q
	wait_for 'EXIT:0 TTY:RESTORED' && pass
}

test_name="fsdp reduce-scatter"
start 120x40 --train -d 4
wait_for 'Ready, a training step' && pass
# FSDP on 4: 7 forward phases, 7 backward, the partial: the 16th stop is
# the reduce-scatter's first step
nkeys 16
wait_for 'step s=0 \(1 of 3\)  reduce-scatter' && pass
wait_for 'Rank 1: sends \(1-0-1\) mod 4 = 0, adds into \(1-0-2\) mod 4 = 3' && pass
# each rank's line names the chunk that came and whose parts it holds now
wait_for 'dB\[3\] = p0\+p1, 2 of 4; sent dB\[0\] = p1' && pass
# the memory line against DP's training model through its own
# reduce-scatter step 0 (rank 1: A_r 96 + C_r 64 + dC_r 64 + B 192 + dA_r
# 96 + the partial 192 + a chunk out 48 and one in 48), not its forward
wait_for '656 B vs DP 800 B by its reduce-scatter s=0' && pass
keys n
wait_for 'dB\[2\] = p0\+p1\+p3, 3 of 4; sent dB\[3\] = p0\+p1' && pass
keys n
wait_for 'last step: each rank receives its own chunk r' && pass
wait_for 'kept dB\[1\] = p0\.\.p3, 4 of 4 parts' && pass
# FSDP's table: the forward's and the backward's shards, the
# reduce-scatter's chunks (an overlay at 120x40, where the panels show
# the backward's blocks of dB whole; t closes it)
keys t
wait_for 'r1 +B1 +B0 +B3 +B2 +B1 +B0 +B3 +B2 +dB1 +0>3 +3>2 +2>1 +-> r0' && pass
keys t
wait_gone 'sends>adds into' && pass
keys End
wait_for 'verify: allclose ok for C = A @ B, dA = dC @ B\^T' && pass
quit_clean

test_name="dp all-reduce at 80x24"
start 80x24 --train -d 4 -m dp
wait_for 'Ready, a training step' && pass
# DP on 4: compute, backward, partial, 3 reduce-scatter steps: the 7th
# stop is the all-gather's first step
nkeys 7
wait_for 'all-gather step s=0 \(1 of 3\)' && pass
wait_for 'dB[0-9] -> [0-9], =dB[0-9]' && pass
nkeys 2
wait_for 'all of dB = p0\.\.p3' && pass
screen | grep -q 'too small' && bad "80x24 is too small for the training step"
# t: the schedule table with the backward's columns (an overlay at 80x24):
# rank 1 sends chunk (1-s-1) mod 4 and adds into (1-s-2) mod 4 at
# reduce-scatter step s, sends (1-s) mod 4 and stores (1-s-1) mod 4 at
# the all-gather's
keys t
wait_for 'rank +fwd +bwd +dB_r +rs0 +rs1 +rs2 +ag0 +ag1 +ag2 +gather' && pass
wait_for 'r1 +B +B +dB1 +0>3 +3>2 +2>1 +1>0 +0>3 +3>2 +-> r0' && pass
wait_for 'rs: sends>adds into, ag: sends>stores' && pass
keys t
wait_gone 'rs: sends>adds into' && pass
quit_clean

test_name="a backward bug"
start 120x40 --train -d 4 --bug no-sum
wait_for 'Spot the bug' && pass
keys End
wait_for 'verify: MISMATCH in dB' && pass
quit_clean

test_name="the switch key"
start 120x40 -d 3
wait_for 'Ready: rank r holds rows of A' && pass
keys d
wait_for 'd: the training step: forward, then backward' && pass
wait_for 'Ready, a training step' && pass
keys End
wait_for 'verify: allclose ok for C = A @ B, dA' && pass
keys d
wait_for 'd: the forward alone' && pass
keys End
wait_for 'verify: allclose ok, max \|err\|' && pass
quit_clean

test_name="the training lesson"
start 120x40 --lesson "$(dirname "$BIN")/assets/lessons/training.lesson"
wait_for 'A training step starts with the forward you know' && pass
nkeys 16
wait_for 'The reduce-scatter, step s=0' && pass
quit_clean

test_name="--start-at a backward stop"
start 120x40 --train -d 4 --start-at rs1
wait_for 'step s=1 \(2 of 3\)  reduce-scatter' && pass
keys s
wait_for 'share: ./distmm-tui --train -d 4 .*--start-at rs1' && pass
keys b
wait_for 'step s=0 \(1 of 3\)  reduce-scatter' && pass
keys s
wait_for 'share: ./distmm-tui --train -d 4 .*--start-at rs0' && pass
quit_clean
start 120x40 --train -d 3 -m dp --start-at ag1
wait_for 'all-gather step s=1 \(2 of 2\)' && pass
quit_clean
start 120x40 --train -d 3 --start-at b1t
wait_for 'backward transfer after t=1' && pass
quit_clean

test_name="--replay of a training step's trace"
TR=$(mktemp /tmp/distmm-trainui-trace.XXXXXX)
"$BIN" -b -q --train -d 4 -M 9 -N 5 --trace "$TR" >/dev/null || bad "-b --train --trace failed"
start 120x40 --replay "$TR" -M 9 -N 5
wait_for 'FSDP replay' && pass
wait_for 'Ready, a training step' && pass
# 7 forward phases, 7 backward, the partial, then the reduce-scatter's
nkeys 16
wait_for 'step s=0 \(1 of 3\)  reduce-scatter' && pass
wait_for 'Rank 1: sends \(1-0-1\) mod 4 = 0, adds into \(1-0-2\) mod 4 = 3' && pass
keys s
wait_for 'share: ./distmm-tui --replay .* --start-at rs0' && pass
keys End
wait_for 'verify: allclose ok for C = A @ B, dA = dC @ B\^T' && pass
quit_clean
# DP's, opened where the share line says
"$BIN" -b -q --train -m dp -d 3 --trace "$TR" >/dev/null || bad "-b --train -m dp --trace failed"
start 80x24 --replay "$TR" --start-at ag1
wait_for 'DP replay' && pass
wait_for 's=1 2/2 all-gather' && pass
quit_clean
rm -f "$TR"

# values_under LABEL: a panel line matching LABEL (grep -E) has a row of
# values under it (the screen as it is now: call after a wait_for).
values_under() {
	screen | grep -A1 -E -- "$1" | grep -Eq '│ *!?-?[0-9]+(\.[0-9]+)?( +!?-?[0-9]+(\.[0-9]+)?)* +│' ||
		{ bad "no values under /$1/"; screen | sed 's/^/    | /'; return 1; }
}

# The backward's stops, in order from b0, as the header says each and the
# label of the block of dA, dC or dB its panels show first (FSDP on 4).
FSDP_STOPS=(
	'step t=0 \(1 of 4\)  backward  |dA\[[0-9]:[0-9], :\], 1 of 4 shards'
	'step t=0 \(1 of 4\)  backward transfer|dA\[[0-9]:[0-9], :\], 1 of 4 shards'
	'step t=1 \(2 of 4\)  backward  |dA\[[0-9]:[0-9], :\], 2 of 4 shards'
	'step t=1 \(2 of 4\)  backward transfer|dA\[[0-9]:[0-9], :\], 2 of 4 shards'
	'step t=2 \(3 of 4\)  backward  |dA\[[0-9]:[0-9], :\], 3 of 4 shards'
	'step t=2 \(3 of 4\)  backward transfer|dA\[[0-9]:[0-9], :\], 3 of 4 shards'
	'step t=3 \(4 of 4\)  backward  |dA\[[0-9]:[0-9], :\], 4 of 4 shards'
	'partial dB  |partial dB_[0-9] = p[0-9]'
	'step s=0 \(1 of 3\)  reduce-scatter|dB\[:, [0-9]:[0-9]\] = p[0-9]'
	'step s=1 \(2 of 3\)  reduce-scatter|dB\[:, [0-9]:[0-9]\] = p[0-9]'
	'step s=2 \(3 of 3\)  reduce-scatter|dB\[:, [0-9]:[0-9]\] = p[0-9]'
	' gather  |dB on rank 0, gathered'
)
DP_STOPS=(
	'backward  |dA\[[0-9]:[0-9], :\] = dC'
	'partial dB  |partial dB_[0-9] = p[0-9]'
	'step s=0 \(1 of 3\)  reduce-scatter|dB\[:, [0-9]:[0-9]\] = p[0-9]'
	'step s=1 \(2 of 3\)  reduce-scatter|dB\[:, [0-9]:[0-9]\] = p[0-9]'
	'step s=2 \(3 of 3\)  reduce-scatter|dB\[:, [0-9]:[0-9]\] = p[0-9]'
	'step s=0 \(1 of 3\)  all-gather|dB\[:, [0-9]:[0-9]\] = p0\.\.p3 from rank [0-9], stored'
	'step s=1 \(2 of 3\)  all-gather|dB\[:, [0-9]:[0-9]\] = p0\.\.p3 from rank [0-9], stored'
	'step s=2 \(3 of 3\)  all-gather|dB\[:, [0-9]:[0-9]\] = p0\.\.p3 from rank [0-9], stored'
	' gather  |dB on rank 0, all-reduced'
)

# walk SIZE MODE STOPS...: every backward stop from b0 shows values of dA,
# dC or dB, and v's first view (that block alone) too; then the end, its
# overlay verified, and the panels' dB under it.
walk() {
	local size=$1 mode=$2 stop head label
	shift 2
	start "$size" --train -d 4 -m "$mode" --start-at b0
	for stop in "$@"; do
		head=${stop%%|*} label=${stop#*|}
		wait_for "$head" && wait_for "$label" && values_under "$label" && pass
		keys v
		wait_for "$label" && values_under "$label" && pass
		keys v v v # all again
		keys n
	done
	wait_for 'dB = A\^T @ dC on rank 0: verified' && pass
	keys Escape
	wait_gone 'dB = A\^T @ dC on rank 0: verified' && values_under 'dB on rank 0[^│]*: allclose ok' && pass
	quit_clean
}

test_name="the backward's values, FSDP"
walk 120x40 fsdp "${FSDP_STOPS[@]}"
walk 200x60 fsdp "${FSDP_STOPS[@]}"
test_name="the backward's values, DP"
walk 120x40 dp "${DP_STOPS[@]}"
walk 200x60 dp "${DP_STOPS[@]}"

test_name="v cycles the backward's blocks"
start 120x40 --train -d 4 --start-at b1
# the formula's shape: dC's rows of this rank, the shard's columns
wait_for '\(1-1\) mod 4 = 0 -> dA\[2:4\] \+= dC\[2:4, 0:1\] @ B0\^T' && pass
keys v v
wait_for 'dC\[2:4, :\], its columns 0:1 with B\[0\]' && values_under 'dC\[2:4, :\], its columns' && pass
keys v
wait_for 'B\[:, 0:1\] = shard B\[0\]' && values_under 'B\[:, 0:1\] = shard B\[0\]' && pass
keys v
keys g # nothing: a step to type, then Escape
keys Escape
quit_clean
start 120x40 --train -d 4 --start-at rs1
wait_for 'step s=1 \(2 of 3\)  reduce-scatter' && pass
keys v v
wait_for 'sent dB\[:, 3:4\] = p0\+p1 -> rank 2' && values_under 'sent dB\[:, 3:4\] = p0\+p1' && pass
keys v
wait_for 'dB_1 in place: chunks 0=p1 1=p1 2=p0\+p1\+p3 3=p0\+p1' &&
	values_under 'dB_1 in place' && pass
quit_clean

# caption_has PATTERN: the info area's words, their lines joined, match
# (a caption wraps where the width says).
caption_has() {
	local i=0
	while [ "$i" -lt 300 ]; do
		screen | sed 's/ *$//' | tr '\n' ' ' | tr -s ' ' | grep -Eq -- "$1" && return 0
		sleep 0.05; i=$((i + 1))
	done
	bad "the captions never said /$1/"; screen | sed 's/^/    | /'; return 1
}

test_name="the memory line and the first backward step's bytes"
start 120x40 --train -d 4 --start-at b0
# rank 1 let its gathered shard go as the forward ended, then dA came: the
# caption's bytes are the memory line's
caption_has "rank 1's held bytes dropped from 320 B to 272 B" && pass
caption_has 'rows of dA arrive now \(\+96 B: 368 B held' && pass
wait_for '368 B vs DP [0-9]+ B by its dA' && pass
keys End
wait_for ' verify  ' && pass
quit_clean

test_name="nothing cut at 120x40"
start 120x40 --train -d 4 --start-at partial
wait_for '│partial dB_0 = p0: 1 of 4 parts in every chunk *│' && pass
wait_for '│partial dB_0 = p0, 6x4 \(its largest buffer\) *│' && pass
keys n
wait_for '│dB\[3\] = p0\+p1, 2 of 4; sent dB\[0\] = p1 *│' && pass
wait_for '│send \(1-0-1\) mod 4 = 0, add into \(1-0-2\) mod 4 = 3 *│' && pass
wait_for '│dB\[:, 3:4\] = p0 from rank 0 \+ its p1 = p0\+p1 *│' && pass
quit_clean

# bug_walk BUG MODE STOPS...: every backward stop's caption is its own (the
# stop's words, not the verification's), and the end marks dB's cells
bug_walk() {
	local bug=$1 mode=$2 stop
	shift 2
	start 120x40 --train -d 4 -m "$mode" --bug "$bug" --start-at b0
	for stop in "$@"; do
		wait_for "$stop" && pass
		screen | grep -q 'verify: C on rank 0' && bad "$bug: the verification's caption at /$stop/"
		keys n
	done
	wait_for 'Found it\? The run has a bug in the backward' && pass
	wait_for 'the verification on rank 0: MISMATCH' && pass
	wait_for 'dB = A\^T @ dC on rank 0: MISMATCH, [0-9]+ of 24 differ' && pass
	wait_for '! +-?[0-9]+' && pass
	wait_for 'dA = dC @ B\^T on rank 0: verified' && pass
	wait_for 'verify: MISMATCH in dB: [0-9]+ of 24 elements of dB differ from A\^T @ dC \(marked !\)' && pass
	keys Escape
	wait_gone 'the verification on rank 0' && pass
	wait_for 'dB[^│]*: [0-9]+ of [0-9]+ differ' && values_under 'dB[^│]*: [0-9]+ of [0-9]+ differ' && pass
	quit_clean
}
FSDP_CAPTIONS=(
	'backward step t=0: rank r holds only its own B\[r\]'
	'backward transfer after t=0: the second all-gather'
	'backward step t=1 \(2 of 4\)' 'backward transfer after t=1' 'backward step t=2 \(3 of 4\)'
	'backward transfer after t=2' 'backward step t=3 \(4 of 4\)' 'partial dB: each rank r computes'
	'reduce-scatter step s=0 \(1 of 3\)' 'reduce-scatter step s=1 \(2 of 3\)'
	'reduce-scatter step s=2 \(3 of 3\)' 'gather: ranks send their rows of C and dA and their summed chunk'
)
DP_CAPTIONS=(
	'backward: each rank computes its rows of dA' 'partial dB: each rank r computes'
	"DP's all-reduce, first half: reduce-scatter step s=0" "all-reduce, first half: reduce-scatter step s=1"
	"all-reduce, first half: reduce-scatter step s=2" "second half: all-gather step s=0"
	"second half: all-gather step s=1" "second half: all-gather step s=2" 'gather: ranks send their rows of C and dA to rank 0'
)
test_name="rs-off-by-one shown where it is"
bug_walk rs-off-by-one fsdp "${FSDP_CAPTIONS[@]}"
bug_walk rs-off-by-one dp "${DP_CAPTIONS[@]}"
test_name="no-sum shown where it is"
bug_walk no-sum fsdp "${FSDP_CAPTIONS[@]}"
bug_walk no-sum dp "${DP_CAPTIONS[@]}"

test_name="the buggy runs' table and panels"
start 120x40 --train -d 4 --bug rs-off-by-one --start-at rs0
# rank 1's code sends (1-0) mod 4 = 1, its left neighbour's (0-0) = 0
wait_for 'send \(1-0\) mod 4 = 1, add into \(1-0-1\) mod 4 = 0' && pass
keys t
wait_for 'training step, as the run did it \(bug rs-off-by-one\)' && pass
wait_for 'r1 +B1 +B0 +B3 +B2 +B1 +B0 +B3 +B2 +dB1 +1>0 +0>3 +3>2 +-> r0' && pass
keys t
wait_gone 'as the run did it' && pass
keys End
wait_for ' verify  ' && pass
keys b b
# the last step: the whole sum came to rank 1 as chunk 0, which it lets go;
# it keeps its own part of chunk 1 alone
wait_for 'step s=2 \(3 of 3\)  reduce-scatter' && pass
wait_for 'dB\[2\] = p0\.\.p3, let go' && wait_for 'kept dB\[1\] = p1, 1 of 4 parts' && pass
quit_clean
start 120x40 --train -d 4 --bug no-sum --start-at rs1
wait_for 'send \(1-1-1\) mod 4 = 3, store over \(1-1-2\) mod 4 = 2' && pass
wait_for 'dB\[:, 2:3\] = p3 from rank 0, stored over its p1' && pass
keys t
wait_for 'r1 +B1 +B0 +B3 +B2 +B1 +B0 +B3 +B2 +dB1 +0>=3 +3>=2 +2>=1 +-> r0' && pass
wait_for 'rs: sends>=stores over \(no-sum\)' && pass
keys t
wait_gone 'rs: sends>=stores over' && pass
quit_clean

test_name="c agrees with the panels"
# panel_figures R: rank R's panel's peak and sent, off the screen
panel_figures() {
	screen | python3 -c '
import re, sys
rows = sys.stdin.read().split("\n")
r = sys.argv[1]
for y, line in enumerate(rows):
    x = line.find("┌ rank %s " % r)
    if x < 0:
        continue
    w = line.index("┐", x) - x
    inner = [l[x + 1:x + w] for l in rows[y + 1:] if len(l) > x + w]
    unit = r"([0-9.]+ (?:B|KiB|MiB))"
    mem = next(l for l in inner if l.startswith("peak "))
    sent = next(l for l in inner if re.match("sent " + unit + "  recv", l))
    print(re.search(unit, mem).group(1), re.match("sent " + unit, sent).group(1), sep="|")
    break
' "$1"
}
for mode in fsdp dp; do
	start 200x60 --train -d 4 -m $mode
	keys End
	wait_for ' verify  ' && keys Escape
	wait_gone 'the verification on rank 0' && pass
	for r in 0 1 2 3; do
		got=$(panel_figures $r)
		[ -n "$got" ] || { bad "$mode: no figures on rank $r's panel"; continue; }
		keys c
		wait_for 'memory and traffic: the training step' || continue
		peak=${got%|*} sent=${got#*|}
		screen | grep -Eq "rank $r +$peak +$sent " && pass ||
			{ bad "$mode rank $r: the panel says $peak, $sent; c says"; screen | grep "rank $r "; }
		keys Escape
		wait_gone 'memory and traffic: the training step' && pass
	done
	quit_clean
done

# refused before the terminal is touched: one line, exit 2
test_name="--start-at refusals"
refuse() {
	local want=$1 out st
	shift
	out=$("$BIN" "$@" 2>&1 </dev/null); st=$?
	[ "$st" = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && printf '%s' "$out" | grep -q -- "$want" &&
		pass || bad "$*: exit $st, '$out'"
}
refuse 'rs1: a backward stop, and the run is not a training step' -d 4 --start-at rs1
refuse "rs3: the reduce-scatter's steps are s=0 to s=2" --train -d 4 --start-at rs3
refuse "b4: the backward's steps are t=0 to t=3" --train -d 4 --start-at b4
refuse 'ag0: FSDP has no all-gather of dB' --train -d 4 --start-at ag0
refuse "b0t: DP's backward has no ring transfer" --train -d 4 -m dp --start-at b0t
refuse 'rs0: one device has no ring over dB' --train -d 1 --start-at rs0
refuse "not 'rsx'" --train -d 4 --start-at rsx

echo "train_ui_test: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
