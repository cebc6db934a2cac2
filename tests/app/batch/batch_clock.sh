# batch_clock: the clock in batch mode (docs/clock.md), sourced by
# batch_test.sh, whose helpers (expect, expect_msg, ok, bad) and $BIN, $T
# and $PY it uses.  The sweep's JSON Lines held to the closed forms by
# numpy's Python, written out again here; --collective for every kind and
# algorithm on 1 to 16 devices; the modelled time in a multiply's report;
# every refusal, one line each.

# --- the sweep: the closed forms, to 0.1%, at every size ------------------
expect 0 "sweep json" -- -b --sweep allreduce -d 8 --alpha 0 --bw 450 --json
cp "$T/out" "$T/sweep.jsonl"
if $PY - "$T/sweep.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
n, a, b, L = 8, 0.0, 450e9, 3
assert len(rows) == 28 * 3, len(rows)
assert sorted({r["bytes"] for r in rows}) == [8 * 2**i for i in range(28)]
for r in rows:
    S = r["bytes"]
    assert r["collective"] == "allreduce" and r["n"] == n, r
    t = {"ring": 2*(n-1)*a + 2*(n-1)/n * S/b,
         "tree": 2*L*(a + S/b),
         "rhd": 2*L*a + 2*(n-1)/n * S/b}[r["algo"]]
    assert abs(r["time_us"] - t*1e6) <= 1e-3 * t*1e6, (r, t)
    assert abs(r["algbw_gbps"] - S/t/1e9) <= 1e-3 * S/t/1e9, r
    f = 2*(n-1)/n
    assert abs(r["busbw_gbps"] / r["algbw_gbps"] - f) <= 1e-12 * f, r
    if r["algo"] == "ring":  # alpha 0: busbw is the link's 450 GB/s at every size
        assert abs(r["busbw_gbps"] - 450) <= 1e-9 * 450, r
PY
then ok; else bad "the sweep's JSON Lines differ from the closed forms"; fi

# every preset, every kind, n = 8: the tree ahead at 8 B, the ring at 1 GiB,
# and the table's crossover line between
for hw in a100-nvlink h100-nvlink b200-nvlink ib-ndr; do
	for kind in allreduce allgather reducescatter broadcast reduce; do
		"$BIN" -b --sweep $kind -d 8 --hw $hw --json >"$T/s.jsonl" 2>"$T/err" || { bad "sweep $kind $hw"; continue; }
		$PY - "$T/s.jsonl" <<'PY' && ok || bad "sweep $kind --hw $hw: ring and tree do not cross"
import json, sys
t = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    t[r["algo"], r["bytes"]] = r["time_us"]
assert t["tree", 8] < t["ring", 8], t["tree", 8]
assert t["ring", 2**30] < t["tree", 2**30]
PY
		"$BIN" -b --sweep $kind -d 8 --hw $hw >"$T/out" 2>&1
		grep -q "^crossover: from [0-9]* [KMG]*i*B on the ring is faster than the tree" "$T/out" \
			&& ok || bad "sweep $kind --hw $hw: no crossover line: $(tail -2 "$T/out")"
	done
done
# the scaling book's H100 example: an all-gather of bf16[1024,16384] (32 MiB)
# on 8 GPUs at 450 GB/s, alpha 0: 7/8 x 33554432 B / 450 GB/s = 65 us, run on
# the devices and from the model alone
expect 0 "the 65 us all-gather" -- -b -q --collective allgather -d 8 --bytes 32M --alpha 0 --bw 450
grep -q '^time: 65.24 us from the run.s events; the closed form (n-1) alpha + (n-1)/n S/beta gives 65.24 us$' "$T/out" \
	|| bad "the 65 us all-gather: $(grep '^time' "$T/out")"
grep -q 'busbw = algbw x (n-1)/n = 450 GB/s' "$T/out" || bad "the 65 us all-gather's busbw"
"$BIN" -b --sweep allgather -d 8 --alpha 0 --bw 450 --json | grep '"algo":"ring"' |
	grep -q '"bytes":33554432,"time_us":65.2447288888889,' && ok || bad "the sweep's 32 MiB all-gather is not 65.24 us"
expect 0 "sweep table" -- -b --sweep allgather -d 6
grep -q '^distmm-tui sweep: allgather on 6 devices, the model alone' "$T/out" || bad "sweep header"
grep -q '^model h100-nvlink: alpha 3.4 us a message, beta 450 GB/s' "$T/out" || bad "sweep model line"
[ "$(grep -c ' B |\| KiB |\| MiB |\| GiB |' "$T/out")" = 28 ] || bad "sweep: want 28 rows"
grep -q '^       8 B |' "$T/out" && grep -q '^     1 GiB |' "$T/out" || bad "sweep: 8 B to 1 GiB"
grep -q 'rhd' "$T/out" && bad "sweep: rhd on 6 devices" || ok
expect 0 "sweep on one device" -- -b --sweep reduce -d 1
grep -q '^crossover: none: one rank, nothing moves' "$T/out" || bad "one device's sweep"

# --- --collective: every kind and algorithm, 1 to 16 devices ----------------
# even and uneven sizes, every rank's result and bytes checked by the program
for n in $(seq 1 16); do
	for kind in allreduce allgather reducescatter broadcast reduce; do
		for algo in ring tree rhd; do
			pow2=0; [ $((n & (n - 1))) = 0 ] && pow2=1
			if [ $algo = rhd ] && { [ $pow2 = 0 ] || [ $kind = broadcast ] || [ $kind = reduce ]; }; then
				expect_msg 2 "^distmm-tui: rhd (recursive halving-doubling)" -- \
					-b -q --collective $kind --algo $algo -d $n --bytes 96
				continue
			fi
			bytes=$((8 * (n * 3 + n % 3)))
			expect 0 "--collective $kind --algo $algo -d $n" -- -b -q --collective $kind --algo $algo -d $n --bytes $bytes
			tail -n 1 "$T/out" | grep -q '^verify: every rank.s result equals' ||
				bad "$kind $algo d $n: $(tail -n 1 "$T/out")"
			grep -q '^bytes sent: every rank.s equals its closed form' "$T/out" ||
				bad "$kind $algo d $n: bytes: $(grep bytes "$T/out")"
		done
	done
done
# the account in full: one line a message, a phase, a rank; the time against
# its closed form (even chunks: the same number); nccl-tests' bandwidths
expect 0 "--collective in full" -- -b --collective allreduce -d 4 --bytes 1M
grep -q '^distmm-tui batch: allreduce by ring on 4 devices, S = 1 MiB (131072 doubles a rank, 4 chunks of 32768), values ints, seed 1$' "$T/out" || bad "collective header: $(head -1 "$T/out")"
[ "$(grep -c '^reduce-scatter [0-9]  rank' "$T/out")" = 12 ] && [ "$(grep -c '^all-gather [0-9]  rank' "$T/out")" = 12 ] || bad "want 2 x 3 x 4 message lines"
grep -q '^reduce-scatter 0  rank 0 -> rank 1  chunk 3  \[98304:131072\]  262144 B, added$' "$T/out" || bad "message line"
[ "$(grep -c '^  phase [0-9]' "$T/out")" = 6 ] || bad "want 6 phase lines"
[ "$(grep -c '^  rank [0-9]* *1572864 B, closed form      1572864 B$' "$T/out")" = 4 ] || bad "want 2(n-1)/n S a rank: $(grep '^  rank' "$T/out")"
line=$(grep '^time: ' "$T/out")
ev=$(echo "$line" | sed -E 's/^time: ([^ ]* [mun]*s) from.*/\1/'); cf=$(echo "$line" | sed -E 's/.* gives ([^ ]* [mun]*s)$/\1/')
[ -n "$ev" ] && [ "$ev" = "$cf" ] || bad "the events' time and the closed form differ: $line"
grep -q '^algbw = S/t = [0-9.]* GB/s; busbw = algbw x 2(n-1)/n = [0-9.]* GB/s' "$T/out" || bad "bandwidth line"
expect 0 "uneven chunks" -- -b --collective reducescatter --algo tree -d 5 --bytes 104
grep -q '(its chunks even, S/n each; these are not)' "$T/out" || bad "uneven chunks not said"
expect 0 "--bytes in K" -- -b -q --collective broadcast -d 3 --bytes 3K --values floats --seed 4
grep -q 'S = 3 KiB (384 doubles a rank' "$T/out" || bad "--bytes 3K: $(head -1 "$T/out")"
expect 0 "a collective on synchronous channels" -- -b -q --collective allreduce --algo rhd -d 8 --capacity 0
expect_msg 2 "^distmm-tui: a allreduce of 8589934592 B on 16 devices needs about" -- -b --collective allreduce -d 16 --bytes 8G

# --- the modelled time in a multiply's report --------------------------------
expect 0 "--hw with a run" -- -b -d 4 --hw a100-nvlink
grep -q '^modelled time, model a100-nvlink: alpha 2.4 us a message, beta 300 GB/s a link and direction, F 19.5 TFLOPS (fp64 dense peak)' "$T/out" || bad "model line: $(grep '^modelled' "$T/out")"
[ "$(grep -c '^ *[0-9][0-9]*  \(compute\|transfer\|gather\)' "$T/out")" = 8 ] || bad "want 8 phase lines"
grep -q '^  total [0-9.]* [mun]*s: computing .* communicating .*(.*%)' "$T/out" || bad "total line"
tail -n 1 "$T/out" | grep -q '^verify: allclose ok' || bad "the check is not last"
expect 0 "--alpha and --bw over the default" -- -b -q -m dp -d 3 --alpha 0 --bw 100
grep -q '^modelled time, model h100-nvlink: alpha 0 us a message (--alpha), beta 100 GB/s a link and direction (--bw)' "$T/out" || bad "overrides not said"
grep -q '^ *[0-9]  compute' "$T/out" && bad "-q printed the phases" || ok
expect 0 "--hw with the training step" -- -b -q -d 3 --train --flops 100
grep -q '^modelled time, .* F 100 TFLOPS (--flops, dense peak)' "$T/out" || bad "--flops not said"
expect 3 "a deadlock has no time" -- -b -d 3 --naive --capacity 0 --hw ib-ndr
grep -q '^modelled time: none: the run deadlocked, and a deadlock has no time$' "$T/out" || bad "deadlock's time"
"$BIN" -b -d 3 --trace "$T/r.jsonl" >/dev/null 2>&1
expect 0 "--hw with --replay" -- -b -q --replay "$T/r.jsonl" --hw b200-nvlink
grep -q '^modelled time, model b200-nvlink' "$T/out" || bad "the replay's time"
expect 0 "--hw list" -- --hw list
grep -q '^  ib-ndr-bf16 ' "$T/out" || bad "--hw list"
printf '# measured\nname = lab\nalpha_us = 5\nbw_gbps = 20\n' >"$T/lab.hw"
expect 0 "--hw FILE for a collective" -- -b -q --collective allgather -d 4 --hw "$T/lab.hw"
grep -q '^model lab: alpha 5 us a message, beta 20 GB/s' "$T/out" || bad "the file's model"
expect_msg 2 "gives no peak F (no tflops in the file): a multiply's products need one (--flops TFLOPS)" -- -b -d 2 --hw "$T/lab.hw"
expect 0 "--flops completes a file" -- -b -q -d 2 --hw "$T/lab.hw" --flops 10
printf 'alpha_us = 5\nbw_gbps = fast\n' >"$T/bad.hw"
expect_msg 2 "bad.hw:2: bw_gbps must be a decimal number, not 'fast'" -- -b --sweep allreduce --hw "$T/bad.hw"

# --- refusals ----------------------------------------------------------------
expect_msg 2 "^distmm-tui: --hw h200: no such preset (--hw list names them) and no such file$" -- -b --hw h200
expect_msg 2 "^distmm-tui: --sweep has no effect without -b" -- --sweep allreduce
expect_msg 2 "^distmm-tui: rhd (recursive halving-doubling) needs a power of two ranks, not 3" -- --collective allreduce --algo rhd -d 3
expect_msg 2 "^distmm-tui: --algo has no effect without --collective" -- -b --algo tree
expect_msg 2 "^distmm-tui: --algo has no effect with --sweep" -- -b --sweep allreduce --algo tree
expect_msg 2 "^distmm-tui: --bytes has no effect with --sweep" -- -b --sweep allreduce --bytes 8
expect_msg 2 "^distmm-tui: --json has no effect without --sweep" -- -b --collective allreduce --json
expect_msg 2 "^distmm-tui: --sweep has no effect with --collective" -- -b --collective allreduce --sweep reduce
expect_msg 2 "^distmm-tui: --flops has no effect with --collective" -- -b --collective allreduce --flops 10
expect_msg 2 "^distmm-tui: -m has no effect with --collective" -- -b --collective allreduce -m dp
expect_msg 2 "^distmm-tui: --trace has no effect with --collective" -- -b --collective allreduce --trace "$T/x.jsonl"
expect_msg 2 "^distmm-tui: --seed has no effect with --sweep" -- -b --sweep allreduce --seed 3
expect_msg 2 "^distmm-tui: --collective has no effect with --replay" -- -b --collective allreduce --replay "$T/r.jsonl"
expect_msg 2 "^distmm-tui: unknown collective 'alltoall' for --sweep" -- -b --sweep alltoall
expect_msg 2 "^distmm-tui: unknown algorithm 'butterfly'" -- -b --collective allreduce --algo butterfly
expect_msg 2 "^distmm-tui: --bytes must be a multiple of 8 from 8 to 16G" -- -b --collective allreduce --bytes 12
expect_msg 2 "^distmm-tui: --alpha must be microseconds from 0 to" -- -b --alpha -1
expect_msg 2 "^distmm-tui: --bw must be GB/s above 0" -- -b --bw 0
expect_msg 2 "^distmm-tui: --flops must be TFLOPS above 0" -- -b --flops nan

# --- -b --timeline: the run on the modelled clock, as text -------------------
# FSDP 64^3 on 4 devices, alpha 2.4 us, beta 300 GB/s, F 1 GFLOP/s: each
# compute 2 x 16 x 64 x 16 / 1e9 s, each transfer (and each rank's gather)
# one message of 16 x 64 x 8 B; rank 0 sends nothing in the gather.  The
# lanes are worked out here again, column by column.
expect 0 "--timeline" -- -b -d 4 --hw a100-nvlink --flops 0.001 -M 64 -K 64 -N 64 --timeline
if $PY - "$T/out" <<'PY'
import re, sys
out = open(sys.argv[1]).read().splitlines()
W, n = 64, 4
comp = 2 * 16 * 64 * 16 / 1e9
msg = 2.4e-6 + 16 * 64 * 8 / 300e9
# phases: compute, transfer x3 alternating, compute, gather
ph = []
for s in range(4):
    ph.append(("C", [comp] * n, [0.0] * n))
    ph.append(("T", [0.0] * n, [msg] * n if s < 3 else [0.0] + [msg] * (n - 1)))
times = [max(c[r] + m[r] for r in range(n)) for _, c, m in ph]
total = sum(times)
col = lambda t: min(W, max(0, int(t / total * W + 0.5)))
want = []
for r in range(n):
    line, start = [], 0.0
    for (k, c, m), t in zip(ph, times):
        c0, c1 = col(start), col(start + t)
        e0, e1 = col(start + c[r]), col(start + c[r] + m[r])
        line += ["C" if j < e0 else "=" if j < e1 else "." for j in range(c0, c1)]
        start += t
    want.append("".join(line))
got = [re.match(r"  rank (\d+) +\|(.*)\|$", l) for l in out]
got = [m.group(2) for m in got if m]
assert got == want, (got, want)
crit = [l for l in out if l.startswith("  critical  |")]
g = col(total - times[-1])  # the gather's first column: rank 1 is its slowest (the lowest sender)
assert len(crit) == 1 and crit[0].split("|")[1] == "0" * g + "1" * (W - g), crit
exp = [l for l in out if l.startswith("exposed communication: ")]
comm = 3 * msg + msg
assert len(exp) == 1 and ("%.4g us" % (comm * 1e6)) in exp[0], (exp, comm)
PY
then ok; else bad "the timeline's lanes differ from the ones worked out again"; fi
expect 0 "--timeline alone: the default model" -- -b -q -d 3 --timeline
grep -q '^modelled time, model h100-nvlink' "$T/out" && [ "$(grep -c '^  rank [0-9]* *|' "$T/out")" = 3 ] || bad "--timeline without a model"
expect 0 "--timeline with a collective" -- -b -q --collective reducescatter --algo tree -d 5 --timeline
[ "$(grep -c '^  rank [0-9]* *|[C=.]*|$' "$T/out")" = 5 ] || bad "a collective's timeline"
expect 0 "--timeline with the training step" -- -b -q -d 3 --train --timeline
grep -q '^exposed communication: ' "$T/out" || bad "the training step's timeline"
expect_msg 2 "^distmm-tui: --timeline has no effect without -b" -- --timeline
expect_msg 2 "^distmm-tui: --timeline has no effect with --sweep" -- -b --sweep allreduce --timeline
