#!/usr/bin/env bash
# tp_ui_test: tensor parallel in the interface (-m tp-col, -m tp-row
# without -b: app/tui/modes/tp.c), driven in a private tmux (see tmux.sh):
# tp-col steps through the distribute of A, the compute of whole columns and
# the gather to rank 0, and verifies; tp-row's partials are summed by the
# ring chunk by chunk (each step's caption with rank 1's rows, each panel
# the chunk that came and how many parts it holds now), the all-reduce's
# all-gather, or the reduce-scatter's gather; b rebuilds a stop seen before
# as it was; the table is a column a phase; tp-mlp's activation comes with
# no message, its Z all-reduced; m cycles FSDP, DP, tp-col,
# tp-row, tp-mlp; c shows the four modes' table; d refuses by name; s names the
# mode.  At 80x24 and 200x60, on 1, 3 and 4 devices.  k presses of n are k
# stops however fast they come (view_next), so keys go in at once; every
# wait is "until the screen shows X" (tmux.sh), never a time.
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
NAME=tpui
. "$(dirname "$0")/../lib/tmux.sh"

nkeys() { local i; for ((i = 0; i < $1; i++)); do keys n; done; }

quit_clean() {
	keys q
	wait_for 'EXIT:0 TTY:RESTORED' && pass
}

test_name="tp-col at 200x60, 4 devices"
start 200x60 -m tp-col -d 4
wait_for 'tp-col \(column-parallel\): rank r holds B.s column shard r, which never moves' && pass
wait_for 'rank 1  B cols 1:2' && pass
wait_for 'A: not here yet \(rank 0 sends it\)' && pass
wait_for 'tp-col: B stays, A moves' && pass
wait_for 'r1 +<-r0 +A@B1 +->r0' && pass
keys n
wait_for 'distribute A: rank 0 sends all of A \(8x6, 384 B\) to ranks 1\.\.3' && pass
wait_for 'r1: A <- rank 0, all of it' && pass
keys n
wait_for 'compute: each rank multiplies all of A by its own columns of B' && pass
wait_for 'A @ B\[:, 1:2\] -> C\[:, 1:2\]' && pass
keys n
wait_for 'gather: ranks 1\.\.3 send their columns of C to rank 0' && pass
keys n
wait_for 'verify: allclose ok' && pass
wait_for 'C, all columns, placed: allclose ok' && pass
# b: the gather again, rebuilt from the log
keys Escape b
wait_for 'gather: ranks 1\.\.3 send their columns of C to rank 0' && pass
wait_for 'sent C\[:, 3:4\] -> rank 0' && pass
quit_clean

test_name="tp-row at 200x60, 4 devices: the all-reduce chunk by chunk"
start 200x60 -m tp-row -d 4
wait_for 'tp-row \(row-parallel\): A is split by columns and B by rows' && pass
wait_for 'rank 1  k 2:4 of A, B' && pass
keys n
wait_for 'p1 = A\[:, k1\] @ B\[k1, :\], 8x4: C.s shape' && pass
keys n
wait_for 'step s=0 \(1 of 3\)  reduce-scatter' && pass
wait_for 'Rank 1: sends C\[0:2\],' && pass
wait_for 'C\[6:8\] \+= rank 0.s: 2 of 4 parts' && pass
wait_for 'sent C\[0:2\] -> rank 2 \(chunk 0\)' && pass
wait_for 'r1 +p1 +c0>\+c3 +c3>\+c2 +c2>\+c1 +c1>=c0 +c0>=c3 +c3>=c2' && pass
nkeys 2
wait_for 'The last step: rank r.s own chunk r now holds every rank.s part' && pass
wait_for 'C\[2:4\] \+= rank 0.s: 4 of 4 parts' && pass
keys n
wait_for 'all-gather step s=0 \(1 of 3\)' && pass
wait_for 'C\[0:2\] = rank 0.s: 4 of 4 parts' && pass
# b b: the reduce-scatter's second step again, as it was
keys b b
wait_for 'step s=1 \(2 of 3\)  reduce-scatter' && pass
wait_for 'C\[4:6\] \+= rank 0.s: 3 of 4 parts' && pass
keys End
wait_for 'verify: allclose ok' && pass
wait_for 'After the all-reduce every rank holds C' && pass
wait_for 'C on rank 3, all-reduced: allclose ok' && pass
quit_clean

test_name="tp-row --reduce-scatter at 80x24, 3 devices"
start 80x24 -m tp-row --reduce-scatter -d 3
wait_for 'tp-row \(row-parallel\)' && pass
screen | grep -q 'too small' && bad "80x24 is too small for tp-row"
nkeys 2
wait_for 's=0 1/2 reduce-scatter' && pass
# the compact panels never call a rank's k-slice "A rows"
screen | grep -Eq '│A [0-9]+:[0-9]+ ' && bad "a compact tp-row panel names rows of A" || pass
nkeys 2
wait_for 'gather: the reduce-scatter left rank r with its rows of C alone' && pass
wait_for 'r2 +p2 +c1>\+c0 +c0>\+c2 +->r0' && pass
keys End
wait_for 'verify: allclose ok' && pass
keys s
wait_for 'share: \./distmm-tui -m tp-row --reduce-scatter -d 3 ' && pass
quit_clean

test_name="one device at 80x24"
start 80x24 -m tp-row -d 1
wait_for 'tp-row \(row-parallel\)' && pass
keys n
wait_for 'One device: its partial is C' && pass
keys End
wait_for 'verify: allclose ok' && pass
quit_clean
start 80x24 -m tp-col -d 1
wait_for 'tp-col \(column-parallel\)' && pass
keys n
wait_for 'distribute A: one device already holds A: nothing moves' && pass
keys End
wait_for 'verify: allclose ok' && pass
quit_clean

test_name="--replay of a tp-row trace: forward and back, every stop from the log"
TRACE_DIR=$(mktemp -d /tmp/distmm-tpui.XXXXXX)
"$BIN" -b -q -m tp-row -d 4 --trace "$TRACE_DIR/tp.jsonl" >/dev/null
start 200x60 --replay "$TRACE_DIR/tp.jsonl"
wait_for 'distmm-tui  tp-row replay' && pass
wait_for 'tp-row \(row-parallel\): A is split by columns and B by rows' && pass
nkeys 3
wait_for 'step s=1 \(2 of 3\)  reduce-scatter' && pass
wait_for 'C\[4:6\] \+= rank 0.s: 3 of 4 parts' && pass
keys b b
wait_for 'p1 = A\[:, k1\] @ B\[k1, :\], 8x4: C.s shape' && pass
keys n
wait_for 'step s=0 \(1 of 3\)  reduce-scatter' && pass
wait_for 'C\[6:8\] \+= rank 0.s: 2 of 4 parts' && pass
keys End
wait_for 'verify: allclose ok' && pass
keys m
wait_for 'the mode is the trace.s' && pass
quit_clean
rm -rf "$TRACE_DIR"

test_name="tp-mlp at 80x24 and 200x60, 1, 3 and 4 devices: no message before act"
start 80x24 -m tp-mlp -d 3
wait_for 'tp-mlp \(Megatron.s MLP\)' && pass
nkeys 3
wait_for 'activation: H = relu\(H\) in place, no message' && pass
keys n
wait_for 'second layer, row-parallel' && pass
keys End
wait_for 'verify: allclose ok' && pass
quit_clean
start 200x60 -m tp-mlp -d 4 --act gelu
nkeys 5
wait_for 'reduce-scatter step 0 of Z.s row chunks: the MLP.s one collective, 576 B a' && pass
wait_for 'r1: Z c0 -> 2, \+c3' && pass
keys End
wait_for 'verify: allclose ok, max \|err\| = [0-9.e-]+   Z = gelu\(A @ B\) @ E \(8x6\) is on every rank' && pass
quit_clean
start 80x24 -m tp-mlp -d 1
nkeys 4
wait_for 'One device: its partial is Z' && pass
quit_clean

test_name="m cycles the modes, c, d"
start 120x40 -d 3
wait_for 'Ready: rank r holds rows of A' && pass
keys m
wait_for 'DP: every rank holds its rows of A' && pass
keys m
wait_for 'tp-col \(column-parallel\)' && pass
wait_for 'distmm-tui  tp-col' && pass
keys c
wait_for 'memory and traffic: DP, FSDP, tp-col, tp-row on this job' && pass
wait_for 'tp-row.s all-reduce sends 2\(n-1\)/n x 8MN a rank' && pass
keys Escape
wait_gone 'memory and traffic: DP, FSDP' && pass
keys d
wait_for "d: tensor parallel.s training step runs in batch mode" && pass
keys m
wait_for 'tp-row \(row-parallel\)' && pass
keys m
wait_for 'tp-mlp \(Megatron.s MLP\): Z = relu\(A @ B\) @ E' && pass
keys m
wait_for 'Ready: rank r holds rows of A' && pass
wait_for 'distmm-tui  FSDP' && pass
quit_clean

echo "tp_ui_test: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
