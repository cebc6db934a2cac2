#!/usr/bin/env bash
# mpi_test: distmm-mpi, the ring over Open MPI, against the in-process run.
# For N = 1..4 ranks, even and uneven shapes and both modes: C written by
# -o equal bit for bit to distmm-tui's (cmp), numpy's allclose against A @ B,
# the same stdout, and the merged trace the in-process trace but for times,
# each compute's shard (r - s) mod n.  Then the Chrome trace, a run that
# fails half-way (every rank ends), bad input on rank 0 (every rank ends
# with exit 2 and one message), options that would do nothing, MPI calls
# made to fail (tests/app/mpi/mpi_fail.c), stdout on /dev/full, --step fed by a
# pipe, and the recorded trace replayed in the interface in a private tmux.
# The training step (--train): for N = 1..4 and both modes, C, dA and dB
# written by rank 0 equal bit for bit to distmm-tui's, the same stdout and
# trace; a backward bug; a bad dC on rank 0.  Tensor parallel (-m tp-col,
# tp-row, --reduce-scatter, and --train; tp-mlp's Z): for N = 1..4, C
# (dA, dB, Z) and stdout equal to distmm-tui's.  --calibrate: its report's
# shape and a preset file distmm-tui --hw reads; --hw with it: the
# modelled time of each phase beside the measured one (no time asserted).
#
# Every mpirun runs under a deadline, so a hang fails instead of hanging.
# Without Open MPI (mpirun or mpicc missing) the script says so and passes:
# the engine and every other test do not need MPI.  With it, every case runs.
set -u
MPI_BIN=${1:-./distmm-mpi}
TUI_BIN=${2:-./distmm-tui}
if ! command -v mpirun >/dev/null 2>&1 || ! command -v mpicc >/dev/null 2>&1; then
	echo "mpi_test: skipped: Open MPI is not installed (mpirun, mpicc; Debian: libopenmpi-dev openmpi-bin)"
	exit 0
fi
for b in "$MPI_BIN" "$TUI_BIN"; do
	[ -x "$b" ] || { echo "mpi_test: FAIL: $b is not built (make builds both)"; exit 1; }
done
MPI_BIN=$(cd "$(dirname "$MPI_BIN")" && pwd)/$(basename "$MPI_BIN")
TUI_BIN=$(cd "$(dirname "$TUI_BIN")" && pwd)/$(basename "$TUI_BIN")
PY=/usr/bin/python3
TMPD=$(mktemp -d /tmp/distmm-mpi.XXXXXX)
# the interface's replay of a recorded run uses the tmux helpers (tmux.sh)
BIN=$TUI_BIN NAME=mpi
. "$(dirname "$0")/../../lib/tmux.sh"
trap 'T kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT
test_name=mpi
ok() { pass; }

# Root in a container is allowed; shared-memory transfers without CMA
# (ptrace is often forbidden in containers, and Open MPI then warns).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
LIMIT=${MPI_TEST_LIMIT:-120}

# mpi NP ARGS...: distmm-mpi on NP ranks, stdout to $TMPD/out, stderr to $TMPD/err.
mpi() {
	local np=$1; shift
	timeout -k 5 "$LIMIT" mpirun --oversubscribe --allow-run-as-root -np "$np" "$MPI_BIN" "$@" \
		>"$TMPD/out" 2>"$TMPD/err"
}
# mpiq: the same with mpirun -q, which keeps mpirun's own report of a
# non-zero exit off stderr (the program's message stays).
mpiq() {
	local np=$1; shift
	timeout -k 5 "$LIMIT" mpirun -q --oversubscribe --allow-run-as-root -np "$np" "$MPI_BIN" "$@" \
		>"$TMPD/out" 2>"$TMPD/err"
}

# --- the command of the task: the same schedule and verification ------------
mpi 4 -b; st=$?
"$TUI_BIN" -b -d 4 >"$TMPD/tui.out" 2>&1
if [ "$st" != 0 ]; then bad "mpirun -np 4 distmm-mpi -b: exit $st: $(head -5 "$TMPD/err")"
elif ! diff "$TMPD/out" "$TMPD/tui.out" >"$TMPD/diff"; then bad "distmm-mpi -b differs from distmm-tui -b -d 4:"; head -20 "$TMPD/diff"
elif [ -s "$TMPD/err" ]; then bad "a successful run wrote on stderr: $(head -5 "$TMPD/err")"
else ok; fi
mpi 3 -q -m dp; st=$?
"$TUI_BIN" -b -q -d 3 -m dp >"$TMPD/tui.out" 2>&1
[ "$st" = 0 ] && diff -q "$TMPD/out" "$TMPD/tui.out" >/dev/null && ok || bad "-q -m dp on 3 ranks differs from distmm-tui"

# --- N = 1..4, shapes even and uneven, both modes: same C, same trace --------
# even: every split equal for n = 1, 2, 3, 4; uneven: the remainders; tiny:
# more ranks than rows and columns (empty row blocks and shards)
for shape in "12 6 12" "13 5 7" "3 4 2"; do
	read -r M K N <<<"$shape"
	$PY - "$TMPD" "$M" "$K" "$N" <<'PY'
import numpy as np, sys
t, M, K, N = sys.argv[1], *map(int, sys.argv[2:5])
rng = np.random.default_rng(M * 1000 + K * 10 + N)
np.save(f"{t}/a.npy", rng.standard_normal((M, K)) * 3)
np.save(f"{t}/b.npy", rng.standard_normal((K, N)))
PY
	for np_ in 1 2 3 4; do
		for mode in fsdp dp; do
			what="$M x $K x $N, -np $np_, $mode"
			mpi "$np_" -m "$mode" -A "$TMPD/a.npy" -B "$TMPD/b.npy" -o "$TMPD/cm.npy" --trace "$TMPD/tm.jsonl"; st=$?
			if [ "$st" != 0 ]; then bad "$what: exit $st: $(head -5 "$TMPD/err")"; continue; fi
			[ -s "$TMPD/err" ] && bad "$what: stderr: $(head -3 "$TMPD/err")"
			"$TUI_BIN" -b -d "$np_" -m "$mode" -A "$TMPD/a.npy" -B "$TMPD/b.npy" -o "$TMPD/ct.npy" --trace "$TMPD/tt.jsonl" >"$TMPD/tui.out" 2>&1 \
				|| bad "$what: distmm-tui failed"
			cmp -s "$TMPD/cm.npy" "$TMPD/ct.npy" && ok || bad "$what: C differs from the in-process C"
			diff -q "$TMPD/out" "$TMPD/tui.out" >/dev/null && ok || bad "$what: stdout differs from distmm-tui -b"
			if $PY - "$TMPD" "$np_" "$mode" <<'PY'
import json, numpy as np, sys
t, n, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
a, b, c = np.load(f"{t}/a.npy"), np.load(f"{t}/b.npy"), np.load(f"{t}/cm.npy")
assert c.dtype == np.float64 and c.shape == (a.shape[0], b.shape[1]), (c.dtype, c.shape)
assert np.allclose(c, a @ b), abs(c - a @ b).max()
def load(p):
    return [json.loads(l) for l in open(p)]
m, i = load(f"{t}/tm.jsonl"), load(f"{t}/tt.jsonl")
times = {"t_begin_ns", "t_end_ns"}
strip = lambda evs: [{k: v for k, v in e.items() if k not in times} for e in evs]
assert strip(m) == strip(i), "the MPI trace differs from the in-process one"
assert sum(1 for e in m if e["op"] == "summary") == n
computes = [e for e in m if e["op"] == "compute"]
assert len(computes) == (n * n if mode == "fsdp" else n), len(computes)
for e in computes:
    if mode == "fsdp":
        assert e["shard"] == (e["rank"] - e["step"]) % n, e
    else:
        assert e["shard"] == -1, e
# real times: each rank's events in order, inside the run
for r in range(n):
    ev = [e for e in m if e.get("rank") == r and e["op"] != "summary"]
    assert all(e["t_end_ns"] >= e["t_begin_ns"] for e in ev), r
PY
			then ok; else bad "$what: numpy or the trace check failed"; fi
			"$TUI_BIN" -b -q --replay "$TMPD/tm.jsonl" -A "$TMPD/a.npy" -B "$TMPD/b.npy" >/dev/null 2>"$TMPD/rerr" \
				&& ok || bad "$what: the MPI trace does not replay: $(cat "$TMPD/rerr")"
		done
	done
done

# --- tensor parallel: tp-col, tp-row and its reduce-scatter, N = 1..4 -------
# the same shapes: C bit for bit, the same report (the model's bytes beside
# the run's), numpy's allclose against A @ B
for shape in "12 6 12" "13 5 7" "3 4 2"; do
	read -r M K N <<<"$shape"
	$PY - "$TMPD" "$M" "$K" "$N" <<'PY'
import numpy as np, sys
t, M, K, N = sys.argv[1], *map(int, sys.argv[2:5])
rng = np.random.default_rng(M * 1000 + K * 10 + N + 2)
np.save(f"{t}/a.npy", rng.standard_normal((M, K)) * 3)
np.save(f"{t}/b.npy", rng.standard_normal((K, N)))
PY
	for np_ in 1 2 3 4; do
		for mode in "tp-col" "tp-row" "tp-row --reduce-scatter"; do
			what="$M x $K x $N, -np $np_, -m $mode"
			# shellcheck disable=SC2086
			mpi "$np_" -m $mode -A "$TMPD/a.npy" -B "$TMPD/b.npy" -o "$TMPD/cm.npy"; st=$?
			if [ "$st" != 0 ]; then bad "$what: exit $st: $(head -5 "$TMPD/err")"; continue; fi
			[ -s "$TMPD/err" ] && bad "$what: stderr: $(head -3 "$TMPD/err")"
			# shellcheck disable=SC2086
			"$TUI_BIN" -b -d "$np_" -m $mode -A "$TMPD/a.npy" -B "$TMPD/b.npy" -o "$TMPD/ct.npy" >"$TMPD/tui.out" 2>&1 \
				|| bad "$what: distmm-tui failed"
			cmp -s "$TMPD/cm.npy" "$TMPD/ct.npy" && ok || bad "$what: C differs from the in-process C"
			diff -q "$TMPD/out" "$TMPD/tui.out" >/dev/null && ok || bad "$what: stdout differs from distmm-tui -b"
			$PY -c "import numpy as np, sys; t = sys.argv[1]; a, b, c = (np.load(f'{t}/{x}.npy') for x in ('a', 'b', 'cm')); assert c.shape == (a.shape[0], b.shape[1]) and np.allclose(c, a @ b)" "$TMPD" \
				&& ok || bad "$what: numpy's A @ B differs"
		done
	done
done
# tp-mlp, Z = gelu(A @ B) @ E: uneven, and more ranks than B's columns; Z
# and stdout equal to distmm-tui's (E and P from the rank 0 alone, -E's)
for shape in "13 5 7" "3 4 2"; do
	read -r M K N <<<"$shape"
	for np_ in 1 2 3 4; do
		what="tp-mlp $M x $K x $N -P 6, -np $np_"
		args=(-m tp-mlp -M "$M" -K "$K" -N "$N" -P 6 --act gelu --values floats)
		mpi "$np_" "${args[@]}" -o "$TMPD/zm.npy"; st=$?
		if [ "$st" != 0 ]; then bad "$what: exit $st: $(head -5 "$TMPD/err")"; continue; fi
		"$TUI_BIN" -b -d "$np_" "${args[@]}" -o "$TMPD/zt.npy" >"$TMPD/tui.out" 2>&1 || bad "$what: distmm-tui failed"
		cmp -s "$TMPD/zm.npy" "$TMPD/zt.npy" && ok || bad "$what: Z differs from the in-process Z"
		diff -q "$TMPD/out" "$TMPD/tui.out" >/dev/null && ok || bad "$what: stdout differs from distmm-tui -b"
	done
done
$PY -c "import numpy as np, sys; np.save(sys.argv[1] + '/e.npy', np.random.default_rng(5).standard_normal((7, 3)))" "$TMPD"
args=(-m tp-mlp -M 13 -K 5 -N 7 -E "$TMPD/e.npy" --act relu)
mpi 3 "${args[@]}" -o "$TMPD/zm.npy"; st=$?
"$TUI_BIN" -b -d 3 "${args[@]}" -o "$TMPD/zt.npy" >"$TMPD/tui.out" 2>&1
[ "$st" = 0 ] && cmp -s "$TMPD/zm.npy" "$TMPD/zt.npy" && diff -q "$TMPD/out" "$TMPD/tui.out" >/dev/null && ok \
	|| bad "tp-mlp -E file --act relu on 3 ranks: exit $st, or differs from distmm-tui"
# the training step (--train) of tp-col and tp-row: C, dA and dB bit for bit
$PY - "$TMPD" <<'PY'
import numpy as np, sys
t, rng = sys.argv[1], np.random.default_rng(6)
for name, shape in (("a", (13, 5)), ("b", (5, 7)), ("dc", (13, 7))):
    np.save(f"{t}/{name}.npy", rng.standard_normal(shape))
PY
for np_ in 1 2 3 4; do
	for mode in tp-col tp-row; do
		what="--train 13 x 5 x 7, -np $np_, -m $mode"
		files=(-A "$TMPD/a.npy" -B "$TMPD/b.npy" --dC "$TMPD/dc.npy")
		mpi "$np_" --train -m "$mode" "${files[@]}" -o "$TMPD/cm.npy" --dA-out "$TMPD/dam.npy" --dB-out "$TMPD/dbm.npy"; st=$?
		if [ "$st" != 0 ]; then bad "$what: exit $st: $(head -5 "$TMPD/err")"; continue; fi
		"$TUI_BIN" -b --train -d "$np_" -m "$mode" "${files[@]}" -o "$TMPD/ct.npy" --dA-out "$TMPD/dat.npy" \
			--dB-out "$TMPD/dbt.npy" >"$TMPD/tui.out" 2>&1 || bad "$what: distmm-tui failed"
		for f in c da db; do
			cmp -s "$TMPD/${f}m.npy" "$TMPD/${f}t.npy" && ok || bad "$what: $f differs from the in-process run"
		done
		diff -q "$TMPD/out" "$TMPD/tui.out" >/dev/null && ok || bad "$what: stdout differs from distmm-tui -b --train"
		$PY -c "import numpy as np, sys; t = sys.argv[1]; a, b, dc = (np.load(f'{t}/{x}.npy') for x in ('a', 'b', 'dc')); assert np.allclose(np.load(f'{t}/dam.npy'), dc @ b.T) and np.allclose(np.load(f'{t}/dbm.npy'), a.T @ dc)" "$TMPD" \
			&& ok || bad "$what: numpy's dA or dB differs"
	done
done

# .csv inputs, and a generated B for a loaded A
printf '1,2,3\n4,5,6\n7,8,9\n10,11,12\n' >"$TMPD/a.csv"
mpi 3 -A "$TMPD/a.csv" -N 5 -o "$TMPD/cm.csv"; st=$?
"$TUI_BIN" -b -d 3 -A "$TMPD/a.csv" -N 5 -o "$TMPD/ct.csv" >"$TMPD/tui.out" 2>&1
[ "$st" = 0 ] && cmp -s "$TMPD/cm.csv" "$TMPD/ct.csv" && diff -q "$TMPD/out" "$TMPD/tui.out" >/dev/null && ok \
	|| bad "csv A on 3 ranks: exit $st, or differs from distmm-tui"

# --- above 2^24 the check is Freivalds', and the table the model or a run ----
for args in "-q -M 300 -K 280 -N 310 --values floats" "-q -m dp -M 300 -K 280 -N 310 --compare" \
	"-q -M 300 -K 300 -N 300 --bug r-plus-s"; do
	mpi 3 $args; st=$?
	"$TUI_BIN" -b -d 3 $args >"$TMPD/tui.out" 2>&1; want=$?
	[ "$st" = "$want" ] && diff -q "$TMPD/out" "$TMPD/tui.out" >/dev/null && grep -q '^verify: .*Freivalds' "$TMPD/out" \
		&& ok || bad "3 ranks, $args: exit $st (distmm-tui $want), or output differs"
done

# --- the training step: C, dA and dB bit for bit, the same account ---------
# N = 1..4 ranks, both modes, even and uneven shapes and more ranks than
# rows and columns; dC from a file, or from the seed
for shape in "12 6 12" "13 5 7" "3 4 2"; do
	read -r M K N <<<"$shape"
	$PY - "$TMPD" "$M" "$K" "$N" <<'PY'
import numpy as np, sys
t, M, K, N = sys.argv[1], *map(int, sys.argv[2:5])
rng = np.random.default_rng(M * 1000 + K * 10 + N + 1)
np.save(f"{t}/a.npy", rng.standard_normal((M, K)))
np.save(f"{t}/b.npy", rng.standard_normal((K, N)))
np.save(f"{t}/dc.npy", rng.standard_normal((M, N)))
PY
	for np_ in 1 2 3 4; do
		for mode in fsdp dp; do
			what="--train $M x $K x $N, -np $np_, $mode"
			files=(-A "$TMPD/a.npy" -B "$TMPD/b.npy" --dC "$TMPD/dc.npy")
			mpi "$np_" --train -m "$mode" "${files[@]}" -o "$TMPD/cm.npy" --dA-out "$TMPD/dam.npy" \
				--dB-out "$TMPD/dbm.npy" --trace "$TMPD/tm.jsonl"; st=$?
			if [ "$st" != 0 ]; then bad "$what: exit $st: $(head -5 "$TMPD/err")"; continue; fi
			[ -s "$TMPD/err" ] && bad "$what: stderr: $(head -3 "$TMPD/err")"
			"$TUI_BIN" -b --train -d "$np_" -m "$mode" "${files[@]}" -o "$TMPD/ct.npy" --dA-out "$TMPD/dat.npy" \
				--dB-out "$TMPD/dbt.npy" --trace "$TMPD/tt.jsonl" >"$TMPD/tui.out" 2>&1 || bad "$what: distmm-tui failed"
			for f in c da db; do
				cmp -s "$TMPD/${f}m.npy" "$TMPD/${f}t.npy" && ok || bad "$what: $f differs from the in-process run"
			done
			diff -q "$TMPD/out" "$TMPD/tui.out" >/dev/null && ok || bad "$what: stdout differs from distmm-tui -b --train"
			$PY - "$TMPD" <<'PY' && ok || bad "$what: numpy or the trace check failed"
import json, numpy as np, sys
t = sys.argv[1]
a, b, dc = np.load(f"{t}/a.npy"), np.load(f"{t}/b.npy"), np.load(f"{t}/dc.npy")
assert np.allclose(np.load(f"{t}/dam.npy"), dc @ b.T) and np.allclose(np.load(f"{t}/dbm.npy"), a.T @ dc)
strip = lambda p: [{k: v for k, v in json.loads(l).items() if k not in ("t_begin_ns", "t_end_ns")} for l in open(p)]
assert strip(f"{t}/tm.jsonl") == strip(f"{t}/tt.jsonl"), "the MPI trace differs from the in-process one"
PY
		done
	done
done
mpi 3 --train -q; st=$?
"$TUI_BIN" -b --train -q -d 3 >"$TMPD/tui.out" 2>&1
[ "$st" = 0 ] && diff -q "$TMPD/out" "$TMPD/tui.out" >/dev/null && ok || bad "--train with dC from the seed on 3 ranks"
mpi 4 --train -q -m dp --bug no-sum; st=$?
"$TUI_BIN" -b --train -q -d 4 -m dp --bug no-sum >"$TMPD/tui.out" 2>&1
[ "$st" = 1 ] && diff -q "$TMPD/out" "$TMPD/tui.out" >/dev/null && grep -q '^verify dB = A^T @ dC: MISMATCH' "$TMPD/out" \
	&& ok || bad "--train --bug no-sum on 4 ranks: exit $st (want 1) or differs from distmm-tui"
$PY -c "import numpy as np; np.save('$TMPD/dc_bad.npy', np.zeros((2, 2)))"
mpiq 3 --train --dC "$TMPD/dc_bad.npy"; st=$?
[ "$st" = 2 ] && [ "$(wc -l <"$TMPD/err")" = 1 ] && grep -q "^distmm-mpi: dC is 2x2 in" "$TMPD/err" && ok \
	|| bad "a bad dC on 3 ranks: exit $st (want 2 and one line): $(head -3 "$TMPD/err")"
mpiq 2 --train --dC "$TMPD/none.npy"; st=$?
[ "$st" = 2 ] && [ "$(wc -l <"$TMPD/err")" = 1 ] && ok || bad "a missing dC on 2 ranks: exit $st"
mpi 2 --train --step </dev/null; st=$?
[ "$st" = 0 ] && grep -q 'before phase [0-9]*/9 (reduce-scatter, s=0)' "$TMPD/out" && grep -q 'sent dB\[' "$TMPD/out" && ok \
	|| bad "--train --step on 2 ranks: exit $st"

# --- a deliberate bug: the same wrong answer, the same account ---------------
mpi 4 --bug r-plus-s; st=$?
"$TUI_BIN" -b -d 4 --bug r-plus-s >"$TMPD/tui.out" 2>&1
[ "$st" = 1 ] && diff -q "$TMPD/out" "$TMPD/tui.out" >/dev/null && grep -q '^verify: MISMATCH' "$TMPD/out" && ok \
	|| bad "--bug r-plus-s: exit $st (want 1) or output differs from distmm-tui"

# --- Perfetto: the Chrome trace of a real run ---------------------------------
mpi 3 -q --trace "$TMPD/c.json" --trace-format chrome; st=$?
[ "$st" = 0 ] && $PY - "$TMPD/c.json" 3 <<'PY' && ok || bad "chrome trace of 3 ranks (exit $st)"
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2])
ev = d["traceEvents"]
names = sorted(e["args"]["name"] for e in ev if e.get("ph") == "M" and e["name"] == "thread_name")
assert names == sorted(f"rank {r}" for r in range(n)), names
spans = [e for e in ev if e.get("ph") == "X"]
assert sum(1 for e in spans if e["cat"] == "compute") == n * n
PY

# --- a run that fails half-way: every rank ends, none hangs ------------------
# --bug c-mod: rank 0 fails at step 1 while the others wait for it (or send
# to it: shards of 200 KB and more go by rendezvous, so a send waits for its
# receiver), and the job ends with the batch run's status and message.
for size in "8 6 4" "300 300 900"; do
	read -r M K N <<<"$size"
	rm -f "$TMPD/fail.jsonl"
	mpiq 4 -q --bug c-mod -M "$M" -K "$K" -N "$N" --values floats --trace "$TMPD/fail.jsonl"; st=$?
	if [ "$st" = 1 ] && [ "$(grep -c . "$TMPD/err")" = 1 ] && grep -q '^distmm-mpi: rank 0, step 1: .*negative index' "$TMPD/err" \
		&& [ -s "$TMPD/fail.jsonl" ]; then ok
	else bad "c-mod $size: exit $st (want 1, one message, a trace): $(wc -l <"$TMPD/err") lines, $(wc -c <"$TMPD/err") bytes: $(head -5 "$TMPD/err" | cat -A)"; fi
done

# --- bad input on rank 0: every rank ends with exit 2 and one message --------
$PY - "$TMPD" <<'PY'
import numpy as np, sys
t = sys.argv[1]
np.save(f"{t}/a53.npy", np.ones((5, 3))); np.save(f"{t}/b44.npy", np.ones((4, 4)))
np.save(f"{t}/f.npy", np.ones((3, 4)).astype(">f8"))
PY
# expect2 PATTERN NP ARGS...: exit 2, no stdout, one stderr line from rank 0.
expect2() {
	local pat=$1 np=$2; shift 2
	mpiq "$np" "$@"; local st=$?
	if [ "$st" = 2 ] && [ "$(wc -l <"$TMPD/err")" = 1 ] && grep -q '^distmm-mpi: ' "$TMPD/err" \
		&& grep -q -- "$pat" "$TMPD/err" && ! [ -s "$TMPD/out" ]; then ok
	else bad "bad input ($*) on $np ranks: exit $st (want 2 and one line with '$pat'):"; sed 's/^/    /' "$TMPD/err" | head -5; fi
}
expect2 "No such file" 4 -A "$TMPD/missing.npy"
expect2 "No such file" 2 -B "$TMPD/missing.npy" -m dp
expect2 "big-endian" 3 -B "$TMPD/f.npy"
expect2 "shapes do not match" 4 -A "$TMPD/a53.npy" -B "$TMPD/b44.npy"
expect2 "rows of A" 4 -A "$TMPD/a53.npy" -M 7
expect2 "device count" 4 -d 0
expect2 "device count" 4 -d abc
expect2 "the job has 4 ranks" 4 -d 3
expect2 "the job has 1 rank" 1 -d 2
expect2 "cannot write" 4 -o "$TMPD/nodir/c.npy"
expect2 "is -A's file too: writing it would replace the input" 3 -A "$TMPD/a53.npy" -o "$TMPD/a53.npy"
# ranks given different command lines (mpirun's ':' parts): every rank ends
# at once with exit 2 and one line, never a hang (issue 28)
mpmd() {
	timeout -k 5 "$LIMIT" mpirun -q --oversubscribe --allow-run-as-root "$@" >"$TMPD/out" 2>"$TMPD/err" </dev/null
}
for line in "-np 1 $MPI_BIN -q : -np 3 $MPI_BIN -q -M 0" "-np 3 $MPI_BIN -q -M 0 : -np 1 $MPI_BIN -q" \
	"-np 1 $MPI_BIN -q --step : -np 1 $MPI_BIN -q" "-np 2 $MPI_BIN -q : -np 1 $MPI_BIN -q -m dp"; do
	# shellcheck disable=SC2086
	mpmd $line; st=$?
	if [ "$st" = 2 ] && [ "$(grep -c '^distmm-mpi: ' "$TMPD/err")" = 1 ] &&
		grep -q '^distmm-mpi: rank [0-9]* was given other options than rank 0' "$TMPD/err" &&
		! [ -s "$TMPD/out" ]; then ok
	else bad "mpirun $line: exit $st (want 2, one line): $(head -3 "$TMPD/err")"; fi
done
expect2 "cannot write" 4 --trace "$TMPD/nodir/t.jsonl"
expect2 "unknown file type" 2 -o "$TMPD/c.txt"
expect2 "unknown option '--bogus'" 3 --bogus
expect2 "--naive" 4 --naive
expect2 "--order recv-first is the deadlock lab of the in-process transport" 4 --order recv-first
expect2 "--fix sendrecv is the deadlock lab of the in-process transport" 3 --fix sendrecv
expect2 "--capacity" 4 --capacity 0
expect2 "more than the" 4 -M 1000000 -K 1000000 -N 1000000
# options that would do nothing: the interface's, in distmm-mpi's words
expect2 "--play belongs to the interface of ./distmm-tui" 2 --play
expect2 "--quiz belongs to the interface" 2 --quiz=2
expect2 "--lesson belongs to the interface" 2 --lesson "$TMPD/x.lesson"
expect2 "--ascii belongs to the interface" 2 --ascii
expect2 "--trace-format has no effect without --trace" 2 --trace-format chrome
expect2 "-d has no effect with --replay" 2 --replay "$TMPD/x.jsonl" -d 2
expect2 "--step has no effect with --replay" 2 --step --replay "$TMPD/x.jsonl"
expect2 "--naive has no effect with -m dp" 2 -m dp --naive
expect2 "--fix has no effect with -m dp" 2 -m dp --fix buffered
expect2 "--step has no effect with -m tp-col, tp-row or tp-mlp" 2 -m tp-col --step
expect2 "--reduce-scatter has no effect with --train" 2 -m tp-row --train --reduce-scatter
expect2 "--step has no effect with -m tp-col, tp-row or tp-mlp" 3 -m tp-mlp --step --act gelu
expect2 "--train has no effect with -m tp-mlp" 2 -m tp-mlp --train
expect2 "E is 7x3 in" 2 -m tp-mlp -N 5 -E "$TMPD/e.npy"
# --- --calibrate: alpha, beta and the fit; a preset file --hw accepts ------
# (no timing asserted: the shape of the report, the file's keys, and that
# distmm-tui reads the file and times a collective and a multiply with it)
mpi 2 --calibrate -o "$TMPD/cal.hw"; st=$?
if [ "$st" != 0 ]; then bad "--calibrate on 2 ranks: exit $st: $(head -3 "$TMPD/err")"
elif ! grep -qE '^alpha = [0-9.e+-]+ us, beta = [0-9.e+-]+ GB/s \(least squares' "$TMPD/out" ||
	! grep -qE '^fit error: [0-9.]+% rms, at most [0-9.]+% \(at [0-9]+ (B|KiB|MiB)\)' "$TMPD/out"; then
	bad "--calibrate prints no alpha, beta or fit: $(head -3 "$TMPD/out")"
elif [ "$(grep -cE '^ +[0-9]+ (B|KiB|MiB) +[0-9.]+ (ns|us|ms|s) +[0-9.]+ (ns|us|ms|s) +-?[0-9.]+%$' "$TMPD/out")" != 24 ]; then
	bad "--calibrate's table has no row for each of the 24 sizes (8 B to 64 MiB)"
elif ! grep -q '^name = calibrated$' "$TMPD/cal.hw" || ! grep -qE '^alpha_us = [0-9.e+-]+$' "$TMPD/cal.hw" ||
	! grep -qE '^bw_gbps = [0-9.e+-]+$' "$TMPD/cal.hw" || grep -q '^tflops' "$TMPD/cal.hw"; then
	bad "--calibrate's preset file: $(cat "$TMPD/cal.hw")"
else ok; fi
"$TUI_BIN" -b -q --collective allreduce -d 4 --hw "$TMPD/cal.hw" >"$TMPD/tui.out" 2>&1 &&
	grep -q '^time: .* from the run.s events' "$TMPD/tui.out" && grep -q 'model calibrated' "$TMPD/tui.out" && ok ||
	bad "distmm-tui --hw FILE refuses --calibrate's file: $(head -3 "$TMPD/tui.out")"
"$TUI_BIN" -b -q -d 2 --hw "$TMPD/cal.hw" --flops 1 >"$TMPD/tui.out" 2>&1 &&
	grep -q '^modelled time, model calibrated' "$TMPD/tui.out" && ok ||
	bad "distmm-tui -d 2 --hw FILE --flops 1: $(head -3 "$TMPD/tui.out")"
# without -o: the default name, in the working directory, and nothing else
mkdir "$TMPD/cal" && (cd "$TMPD/cal" && mpi 3 --calibrate -q); st=$?
[ "$st" = 0 ] && [ "$(ls -A "$TMPD/cal")" = distmm-calibration.hw ] && ! grep -q '^  ' "$TMPD/out" && ok ||
	bad "--calibrate -q on 3 ranks: exit $st, left $(ls -A "$TMPD/cal" | tr '\n' ' ')"
# --hw: the modelled time of each phase beside the measured one
mpi 3 --hw "$TMPD/cal.hw" --flops 0.01 -M 12 -K 6 -N 12; st=$?
if [ "$st" = 0 ] && grep -q '^  phase  kind .*slowest rank      measured$' "$TMPD/out" &&
	[ "$(grep -cE '^ +[0-5]  [a-z]+( [0-9])? +[0-9.]+ (ns|us|ms) .* [0-9.]+ (ns|us|ms|s)$' "$TMPD/out")" = 6 ] &&
	grep -q '^  measured [0-9.]* [nmu]*s: each phase its longest rank' "$TMPD/out"; then ok
else bad "distmm-mpi --hw FILE: exit $st, no measured column: $(grep -A8 '^modelled' "$TMPD/out" | head -9)"; fi
mpi 2 --hw "$TMPD/cal.hw" --train --flops 1 -q; st=$?
[ "$st" = 0 ] && grep -q '^  measured ' "$TMPD/out" && ok || bad "distmm-mpi --train --hw: exit $st"
expect2 "no peak F" 2 --hw "$TMPD/cal.hw"
expect2 "--prefetch belongs to ./distmm-tui -b" 2 --prefetch
expect2 "--collective belongs to ./distmm-tui -b" 2 --collective allreduce
expect2 "--calibrate measures a message between two ranks" 1 --calibrate
expect2 "-M has no effect with --calibrate" 2 --calibrate -M 3
expect2 "--step has no effect with --calibrate" 2 --calibrate --step
expect2 "cannot write" 2 --calibrate -o "$TMPD/nodir/cal.hw"
# without mpirun -q: the program's message once, whatever mpirun adds
mpi 4 -A "$TMPD/missing.npy"; st=$?
[ "$st" = 2 ] && [ "$(grep -c '^distmm-mpi: ' "$TMPD/err")" = 1 ] && ok \
	|| bad "missing file without -q: exit $st, $(grep -c '^distmm-mpi: ' "$TMPD/err") messages"
mpi 4 --help; st=$?
[ "$st" = 0 ] && grep -q -- '--step' "$TMPD/out" && [ "$(grep -c '^usage: distmm-tui' "$TMPD/out")" = 1 ] && ok \
	|| bad "--help: exit $st, or printed by more than rank 0"

# --- an MPI call that fails: its name and MPI's own words, every rank ends ----
# tests/app/mpi/mpi_fail.c, preloaded, makes one call return MPI_ERR_INTERN as it
# would under MPI_ERRORS_RETURN (the standing abort receive was reported as
# "out of memory", a failed MPI_Comm_size as MPI_Comm_rank)
if mpicc -std=c11 -Wall -Wextra -Werror -shared -fPIC -o "$TMPD/mpi_fail.so" \
	"$(dirname "$0")/mpi_fail.c" 2>"$TMPD/err"; then
	# mpifail CALL RANK NP WANT: CALL failed (on RANK, or every rank when
	# empty): exit 2 and one line from rank 0 matching WANT
	mpifail() {
		local call=$1 rank=$2 np=$3 want=$4
		timeout -k 5 "$LIMIT" mpirun -q --oversubscribe --allow-run-as-root \
			-x LD_PRELOAD="$TMPD/mpi_fail.so" -x MPI_FAIL="$call" -x MPI_FAIL_RANK="$rank" \
			-np "$np" "$MPI_BIN" -q >"$TMPD/out" 2>"$TMPD/err"; local st=$?
		if [ "$st" = 2 ] && [ "$(wc -l <"$TMPD/err")" = 1 ] && grep -q -- "^distmm-mpi: $want\$" "$TMPD/err"; then ok
		else bad "MPI failure $call (rank '${rank:-every}', $np ranks): exit $st (want 2 and '$want'):"
			sed 's/^/    /' "$TMPD/err" | head -5; fi
	}
	mpifail irecv-abort "" 3 "rank 0: MPI_Irecv failed: MPI_ERR_INTERN: internal error"
	mpifail irecv-abort 2 3 "rank 2: MPI_Irecv failed: MPI_ERR_INTERN: internal error"
	mpifail comm-size "" 2 "rank 0: MPI_Comm_size failed: MPI_ERR_INTERN: internal error"
else
	bad "cannot build tests/app/mpi/mpi_fail.c: $(head -3 "$TMPD/err")"
fi

# --- stdout that cannot be written: one line, exit 2 (a singleton, no mpirun,
# so that the program's own stdout is /dev/full, not mpirun's pipe) ----------
for args in "-q" "" "--help" "-V"; do
	# shellcheck disable=SC2086
	timeout -k 5 "$LIMIT" "$MPI_BIN" $args >/dev/full 2>"$TMPD/err"; st=$?
	[ "$st" = 2 ] && [ "$(wc -l <"$TMPD/err")" = 1 ] \
		&& grep -q '^distmm-mpi: write error: No space left on device$' "$TMPD/err" && ok \
		|| bad "distmm-mpi $args >/dev/full: exit $st (want 2 and one write error line): $(head -3 "$TMPD/err")"
done

# --- --step: a barrier before every phase, Enter from the pipe -----------------
# FSDP on 3 ranks has 6 phases: 6 lines before them and one at the end from
# every rank, 6 prompts from rank 0
printf '\n\n\n\n\n\n' | timeout -k 5 "$LIMIT" mpirun --oversubscribe --allow-run-as-root -np 3 "$MPI_BIN" --step -q \
	>"$TMPD/out" 2>"$TMPD/err"; st=$?
if [ "$st" = 0 ] && grep -q '^verify: allclose ok' "$TMPD/out" \
	&& [ "$(grep -c '^rank [0-2] before phase [1-6]/6' "$TMPD/out")" = 18 ] \
	&& [ "$(grep -c '^rank [0-2] at the end' "$TMPD/out")" = 3 ] \
	&& [ "$(grep -c '^-- every rank is before phase' "$TMPD/out")" = 6 ] \
	&& grep -q '^rank 0 before phase 3/6 (compute, s=1): .*B shard 2 = B\[:, 3:4\].*got B\[2\] <- rank 2' "$TMPD/out"; then ok
else bad "--step with Enter piped: exit $st"; head -30 "$TMPD/out" "$TMPD/err"; fi
# the input ends at once: it runs on to the end
timeout -k 5 "$LIMIT" mpirun --oversubscribe --allow-run-as-root -np 2 "$MPI_BIN" --step -q -m dp </dev/null \
	>"$TMPD/out" 2>"$TMPD/err"; st=$?
[ "$st" = 0 ] && grep -q '^verify: allclose ok' "$TMPD/out" && ok || bad "--step with no input: exit $st"

# --- the recorded multi-process run, replayed in the interface ----------------
mpi 4 -q -M 11 -N 7 --trace "$TMPD/replay.jsonl"; st=$?
[ "$st" = 0 ] || bad "recording a trace for the replay: exit $st"
test_name="replay in the interface"
start 120x40 --replay "$TMPD/replay.jsonl" -M 11 -N 7
wait_for 'FSDP replay' && ok
wait_for '4 devices' && ok
keys p + + + +
wait_for 'verify: allclose ok' 60 && ok
keys q
wait_for '^EXIT:0 TTY:RESTORED$' && ok

# --- SIGTERM while rank 0 writes -o: the temporary file goes with it ----------
# As batch_test does: rank 0 is caught with its temporary file there, stopped,
# sent SIGTERM (what mpirun passes on for Ctrl-C) and let go; tries bounded,
# every wait on what can be seen, never on a time.
mkdir -p "$TMPD/sig"
caught=0
for try in 1 2 3 4 5 6; do
	rm -rf "$TMPD/sig" && mkdir "$TMPD/sig"
	timeout -k 5 "$LIMIT" mpirun -q --oversubscribe --allow-run-as-root -np 2 "$MPI_BIN" -q \
		-M 3000 -K 2 -N 3000 -o "$TMPD/sig/big.csv" >/dev/null 2>&1 &
	job=$!
	pid=
	for _ in $(seq 1 3000); do
		tmpf=$(ls -A "$TMPD/sig" | grep '^\.big\.csv\.' | head -1)
		if [ -n "$tmpf" ]; then
			# the rank that holds it open: rank 0, among the job's
			for p in $(pgrep -x distmm-mpi); do
				ls -l "/proc/$p/fd" 2>/dev/null | grep -qF "$tmpf" && { pid=$p; break; }
			done
			[ -n "$pid" ] && break
		fi
		kill -0 $job 2>/dev/null || break
		sleep 0.01
	done
	if [ -n "$pid" ] && kill -STOP "$pid" 2>/dev/null; then
		for _ in $(seq 1 400); do
			[ "$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null)" = T ] && break
			sleep 0.01
		done
		if ls -A "$TMPD/sig" | grep -q '^\.big\.csv\.'; then kill -TERM "$pid"; caught=1; fi
		kill -CONT "$pid" 2>/dev/null
	fi
	{ wait $job; } 2>/dev/null
	[ $caught = 1 ] && break
done
if [ $caught = 0 ]; then bad "SIGTERM during -o: rank 0's temporary file never caught in $try tries"
elif [ -z "$(ls -A "$TMPD/sig")" ]; then ok
else bad "SIGTERM to rank 0 during -o left: $(ls -A "$TMPD/sig" | tr '\n' ' ')"; fi

echo "mpi_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
