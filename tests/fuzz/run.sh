#!/bin/bash
# Builds the libFuzzer targets and runs each for SECONDS.
#
#   tests/fuzz/run.sh SECONDS [TARGET...]      targets: npy csv cli trace (default: all)
#
# Each target is built with clang into build/fuzz/ (the engine compiled with
# the same sanitizers into build/fuzz/libengine.a, so only what a target
# calls is linked).  Before fuzzing, every file in tests/fuzz/regress/TARGET/
# is replayed; then the target runs with a working corpus in
# build/fuzz/corpus/TARGET/ (seeded from tests/fuzz/corpus/TARGET/, which is
# never written), artifacts (crash-*, leak-*, timeout-*, oom-*) in
# build/fuzz/artifacts/TARGET/ and its log in build/fuzz/logs/TARGET.log.
# SECONDS = 0 builds and replays the regression inputs only.
#
# Exit status: 0 when nothing was found, 1 when a target found something or a
# regression input failed, 2 on a usage or build error.
#
# Environment: CC (default clang), FUZZ_ARGS (extra libFuzzer flags),
# FUZZ_CLI_SKIP (see fuzz_cli.c).
set -u
set -o pipefail

ALL_TARGETS="npy csv cli trace"

usage() {
	echo "usage: $0 SECONDS [TARGET...]   (targets: $ALL_TARGETS)" >&2
	exit 2
}

[ $# -ge 1 ] || usage
secs=$1
shift
case "$secs" in
'' | *[!0-9]*) usage ;;
esac
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2086
	set -- $ALL_TARGETS
fi
for t in "$@"; do
	case " $ALL_TARGETS " in
	*" $t "*) ;;
	*) echo "$0: unknown target '$t'" >&2; usage ;;
	esac
done

cd "$(dirname "$0")/../.." || exit 2

CC=${CC:-clang}
case "$CC" in
*clang*) ;;
*) CC=clang ;; # libFuzzer needs clang, whatever make uses
esac
command -v "$CC" >/dev/null 2>&1 || { echo "$0: $CC not found" >&2; exit 2; }

OUT=build/fuzz
BLAS_CFLAGS=$(pkg-config --cflags openblas 2>/dev/null) || BLAS_CFLAGS=
BLAS_LIBS=$(pkg-config --libs openblas 2>/dev/null) || BLAS_LIBS=-lopenblas

# The project's flags (see Makefile), then the fuzzing ones.
WARN="-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wundef"
BASE="-std=c11 -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600 -g -O1 -fno-omit-frame-pointer -pthread"
SAN="address,undefined"
# shellcheck disable=SC2206
LIB_FLAGS=($BASE $WARN "-fsanitize=fuzzer-no-link,$SAN" -fno-sanitize-recover=all -Iengine/include -Iengine -DDM_ENGINE_INTERNAL -Iapp $BLAS_CFLAGS)
# shellcheck disable=SC2206
TGT_FLAGS=($BASE $WARN "-fsanitize=fuzzer,$SAN" -fno-sanitize-recover=all -Iengine/include -Iengine -DDM_ENGINE_INTERNAL -Iapp $BLAS_CFLAGS)
# shellcheck disable=SC2206
LIBS=($BLAS_LIBS -lm -pthread)

export OPENBLAS_NUM_THREADS=1
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

# Is $1 missing or older than any of the rest?
stale() {
	local out=$1 f
	shift
	[ -e "$out" ] || return 0
	for f in "$@"; do
		[ "$f" -nt "$out" ] && return 0
	done
	return 1
}

build() {
	local src obj objs=() headers=() t lib="$OUT/libengine.a" changed=0
	mkdir -p "$OUT/obj/engine" "$OUT/obj/app/cli" || return 1
	for src in engine/include/distmm/*.h engine/*/*.h app/*/*.h; do
		[ -e "$src" ] && headers+=("$src")
	done
	# Every engine source: the archive hands the linker only what it needs,
	# and the list follows the engine as files come and go.
	for src in engine/*/*.c; do
		case "$src" in engine/comm/comm_mpi.c | engine/exec/mpi_rank.c) continue ;; esac # <mpi.h>
		obj="$OUT/obj/${src%.c}.o"
		mkdir -p "$(dirname "$obj")" || return 1
		objs+=("$obj")
		if stale "$obj" "$src" "${headers[@]}" tests/fuzz/run.sh; then
			echo "cc $src"
			"$CC" "${LIB_FLAGS[@]}" -c "$src" -o "$obj" || return 1
			changed=1
		fi
	done
	for obj in "$OUT"/obj/engine/*.o "$OUT"/obj/engine/*/*.o; do # objects of deleted sources
		[ -e "$obj" ] || continue
		src=${obj#"$OUT"/obj/}
		[ -e "${src%.o}.c" ] || rm -f "$obj"
	done
	if [ "$changed" = 1 ] || [ ! -e "$lib" ]; then
		rm -f "$lib"
		ar rcs "$lib" "${objs[@]}" || return 1
	fi
	# The parser: cli.c and the files it shares cli_int.h with (its values).
	local parser=()
	for src in app/cli/cli*.c; do
		obj="$OUT/obj/${src%.c}.o"
		parser+=("$obj")
		if stale "$obj" "$src" "${headers[@]}" tests/fuzz/run.sh; then
			echo "cc $src"
			"$CC" "${LIB_FLAGS[@]}" -c "$src" -o "$obj" || return 1
		fi
	done
	for t in "${targets[@]}"; do
		local extra=()
		[ "$t" = cli ] && extra=("${parser[@]}")
		if stale "$OUT/fuzz_$t" "tests/fuzz/fuzz_$t.c" "$lib" "${extra[@]}" "${headers[@]}" tests/fuzz/run.sh; then
			echo "cc tests/fuzz/fuzz_$t.c -> $OUT/fuzz_$t"
			"$CC" "${TGT_FLAGS[@]}" -o "$OUT/fuzz_$t" "tests/fuzz/fuzz_$t.c" \
				"${extra[@]}" "$lib" "${LIBS[@]}" || return 1
		fi
	done
	# A dictionary for the command line: getopt_long compares option names
	# inside libc, where libFuzzer cannot see the comparisons.
	if stale "$OUT/cli.dict" app/cli/cli.c engine/exec/bug.c engine/core/ccl.c tests/fuzz/run.sh; then
		{
			sed -n 's/^[[:space:]]*{ "\([a-z-]*\)",.*/"--\1"/p' app/cli/cli.c
			# --bug's names ([BUG_X] = "name" in engine/exec/bug.c's first table)
			if [ -e engine/exec/bug.c ]; then
				sed -n '/bug_names\[/,/};/p' engine/exec/bug.c |
					grep -o '= "[a-z-]*"' | sed 's/^= //'
			fi
			printf '"%s"\n' -b -q -d -m -M -K -N -A -B -o -h -V -- = \
				fsdp dp FSDP DP ints floats unbounded list 4096 1000000000 \
				a.npy b.csv c.npy allreduce allgather reducescatter broadcast reduce \
				ring tree rhd h100-nvlink 1K 1M 1G 0.5 1e3
		} >"$OUT/cli.dict.tmp" && mv "$OUT/cli.dict.tmp" "$OUT/cli.dict"
	fi
	return 0
}

targets=("$@")
mkdir -p "$OUT" || exit 2
# Two runs started at once must not build over each other.
if command -v flock >/dev/null 2>&1; then
	exec 9>"$OUT/.build.lock"
	flock 9
fi
if ! build; then
	echo "$0: build failed" >&2
	exit 2
fi
if command -v flock >/dev/null 2>&1; then
	flock -u 9
	exec 9>&-
fi

status=0
summary=()
for t in "${targets[@]}"; do
	bin="$OUT/fuzz_$t"
	corpus="$OUT/corpus/$t"
	art="$OUT/artifacts/$t"
	log="$OUT/logs/$t.log"
	mkdir -p "$corpus" "$art" "$OUT/logs" "$OUT/regress-artifacts/$t" || exit 2
	dict=()
	[ -e "$OUT/$t.dict" ] && dict=("-dict=$OUT/$t.dict")

	# The regression inputs: each must pass.
	regress=()
	if [ -d "tests/fuzz/regress/$t" ]; then
		for f in "tests/fuzz/regress/$t"/*; do
			[ -f "$f" ] && regress+=("$f")
		done
	fi
	if [ ${#regress[@]} -gt 0 ]; then
		rlog="$OUT/logs/$t.regress.log"
		failed=()
		# One process per input, so that one failure does not hide the rest.
		for f in "${regress[@]}"; do
			if ! "$bin" -timeout=10 -rss_limit_mb=2048 \
				-artifact_prefix="$OUT/regress-artifacts/$t/" "$f" >>"$rlog.tmp" 2>&1; then
				failed+=("$f")
			fi
		done
		mv "$rlog.tmp" "$rlog"
		if [ ${#failed[@]} -eq 0 ]; then
			line="regress $t: ${#regress[@]} inputs, OK"
		else
			line="regress $t: ${#regress[@]} inputs, FAILED ${failed[*]} (log $rlog)"
			status=1
		fi
		echo "$line"
		summary+=("$line")
	fi

	[ "$secs" -gt 0 ] || continue

	if [ -d "tests/fuzz/corpus/$t" ]; then
		for f in "tests/fuzz/corpus/$t"/*; do
			[ -f "$f" ] && cp -p "$f" "$corpus/"
		done
	fi
	mark="$OUT/.start.$t"
	: >"$mark"
	echo "fuzzing $t for $secs s (log $log)"
	start=$(date +%s)
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$art/" -print_final_stats=1 "${dict[@]}" \
		${FUZZ_ARGS:-} "$corpus" >"$log" 2>&1
	rc=$?
	elapsed=$(($(date +%s) - start))

	# "Done 123 runs in 600 second(s)" ends a run that found nothing;
	# otherwise the final stats, or the last "#N" status line, count them.
	runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
	s=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\2/p' "$log" | tail -n 1)
	[ -n "$runs" ] || runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
	[ -n "$runs" ] || runs=$(sed -n 's/^#\([0-9][0-9]*\)[[:space:]].*/\1/p' "$log" | tail -n 1)
	[ -n "$runs" ] || runs=0
	[ -n "$s" ] || s=$elapsed
	ncorpus=$(find "$corpus" -type f | wc -l)

	found=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tr '\n' ' ')
	if [ -z "$found" ]; then
		found=$(find "$art" -type f -newer "$mark" | tr '\n' ' ')
	fi
	found=${found% }
	rm -f "$mark"
	if [ "$rc" -eq 0 ] && [ -z "$found" ]; then
		result=OK
	else
		result="FOUND ${found:-"(exit status $rc, no artifact; see $log)"}"
		status=1
	fi
	line="fuzz $t: $runs runs in $s s, $ncorpus corpus files, $result"
	echo "$line"
	summary+=("$line")
done

if [ ${#summary[@]} -gt 1 ]; then
	echo "--- summary"
	printf '%s\n' "${summary[@]}"
fi
exit "$status"
