#!/usr/bin/env bash
# judge_test: -b --judge on the solutions in tests/app/judge/solutions/ (and the shipped
# ones in assets/solutions/): the verdict, the step it names and the exit
# status of each; the mistakes candidates make (issue 24, section 3: the
# same verdict on every run, a race found by a schedule seed and
# reproduced by it, --show-output); forge_*.py, which cannot make a wrong C
# pass or add a row to the table (the verdicts are decided in C); the load
# errors as one line; the missing-python line; the --trace round trip
# through --replay; no Python process left behind, after a deadlock, an
# infinite loop, SIGINT and SIGTERM; and the sandbox (app/judge/sandbox.c):
# hostile_*.py cannot write outside it, read /etc/shadow, kill distmm-tui,
# leave a daemon, reach the network, fork or allocate without limit; its
# refusal when bwrap is missing or fails, and --judge-unconfined's warning.
#
# The solutions are judged from a private directory, whose path the judge's
# processes carry on their command line (distmm-judge PATH), so pgrep finds
# any that outlive a run.  Waiting for a process to appear polls with a
# deadline (it fails instead of hanging); nothing here depends on timing.
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
HERE=$(cd "$(dirname "$0")/../../.." && pwd)
PY=/usr/bin/python3
T=$(mktemp -d /tmp/distmm-judge.XXXXXX)
mkdir "$T/assets" "$T/empty" "$T/home"
# what the sandbox's uid (65534 when root) must reach: fake bwraps and
# pythons live here, not in $T (mode 0700)
P=$(mktemp -d /tmp/distmm-judge-pub.XXXXXX)
chmod 755 "$P"
trap 'pkill -KILL -f "distmm-judge $T" 2>/dev/null; rm -rf "$T" "$P"' EXIT
cp "$HERE"/tests/app/judge/solutions/*.py "$T"/
cp "$HERE"/assets/solutions/*.py "$T/assets/"
cd "$T" || exit 1
fails=0 passes=0

ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# No process of this test's judging is alive.
none_left() {
	if pgrep -f "distmm-judge $T" >/dev/null; then
		bad "python left behind after $1: $(pgrep -af "distmm-judge $T" | cut -c1-100)"
	else ok; fi
}

# judge STATUS FILE ARGS...: runs -b --judge FILE ARGS, checks the status,
# then that no process is left.  Output in $T/out, $T/err.
judge() {
	local want=$1 file=$2; shift 2
	"$BIN" -b --judge "$T/$file" "$@" >"$T/out" 2>"$T/err"
	local got=$?
	if [ "$got" != "$want" ]; then
		bad "$file $*: exit $got, want $want"; sed 's/^/    /' "$T/err" | head -5
		tail -n 20 "$T/out" | sed 's/^/    /'
	else ok; fi
	none_left "$file $*"
}

# has PATTERN: the last judge's output contains PATTERN (fixed string).
has() {
	grep -qF -- "$1" "$T/out" || { bad "output lacks '$1'"; tail -n 20 "$T/out" | sed 's/^/    /'; return; }
	ok
}

# lacks PATTERN: neither the last judge's output nor its stderr contains it.
lacks() {
	if grep -qF -- "$1" "$T/out" "$T/err"; then bad "the report shows '$1'"; else ok; fi
}

# one_line PATTERN: status 2's one line on stderr, and nothing on stdout.
one_line() {
	if [ "$(wc -l <"$T/err")" != 1 ] || [ -s "$T/out" ] || ! grep -qF -- "$1" "$T/err" ||
		! grep -q '^distmm-tui: ' "$T/err"; then
		bad "want one line with '$1' on stderr, got: $(cat "$T/err") / $(head -3 "$T/out")"
	else ok; fi
}

# verdict CASE WORD: the table's line for CASE says WORD.
verdict() {
	grep -qE "^ +$1  .* $2\$" "$T/out" || { bad "case $1 is not '$2': $(grep -E "^ +$1  " "$T/out")"; return; }
	ok
}

# --- correct solutions: every case passes ---------------------------------
judge 0 assets/correct.py
has "summary: 14 of 14 cases within the exercise's contract pass (and 6 of 6 beyond it, not counted)"
for n in $(seq 1 20); do verdict "$n" pass; done
for f in correct_index.py correct_parity.py correct_inboxes.py correct_recvthread.py \
	correct_barrier.py correct_subclass.py correct_sequential.py dp_self_send.py send_first.py; do
	judge 0 "$f"
	tail -n 1 "$T/out" | grep -qE '^summary: ([0-9]+) of \1 cases (within the exercise.s contract )?pass' ||
		bad "$f: not every case within the contract passes: $(tail -n 1 "$T/out")"
done
# the index formula with N / n columns a shard is beyond its depth on uneven splits
judge 0 correct_index.py -m fsdp -d 3 -M 9 -K 5 -N 6
judge 1 correct_index.py -m fsdp -d 3 -M 10 -K 5 -N 7
has "could not broadcast"
# with synchronous sends only an order that alternates (or receives aside) survives
judge 0 correct_parity.py --capacity 0
judge 0 correct_recvthread.py --capacity 0 -d 5
judge 0 assets/correct.py -m fsdp -d 4 --capacity 1
judge 0 assets/correct.py -d 1 --values floats

# the shipped solutions do what their headers say
judge 0 assets/send_first.py
judge 3 assets/send_first.py --capacity 0
judge 3 assets/receive_first.py
judge 0 assets/r_plus_s.py -d 2
judge 1 assets/r_plus_s.py -d 4
judge 1 assets/wrong_neighbour.py -d 4
has "wrong neighbour"
judge 1 assets/dp_arrival_order.py -d 4
judge 0 assets/int_accumulator.py -d 4 --values ints
judge 1 assets/int_accumulator.py -d 4 --values floats

# --- deadlocks: exit 3 and the cycle of waits ------------------------------
judge 3 send_first.py --capacity 0 -d 3 -M 9 -K 5 -N 6
verdict 2 deadlock
has "rank 0 waits to send shard 0 (B[:, 0:2]) to rank 1 (capacity 0: until rank 1 receives it)"
has "the cycle of waits: 0 -> 1 -> 2 -> 0"
has "alternate by rank parity"
judge 3 assets/correct.py -m fsdp --capacity 0
judge 3 recv_first.py
has "deadlock: rank 0 waits to receive from anyone (the shard for step 1); rank 1 waits to receive from anyone"
has "nobody sends first"
judge 3 dp_self_send.py --capacity 0 -d 2
has "rank 0 waits to send rank 0's rows of C (C[0:4]) to rank 0"

# --- wrong results, each with its first wrong step -------------------------
judge 0 r_plus_s.py -d 2
judge 1 r_plus_s.py -d 3 -M 9 -K 5 -N 6
has "wrong result: step 1, rank 0 wrote C[0:3, 2:4] (shard 1) but holds shard 2 = (0 - 1) mod 3"
judge 1 r_plus_s.py -d 4
has "step 1, rank 0 wrote C[0:2, 1:2] (shard 1) but holds shard 3 = (0 - 1) mod 4"
judge 1 r_plus_s.py
verdict 13 "wrong result"
verdict 11 pass
judge 0 wrong_neighbour.py -d 2
judge 1 wrong_neighbour.py -d 3 -M 9 -K 5 -N 6
has "wrong neighbour: step 0: rank 0 sent shard 0 (B[:, 0:2]) to rank 2; the ring passes it right, to (0 + 1) mod 3 = 1"
judge 1 int_accumulator.py -m fsdp -d 2 --values floats
has "step 0, rank 0 wrote its product with shard 0 into C[0:4, 0:2] cut to whole numbers: an integer accumulator"
judge 0 int_accumulator.py -m fsdp -d 4 --values ints

# --- DP: the gather ---------------------------------------------------------
judge 1 dp_no_gather.py
verdict 1 "wrong shape"
has "returned only rank 0's rows (4x4 = C[0:4]); C = A @ B is 8x4: the gather to rank 0 is missing"
# arrival order: n = 2 has one sender, so one order; from n = 3 the reversed
# schedule fails it every time, not one run in twenty
judge 0 dp_arrival.py -d 2
for i in 1 2 3 4 5; do
	judge 1 dp_arrival.py -d 4
	has "the gather: rank 3's rows (C[6:8]) ended up at C[2:4]; the blocks were stacked in the order they arrived at rank 0"
done
has "the reversed schedule (run 1 of 3)"

# a gather through a shared list in the order threads finish, or a results
# queue read in arrival order: the reversed schedule reorders both
judge 1 dp_shared_list.py -d 4
has "the gather: rank 3's rows (C[6:8]) ended up at C[0:2]; the rows were put together in the order the threads finished"
judge 1 fsdp_queue_unsorted.py -d 4
has "the gather: rank 3's rows (C[6:8]) ended up at C[0:2]; the blocks were stacked in the order they arrived"
judge 3 correct_sequential.py -m fsdp --capacity 0

# --- payloads, rings, exceptions, timeouts ----------------------------------
judge 1 extra_rotation.py -d 4
has "messages left: the result is right, but 4 messages were sent never received: rank 0's inbox still holds shard 0 (B[:, 0:1]) from rank 3"
judge 1 inplace_b.py -d 4
has "mutated input: B was changed in place"

judge 1 buffer_reuse.py -d 2
has "mutated payload: rank"
has "a queue passes a reference"
judge 1 buffer_reuse.py -d 3 -M 9 -K 5 -N 6
verdict 2 "mutated payload"
judge 1 fsdp_no_ring.py -d 3
has "not a ring: no rank sent a shard of B"
judge 0 fsdp_no_ring.py -d 1
judge 1 raising.py -d 3
has "exception: rank 1's thread raised ZeroDivisionError: integer division or modulo by zero at $T/raising.py:31 in dev()"
has "then the other threads deadlocked, waiting for it"
judge 1 infinite_loop.py -d 3 --judge-timeout 0.5
has "timeout: no result after 0.5 s"
has "rank 2's thread runs at $T/infinite_loop.py:12 in dev(): \`while not done[0]:\`"

# --- the mistakes candidates make (issue 24, section 3) ---------------------
# threads started and not joined: never a pass
judge 1 unjoined.py -m dp -d 2
has "not joined: returned while rank threads were still running: join them before reading the result"
has "when it returned, 2 threads had not ended"
# the exercise's driver at the module's top level: it runs once at import
judge 0 driver_toplevel.py
has "summary: 14 of 14 cases within the exercise's contract pass"
# the same verdict on every run: the send-first ring at capacity 0 deadlocks
for i in 1 2 3 4 5; do
	judge 3 send_first.py --capacity 0 -d 2
	verdict 2 deadlock
	lacks "zero-dimensional"
done
# a gather that waits for one message too many, or for a partner that is not there
judge 3 dp_recv_all.py -d 3
has "rank 0 received 2 messages and waits for a 3rd that no rank will send: ranks 1 and 2 sent and returned"
lacks "nobody sends first"
judge 3 dp_tree.py -d 3
has "rank 0 received 1 message and waits for a 2nd that no rank will send; rank 2 received none and waits for a 1st that no rank will send: rank 1 sent and returned"
lacks "nobody sends first"
judge 0 dp_tree.py -d 2
# rank 0 forgets its own rows: the rows missing are named
judge 1 dp_forgets_own.py -d 2
has "returned only rank 1's rows (4x4 = C[4:8]); C = A @ B is 8x4: rank 0's own rows (C[0:4]) are missing"
judge 1 dp_forgets_own.py -d 4
has "returned 6x4, the rows of ranks 1, 2, 3; C = A @ B is 8x4: rank 0's own rows (C[0:2]) are missing"
# DP's cases carry DP's words
judge 1 dp_forgets_own.py
lacks "(r + s)"
# n = 1 and a loop of n - 1 steps: nothing computed, no gather to blame
judge 1 fsdp_off_by_one.py -d 1
has "step 0, rank 0 holds shard 0 = (0 - 0) mod 1 but never computed: C[0:8, 0:4] is zero"
lacks "gather"
judge 1 fsdp_off_by_one.py -d 2
has "step 1, rank 0 holds shard 1 = (0 - 1) mod 2 but never wrote its product: C[0:4, 2:4] is zero"
# a race on shared state: found by a seeded schedule, said so, and reproduced
# by the seed the report prints (every run of a seed is the same run)
for i in 1 2 3; do
	judge 1 race_staging.py -d 4
	has "schedule seed 1 (run 2 of 3), timing-dependent: the default schedule passes"
	has "--judge-schedule 1"
done
head=$(grep -A1 '^case 2:' "$T/out" | tail -n 1)
judge 0 race_staging.py -d 4 --judge-schedule 0
judge 1 race_staging.py -d 4 --judge-schedule 1
has "$head"
has "schedule seed 1 (run 1 of 1):"
# a range of columns over two shards is said as two
judge 1 fsdp_half_width.py -d 4
has "step 0, rank 0 wrote C[0:2, 0:2] (shards 0 and 1) but holds shard 0 = (0 - 0) mod 4"
# every state in words (no internal name), and a lock a thread holds itself
judge 3 lock_twice.py -d 2
has "rank 1's thread waits for a lock it holds itself at $T/lock_twice.py:13 in store(): \`with lock:\` (threading.Lock is not reentrant"
lacks "xwait"
# the candidate's escape sequences reach no terminal raw
judge 1 raise_escape.py -m dp -d 2
has 'the function raised ValueError: \033[31mred alert\033[0m \033[2J cleared'
if grep -q "$(printf '\033')" "$T/out" "$T/err"; then bad "an escape sequence reached the report raw"; else ok; fi
# an all-gather, then one product: right, with the memory note
judge 0 fsdp_allgather.py
has "every rank held all of B at once (it gathered every shard, then multiplied once)"
judge 0 assets/correct.py -m fsdp
lacks "held all of B"
# --show-output: what it printed, bounded and escaped; without it, nothing
judge 0 chatty.py -d 2 --show-output
has "it printed (5 lines):"
has "    | rank 0 got rows from 1"
judge 0 chatty.py -d 2
lacks "rank 0 got rows from"

# --- forgeries: the verdict is decided outside the candidate's code ----------
# np.allclose patched: the result is checked here, by this program's rule
judge 1 forge_allclose.py
has "summary: 0 of 14 cases within the exercise's contract pass (and 0 of 6 beyond it, not counted); 14 wrong result"
# a forged pass through the harness's descriptors, a forged row on fd 3,
# records with wrong lengths: a judge error for each case, and no row of
# the table but the judge's own
for f in forge_stack.py forge_fd.py forge_lengths.py; do
	judge 1 "$f"
	has "summary: 0 of 14 cases within the exercise's contract pass (and 0 of 6 beyond it, not counted); 14 judge error"
	has "judge error: the run's records could not be read"
	[ "$(grep -cE '^ +[0-9]+  (dp|fsdp)_mat_mul' "$T/out")" = 20 ] && ok || bad "$f: a forged row in the table"
done
# well-formed records that claim a wrong result: the bytes are checked
judge 1 forge_records.py
has "summary: 0 of 14 cases within the exercise's contract pass (and 0 of 6 beyond it, not counted); 14 wrong result"

# --- the file cannot be loaded: exit 2, one line with Python's line number --
judge 2 syntax_error.py
one_line "syntax_error.py:8: SyntaxError: expected ':'"
judge 2 neither.py
one_line "neither.py defines none of dp_mat_mul, fsdp_mat_mul, tp_col_mat_mul, tp_row_mat_mul"
judge 2 import_error.py
one_line "import_error.py:4: ModuleNotFoundError: No module named 'torch'"
judge 2 toplevel_hang.py --judge-timeout 0.5
one_line "toplevel_hang.py: loading it did not finish"
judge 2 missing.py
one_line "cannot read $T/missing.py: No such file or directory"
judge 2 correct_recvthread.py -m dp
one_line "correct_recvthread.py defines no dp_mat_mul (-m dp)"

# --- options ------------------------------------------------------------------
# without -b the judge opens the interface (judge_ui_test.sh): here, with no
# terminal, it says so on one line once the file is judged (its errors first)
"$BIN" --judge "$T/assets/correct.py" </dev/null >"$T/out" 2>"$T/err"
[ $? = 2 ] && one_line "interactive mode needs a terminal on stdin and stdout" ||
	bad "--judge without -b and without a terminal"
for extra in "-A a.npy" "--bug r-plus-s" "--naive" "--replay t.jsonl" "-o c.npy"; do
	# shellcheck disable=SC2086
	judge 2 assets/correct.py $extra
	one_line "has no effect with --judge (your file runs on the judge's own matrices"
done
judge 2 assets/correct.py --judge-timeout 0
one_line "--judge-timeout must be seconds from 0.1 to 600"
judge 2 assets/correct.py -d 200
one_line "-d must be at most 128"
"$BIN" -b --judge-timeout 2 >"$T/out" 2>"$T/err"
[ $? = 2 ] && one_line "--judge-timeout has no effect without --judge" || bad "--judge-timeout alone"

# --- no python with numpy: one line, exit 2; the rest still works ------------
# a DISTMM_PYTHON that fails is named, with what failed
DISTMM_PYTHON=/nonexistent "$BIN" -b --judge "$T/assets/correct.py" >"$T/out" 2>"$T/err"
[ $? = 2 ] && one_line "DISTMM_PYTHON=/nonexistent cannot be run: No such file or directory" ||
	bad "DISTMM_PYTHON=/nonexistent"
NOT_PY="did not run the judge (is it python3 with numpy? unset it to use python3 on PATH)"
nonumpy=""
# As root the sandbox runs python as uid 65534: a python it cannot reach
# (/root/.pyenv) gets a line of its own, not the missing numpy's.  Through
# sh: setpriv's own exec can pass where uid 65534 alone cannot.
as_judge() {
	if [ "$(id -u)" = 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'exec "$@"' sh "$@"
	else "$@"; fi
}
for p in $(which -a python3 python3.11 python3.12 python3.10 2>/dev/null) /root/.pyenv/versions/*/bin/python3; do
	[ -x "$p" ] && ! "$p" -c "import numpy" 2>/dev/null && as_judge "$p" -c "import sys" 2>/dev/null &&
		{ nonumpy=$p; break; }
done
if [ -n "$nonumpy" ]; then
	DISTMM_PYTHON=$nonumpy "$BIN" -b --judge "$T/assets/correct.py" >"$T/out" 2>"$T/err"
	[ $? = 2 ] && one_line "DISTMM_PYTHON=$nonumpy $NOT_PY" || bad "a python without numpy ($nonumpy)"
else
	echo "judge_test: no python3 without numpy here: made one that lacks it"
	cat >"$P/py-no-numpy" <<WRAP
#!/bin/sh
exec $PY -c 'import sys; sys.modules["numpy"] = None; exec(sys.argv[1])' "\$2" "\$3" "\$4"
WRAP
	chmod 755 "$P/py-no-numpy"
	DISTMM_PYTHON=$P/py-no-numpy "$BIN" -b --judge "$T/assets/correct.py" >"$T/out" 2>"$T/err"
	[ $? = 2 ] && one_line "DISTMM_PYTHON=$P/py-no-numpy $NOT_PY" || bad "a python without numpy (made)"
fi
DISTMM_PYTHON=/nonexistent "$BIN" -b -q >/dev/null 2>&1 && ok || bad "batch mode without python"
none_left "the python searches"

# --- --trace: the judged run replays ------------------------------------------
for args in "-m fsdp -d 3 -M 9 -K 5 -N 6" "-m dp -d 4" "-m fsdp -d 4 -M 10 -K 5 -N 7 --values floats" \
	"-m fsdp -d 1" "-m fsdp -d 5 -M 6 -K 4 -N 3"; do
	# shellcheck disable=SC2086
	judge 0 assets/correct.py $args --trace "$T/t.jsonl"
	replay=$(grep -o 'replay it: distmm-tui -b --replay .*' "$T/out" | sed 's/^replay it: distmm-tui //')
	# shellcheck disable=SC2086
	if [ -z "$replay" ] || ! "$BIN" $replay >"$T/rep" 2>&1 || ! tail -n 1 "$T/rep" | grep -q '^verify: allclose ok'; then
		bad "replay of the judged run ($args): $replay: $(tail -n 2 "$T/rep")"
	else ok; fi
done
judge 0 assets/correct.py --trace "$T/t.jsonl"
has "trace of case 11 written to"
judge 0 assets/correct.py -m fsdp -d 3 --trace "$T/t.json" --trace-format chrome
$PY -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['traceEvents']) > 10" "$T/t.json" && ok || bad "chrome trace"
# a wrong run's trace holds its wrong write, and the report points at it
judge 1 r_plus_s.py -d 3 -M 9 -K 5 -N 6 --trace "$T/w.jsonl"
has "the first wrong event is event"
idx=$(grep -o 'the first wrong event is event [0-9]*' "$T/out" | grep -o '[0-9]*$')
$PY - "$T/w.jsonl" "$idx" <<'PY' && ok || bad "the first wrong event of the r + s trace"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if '"summary"' not in l]
e = ev[int(sys.argv[2])]
assert e["op"] == "compute" and e["step"] == 1 and e["rank"] == 0, e
assert e["shard"] == 2 and (e["col_begin"], e["col_end"]) == (2, 4), e
PY
judge 3 send_first.py --capacity 0 -d 3 -M 9 -K 5 -N 6 --trace "$T/d.jsonl"
[ "$(grep -c '"op":"compute"' "$T/d.jsonl")" = 3 ] && ok || bad "a deadlocked run's trace: its step 0 computes"

# --- the sandbox: what a hostile file cannot do ------------------------------
# Each check below fails with --judge-unconfined (the files' headers say
# what they try).  A file's own verdict is what the harness says of it.
# writes land in the sandbox's /tmp or fail: nothing next to the file or in $HOME
HOME=$T/home judge 0 hostile_write.py -m dp -d 2
[ -e "$T/hostile_was_here" ] && bad "hostile_write.py wrote next to itself" || ok
[ -e "$T/home/hostile_was_here" ] && bad "hostile_write.py wrote in \$HOME" || ok
# as root, the code runs as uid 65534: /etc/shadow is not its to read
if [ "$(id -u)" = 0 ] && [ -s /etc/shadow ]; then
	judge 1 hostile_shadow.py -m dp -d 2
	has "PermissionError: [Errno 13] Permission denied: '/etc/shadow'"
	lacks "$(head -n 1 /etc/shadow)"
else
	echo "judge_test: not root: /etc/shadow is unreadable anyway, its check skipped"
fi
# kill(getppid()), its ancestors, kill(-1): distmm-tui reports and exits 0.
# In a PID namespace of the test's own, so that a regression kills no more
# than this test; its init is a shell (an init ignores such signals), so
# that distmm-tui is as killable as anywhere else.
if unshare -p -f --mount-proc true 2>/dev/null; then
	unshare -p -f --mount-proc sh -c '"$0" -b --judge "$1"; st=$?; exit $st' \
		"$BIN" "$T/hostile_kill.py" >"$T/out" 2>"$T/err"
	st=$?
	[ $st = 0 ] && ok || bad "hostile_kill.py: exit $st, want 0: $(head -c 300 "$T/err")"
	has "summary: 7 of 7 cases within the exercise's contract pass (and 3 of 3 beyond it, not counted)"
	none_left "hostile_kill.py"
else
	echo "judge_test: unshare -p cannot run here: hostile_kill.py's check skipped"
fi
# a setsid, double-forked daemon: gone when the run ends (judge's none_left)
judge 0 hostile_daemon.py -m dp -d 2
has "summary: 1 of 1 cases pass"
# no network: a listener on the host's 127.0.0.1 is out of reach
coproc LISTENER { exec "$PY" -c 'import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True); sys.stdin.read()'; }
read -r port <&"${LISTENER[0]}"
[ -n "$port" ] && ok || bad "the test's listener did not start"
judge 1 hostile_network.py -m dp -d 2
has "ConnectionRefusedError: [Errno 111] Connection refused"
listener=$LISTENER_PID
eval "exec ${LISTENER[1]}>&-"
wait "$listener"
# a fork bomb: RLIMIT_NPROC ends it in every case, each with its verdict
judge 1 hostile_forkbomb.py
for n in $(seq 1 20); do verdict "$n" exception; done
has "BlockingIOError: [Errno 11] Resource temporarily unavailable"
has "summary: 0 of 14 cases within the exercise's contract pass (and 0 of 6 beyond it, not counted); 14 exception"
# 8 GiB: RLIMIT_AS, numpy's MemoryError
judge 1 hostile_memory.py -m dp -d 2
has "MemoryError: Unable to allocate 1.00 GiB"

# --- the sandbox: when it cannot be made, nothing runs -------------------------
PATH=$T/empty "$BIN" -b --judge "$T/assets/correct.py" >"$T/out" 2>"$T/err"
[ $? = 2 ] && one_line "--judge runs your file's code confined by bubblewrap, and bwrap is not on PATH: make deps installs it (Debian: bubblewrap); or --judge-unconfined runs it with all of your rights" ||
	bad "no bwrap on PATH"
DISTMM_BWRAP=/nonexistent "$BIN" -b --judge "$T/assets/correct.py" >"$T/out" 2>"$T/err"
[ $? = 2 ] && one_line "DISTMM_BWRAP=/nonexistent is not an executable path" || bad "DISTMM_BWRAP=/nonexistent"
# a bwrap that fails as on a kernel without user namespaces
printf '#!/bin/sh\necho "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n' >"$P/bwrap-no-userns"
chmod 755 "$P/bwrap-no-userns"
DISTMM_BWRAP=$P/bwrap-no-userns "$BIN" -b --judge "$T/assets/correct.py" >"$T/out" 2>"$T/err"
[ $? = 2 ] && one_line "--judge: cannot confine your file's code: bwrap: No permissions to creating new namespace" ||
	bad "a bwrap that cannot make namespaces"
none_left "the refusals"
if [ "$(id -u)" = 0 ]; then
	# $T is 0700: uid 65534 cannot reach a python in it
	ln -s "$PY" "$T/python3"
	DISTMM_PYTHON=$T/python3 "$BIN" -b --judge "$T/assets/correct.py" >"$T/out" 2>"$T/err"
	[ $? = 2 ] && one_line "DISTMM_PYTHON=$T/python3: the sandbox runs your file as uid 65534, which cannot reach it" ||
		bad "a DISTMM_PYTHON the sandbox cannot reach"
fi
# --judge-unconfined: it runs, with one line of warning
judge 0 assets/correct.py -m dp -d 2 --judge-unconfined
[ "$(cat "$T/err")" = "distmm-tui: warning: --judge-unconfined: $T/assets/correct.py runs with all of your rights (your files, the network, your processes) and no limits" ] &&
	ok || bad "--judge-unconfined's warning: $(cat "$T/err")"
for opt in "--judge-schedule 1" --show-output; do
	# shellcheck disable=SC2086
	"$BIN" -b $opt >"$T/out" 2>"$T/err"
	[ $? = 2 ] && one_line "${opt%% *} has no effect without --judge" || bad "$opt alone"
done
"$BIN" --judge "$T/assets/correct.py" --show-output >"$T/out" 2>"$T/err"
[ $? = 2 ] && one_line "--show-output has no effect without -b" || bad "--show-output in the interface"
"$BIN" -b --judge "$T/assets/correct.py" --judge-schedule x >"$T/out" 2>"$T/err"
[ $? = 2 ] && one_line "--judge-schedule must be a seed from 0 to 1000000, not 'x'" ||
	bad "--judge-schedule x"
"$BIN" -b --judge-unconfined >"$T/out" 2>"$T/err"
[ $? = 2 ] && one_line "--judge-unconfined has no effect without --judge" || bad "--judge-unconfined alone"

# --- tensor parallel (docs/judge.md): the weights stay, decided in C --------
judge 0 assets/tp_col.py
has "(tp_col_mat_mul)"
has "summary: 7 of 7 cases within the exercise's contract pass (and 3 of 3 beyond it, not counted)"
for n in $(seq 21 30); do verdict "$n" pass; done
lacks "it defines no"
judge 0 assets/tp_row.py
for n in $(seq 31 40); do verdict "$n" pass; done
judge 3 assets/tp_row.py -m tp-row -d 3 --capacity 0
judge 0 assets/tp_col.py -m tp-col -d 5 -M 4 -K 3 -N 7
# each mistake fails with the words that name it; n = 1 passes them all
judge 1 tp_row_no_allreduce.py
verdict 31 "wrong result"
verdict 32 pass
has "rank 0's result is its own partial, A[:, 0:3] @ B[0:3, :]: the all-reduce is missing"
judge 1 tp_row_rows.py
verdict 31 exception
has "tp-row splits both along K, A by columns (np.array_split(a, n, axis=1))"
judge 1 tp_col_sum.py
verdict 21 "wrong shape"
verdict 22 pass
has "returned the sum of the 2 column blocks (8x2), not C (8x4)"
has "a gather, not an all-reduce"
judge 1 tp_col_ring.py
verdict 21 "weights moved"
has "rank 1's thread sent B's columns 2:4 (rank 1's shard) to rank 0: tensor parallel keeps the weights"
judge 3 tp_row_recv_first.py
verdict 31 deadlock
verdict 32 pass
has "nobody sends first"
judge 0 tp_row_alltoall.py -d 4
has "rank 0 sent 768 bytes; a ring all-reduce sends at most 384 a rank (the engine's model"
judge 2 assets/tp_col.py -m tp-row
one_line "tp_col.py defines no tp_row_mat_mul (-m tp-row)"
judge 2 assets/tp_row.py -m tp-row --reduce-scatter
one_line "--reduce-scatter has no effect with --judge"
# the judged view replays DP and FSDP: a file of TP alone says so in one line
"$BIN" --judge "$T/assets/tp_col.py" >"$T/out" 2>"$T/err"
[ $? = 2 ] && one_line "defines tensor parallel's functions alone: the judged view shows" ||
	bad "the interface on a file of TP alone"
none_left "the interface on a file of TP alone"

# --- signals: the judge's processes go with distmm-tui ------------------------
for sig in INT TERM; do
	"$BIN" -b --judge "$T/infinite_loop.py" --judge-timeout 60 >"$T/out" 2>&1 &
	pid=$!
	seen=0
	for _ in $(seq 1 300); do
		# bwrap, the harness and its run
		if [ "$(pgrep -f "distmm-judge $T" | wc -l)" -ge 3 ]; then seen=1; break; fi
		sleep 0.05
	done
	[ $seen = 1 ] || bad "SIG$sig: the judge's run never showed up"
	kill -$sig $pid
	wait $pid
	st=$?
	case $sig in INT) want=130 ;; TERM) want=143 ;; esac
	[ $st = $want ] && ok || bad "SIG$sig: exit $st, want $want"
	none_left "SIG$sig"
done

echo "judge_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
