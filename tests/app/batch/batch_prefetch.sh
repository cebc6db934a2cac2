# batch_prefetch: --prefetch in batch mode (docs/clock.md, "Hiding
# communication"), sourced by batch_test.sh, whose helpers (expect,
# expect_msg, ok, bad) and $BIN, $T and $PY it uses.  C (and dA, dB) byte
# for byte the plain run's on 1 to 8 devices with uneven splits; the orders
# that complete plain complete, the one that deadlocks deadlocks; the
# modelled time never longer, shorter here, the timeline's overlap; every
# refusal, one line each.

# --- the results: the plain run's, byte for byte ---------------------------
for d in 1 2 3 4 5 6 7 8; do
	for run in "" "--train"; do
		grads_p="" grads_f=""
		[ -n "$run" ] && grads_p="--dA-out $T/pda.npy --dB-out $T/pdb.npy" \
			grads_f="--dA-out $T/fda.npy --dB-out $T/fdb.npy"
		# shellcheck disable=SC2086
		"$BIN" -b -q -d $d -M 13 -K 6 -N 11 --values floats $run -o "$T/plain.npy" $grads_p \
			>/dev/null 2>&1 || { bad "plain -d $d $run"; continue; }
		# shellcheck disable=SC2086
		"$BIN" -b -q -d $d -M 13 -K 6 -N 11 --values floats $run --prefetch -o "$T/pf.npy" $grads_f \
			>"$T/out" 2>&1 || { bad "--prefetch -d $d $run: $(tail -n 2 "$T/out")"; continue; }
		cmp -s "$T/plain.npy" "$T/pf.npy" || bad "--prefetch -d $d $run: C differs from the plain run's"
		if [ -n "$run" ]; then
			cmp -s "$T/pda.npy" "$T/fda.npy" && cmp -s "$T/pdb.npy" "$T/fdb.npy" ||
				bad "--prefetch -d $d --train: dA or dB differs from the plain run's"
		fi
		ok
	done
done

# --- the orders: as the plain ring ----------------------------------------
for o in "--order send-first --capacity 1" "--fix sendrecv --capacity 0" \
	"--fix recv-thread --capacity 0" "--fix buffered --capacity 0" "--capacity 0"; do
	# shellcheck disable=SC2086
	expect 0 "--prefetch $o" -- -b -q -d 5 -N 7 --prefetch $o
done
expect 3 "--prefetch still deadlocks where the plain ring does" -- -b -q -d 4 --order send-first --capacity 0 --prefetch
grep -q 'none is receiving' "$T/out" || bad "--prefetch's deadlock is not explained"
expect 3 "--prefetch: recv-first deadlocks at any capacity" -- -b -q -d 3 --order recv-first --prefetch

# --- the clock: never longer, shorter here, the overlap drawn --------------
clock="-b -d 4 --hw a100-nvlink --flops 0.01 -M 64 -K 64 -N 64 --timeline"
# shellcheck disable=SC2086
"$BIN" $clock >"$T/plain.txt" 2>&1 && "$BIN" $clock --prefetch >"$T/pf.txt" 2>&1 || bad "--prefetch --timeline runs"
if $PY - "$T/plain.txt" "$T/pf.txt" <<'PY'
import re, sys
def total(path):
    text = open(path).read()
    m = re.search(r"^  total ([0-9.]+) (us|ns|ms): ", text, re.M)
    return float(m.group(1)) * {"ns": 1e-3, "us": 1, "ms": 1e3}[m.group(2)], text
plain, pt = total(sys.argv[1])
pf, ft = total(sys.argv[2])
assert pf < plain, (pf, plain)
lanes = re.findall(r"^  rank \d+ +\|(.*)\|$", ft, re.M)
assert len(lanes) == 4 and all("#" in l for l in lanes), lanes
assert not any("#" in l for l in re.findall(r"^  rank \d+ +\|(.*)\|$", pt, re.M))
assert "# both at once" in ft and "with --prefetch each transfer runs beside" in ft
assert re.search(r"^      1  transfer 0 +- +beside phase 0, timed there$", ft, re.M), ft
PY
then ok; else bad "--prefetch's modelled time or timeline"; fi

# --- refusals --------------------------------------------------------------
expect_msg 2 "^distmm-tui: --prefetch has no effect with -m dp" -- -b -m dp --prefetch
expect_msg 2 "^distmm-tui: --prefetch has no effect with --bug" -- -b --bug no-wrap --prefetch
# the interface takes it (tests/ui/timeline_test.sh), with the same refusals, and a lesson's
expect_msg 2 "^distmm-tui: --prefetch has no effect with -m dp" -- -m dp --prefetch
expect_msg 2 "^distmm-tui: --prefetch has no effect with --lesson" -- --lesson "$L/deadlock.lesson" --prefetch
expect_msg 2 "^distmm-tui: --prefetch has no effect with --collective" -- -b --collective allreduce --prefetch
expect_msg 2 "^distmm-tui: --prefetch has no effect with --collective or --sweep" -- -b --sweep allreduce --prefetch
