#!/bin/sh
# gen.sh BIN [DIR]: the judge's own logs of one case of each verdict kind,
# for tests/engine/trace/check_replay_recorded.c, which replays each as recorded and holds the
# engine's first wrong event to the one the judge named.  Writes DIR
# (default tests/data/judged) NAME.jsonl (the case's --trace) and cases.txt,
# one line a case:
#   NAME MODE M K N VALUES SEED VERDICT FIRST_WRONG
# (MODE fsdp|dp, VERDICT with dashes for spaces, FIRST_WRONG -1 for none).
# Run from the repository's root with a python that has numpy; the judge's
# test (tests/judge_test.sh) runs it again into a scratch folder and checks
# that cases.txt has not changed, so the committed logs follow the harness.
set -u
BIN=${1:?usage: gen.sh BIN [DIR]}
DIR=${2:-tests/data/judged}
mkdir -p "$DIR" || exit 1
: >"$DIR/cases.txt.new"
status=0

# one NAME FILE ARGS...: judges FILE's one case and records it
one() {
	name=$1 file=$2
	shift 2
	out=$("$BIN" -b --judge "$file" "$@" --trace "$DIR/$name.jsonl" 2>&1)
	# the table's line: the verdict from column 61 on (judge_report.c's widths)
	line=$(printf '%s\n' "$out" | grep -E '^ +[0-9]+  (dp|fsdp)_mat_mul ' | head -n 1)
	replay=$(printf '%s\n' "$out" | grep -o 'replay it: .*')
	if [ -z "$line" ] || [ -z "$replay" ]; then
		echo "gen.sh: $name: no case or no trace: $(printf '%s\n' "$out" | tail -n 2)" >&2
		status=1
		return
	fi
	mode=$(printf '%s\n' "$line" | awk '{ sub(/_mat_mul/, "", $2); print $2 }')
	verdict=$(printf '%s\n' "$line" | cut -c61- | tr ' ' '-')
	set -- $(printf '%s\n' "$replay" | sed -E 's/.* -M ([0-9]+) -K ([0-9]+) -N ([0-9]+) --values ([a-z]+) --seed ([0-9]+).*/\1 \2 \3 \4 \5/')
	first=$(printf '%s\n' "$out" | sed -n 's/.*the first wrong event is event \([0-9]*\) of.*/\1/p' | head -n 1)
	echo "$name $mode $1 $2 $3 $4 $5 $verdict ${first:--1}" >>"$DIR/cases.txt.new"
}

S=assets/solutions
J=tests/app/judge/solutions
one pass-fsdp $S/correct.py -m fsdp -d 3 -M 9 -K 5 -N 6
one pass-dp $S/correct.py -m dp -d 4
one wrong-result $J/r_plus_s.py -d 3 -M 9 -K 5 -N 6
one int-accumulator $J/int_accumulator.py -m fsdp -d 2 --values floats
one dp-arrival $J/dp_arrival.py -d 4
one dp-shared-list $J/dp_shared_list.py -d 4
one fsdp-gather-order $J/fsdp_queue_unsorted.py -d 4
one wrong-neighbour $J/wrong_neighbour.py -d 3 -M 9 -K 5 -N 6
one wrong-shape $J/dp_no_gather.py -d 4
one not-a-ring $J/fsdp_no_ring.py -d 3
one mutated-payload $J/buffer_reuse.py -d 3 -M 9 -K 5 -N 6
one mutated-input $J/inplace_b.py -d 4
one messages-left $J/extra_rotation.py -d 4
one deadlock-send $J/send_first.py --capacity 0 -d 3 -M 9 -K 5 -N 6
one deadlock-recv $J/recv_first.py -d 4
one exception $J/raising.py -d 3
one timeout $J/infinite_loop.py -d 3 --judge-timeout 0.5
mv "$DIR/cases.txt.new" "$DIR/cases.txt"
exit $status
