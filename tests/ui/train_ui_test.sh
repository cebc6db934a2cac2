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
wait_for 'dB [0-9]{4} dB\[:, [0-9]:[0-9]\] 2/4 summed' && pass
# the memory line against DP's training model through its own
# reduce-scatter step 0 (rank 1: A_r 96 + C_r 64 + dC_r 64 + B 192 + dA_r
# 96 + the partial 192 + a chunk out 48 and one in 48), not its forward
wait_for '656 B vs DP 800 B by rs s=0' && pass
keys n
wait_for 'dB [0-9]{4} dB\[:, [0-9]:[0-9]\] 3/4 summed' && pass
keys n
wait_for 'last step: each rank receives its own chunk r' && pass
wait_for 'dB \.4\.\. kept dB\[:, 1:2\] 4/4 summed' && pass
# FSDP's table, a panel at 120x40: the forward's and the backward's
# shards, the reduce-scatter's chunks; t hides it
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
wait_for 'dB[0-9] -> [0-9], =[0-9]' && pass
nkeys 2
wait_for 'dB 4444 all of dB' && pass
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
