# batch_tp_mlp: -m tp-mlp in batch mode (Megatron's MLP, Z = act(A @ B) @ E,
# docs/tensor-parallel.md), sourced by batch_test.sh, whose helpers
# (expect, expect_msg, ok, bad) and $BIN, $T and $PY it uses.  numpy's
# act(A @ B) @ E (GELU the erf form, as the engine's) on random shapes,
# n = 1..16, uneven and empty splits, ints and floats; each rank's bytes,
# and the wrong order's, equal to the closed forms written out again here;
# the refusals.

seed=${DISTMM_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "batch_tp_mlp: random shapes from seed $seed (DISTMM_TEST_SEED=$seed repeats them)"
for i in $(seq 1 10); do
	read -r M K N P D ACT VALUES < <($PY -c "
import random; r = random.Random($seed * 100 + $i)
print(r.randint(1, 30), r.randint(1, 16), r.randint(1, 30), r.randint(1, 12), r.randint(1, 16),
      r.choice(['relu', 'gelu', 'none']), r.choice(['ints', 'floats']))")
	$PY - "$T" "$M" "$K" "$N" "$P" "$VALUES" "$seed$i" <<'PY'
import numpy as np, sys
t, M, K, N, P, values, seed = sys.argv[1], *map(int, sys.argv[2:6]), sys.argv[6], int(sys.argv[7])
rng = np.random.default_rng(seed)
if values == "ints":
    a, b, e = (rng.integers(-9, 9, s) for s in ((M, K), (K, N), (N, P)))
else:
    a, b, e = (rng.standard_normal(s) for s in ((M, K), (K, N), (N, P)))
for name, m in (("ta", a), ("tb", b), ("te", e)):
    np.save(f"{t}/{name}.npy", m.astype(np.float64))
PY
	if ! "$BIN" -b -d "$D" -m tp-mlp --act "$ACT" -A "$T/ta.npy" -B "$T/tb.npy" -E "$T/te.npy" \
		-o "$T/tz.npy" >"$T/out" 2>"$T/err"; then
		bad "tp-mlp $M x $K x $N x $P, d=$D $ACT: $(cat "$T/err")"; continue
	fi
	if $PY - "$T" "$M" "$K" "$N" "$P" "$D" "$ACT" <<'PY'
import math, numpy as np, re, sys
t, M, K, N, P, n, act = sys.argv[1], *map(int, sys.argv[2:7]), sys.argv[7]
a, b, e, z = (np.load(f"{t}/{x}.npy") for x in ("ta", "tb", "te", "tz"))
h = a @ b
h = {"relu": lambda x: np.maximum(x, 0), "none": lambda x: x,
     "gelu": lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))}[act](h)
assert z.shape == (M, P) and np.allclose(z, h @ e), abs(z - h @ e).max()
def size(L, k): return L // n + (1 if k < L % n else 0)   # numpy.array_split
def ring_ar(width, r):   # the ring all-reduce over row chunks of M, rows of width doubles
    R = [8 * width * size(M, k) for k in range(n)]
    return 2 * 8 * M * width - R[r] - R[(r + 1) % n] if n > 1 else 0
rows, orders = {}, {}
for line in open(f"{t}/out"):
    m = re.match(r"  rank (\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)$", line)
    if m:
        rows[int(m[1])] = list(map(int, m.groups()[1:]))
    m = re.match(r"  rank (\d+) +(\d+) +(\d+)$", line)
    if m:
        orders[int(m[1])] = (int(m[2]), int(m[3]))
assert sorted(rows) == list(range(n)) and sorted(orders) == list(range(n)), (rows, orders)
for r in range(n):
    peak, mpeak, sent, msent, recv, mrecv = rows[r]
    assert (peak, sent, recv) == (mpeak, msent, mrecv), (r, rows[r])
    want = ((n - 1) * 8 * M * K if r == 0 else 0) + ring_ar(P, r)
    assert sent == want, (r, sent, want)
    # the wrong order: the M x N all-reduce before act, then Z's columns all-gathered
    # (the ring's rank r passes on every column chunk but r + 1's)
    gather = 8 * M * (P - size(P, (r + 1) % n)) if n > 1 else 0
    assert orders[r] == (ring_ar(P, r), ring_ar(N, r) + gather), (r, orders[r])
PY
	then ok; else bad "tp-mlp: numpy or the closed forms disagree: $M x $K x $N x $P, d=$D $ACT $VALUES"; fi
done

expect 0 "tp-mlp" -- -b -m tp-mlp -d 4 -M 8 -K 6 -N 16 -P 6
grep -q '^activation  rank 2  H\[:, 8:12\] = relu(H\[:, 8:12\]) in place, no message' "$T/out" && ok ||
	bad "tp-mlp's activation line"
grep -q "^  tp-mlp: .* Z's all-reduce: 2(n-1)/n x 8MP = 2x3/4 x 384 = 576 B a rank$" "$T/out" && ok ||
	bad "tp-mlp's closed form line: $(grep "all-reduce" "$T/out")"
grep -q '^  rank 0 *576 *1792$' "$T/out" && ok || bad "the wrong order's bytes: $(grep -A2 'order of' "$T/out")"
grep -q '^verify: allclose ok' "$T/out" && ok || bad "tp-mlp verify: $(tail -1 "$T/out")"
expect 0 "tp-mlp, freivalds, one device" -- -b -q -m tp-mlp -d 1 --verify freivalds --values floats --act gelu

# --- refusals: one line, exit 2 ----------------------------------------------------
$PY -c "import numpy as np; np.save('$T/e53.npy', np.ones((5, 3)))"
expect_msg 2 "^distmm-tui: E is 5x3 in $T/e53.npy, but tp-mlp's E must be N x P (4 rows" -- -b -m tp-mlp -E "$T/e53.npy"
expect_msg 2 "^distmm-tui: -P (columns of E and of Z) must be a whole number from 1" -- -b -m tp-mlp -P 0
expect_msg 2 "^distmm-tui: unknown activation 'bogus' (use relu, gelu or none)$" -- -b -m tp-mlp --act bogus
expect_msg 2 "^distmm-tui: -E has no effect without -m tp-mlp" -- -b -m tp-row -E "$T/e53.npy"
expect_msg 2 "^distmm-tui: --reduce-scatter has no effect with -m tp-mlp" -- -b -m tp-mlp --reduce-scatter
