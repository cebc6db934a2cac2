# batch_tp: tensor parallel in batch mode (-m tp-col, -m tp-row
# [--reduce-scatter], docs/tensor-parallel.md), sourced by batch_test.sh,
# whose helpers (expect, expect_msg, ok, bad) and $BIN, $T and $PY it uses.
# numpy's product on random shapes, n = 1..16, uneven and empty splits,
# ints and floats; each rank's bytes equal to the closed forms, written out
# again here in Python; the four modes' table; the refusals.

# --- numpy, and the closed forms, on shapes this script did not pick --------
seed=${DISTMM_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "batch_tp: random shapes from seed $seed (DISTMM_TEST_SEED=$seed repeats them)"
for i in $(seq 1 18); do
	read -r M K N D MODE RS VALUES < <($PY -c "
import random; r = random.Random($seed * 100 + $i)
print(r.randint(1, 40), r.randint(1, 20), r.randint(1, 40), r.randint(1, 16),
      r.choice(['tp-col', 'tp-row', 'tp-row']), r.choice(['all-reduce', '--reduce-scatter']),
      r.choice(['ints', 'floats']))")
	{ [ "$MODE" = tp-col ] || [ "$RS" = all-reduce ]; } && RS=""
	$PY - "$T" "$M" "$K" "$N" "$VALUES" "$seed$i" <<'PY'
import numpy as np, sys
t, M, K, N, values, seed = sys.argv[1], *map(int, sys.argv[2:5]), sys.argv[5], int(sys.argv[6])
rng = np.random.default_rng(seed)
if values == "ints":
    a, b = rng.integers(-9, 9, (M, K)), rng.integers(-9, 9, (K, N))
else:
    a, b = rng.standard_normal((M, K)), rng.standard_normal((K, N))
np.save(f"{t}/ta.npy", a.astype(np.float64)); np.save(f"{t}/tb.npy", b.astype(np.float64))
PY
	# shellcheck disable=SC2086
	if ! "$BIN" -b -d "$D" -m "$MODE" $RS -A "$T/ta.npy" -B "$T/tb.npy" -o "$T/tc.npy" >"$T/out" 2>"$T/err"; then
		bad "tp $M x $K x $N, d=$D $MODE $RS: $(cat "$T/err")"; continue
	fi
	if $PY - "$T" "$M" "$K" "$N" "$D" "$MODE" "$RS" <<'PY'
import numpy as np, re, sys
t, M, K, N, n, mode, rs = sys.argv[1], *map(int, sys.argv[2:6]), sys.argv[6], sys.argv[7] if len(sys.argv) > 7 else ""
a, b, c = np.load(f"{t}/ta.npy"), np.load(f"{t}/tb.npy"), np.load(f"{t}/tc.npy")
assert c.shape == (M, N) and np.allclose(c, a @ b), abs(c - a @ b).max()
def size(L, k): return L // n + (1 if k < L % n else 0)   # numpy.array_split
C = 8 * M * N
R = [8 * N * size(M, k) for k in range(n)]
rows = {}
for line in open(f"{t}/out"):
    m = re.match(r"  rank (\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)$", line)
    if m:
        rows[int(m[1])] = list(map(int, m.groups()[1:]))
assert sorted(rows) == list(range(n)), rows
for r in range(n):
    peak, mpeak, sent, msent, recv, mrecv = rows[r]
    assert (peak, sent, recv) == (mpeak, msent, mrecv), (r, rows[r])
    if mode == "tp-col":
        want = (n - 1) * 8 * M * K if r == 0 else 8 * M * size(N, r)
    elif rs:
        want = (C - R[r] if n > 1 else 0) + (R[r] if r > 0 else 0)
    else:
        want = 2 * C - R[r] - R[(r + 1) % n] if n > 1 else 0
    assert sent == want, (r, sent, want)
    if mode == "tp-row" and not rs and M % n == 0:
        assert sent == 2 * (n - 1) * C // n
PY
	then ok; else bad "tp: numpy or the closed forms disagree: $M x $K x $N, d=$D $MODE $RS $VALUES"; fi
done

# --- the report ----------------------------------------------------------------
expect 0 "tp-row" -- -b -m tp-row -d 4 -M 8 -K 6 -N 4
grep -q "^  tp-row's all-reduce: 2(n-1)/n x 8MN = 2x3/4 x 256 = 384 B a rank$" "$T/out" && ok ||
	bad "tp-row's closed form line: $(grep "all-reduce" "$T/out")"
grep -q '^DP, FSDP, tp-col and tp-row on this job' "$T/out" && ok || bad "no table of the four modes"
[ "$(grep -c '^reduce-scatter \|^all-gather ' "$T/out")" = 24 ] && ok || bad "want 24 ring sends"
grep -q '^verify: allclose ok, max |err| = 0$' "$T/out" && ok || bad "tp-row verify: $(tail -1 "$T/out")"
expect 0 "tp-col" -- -b -m tp-col -d 3 -M 5 -K 4 -N 7
grep -q '^distribute  rank 0 -> rank 2  all of A  160 B$' "$T/out" && ok || bad "tp-col distribute line"
grep -q '^compute  rank 1  A @ B\[:, 3:5\] (its shard, which stays)  -> C\[:, 3:5\]$' "$T/out" && ok ||
	bad "tp-col compute line"
expect 0 "tp-row reduce-scatter, more devices than rows" -- -b -q -m tp-row --reduce-scatter -d 9 -M 4 -K 2 -N 3
expect 0 "tp-col, more devices than columns" -- -b -q -m tp-col -d 9 -M 4 -K 2 -N 3
expect 0 "tp-row on one device" -- -b -q -m tp-row -d 1
expect 0 "tp, freivalds" -- -b -q -m tp-row -d 3 --verify freivalds --values floats

# --- the training step (--train): dA and dB by numpy, the bytes by the closed
# forms written again (tp-col's all-reduce of dA 2(n-1)/n x 8MK a rank when
# n divides M, tp-row's backward no ring at all), uneven and empty splits
for case in "tp-col 3 8 5 7" "tp-col 4 6 3 9" "tp-row 3 7 5 4" "tp-row 5 3 2 6" "tp-col 1 4 4 4"; do
	read -r MODE D M K N <<<"$case"
	$PY - "$T" "$M" "$K" "$N" <<'PY'
import numpy as np, sys
t, M, K, N = sys.argv[1], *map(int, sys.argv[2:5])
rng = np.random.default_rng(M * 100 + K * 10 + N)
for name, shape in (("ta", (M, K)), ("tb", (K, N)), ("tdc", (M, N))):
    np.save(f"{t}/{name}.npy", rng.standard_normal(shape))
PY
	if ! "$BIN" -b -d "$D" -m "$MODE" --train -A "$T/ta.npy" -B "$T/tb.npy" --dC "$T/tdc.npy" -o "$T/tc.npy" \
		--dA-out "$T/tda.npy" --dB-out "$T/tdb.npy" >"$T/out" 2>"$T/err"; then
		bad "tp --train $case: exit $?: $(head -3 "$T/err")"; continue
	fi
	if $PY - "$T" "$MODE" "$D" "$M" "$K" <<'PY'
import numpy as np, re, sys
t, mode, n, M, K = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
a, b, dc = (np.load(f"{t}/{x}.npy") for x in ("ta", "tb", "tdc"))
assert np.allclose(np.load(f"{t}/tc.npy"), a @ b)
assert np.allclose(np.load(f"{t}/tda.npy"), dc @ b.T)
assert np.allclose(np.load(f"{t}/tdb.npy"), a.T @ dc)
out = open(f"{t}/out").read()
assert "differ" not in out, "a rank differs from the model"
rows = re.findall(r"^  rank (\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)$", out, re.M)
assert len(rows) == n, rows
for r in rows:
    ring = int(r[7])
    if mode == "tp-row":
        assert ring == 0, r
    elif M % n == 0:
        assert ring == 2 * (n - 1) * 8 * M * K // n, r
if mode == "tp-col" and n > 1:
    assert "backward all-reduce of dA" in out and "all-reduce of dA round the ring" in out
if mode == "tp-row":
    assert "the backward needs no collective" in out
PY
	then ok; else bad "tp --train $case: numpy or the closed forms disagree"; fi
done

# --- the trace and the replay: -b --replay of a --trace gives the run's report
# (but its first line) and its C, dA and dB bit for bit; numpy checks them; the
# Chrome format is JSON; a trace missing a ring send is refused, naming the
# receive that has no sender; the interface refuses a training step's trace
for case in "tp-col 3" "tp-row 4 --reduce-scatter" "tp-row 1" "tp-col 3 --train" "tp-row 2 --train"; do
	read -r MODE D EXTRA <<<"$case"
	GRADS=() RGRADS=()
	[ "$EXTRA" = --train ] && GRADS=(--dA-out "$T/tda.npy" --dB-out "$T/tdb.npy") &&
		RGRADS=(--dA-out "$T/rda.npy" --dB-out "$T/rdb.npy")
	# shellcheck disable=SC2086
	if ! "$BIN" -b -d "$D" -m "$MODE" $EXTRA -M 7 -K 5 -N 6 --values floats --trace "$T/tp.jsonl" \
		-o "$T/tc.npy" "${GRADS[@]}" >"$T/run" 2>"$T/err" ||
		! "$BIN" -b --replay "$T/tp.jsonl" -M 7 -K 5 -N 6 --values floats -o "$T/rc.npy" \
		"${RGRADS[@]}" >"$T/out" 2>"$T/err"; then
		bad "tp trace $case: $(head -3 "$T/err")"; continue
	fi
	diff <(tail -n +2 "$T/run") <(tail -n +2 "$T/out") >/dev/null && ok || bad "tp replay $case: another report"
	if $PY - "$T" "$EXTRA" <<'PY'
import json, numpy as np, sys
t, extra = sys.argv[1], sys.argv[2]
head = json.loads(open(f"{t}/tp.jsonl").readline())
assert head["op"] == "run" and head["mode"] in ("tp-col", "tp-row"), head
assert head["reduce_scatter"] == (extra == "--reduce-scatter") and head["train"] == (extra == "--train")
assert np.load(f"{t}/tc.npy").tobytes() == np.load(f"{t}/rc.npy").tobytes()
if extra == "--train":
    for x in ("da", "db"):
        assert np.load(f"{t}/t{x}.npy").tobytes() == np.load(f"{t}/r{x}.npy").tobytes(), x
PY
	then ok; else bad "tp replay $case: not the run's C, dA, dB"; fi
done
"$BIN" -b -q -m tp-row -d 3 -o "$T/tc.npy" -A "$T/ta.npy" -B "$T/tb.npy" \
	--trace "$T/tp.jsonl" >/dev/null 2>&1 && "$BIN" -b -q --replay "$T/tp.jsonl" -A "$T/ta.npy" \
	-B "$T/tb.npy" -o "$T/rc.npy" >/dev/null 2>&1 && $PY - "$T" <<'PY' && ok || bad "tp replay: numpy disagrees"
import numpy as np, sys
t = sys.argv[1]
a, b = np.load(f"{t}/ta.npy"), np.load(f"{t}/tb.npy")
assert np.allclose(np.load(f"{t}/rc.npy"), a @ b)
PY
expect 0 "tp chrome trace" -- -b -q -m tp-row -d 3 --trace "$T/tp.json" --trace-format chrome
$PY -c "import json, sys; e = json.load(open(sys.argv[1]))['traceEvents']; assert any('chunk' in x['name'] for x in e)" \
	"$T/tp.json" && ok || bad "tp chrome trace: not JSON, or no ring chunk named"
"$BIN" -b -q -m tp-row -d 3 --trace "$T/tp.jsonl" >/dev/null 2>&1
grep -v '"op":"send","rank":1,"dst":2' "$T/tp.jsonl" | grep -v '"phase":1,"step":0,"op":"send","rank":1' >"$T/cut.jsonl"
expect_msg 2 "^distmm-tui: .*cut.jsonl: event [0-9]*: rank 2 receives chunk [0-9] from rank 1, which does not send it" \
	-- -b --replay "$T/cut.jsonl"
"$BIN" -b -q -m tp-col -d 2 --train --trace "$T/tpt.jsonl" >/dev/null 2>&1
expect_msg 2 "tensor-parallel training step's trace: it replays with -b alone" -- --replay "$T/tpt.jsonl"

# --- refusals ------------------------------------------------------------------
expect_msg 2 "^distmm-tui: --quiz has no effect with -m tp-col, tp-row or tp-mlp" -- -m tp-col --quiz
expect_msg 2 "^distmm-tui: --reduce-scatter has no effect without -m tp-row" -- -b --reduce-scatter
expect_msg 2 "^distmm-tui: --reduce-scatter has no effect with -m tp-col" -- -b -m tp-col --reduce-scatter
expect_msg 2 "^distmm-tui: --reduce-scatter has no effect with --train" -- -b -m tp-row --train --reduce-scatter
expect_msg 2 "^distmm-tui: --train has no effect with -m tp-col or tp-row in the interface" -- -m tp-row --train
expect_msg 2 "^distmm-tui: --train has no effect with -m tp-mlp (its training step is not written yet" -- -b -m tp-mlp --train
expect_msg 2 "^distmm-tui: --train has no effect with -m tp-mlp" -- -m tp-mlp --train
expect_msg 2 "^distmm-tui: --dC has no effect with -m tp-mlp" -- -b -m tp-mlp --dC "$T/x.npy"
expect_msg 2 "^distmm-tui: --trace has no effect with -m tp-mlp (the trace files and the replay know tp-col and tp-row" -- -b -m tp-mlp --trace "$T/x.jsonl"
expect_msg 2 "^distmm-tui: --naive has no effect with -m tp-col, tp-row or tp-mlp" -- -b -m tp-col --naive
expect_msg 2 "^distmm-tui: unknown mode 'tp' (use fsdp, dp, tp-col, tp-row or tp-mlp)" -- -b -m tp
