# batch_params: -b --params, the memory argument at real scale
# (docs/tensor-parallel.md), sourced by batch_test.sh, whose helpers
# (expect, expect_msg, ok, bad) and $BIN, $T and $PY it uses.  The ZeRO
# paper's example to 0.1 GB from the JSON; the 400e9 model on 8 and 128
# devices; the table's convention and what it leaves out; the refusals.

# --- the paper's example: 120, 31.4, 16.6, 1.9 GB ------------------------------
expect 0 "params json" -- -b --params 7.5e9 -d 64 --json
if $PY - "$T/out" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["mode"] for r in rows] == ["dp", "zero-1", "zero-2", "zero-3"], rows
for r, want in zip(rows, [120, 31.4, 16.6, 1.9]):
    assert abs(r["gb"] - want) < 0.05, (r["mode"], r["gb"], want)
    assert r["bytes"] == r["param_bytes"] + r["grad_bytes"] + r["optim_bytes"]
    assert r["params"] == 7500000000 and r["devices"] == 64 and r["gpu_mem_gb"] == 80
ring = 2 * 63 / 64 * 2 * 7.5e9
assert [r["fits"] for r in rows] == [False, True, True, True]
assert all(abs(r["sent_bytes"] - ring) < 1 for r in rows[:3])
assert abs(rows[3]["sent_bytes"] - 1.5 * ring) < 1
PY
then ok; else bad "--params 7.5e9 -d 64 --json is not the ZeRO paper's 120, 31.4, 16.6, 1.9 GB"; fi

# --- the table -----------------------------------------------------------------
expect 0 "params table" -- -b --params 7.5e9 -d 64
for line in '^DP  *16Ψ  *120.0 GB  no ' '^ZeRO-1  *4Ψ + 12Ψ/N  *31.4 GB  yes ' \
	'^ZeRO-2  *2Ψ + 14Ψ/N  *16.6 GB  yes ' '^ZeRO-3 / FSDP  *16Ψ/N  *1.9 GB  yes ' \
	'GB = 10^9 bytes' '^left out: activations, temporary buffers, fragmentation'; do
	grep -q -- "$line" "$T/out" || bad "params table lacks '$line': $(cat "$T/out")"
done
# 400e9 at N = 8 fits nowhere on 80 GB; at N = 128 ZeRO-3 does, 50 GB
expect 0 "400B on 8" -- -b --params 400B -d 8
[ "$(grep -c '  no  ' "$T/out")" = 4 ] && grep -q '^fits nowhere' "$T/out" && ok ||
	bad "400B on 8 devices should fit nowhere: $(cat "$T/out")"
"$BIN" -b --params 400e9 -d 128 --json >"$T/out" 2>&1
grep -q '"mode":"zero-3".*"bytes":50000000000,.*"fits":true' "$T/out" &&
	[ "$(grep -c '"fits":false' "$T/out")" = 3 ] && ok ||
	bad "400B on 128 devices: ZeRO-3 alone should fit, at 50 GB: $(cat "$T/out")"
"$BIN" -b --params 400B -d 128 --gpu-mem 49.9 >"$T/out" 2>&1
grep -q '^fits nowhere: no mode holds the model states in 49.9 GB on 128 devices' "$T/out" && ok ||
	bad "--gpu-mem 49.9: $(tail -1 "$T/out")"
expect 0 "params on one device" -- -b --params 1B -d 1
grep -q '^ZeRO-3 / FSDP  *16Ψ/N  *16.0 GB  yes  *0.0 GB' "$T/out" && ok || bad "one device: $(cat "$T/out")"

# --- refusals -------------------------------------------------------------------
expect_msg 2 "^distmm-tui: --params has no effect with --export" -- --params 70B --export "$T/x.svg"
expect_msg 2 "^distmm-tui: --gpu-mem has no effect without --params" -- -b --gpu-mem 40
expect_msg 2 "^distmm-tui: -m has no effect with --params" -- -b --params 70B -m dp
expect_msg 2 "^distmm-tui: --params must be a count of parameters" -- -b --params 70GB
expect_msg 2 "^distmm-tui: --gpu-mem must be GB above 0" -- -b --params 70B --gpu-mem -1
