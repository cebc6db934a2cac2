#!/usr/bin/env bash
# batch_test: the program's batch mode from the outside: exit statuses, the
# one-line error for every kind of bad input, and -o / --trace round trips
# checked by numpy (Debian's python3-numpy, at /usr/bin/python3).
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
PY=/usr/bin/python3
T=$(mktemp -d /tmp/distmm-batch.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0 passes=0

ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect STATUS DESCRIPTION -- ARGS: exit status, and for status 2 exactly one
# line on stderr that starts with "distmm-tui: " and nothing on stdout.
expect() {
	local want=$1 what=$2; shift 3
	"$BIN" "$@" >"$T/out" 2>"$T/err"
	local got=$?
	if [ "$got" != "$want" ]; then
		bad "$what: exit $got, want $want ($*)"; sed 's/^/    /' "$T/err" | head -5; return
	fi
	if [ "$want" = 2 ]; then
		local lines; lines=$(wc -l <"$T/err")
		if [ "$lines" != 1 ] || ! grep -q '^distmm-tui: ' "$T/err" || [ -s "$T/out" ]; then
			bad "$what: want one 'distmm-tui:' line on stderr and no output ($*)"
			sed 's/^/    /' "$T/err" | head -5; return
		fi
	fi
	ok
}

# expect_msg STATUS PATTERN -- ARGS: as expect, and stderr matches PATTERN.
expect_msg() {
	local want=$1 pat=$2; shift 3
	expect "$want" "$pat" -- "$@"
	grep -q -- "$pat" "$T/err" || bad "stderr of ($*) lacks '$pat': $(cat "$T/err")"
}

# --- the schedule and the check -------------------------------------------
expect 0 "default run" -- -b
"$BIN" -b -d 4 >"$T/out" 2>&1
tail -n 1 "$T/out" | grep -q '^verify: allclose ok, max |err| = 0$' || bad "last line: $(tail -n 1 "$T/out")"
grep -q '^step 1  rank 2  holds shard (2-1) mod 4 = 1  -> C\[4:6, 1:2\]$' "$T/out" || bad "formula line missing"
grep -q '^step 1  rank 0  holds shard (0-1) mod 4 = 3  -> C\[0:2, 3:4\]$' "$T/out" || bad "wrap-around formula line missing"
[ "$(grep -c '^step ' "$T/out")" = 16 ] || bad "want 4x4 compute lines"
[ "$(grep -c '^transfer ' "$T/out")" = 12 ] || bad "want 3x4 transfer lines"
grep -q '^transfer 0  rank 3 -> rank 0  shard 3' "$T/out" || bad "ring wrap transfer missing"
grep -q '^gather  rank 3 -> rank 0  C\[6:8, 0:4\]' "$T/out" || bad "gather line missing"
grep -q 'each rank sends 3/4 of B' "$T/out" || bad "traffic note missing"
ok
# Uneven splits: the ring's note says what each rank sends, as the run's own
# transfer lines add up (B is K x N float64s; shares reduced, runs of ranks
# with one share named together).
ring_shares() { # FILE K N: "ranks 0-1 3/4, rank 2 1/2" from the transfer lines
	awk -v B=$((8 * $2 * $3)) '
	function gcd(a, b) { while (b) { t = a % b; a = b; b = t } return a }
	/^transfer / { sent[$4] += $(NF - 1); if ($4 + 1 > n) n = $4 + 1 }
	END {
		for (r = 0; r < n; r++) { g = gcd(sent[r], B); f[r] = sent[r] / g "/" B / g }
		for (r = 0; r < n; r = e + 1) {
			for (e = r; e + 1 < n && f[e + 1] == f[r]; e++) ;
			name = (e > r) ? "ranks " r "-" e : "rank " r
			printf "%s%s %s", (r ? ", " : ""), name, f[r]
		}
	}' "$1"
}
for shape in "3 8 6 4" "5 9 3 7" "3 7 5 5"; do
	set -- $shape
	"$BIN" -b -d $1 -M $2 -K $3 -N $4 >"$T/out" 2>&1
	want=$(ring_shares "$T/out" $3 $4)
	grep -qF "the ring: each rank sends on average $((${1} - 1))/$1 of B ($want);" "$T/out" &&
		ok || bad "-d $1 -N $4: the ring's note is not ($want): $(grep 'the ring' "$T/out")"
done
set --
for d in 1 2 3 5 8 9 16 64; do
	for m in fsdp dp; do expect 0 "d=$d $m" -- -b -q -d $d -m $m -M 13 -K 5 -N 7 --values floats; done
done
expect 0 "more devices than rows and columns" -- -b -d 12 -M 3 -N 2 -K 4
expect 0 "1024 devices" -- -b -q -d 1024 -M 16 -K 4 -N 16
expect 0 "rendezvous channel" -- -b -q -d 6 --capacity 0
expect 0 "bounded channel, naive" -- -b -q -d 6 --capacity 1 --naive
expect 0 "help" -- --help
grep -q -- '--devices' "$T/out" || bad "help lacks --devices"
# the help is read in an 80-column terminal: no line wraps there
awk 'length > 79 { print "    " length ": " $0; n++ } END { exit n > 0 }' "$T/out" \
	|| bad "help lines over 79 columns"
expect 0 "version" -- -V
grep -q '^distmm-tui [0-9]' "$T/out" || bad "version line"

# --- only what was asked: the DP-vs-FSDP table and the check ------------------
# the other mode's figures come from the model; --compare runs it, and the
# numbers must be the ones the real run measures
table() { sed -n '/^DP vs FSDP/,/gathered C/p' "$T/out"; }
for args in "-d 4" "-d 3 -M 13 -K 5 -N 7" "-d 5 -m dp -M 13 -K 5 -N 17" "-d 7 -M 3 -N 20 -K 2" \
	"-d 1 -m dp" "-d 6 --bug send-left" "-d 16 -M 40 -K 9 -N 33 -m dp"; do
	"$BIN" -b -q $args >"$T/out" 2>&1; table >"$T/model"
	grep -q 'peaks and sends: from the model' "$T/out" || bad "no model line ($args)"
	grep -q -- '--compare runs it' "$T/out" || bad "no --compare hint ($args)"
	"$BIN" -b -q --compare $args >"$T/out" 2>&1; table >"$T/ran"
	grep -q 'peaks and sends: measured in a run made for this table (--compare)' "$T/out" \
		|| bad "--compare did not run the other mode ($args)"
	[ -s "$T/model" ] && cmp -s "$T/model" "$T/ran" && ok || { bad "model and run differ ($args)"; diff "$T/model" "$T/ran" | head -5; }
done
"$BIN" -b -q -d 4 >"$T/out"
grep -q '^  FSDP peaks and sends: measured in this run$' "$T/out" || bad "the run's own mode not measured"
expect_msg 2 "--compare has no effect without -b" -- --compare
expect_msg 2 "--verify has no effect without -b" -- --verify exact
expect_msg 2 "unknown verification 'fast'" -- -b --verify fast

# the check: exact up to M*K*N = 2^24, Freivalds' vectors above, as asked
expect 0 "exact at 256^3" -- -b -q -M 256 -K 256 -N 256 --values floats
tail -n 1 "$T/out" | grep -q '^verify: allclose ok' || bad "256^3 not exact: $(tail -n 1 "$T/out")"
expect 0 "Freivalds above 2^24" -- -b -q -M 257 -K 256 -N 256 --values floats -d 3
tail -n 1 "$T/out" | grep -q '^verify: Freivalds ok, 16 random +-1 vectors x, |Cx - A(Bx)| <= (1e-8\*sum|x| + 1e-5\*|C||x|)/(1 - 1e-5) in all 257 rows .*passes with probability <= 2^-16$' \
	|| bad "Freivalds line: $(tail -n 1 "$T/out")"
expect 0 "--verify exact above 2^24" -- -b -q -M 257 -K 256 -N 256 --values floats --verify exact
tail -n 1 "$T/out" | grep -q '^verify: allclose ok' || bad "--verify exact: $(tail -n 1 "$T/out")"
expect 0 "--verify freivalds on the exercise" -- -b -q --verify freivalds -d 2
tail -n 1 "$T/out" | grep -q '^verify: Freivalds ok.* in all 8 rows' || bad "--verify freivalds: $(tail -n 1 "$T/out")"
for bug in r-plus-s send-left no-wrap int-accumulator; do
	for how in auto exact; do
		expect 1 "--bug $bug at 300^3, --verify $how" -- -b -q -d 4 -M 300 -K 300 -N 300 --bug $bug --verify $how
		want='^verify: MISMATCH (Freivalds, 16'; [ $how = exact ] && want='^verify: MISMATCH, '
		tail -n 1 "$T/out" | grep -q "$want" || bad "--bug $bug --verify $how: $(tail -n 1 "$T/out")"
	done
done
$PY -c "
import numpy as np
a = np.random.default_rng(3).standard_normal((300, 300)); a[7, 11] = np.nan
np.save('$T/nan.npy', a)"
# one rule, allclose with equal_nan: the NaN reaches C where it reaches A @ B
expect 0 "a NaN in A above 2^24" -- -b -q -A "$T/nan.npy" -N 300 -d 2
grep -q '^verify: Freivalds cannot decide' "$T/out" &&
	tail -n 1 "$T/out" | grep -q '^verify: allclose ok, .*NaN-equal: the 300 NaN or infinite elements' \
	|| bad "NaN: $(tail -n 2 "$T/out")"
for how in exact freivalds; do
	expect 0 "a NaN in A, --verify $how" -- -b -q -A "$T/nan.npy" -N 300 -d 3 -m dp --verify $how
	tail -n 1 "$T/out" | grep -q 'NaN-equal' || bad "NaN, --verify $how: $(tail -n 1 "$T/out")"
done

# --- deadlock ---------------------------------------------------------------
expect_msg 3 "deadlock: every device is blocked" -- -b -d 4 --naive --capacity 0
grep -q 'rank 0 waits to send shard 0 to rank 1' "$T/out" || bad "wait cycle not printed"
expect_msg 3 "deadlock" -- -b -d 4 --naive --capacity 0 -o "$T/never.npy"
[ -e "$T/never.npy" ] && bad "a failed run wrote its output"

# --- the deadlock lab: every order and fix, n = 1..5, capacities 0, 1, inf ---
# The table, written out here (not asked of the program): send-first
# deadlocks only at capacity 0, recv-first at every capacity, the fixes
# never; one device has no transfer.  A deadlock exits 3 and names the cycle.
lab_want() { # ORDER-OR-FIX CAPACITY N -> 0 or 3
	[ "$3" = 1 ] && { echo 0; return; }
	case "$1" in
	send-first) [ "$2" = 0 ] && echo 3 || echo 0 ;;
	recv-first) echo 3 ;;
	*) echo 0 ;;
	esac
}
lab_cycle() { # the cycle of waits for N devices: right round the ring, or left
	local n=$2 c=0 r
	if [ "$1" = send-first ]; then for r in $(seq 1 $((n - 1))); do c="$c -> $r"; done
	else for r in $(seq $((n - 1)) -1 1); do c="$c -> $r"; done; fi
	echo "$c -> 0"
}
for how in "--order send-first" "--order recv-first" "--order parity" "--fix parity" \
	"--fix recv-thread" "--fix sendrecv" "--fix buffered"; do
	name=${how#--* }
	for cap in 0 1 unbounded; do
		for n in 1 2 3 4 5; do
			want=$(lab_want "$name" "$cap" "$n")
			# shellcheck disable=SC2086
			expect "$want" "$how --capacity $cap -d $n" -- -b -d $n -M 7 -N 9 $how --capacity $cap
			[ "$want" = 0 ] && { tail -n 1 "$T/out" | grep -q '^verify: allclose ok' ||
				bad "$how cap $cap d $n: not verified"; }
			if [ "$want" = 3 ]; then
				grep -q '^distmm-tui: deadlock: every device is blocked' "$T/err" ||
					bad "$how cap $cap d $n: no deadlock line"
				grep -qx "deadlock, the cycle of waits: $(lab_cycle "$name" "$n")" "$T/out" ||
					bad "$how cap $cap d $n: cycle $(grep 'cycle of waits' "$T/out")"
				[ "$(grep -c '^  rank [0-9]* waits to ' "$T/out")" = "$n" ] ||
					bad "$how cap $cap d $n: not every device says what it waits on"
			fi
			if [ "$name" = recv-thread ] && [ "$n" -gt 1 ]; then
				grep -q "^threads: $((2 * n)) for $n devices" "$T/out" ||
					bad "recv-thread d $n: the extra threads are not in the account"
			fi
		done
	done
done
expect 3 "recv-first" -- -b -q -d 3 --order recv-first
grep -q "on Python's unbounded Queue" "$T/out" || bad "recv-first: the deadlock is not explained"
grep -q 'rank 1 waits to receive from rank 0' "$T/out" || bad "recv-first: waits not printed"
expect 0 "--naive is send-first" -- -b -q -d 4 --naive --order send-first
expect_msg 2 "both say how a transfer is made" -- -b --naive --fix sendrecv
expect_msg 2 "both say how a transfer is made" -- -b --order recv-first --order parity
expect_msg 2 "unknown order 'sendrecv'" -- -b --order sendrecv
expect_msg 2 "unknown fix 'send-first'" -- -b --fix send-first
expect_msg 2 "^distmm-tui: --order has no effect with -m dp (DP has no ring transfer to order)" -- -b -m dp --order recv-first
expect_msg 2 "^distmm-tui: --fix has no effect with -m dp (DP has no ring transfer to order)" -- -b -m dp --fix recv-thread
expect_msg 2 "^distmm-tui: --bug has no effect with -m dp (that bug is a mistake in the FSDP ring" -- -b -m dp --bug r-plus-s
expect_msg 2 "^distmm-tui: --fix has no effect with --replay" -- --replay "$T/none.jsonl" --fix sendrecv
expect_msg 2 "^distmm-tui: --order has no effect with --lesson" -- --lesson "$(dirname "$0")/../../../assets/lessons/deadlock.lesson" --order recv-first

# --- the Python candidate's mistakes: each fails (1) or deadlocks (3) -------
expect 0 "bug list" -- --bug list
for b in py-no-mod recv-overwrite reuse-buffer extra-rotation arrival-order; do
	grep -q "^  $b " "$T/out" || bad "--bug list lacks $b"
done
bug_case() { # STATUS BUG PHRASE-OF-ITS-EXPLANATION ARGS...
	local want=$1 b=$2 words=$3; shift 3
	expect "$want" "--bug $b $*" -- -b -q --bug "$b" "$@"
	grep -q "^the bug: .*$words" "$T/out" || bad "--bug $b: the explanation lacks '$words'"
}
bug_case 1 py-no-mod "out\[:, -w:0\], empty" -d 4
grep -q '^verify: MISMATCH' "$T/out" || bad "py-no-mod, w = 1: the dropped columns are not a mismatch"
bug_case 1 py-no-mod "shape error" -d 2
grep -q "out\[:, -2:0\] += a @ shard: ValueError" "$T/err" || bad "py-no-mod, w = 2: $(cat "$T/err")"
bug_case 1 recv-overwrite "receive first into the variable" -d 3
bug_case 1 reuse-buffer "passed a reference" -d 5 -M 10 -N 7
bug_case 1 extra-rotation "never received" -d 4
grep -q "got a shard of B" "$T/err" || bad "extra-rotation: $(cat "$T/err")"
bug_case 1 extra-rotation "never received" -d 1
grep -q "never received" "$T/err" || bad "extra-rotation on one device: $(cat "$T/err")"
bug_case 3 extra-rotation "never received" -d 3 --capacity 0
grep -q "sends its shard once more" "$T/out" || bad "extra-rotation's deadlock is not explained"
bug_case 1 arrival-order "in the order they arrive" -d 3
bug_case 1 arrival-order "in the order they arrive" -d 4 -m dp
expect 1 "arrival-order's account" -- -b -d 4 -m dp --bug arrival-order
grep -q "^placed  rank 0 stacks rank 3's rows at C\[0:2\]" "$T/out" || bad "arrival-order: placements not shown"
bug_case 1 int-accumulator "integer" -d 3
expect 0 "r-plus-s passes on two devices" -- -b -q -d 2 --bug r-plus-s
grep -q "(r + s) mod 2 equals (r - s) mod 2, so it passes" "$T/out" || bad "r-plus-s at n = 2: no note"

# --- bad arguments ----------------------------------------------------------
expect_msg 2 "device count" -- -b -d 0
expect_msg 2 "device count" -- -b -d -3
expect_msg 2 "device count" -- -b -d abc
expect_msg 2 "device count" -- -b -d 4x
expect_msg 2 "device count" -- -b -d ''
expect_msg 2 "device count" -- -b -d 4097
expect_msg 2 "device count" -- -b -d 99999999999999999999999
expect_msg 2 "needs a value" -- -b -d
expect_msg 2 "-M (rows of A)" -- -b -M 0
expect_msg 2 "-M (rows of A)" -- -b -M -5
expect_msg 2 "-K (columns of A" -- -b -K 1e3
expect_msg 2 "-N (columns of B)" -- -b -N ' 4'
expect_msg 2 "unknown mode 'tp'" -- -b -m tp
expect_msg 2 "unknown values" -- -b --values big
expect_msg 2 "seed" -- -b --seed -1
expect_msg 2 "capacity" -- -b --capacity -1
expect_msg 2 "unknown option '--bogus'" -- -b --bogus
expect_msg 2 "unknown option '-x'" -- -b -x
expect_msg 2 "unexpected argument 'extra'" -- -b extra
expect_msg 2 "more than the" -- -b -M 1000000 -K 1000000 -N 1000000
expect_msg 2 "more than the" -- -b -d 4096 -M 200000 -K 200000 -N 2
expect_msg 2 "more than the" -- -b -m dp -d 4096 -M 4096 -K 8192 -N 8192

# --- bad files --------------------------------------------------------------
$PY - "$T" <<'PY'
import numpy as np, sys
t = sys.argv[1]
rng = np.random.default_rng(7)
np.save(f"{t}/a.npy", rng.standard_normal((5, 3)))
np.save(f"{t}/b.npy", rng.standard_normal((3, 4)))
np.save(f"{t}/b_wrong.npy", rng.standard_normal((4, 4)))
np.save(f"{t}/f.npy", np.asfortranarray(rng.standard_normal((3, 4))))
np.save(f"{t}/big.npy", rng.standard_normal((3, 4)).astype('>f8'))
np.save(f"{t}/c16.npy", rng.standard_normal((3, 4)).astype(np.complex128))
np.save(f"{t}/v.npy", rng.standard_normal(3))
np.save(f"{t}/e.npy", np.zeros((0, 4)))
raw = open(f"{t}/a.npy", "rb").read()
open(f"{t}/trunc_data.npy", "wb").write(raw[:-8])
open(f"{t}/trunc_head.npy", "wb").write(raw[:40])
open(f"{t}/ragged.csv", "w").write("1,2,3\n4,5\n")
open(f"{t}/word.csv", "w").write("1,2\n3,x\n")
open(f"{t}/empty.csv", "w").write("")
open(f"{t}/ok.csv", "w").write("1,2,3\n4,5,6\n7,8,9\n")
open(f"{t}/a.txt", "w").write("1,2\n")
PY
mkdir "$T/dir.npy"
expect_msg 2 "No such file" -- -b -A "$T/missing.npy"
expect_msg 2 "directory" -- -b -A "$T/dir.npy"
ln -s /proc/self/mem "$T/mem.npy"   # unreadable even for root: EIO
expect_msg 2 "cannot read .*mem.npy" -- -b -A "$T/mem.npy"
expect_msg 2 "unknown file type" -- -b -A "$T/a.txt"
# Fortran order (np.save(x.T) writes it) is read as numpy reads it
expect 0 "a Fortran-order B" -- -b -A "$T/a.npy" -B "$T/f.npy" -o "$T/af.npy"
"$PY" -c "import numpy as np, sys; t = sys.argv[1]
c = np.load(t + '/a.npy') @ np.load(t + '/f.npy')
sys.exit(0 if np.array_equal(np.load(t + '/af.npy'), c) else 1)" "$T" ||
	bad "A @ B with a Fortran-order B is not numpy's"
expect_msg 2 "big-endian" -- -b -B "$T/big.npy"
expect_msg 2 "not supported" -- -b -B "$T/c16.npy"
expect_msg 2 "2-d" -- -b -B "$T/v.npy"
expect_msg 2 "empty" -- -b -B "$T/e.npy"
expect_msg 2 "shorter" -- -b -A "$T/trunc_data.npy"

# --- an output never replaces an input or another output (issue 28) ---------
# refused with one line before anything is read or written, whatever the
# spelling: another path to it, a link, the same new name twice
cp "$T/a.npy" "$T/a_keep.npy"
ln -s a.npy "$T/a_link.npy"
mkdir -p "$T/sub"
sum_a=$(cksum <"$T/a.npy")
expect_msg 2 "^distmm-tui: -o .*a.npy is -A's file too: writing it would replace the input" -- \
	-b -A "$T/a.npy" -B "$T/b.npy" -o "$T/a.npy"
expect_msg 2 "-o .* is -A's file too" -- -b -A "$T/a_link.npy" -B "$T/b.npy" -o "$T/sub/../a.npy"
expect_msg 2 "--trace .* is -B's file too" -- -b -A "$T/a.npy" -B "$T/b.npy" --trace "$T/b.npy"
expect_msg 2 "--dC .*\|--dA-out .* is -A's file too" -- -b --train -A "$T/a.npy" -B "$T/b.npy" \
	--dA-out "$T/a.npy"
[ "$(cksum <"$T/a.npy")" = "$sum_a" ] && ok || bad "a refused output changed the input"
rm -f "$T/new.csv"
expect_msg 2 "--trace .*new.csv is -o's file too: writing it would lose one of the two outputs" -- \
	-b -o "$T/new.csv" --trace "$T/sub/../new.csv"
[ -e "$T/new.csv" ] && bad "a refused run wrote new.csv" || ok
expect_msg 2 "--dA-out .* is -o's file too" -- -b --train -o "$T/x.npy" --dA-out "$T/x.npy"
expect_msg 2 "--dB-out .* is --dA-out's file too" -- -b --train --dA-out "$T/x.npy" --dB-out "$T/./x.npy"

# --- control characters in a message are escaped, never raw ------------------
expect_msg 2 'cannot read x\\033\[31my.npy' -- -b -A "$(printf 'x\033[31my.npy')"
if grep -q "$(printf '\033')" "$T/err"; then bad "an escape sequence reached stderr raw"; else ok; fi
expect_msg 2 "unknown mode 'a\\\\nb\\\\t'" -- -b -m "$(printf 'a\nb\t')"
expect_msg 2 "trunc_head.npy" -- -b -A "$T/trunc_head.npy"
expect_msg 2 "ragged" -- -b -A "$T/ragged.csv"
expect_msg 2 "not a number" -- -b -A "$T/word.csv"
expect_msg 2 "no data" -- -b -A "$T/empty.csv"
expect_msg 2 "shapes do not match" -- -b -A "$T/a.npy" -B "$T/b_wrong.npy"
expect_msg 2 "rows of A" -- -b -A "$T/a.npy" -M 7
expect_msg 2 "columns of B" -- -b -B "$T/b.npy" -N 9
expect_msg 2 "cannot write" -- -b -o "$T/nodir/c.npy"
expect_msg 2 "directory" -- -b -o "$T/dir.npy"
expect_msg 2 "unknown file type" -- -b -o "$T/c.txt"
expect_msg 2 "cannot write" -- -b --trace "$T/nodir/t.jsonl"
# temporary files are hidden: .NAME.XXXXXX beside the target
[ -z "$(ls -A "$T" | grep -E '^\.|^c\.' )" ] || bad "a failed write left files: $(ls -A "$T")"
expect 0 "csv A and generated B" -- -b -q -A "$T/ok.csv" -N 2

"$BIN" -b -q -d 3 --trace "$T/r.jsonl" >/dev/null || bad "recording a trace to replay"
# --- options that would do nothing in the mode chosen: refused, named ------
L=$(cd "$(dirname "$0")/../../.." && pwd)/assets/lessons
expect_msg 2 "^distmm-tui: --quiz has no effect with -b" -- -b --quiz
expect_msg 2 "^distmm-tui: --quiz has no effect with -b" -- --quiz=2 -b
expect_msg 2 "^distmm-tui: --play has no effect with -b" -- -b --play
expect_msg 2 "^distmm-tui: --lesson has no effect with -b" -- -b --lesson "$L/deadlock.lesson"
expect_msg 2 "^distmm-tui: --no-color has no effect with -b" -- -b --no-color
expect_msg 2 "^distmm-tui: --ascii has no effect with -b" -- --ascii -b -d 2
expect_msg 2 "^distmm-tui: -q has no effect without -b" -- -q
expect_msg 2 "^distmm-tui: -o has no effect without -b" -- -o "$T/c.npy"
expect_msg 2 "^distmm-tui: --trace has no effect without -b" -- --trace "$T/t.jsonl"
expect_msg 2 "^distmm-tui: --trace-format has no effect without --trace" -- --trace-format chrome
expect_msg 2 "^distmm-tui: --trace-format has no effect without --trace" -- -b --trace-format jsonl
expect_msg 2 "^distmm-tui: -d has no effect with --replay" -- -b --replay "$T/r.jsonl" -d 4
expect_msg 2 "^distmm-tui: -m has no effect with --replay" -- --replay "$T/r.jsonl" -m dp
expect_msg 2 "^distmm-tui: --capacity has no effect with --replay" -- -b --replay "$T/r.jsonl" --capacity 0
expect_msg 2 "^distmm-tui: --naive has no effect with --replay" -- --replay "$T/r.jsonl" --naive
expect_msg 2 "^distmm-tui: --quiz has no effect with --replay" -- --replay "$T/r.jsonl" --quiz
expect_msg 2 "^distmm-tui: --lesson has no effect with --replay" -- --replay "$T/r.jsonl" --lesson "$L/deadlock.lesson"
expect_msg 2 "^distmm-tui: --trace has no effect with --replay" -- -b --replay "$T/r.jsonl" --trace "$T/t.jsonl"
expect_msg 2 "^distmm-tui: --naive has no effect with -m dp (DP has no ring transfer to order)" -- -b -m dp --naive
expect_msg 2 "^distmm-tui: --naive has no effect with -m dp" -- --naive --capacity 0 -m DP
expect_msg 2 "^distmm-tui: --bug has no effect with -m dp" -- -b -m dp --bug c-mod
expect_msg 2 "^distmm-tui: --seed has no effect with both -A and -B" -- -b -A "$T/a.npy" -B "$T/b.npy" --seed 2
expect_msg 2 "^distmm-tui: --values has no effect with both -A and -B" -- -b --values floats -A "$T/a.npy" -B "$T/b.npy"
# a caption for a step a part's run does not have: its line, before anything starts
printf 'title: t\npart: one\nset: fsdp devices=2\ncompute 1: ok\npart: two\nset: dp\n\ntransfer 0: never\n' \
	>"$T/steps.lesson"
expect_msg 2 "^distmm-tui: .*steps.lesson:8: transfer 0: part 'two' runs DP on 2 devices, which has no transfer$" -- \
	--lesson "$T/steps.lesson" --export "$T/steps.svg"
[ -e "$T/steps.svg" ] && bad "a refused lesson exported" || ok
# a lesson's first part sets these itself (checked before any terminal is needed)
expect_msg 2 "^distmm-tui: -d has no effect with --lesson .*deadlock.lesson: the lesson's first part sets it (devices=)" -- --lesson "$L/deadlock.lesson" -d 3
expect_msg 2 "^distmm-tui: --naive has no effect with --lesson" -- --lesson "$L/deadlock.lesson" --naive
expect_msg 2 "^distmm-tui: --seed has no effect with --lesson" -- --lesson "$L/the-exercise.lesson" --seed 3
expect_msg 2 "^distmm-tui: -m has no effect with --lesson" -- --lesson "$L/memory.lesson" -m fsdp
# what the mode uses stays accepted (a lesson's part 0 that leaves the seed
# alone takes it from the command line; the rest needs a terminal)
expect_msg 2 "needs a terminal" -- --lesson "$L/deadlock.lesson" --seed 3 --quiz --play </dev/null
expect_msg 2 "needs a terminal" -- --replay "$T/r.jsonl" --play --ascii --no-color </dev/null
expect 0 "-q, -o, --trace, --trace-format with -b" -- -b -q -o "$T/ok.npy" --trace "$T/ok.json" --trace-format chrome
expect 0 "--capacity with -m dp" -- -b -q -m dp --capacity 0
expect 0 "--seed with one file" -- -b -q -A "$T/ok.csv" --seed 9 -N 2


# --- the training step: the schedule, the formulas, C, dA and dB -------------
"$BIN" -b --train -d 4 >"$T/out" 2>"$T/err"; st=$?
[ "$st" = 0 ] && [ ! -s "$T/err" ] || bad "-b --train: exit $st, $(head -3 "$T/err")"
for line in \
	'^verify C = A @ B: allclose ok, max |err| = 0$' \
	'^verify dA = dC @ B^T: allclose ok, max |err| = 0$' \
	'^verify dB = A^T @ dC: allclose ok, max |err| = 0$' \
	'^backward step 1  rank 0  holds shard (0-1) mod 4 = 3  dA\[0:2\] += dC\[0:2, 3:4\] @ B\[:, 3:4\]^T$' \
	'^backward transfer 0  rank 3 -> rank 0  shard 3  B\[:, 3:4\]  48 B$' \
	'^free  rank 1  lets B\[2\] go' \
	'^reduce-scatter 0  rank 0 -> rank 1  sends chunk (0-0-1) mod 4 = 3  dB\[:, 3:4\]  48 B$' \
	'^reduce-scatter 2  rank 1  receives chunk (1-2-2) mod 4 = 1 from rank 0, adds its part: 4 of 4 parts$' \
	'^keep  rank 2  keeps chunk 2 of dB' \
	'^gather  rank 3 -> rank 0  dB\[:, 3:4\] (chunk 3)  48 B$' \
	'^    rank 0: 2\*(B - w1) + (B - w0) = 2\*(192 - 48) + (192 - 48) = 432$'; do
	grep -q -- "$line" "$T/out" || bad "-b --train lacks: $line"
done
[ "$(grep -c '^reduce-scatter .* sends chunk' "$T/out")" = 12 ] || bad "want 3x4 reduce-scatter sends"
[ "$(grep -c '^backward step ' "$T/out")" = 16 ] || bad "want 4x4 backward computes"
grep -qF "in DP, for the all-reduce of dB, 6/4 of B's size; in FSDP, for two all-gathers and \
dB's reduce-scatter, 9/4 of B's size;" "$T/out" || bad "-b --train -d 4: $(grep 'a rank sends' "$T/out")"
ok
# an uneven split's shares, rank by rank: the closed forms' figures (the
# "ring sent" column, B = 192) over B
"$BIN" -b --train -d 3 >"$T/out" 2>&1
grep -q '^  rank 1 .* 432 *432 ' "$T/out" && grep -qF "in FSDP, for two all-gathers and dB's \
reduce-scatter, on average 2 x B's size (rank 0 2, rank 1 9/4, rank 2 7/4);" "$T/out" &&
	ok || bad "-b --train -d 3: $(grep -e 'a rank sends' -e '^  rank 1 ' "$T/out")"
"$BIN" -b --train -m dp -d 3 >"$T/out" 2>&1 || bad "-b --train -m dp: $(tail -3 "$T/out")"
grep -q '^all-gather 1  rank 2 -> rank 0  sends chunk (2-1) mod 3 = 1' "$T/out" && ok || bad "DP's all-gather line"
grep -q '^    rank 0: (B - w0) + (B - w1)' "$T/out" && ok || bad "DP's closed form"
for d in 1 2 3 5 8 16; do
	for m in fsdp dp; do
		expect 0 "--train d=$d $m" -- -b -q --train -d $d -m $m -M 13 -K 5 -N 7 --values floats
	done
done
expect 0 "--train, more devices than rows and columns" -- -b -q --train -d 9 -M 3 -N 2 -K 4
expect 0 "--train at capacity 0" -- -b -q --train -d 5 --capacity 0
# the backward's bugs: only dB fails (exit 1), and the list has them
for bug in rs-off-by-one no-sum; do
	for m in fsdp dp; do
		"$BIN" -b -q --train -m $m -d 4 --bug $bug >"$T/out" 2>"$T/err"; st=$?
		[ "$st" = 1 ] && grep -q '^verify dB = A^T @ dC: MISMATCH' "$T/out" &&
			grep -q '^verify dA = dC @ B^T: allclose ok' "$T/out" && ok ||
			bad "--train --bug $bug -m $m: exit $st, $(grep '^verify' "$T/out" | tr '\n' '|')"
	done
	"$BIN" --bug list | grep -q "^  $bug " && ok || bad "--bug list lacks $bug"
	expect 0 "--bug $bug on one device cannot show" -- -b -q --train -d 1 --bug $bug
done
# the training step's three checks are the forward's: exact up to
# M*K*N = 2^24, Freivalds' vectors above (dA's projection dC(B^T x), dB's
# A^T(dC x)), or as --verify says; a backward's bug fails dB alone either way
expect 0 "--train above 2^24: Freivalds" -- -b -q --train -M 257 -K 256 -N 256 --values floats -d 3
for prod in 'C = A @ B: Freivalds ok.*|Cx - A(Bx)|.*in all 257 rows' \
	'dA = dC @ B^T: Freivalds ok.*|dAx - dC(B^Tx)|.*in all 257 rows' \
	'dB = A^T @ dC: Freivalds ok.*|dBx - A^T(dCx)|.*in all 256 rows'; do
	grep -q "^verify $prod" "$T/out" || bad "--train above 2^24 lacks: $prod"
done
expect 0 "--train --verify exact above 2^24" -- -b -q --train -M 257 -K 256 -N 256 --values floats --verify exact
[ "$(grep -c '^verify .*: allclose ok' "$T/out")" = 3 ] || bad "--train --verify exact: $(grep '^verify' "$T/out")"
expect 0 "--train --verify freivalds on the exercise" -- -b -q --train --verify freivalds -d 2
[ "$(grep -c '^verify .*: Freivalds ok' "$T/out")" = 3 ] || bad "--train --verify freivalds: $(grep '^verify' "$T/out")"
for how in exact freivalds; do
	for m in fsdp dp; do
		expect 1 "--train --bug no-sum at 300^3, $m, --verify $how" -- -b -q --train -m $m -d 3 \
			-M 300 -K 300 -N 300 --values floats --bug no-sum --verify $how
		want='^verify dB = A^T @ dC: MISMATCH (Freivalds, 16'
		[ $how = exact ] && want='^verify dB = A^T @ dC: MISMATCH, [0-9]* of 90000 elements differ from A^T @ dC'
		grep -q "$want" "$T/out" && [ "$(grep -c '^verify [Cd]A\? = .*ok' "$T/out")" = 2 ] ||
			bad "--train --bug no-sum --verify $how: $(grep '^verify' "$T/out" | cut -c1-60)"
	done
done
# bad dC: missing, another shape, not a matrix file; options that do nothing
$PY -c "import numpy as np; np.save('$T/dc34.npy', np.zeros((3, 4)))"
printf '1,2\n3\n' >"$T/ragged.csv"
expect_msg 2 "^distmm-tui: cannot read $T/none.npy" -- -b --train --dC "$T/none.npy"
expect_msg 2 "^distmm-tui: dC is 3x4 in $T/dc34.npy, but C = A @ B is 8x4: dC must have C's shape" -- -b --train --dC "$T/dc34.npy"
expect 2 "a ragged dC" -- -b --train --dC "$T/ragged.csv"
expect_msg 2 "^distmm-tui: --dC has no effect without --train" -- -b --dC "$T/dc34.npy"
expect_msg 2 "^distmm-tui: --dA-out has no effect without --train" -- -b --dA-out "$T/da.npy"
expect_msg 2 "^distmm-tui: --dB-out has no effect without --train" -- -b -q --dB-out "$T/db.npy"
# the interface runs the training step (train_ui_test.sh); without a
# terminal it says so, as for any run; it writes no gradient's file
expect_msg 2 "^distmm-tui: interactive mode needs a terminal" -- --train
expect_msg 2 "^distmm-tui: --dA-out has no effect without -b" -- --train --dA-out "$T/da.npy"
expect_msg 2 "^distmm-tui: --train has no effect with --replay" -- -b --train --replay "$T/r.jsonl"
expect_msg 2 "^distmm-tui: --naive has no effect with --train" -- -b --train --naive
expect_msg 2 "^distmm-tui: --fix has no effect with --train" -- -b --train --fix sendrecv
expect_msg 2 "^distmm-tui: --bug has no effect with --train (that bug is a mistake of the forward" -- -b --train --bug r-plus-s
expect_msg 2 "^distmm-tui: --bug has no effect without --train (that bug is a mistake of the backward" -- -b --bug no-sum
expect_msg 2 "^distmm-tui: --train has no effect with --judge" -- -b --judge x.py --train
expect_msg 2 "unknown file type" -- -b --train --dA-out "$T/da.txt"
expect_msg 2 "directory" -- -b --train --dB-out "$T/dir.npy"
printf '1,2,3\n4,5,6\n7,8,9\n' >"$T/sq.csv"
expect 0 "--seed with both files and a generated dC" -- -b -q --train -A "$T/sq.csv" -B "$T/sq.csv" --seed 4
# the outputs, the trace through --replay, dC from a file: numpy agrees
$PY - "$T" <<'PY'
import numpy as np, sys
t = sys.argv[1]; r = np.random.default_rng(7)
np.save(f"{t}/ta.npy", r.standard_normal((11, 5))); np.save(f"{t}/tb.npy", r.standard_normal((5, 9)))
np.savetxt(f"{t}/tdc.csv", r.standard_normal((11, 9)), delimiter=",")
PY
for m in fsdp dp; do
	for d in 1 3 4; do
		if ! "$BIN" -b -q --train -m $m -d $d -A "$T/ta.npy" -B "$T/tb.npy" --dC "$T/tdc.csv" \
			-o "$T/tc.npy" --dA-out "$T/tda.npy" --dB-out "$T/tdb.csv" --trace "$T/tt.jsonl" >"$T/out" 2>"$T/err"; then
			bad "--train outputs $m d=$d: $(cat "$T/err")"; continue
		fi
		$PY - "$T" "$d" "$m" <<'PY' || bad "numpy disagrees with --train's outputs ($m d=$d)"
import json, numpy as np, sys
t, d, m = sys.argv[1], int(sys.argv[2]), sys.argv[3]
a, b = np.load(f"{t}/ta.npy"), np.load(f"{t}/tb.npy")
dc = np.loadtxt(f"{t}/tdc.csv", delimiter=",", ndmin=2)
assert np.allclose(np.load(f"{t}/tc.npy"), a @ b)
assert np.allclose(np.load(f"{t}/tda.npy"), dc @ b.T)
assert np.allclose(np.loadtxt(f"{t}/tdb.csv", delimiter=",", ndmin=2), a.T @ dc)
lines = [json.loads(l) for l in open(f"{t}/tt.jsonl")]
assert lines[0] == {"op": "run", "train": True}, lines[0]
w = [len(c) for c in np.array_split(np.arange(b.shape[1]), d)]
B = 8 * b.shape[0] * b.shape[1]; wb = [8 * b.shape[0] * x for x in w]
kinds = {}
for l in lines[1:]:
    if l.get("op") == "send" and l.get("tensor") != "dA" and not (l.get("tensor") is None and l["shard"] < 0):
        kinds.setdefault(l["rank"], []).append(l)
for r in range(d):
    # the ring's sends: every send but the gather's (the gather is the last phase)
    last = max(l["phase"] for l in lines[1:] if "phase" in l)
    sent = sum(l["bytes"] for l in kinds.get(r, []) if l["phase"] != last)
    want = 0 if d == 1 else (2 * (B - wb[(r + 1) % d]) + (B - wb[r]) if m == "fsdp"
                            else (B - wb[r]) + (B - wb[(r + 1) % d]))
    assert sent == want, (r, sent, want)
for l in lines[1:]:
    if l.get("op") == "add":
        assert l["shard"] == (l["rank"] - l["step"] - 2) % d, l
PY
		"$BIN" -b -q --replay "$T/tt.jsonl" -A "$T/ta.npy" -B "$T/tb.npy" --dC "$T/tdc.csv" \
			--dA-out "$T/rda.npy" --dB-out "$T/rdb.npy" -o "$T/rc.npy" >"$T/out" 2>"$T/err" &&
			cmp -s "$T/rda.npy" "$T/tda.npy" && cmp -s "$T/rc.npy" "$T/tc.npy" &&
			$PY -c "import numpy as np; assert (np.load('$T/rdb.npy') == np.loadtxt('$T/tdb.csv', delimiter=',', ndmin=2)).all()" &&
			grep -q '^verify dB = A^T @ dC: allclose ok' "$T/out" && ok ||
			bad "--replay of a training trace ($m d=$d): $(cat "$T/err") $(tail -2 "$T/out")"
	done
done
expect_msg 2 "the trace of a forward run" -- -b --replay "$T/r.jsonl" --dC "$T/dc34.npy"
"$BIN" -b -q --train -d 3 --trace "$T/tc.json" --trace-format chrome >/dev/null || bad "--train chrome trace"
$PY - "$T/tc.json" <<'PY' && ok || bad "the training step's Chrome trace is not what Perfetto loads"
import json, sys
d = json.load(open(sys.argv[1])); ev = d["traceEvents"]
assert any(e.get("args", {}).get("name") == "distmm-tui FSDP training step" for e in ev)
names = [e["name"] for e in ev if e.get("ph") == "X"]
assert sum(1 for x in names if x.startswith("add into dB[")) == 3 * 2, names
assert any(x.startswith("compute dA with B[") for x in names)
PY

# --- output that cannot be written: one line, exit 2, never exit 0 -----------
# expect_full DESCRIPTION -- ARGS: stdout on /dev/full.
expect_full() {
	local what=$1; shift 2
	"$BIN" "$@" >/dev/full 2>"$T/err"; local st=$?
	if [ "$st" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] &&
		grep -q '^distmm-tui: write error: No space left on device$' "$T/err"; then ok
	else bad "$what >/dev/full: exit $st, want 2 and one write error line"; sed 's/^/    /' "$T/err" | head -3; fi
}
expect_full "batch run" -- -b -d 2
expect_full "batch run, -q" -- -b -q
expect_full "batch run, output past stdio's buffer" -- -b -d 64 -M 256
expect_full "--help" -- --help
expect_full "-V" -- -V
expect_full "--bug list" -- --bug list
expect_full "replay" -- -b --replay "$T/r.jsonl"
"$BIN" -b -q >&- 2>"$T/err"; st=$?
[ "$st" = 2 ] && grep -q '^distmm-tui: write error: Bad file descriptor$' "$T/err" && ok \
	|| bad "closed stdout: exit $st, $(cat "$T/err")"
# a run that fails keeps its own status, and says both
"$BIN" -b -d 4 --naive --capacity 0 >/dev/full 2>"$T/err"; st=$?
[ "$st" = 3 ] && grep -q 'write error' "$T/err" && ok || bad "deadlock on /dev/full: exit $st, $(cat "$T/err")"
# -o and --trace onto a device, a FIFO or a symbolic link: written in place
# (never replaced by a file), a failed write reported.  Nodes and links of
# our own, never the system's: as root, a rename over /dev/null would
# replace it.  The run has printed its account when the output fails: exit
# 2 and one line on stderr.
# expect_late PATTERN -- ARGS
expect_late() {
	local pat=$1; shift 2
	"$BIN" "$@" >/dev/null 2>"$T/err"; local st=$?
	[ "$st" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q -- "^distmm-tui: $pat" "$T/err" && ok \
		|| { bad "($*): exit $st, want 2 and one line '$pat'"; sed 's/^/    /' "$T/err" | head -3; }
}
if mknod "$T/full.npy" c 1 7 2>/dev/null && mknod "$T/null.jsonl" c 1 3 2>/dev/null; then
	expect_late "cannot write .*full.npy: No space left on device" -- -b -q -o "$T/full.npy"
	expect_late "cannot write .*full.npy: No space left on device" -- -b -q --trace "$T/full.npy"
	[ -c "$T/full.npy" ] || bad "-o onto a device replaced it: $(ls -l "$T/full.npy")"
	expect 0 "--trace onto a null device" -- -b -q --trace "$T/null.jsonl" --trace-format chrome
	[ -c "$T/null.jsonl" ] || bad "--trace onto a null device replaced it: $(ls -l "$T/null.jsonl")"
elif [ "$(id -u)" != 0 ]; then # nobody but root could replace these
	expect_late "cannot write /dev/full: No space left on device" -- -b -q --trace /dev/full
	expect 0 "--trace onto /dev/null" -- -b -q --trace /dev/null
else
	bad "root, and mknod failed: the device cases cannot run without risking /dev"
fi
mkfifo "$T/fifo.jsonl" && { timeout 60 cat "$T/fifo.jsonl" >"$T/from_fifo" & } # a deadline: cat waits for a writer
expect 0 "--trace into a FIFO" -- -b -q -d 2 --trace "$T/fifo.jsonl"
wait
[ -p "$T/fifo.jsonl" ] && [ "$(grep -c '"op":"compute"' "$T/from_fifo")" = 4 ] && ok \
	|| bad "--trace into a FIFO: $(ls -l "$T/fifo.jsonl"), $(wc -l <"$T/from_fifo") lines read"
: >"$T/linked.jsonl"; ln -s "$T/linked.jsonl" "$T/link.jsonl"
expect 0 "--trace through a symbolic link" -- -b -q -d 2 --trace "$T/link.jsonl"
[ -L "$T/link.jsonl" ] && [ "$(grep -c '"op":"compute"' "$T/linked.jsonl")" = 4 ] && ok \
	|| bad "--trace through a link: $(ls -l "$T/link.jsonl")"
rm -f "$T/fifo.jsonl" "$T/from_fifo" "$T/link.jsonl" "$T/linked.jsonl" "$T/full.npy" "$T/null.jsonl"
expect_late "cannot write /proc/c.npy" -- -b -q -o /proc/c.npy
[ -z "$(ls -A "$T" | grep -E '^\.' )" ] || bad "a failed write left files: $(ls -A "$T")"

# --- a signal while -o is written: the process dies of it, nothing is left --
# The write is caught in the act: once its temporary file shows up the
# process is stopped, and if the file is still there the signal is sent and
# the process let go on (the signal is handled as it wakes); if the write
# won the race, the try is made again.  Every wait is on what can be seen,
# bounded in tries, never on a time.
# stopped PID: waits until /proc says the process is stopped (T).
stopped() {
	local _
	for _ in $(seq 1 400); do
		[ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = T ] && return 0
		sleep 0.01
	done
	return 1
}
mkdir "$T/sig"
for sig in INT TERM HUP; do
	caught=0 st=
	for try in 1 2 3 4 5 6; do
		rm -rf "$T/sig" && mkdir "$T/sig"
		# a script's background job ignores SIGINT: env gives it back its default
		env --default-signal=INT,TERM,HUP "$BIN" -b -q -M 3000 -K 2 -N 3000 -o "$T/sig/big.csv" \
			>/dev/null 2>&1 &
		pid=$!
		for _ in $(seq 1 1000); do
			ls -A "$T/sig" | grep -q '^\.big\.csv\.' && break
			kill -0 $pid 2>/dev/null || break
			sleep 0.01
		done
		if ls -A "$T/sig" | grep -q '^\.big\.csv\.' && kill -STOP $pid 2>/dev/null && stopped $pid &&
			ls -A "$T/sig" | grep -q '^\.big\.csv\.'; then
			kill -$sig $pid; caught=1
		fi
		kill -CONT $pid 2>/dev/null
		{ wait $pid; } 2>/dev/null; st=$?
		[ $caught = 1 ] && break
	done
	case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
	if [ $caught = 0 ]; then bad "SIG$sig during -o: the temporary file was never caught in $try tries"
	elif [ "$st" = $want ] && [ -z "$(ls -A "$T/sig")" ]; then ok
	else bad "SIG$sig during -o: exit $st (want $want), left: $(ls -A "$T/sig" | tr '\n' ' ')"; fi
done
rm -rf "$T/sig"

# --- the Chrome trace loads as JSON with one track per device -----------------
for d in 1 3 4 9; do
	expect 0 "chrome trace d=$d" -- -b -q -d $d --trace "$T/c.json" --trace-format chrome
	$PY - "$T/c.json" "$d" <<'PY' || bad "chrome trace for d=$d is not what Perfetto loads"
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2])
ev = d["traceEvents"]
names = sorted(e["args"]["name"] for e in ev if e.get("ph") == "M" and e["name"] == "thread_name")
assert names == sorted(f"rank {r}" for r in range(n)), names
spans = [e for e in ev if e.get("ph") == "X"]
assert spans and all({"name", "ts", "dur", "pid", "tid", "cat"} <= e.keys() for e in spans)
assert {e["tid"] for e in spans} <= set(range(n))
assert sum(1 for e in spans if e["cat"] == "compute") == n * n
PY
done
expect_msg 2 "unknown trace format 'xml'" -- -b --trace-format xml

# --- round trips against numpy, on shapes this script did not pick ----------
seed=${DISTMM_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "batch_test: random shapes from seed $seed (DISTMM_TEST_SEED=$seed repeats them)"
for i in $(seq 1 12); do
	read -r M K N D MODE KIND < <($PY -c "
import random; r = random.Random($seed * 100 + $i)
print(r.randint(1, 60), r.randint(1, 30), r.randint(1, 60), r.randint(1, 70), r.choice(['fsdp','dp']), r.choice(['npy','csv']))")
	$PY - "$T" "$M" "$K" "$N" "$KIND" "$seed$i" <<'PY'
import numpy as np, sys
t, M, K, N, kind, seed = sys.argv[1], *map(int, sys.argv[2:5]), sys.argv[5], int(sys.argv[6])
rng = np.random.default_rng(seed)
a = rng.standard_normal((M, K)) * 10
b = rng.integers(-50, 50, (K, N)).astype(np.int32)
if kind == "npy":
    np.save(f"{t}/ra.npy", a.astype(np.float32)); np.save(f"{t}/rb.npy", b)
else:
    np.savetxt(f"{t}/ra.csv", a.astype(np.float32), delimiter=","); np.savetxt(f"{t}/rb.csv", b, delimiter=",", fmt="%d")
PY
	out=$T/rc.npy; [ $((i % 3)) = 0 ] && out=$T/rc.csv
	if ! "$BIN" -b -q -d "$D" -m "$MODE" -A "$T/ra.$KIND" -B "$T/rb.$KIND" -o "$out" --trace "$T/t.jsonl" >"$T/out" 2>"$T/err"; then
		bad "round trip $M x $K x $N, d=$D $MODE $KIND: $(cat "$T/err")"; continue
	fi
	if ! $PY - "$T" "$KIND" "$out" "$D" <<'PY'
import json, numpy as np, sys
t, kind, out, d = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
load = (lambda p: np.load(p)) if kind == "npy" else (lambda p: np.loadtxt(p, delimiter=",", ndmin=2))
a, b = load(f"{t}/ra.{kind}").astype(np.float64), load(f"{t}/rb.{kind}").astype(np.float64)
c = np.load(out) if out.endswith(".npy") else np.loadtxt(out, delimiter=",", ndmin=2)
assert c.dtype == np.float64 and c.shape == (a.shape[0], b.shape[1]), (c.dtype, c.shape)
assert np.allclose(c, a @ b), abs(c - a @ b).max()
lines = [json.loads(l) for l in open(f"{t}/t.jsonl")]
assert sum(1 for l in lines if l["op"] == "summary") == d
for l in lines:
    if l["op"] == "compute" and l["shard"] >= 0:
        assert l["shard"] == (l["rank"] - l["step"]) % d, l
PY
	then bad "numpy disagrees: $M x $K x $N, d=$D $MODE $KIND -> $out"; else ok; fi
done

# --- the clock: the model of time, the collectives family, the sweep ----------
# shellcheck source=tests/app/batch/batch_clock.sh
. "$(dirname "$0")/batch_clock.sh"
# shellcheck source=tests/app/batch/batch_prefetch.sh
. "$(dirname "$0")/batch_prefetch.sh"
# shellcheck source=tests/app/batch/batch_params.sh
. "$(dirname "$0")/batch_params.sh"
# shellcheck source=tests/app/batch/batch_tp.sh
. "$(dirname "$0")/batch_tp.sh"
# shellcheck source=tests/app/batch/batch_tp_mlp.sh
. "$(dirname "$0")/batch_tp_mlp.sh"

echo "batch_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
