#!/usr/bin/env bash
# interview_test: --interview FILE.py played as a candidate would, in a
# private tmux (tmux.sh): the starter written; a wrong FSDP saved into FILE
# (with a right DP) shows its verdict within 3 seconds of the save (the
# battery takes about half a second here); o opens the failing case as the
# judged view and q comes back; a hint is shown and counted; quitting and
# starting again resumes the part; a correct file passes; the follow-up
# round checks a wrong answer (the factor it lacks named) and right ones;
# the report beside FILE has every section; the clock counts past zero in
# red; -b is refused with one line; no Python process is left behind.
# Waits are "until the screen shows X" with a deadline only to fail.
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
HERE=$(cd "$(dirname "$0")/../.." && pwd)
NAME=interview
. "$(dirname "$0")/../lib/tmux.sh"
W=$(mktemp -d /tmp/distmm-interview.XXXXXX)
left_pids() { pgrep -f "distmm-judge $W"; }
trap 'T kill-server 2>/dev/null; left_pids | xargs -r kill -KILL 2>/dev/null; rm -rf "$W"' EXIT
SOL="$HERE/tests/app/judge/solutions"
cd "$W" || exit 1
F="$W/sol.py"

flat() { screen | sed 's/^ *//; s/ *$//' | tr '\n' ' '; }
wait_text() {
	local pat=$1 limit=${2:-15} i=0
	while [ "$i" -lt $((limit * 20)) ]; do
		flat | grep -Eq -- "$pat" && return 0
		sleep 0.05; i=$((i + 1))
	done
	bad "screen never showed /$pat/ (as one text)"; screen | sed 's/^/    | /'; return 1
}
none_left() {
	if left_pids >/dev/null; then bad "python left behind after $1"; else pass; fi
}
# save FILE...: FILE's content replaced as an editor saving in place does
save() { cat "$@" >"$F.tmp" && mv "$F.tmp" "$F"; }

test_name="-b is refused with one line"
out=$("$BIN" -b --interview "$F" 2>&1); st=$?
[ "$st" = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
	printf '%s\n' "$out" | grep -q '^distmm-tui: -b has no effect with --interview (it is a session' &&
	pass || bad "status $st: $out"
[ -e "$F" ] && bad "-b --interview wrote the starter" || pass

test_name="the starter, the task, the countdown"
start 80x24 --interview "$F"
wait_for 'part 1 of 2: DP \(dp_mat_mul\)' && pass
wait_text 'each device computes a_chunk @ b and sends the partial result to rank 0' && pass
wait_for '[0-9]:[0-9][0-9] left' && pass
grep -q 'def fsdp_mat_mul' "$F" && grep -q '__main__' "$F" && pass || bad "no starter in $F"
[ -e "$W/sol.interview" ] && pass || bad "no state file beside FILE"

test_name="a wrong FSDP (DP right): its verdict within 3 seconds"
# DP from a correct file, FSDP from r_plus_s: the later def wins
save "$SOL/correct_parity.py" "$SOL/r_plus_s.py"
wait_text 'part 2 of 2: FSDP' 3 && pass
wait_text 'fsdp_mat_mul: 3 of 7 cases pass: wrong result' 3 && pass
wait_text 'wrong result: step 1, rank 0 wrote C\[0:3, 2:4\] \(shard 1\) but holds shard 2' && pass
none_left "a verdict"

test_name="o opens the failing case, q comes back"
keys o
wait_for 'FSDP judged 9x5@5x6 d=3' && pass
wait_for 'q: back to the interview' && pass
keys q
wait_for 'part 2 of 2: FSDP' && pass

test_name="a hint, shown and counted"
keys h
wait_text 'hint 1 of 3 \(a pointer\)' && pass
wait_for 'hints: 1' && pass
keys h
wait_text 'hint 2 of 3 \(the idea\): .*\(r - s\) mod n' && pass
wait_for 'hints: 2' && pass

test_name="quit and start again: the part resumes"
keys q
wait_for 'EXIT:0 TTY:RESTORED' && pass
none_left "q"
start 80x24 --interview "$F"
wait_for 'part 2 of 2: FSDP' && pass
wait_for 'hints: 2' && pass

test_name="a correct file passes: the follow-up round"
save "$SOL/correct_parity.py"
wait_text 'FSDP passed at save [0-9]+' && pass
wait_text 'question 1 of 9' && pass
keys -l 'K * N'
keys Enter
wait_text 'K = 1, N = 3, n = 3: yours gives 3, a rank sends 16 bytes; yours lacks the factors 8' && pass
keys BSpace BSpace BSpace BSpace BSpace
keys -l '8*K*N*(n-1)/n'
keys Enter
wait_text 'right\. .*8\*K\*N\*\(n - 1\)/n' && pass
keys Enter
wait_text 'question 2 of 9' && pass
keys -l '2*S*(n-1)/n'
keys Enter
wait_for 'right\.' && pass
keys Enter
wait_text 'question 3 of 9' && pass
keys -l '50'
keys Enter
wait_text 'not yet: 50 GB is not it' && pass
keys BSpace BSpace
keys -l '400 GB'
keys Enter
wait_for 'right\.' && pass
for q in 4 5 6 7 8 9; do
	keys Enter
	wait_text "question $q of 9" && pass
	keys Tab
	wait_text 'shown \(counted as missed\)' && pass
done
keys Enter
wait_text 'the report: .*sol-report\.md' && pass
R="$W/sol-report.md"
for section in '## Parts' '## Verdicts over time' '## Hints used' '## Follow-up round' \
	'## Practise next' 'first pass' 'Score: 3 of 9'; do
	grep -q -- "$section" "$R" && pass || bad "the report has no '$section'"
done
grep -q '^1\. ' "$R" && grep -q '^3\. ' "$R" && pass || bad "the report has not three things to practise"
keys q
wait_for 'EXIT:0 TTY:RESTORED' && pass
none_left "the session"

test_name="past zero: counts on in red, --no-color --ascii"
rm -f "$W"/sol*
start 80x24 --interview "$F" --interview-time 0.02 --no-color --ascii
wait_for 'part 1 of 2: DP' && pass
wait_for '-0:0[1-9] over time' && pass
screen | grep -q '─' && bad "--ascii drew a line of another set" || pass
keys p
wait_for 'PAUSED' && pass
keys q
wait_for 'EXIT:0 TTY:RESTORED' && pass

echo "interview_test: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
