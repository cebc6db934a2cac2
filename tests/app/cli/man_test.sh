#!/usr/bin/env bash
# man_test: the manual pages (docs/man/) and make install.  Each page is
# clean for groff's every warning (-ww) and renders; its option list is the
# one --help gives and the parser knows (app/cli/cli.c's long options): an
# option added to one and not the others fails here, so the reference and
# --help cannot drift.  make install PREFIX=DIR puts the programs, the pages
# and the lessons where the installed program finds a lesson by its name.
set -u
BIN=${1:-./distmm-tui}
MPI_BIN=${2:-./distmm-mpi}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
passes=0 fails=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# --- each page: no warning, and it renders --------------------------------
for page in "$ROOT"/docs/man/distmm-tui.1 "$ROOT"/docs/man/distmm-mpi.1; do
	name=$(basename "$page")
	if groff -ww -z -man "$page" >"$T/warn" 2>&1 && ! [ -s "$T/warn" ]; then ok
	else bad "$name: groff warns: $(head -3 "$T/warn")"; fi
	groff -man -Tutf8 -P-cbou "$page" >"$T/page" 2>/dev/null
	for section in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
		grep -q "^$section" "$T/page" && ok || bad "$name: no $section section"
	done
done
grep -q '^KEYS' "$T/page" && bad "distmm-mpi.1 has keys" || ok

# --- option lists ------------------------------------------------------------
# options PAGE: every -x and --long named in a .TP entry's tag line.
man_options() {
	awk '/^\.TP/ { getline; print }' "$1" | sed 's/\\-/-/g' |
		grep -oE '(^|[ "])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' "' | sort -u
}
# --help: the options that start a line of the list.
help_options() {
	sed -nE 's/^ {2,6}(-[a-zA-Z], )?(--[a-zA-Z][a-zA-Z-]*).*/\1\2/p' | tr ',' '\n' | tr -d ' ' |
		sed '/^$/d' | sort -u
}
"$BIN" --help | help_options >"$T/help"
man_options "$ROOT/docs/man/distmm-tui.1" >"$T/man"
if diff "$T/help" "$T/man" >"$T/diff"; then ok
else bad "--help and distmm-tui.1 list other options: $(tr '\n' ' ' <"$T/diff")"; fi
# the parser's own long options (its getopt table), every one in both
sed -n '/cli_longopts\[\] = {/,/^};/p' "$ROOT/app/cli/cli.c" |
	sed -nE 's/^[[:space:]]*\{ "([a-zA-Z-]+)",.*/--\1/p' | sort -u >"$T/parser"
[ "$(wc -l <"$T/parser")" -gt 30 ] && ok || bad "the parser's table was not found in cli.c"
if comm -23 "$T/parser" "$T/man" >"$T/missing" && ! [ -s "$T/missing" ]; then ok
else bad "options the parser takes and distmm-tui.1 does not name: $(tr '\n' ' ' <"$T/missing")"; fi
if grep -- '^--' "$T/man" | comm -13 "$T/parser" - >"$T/extra" && ! [ -s "$T/extra" ]; then ok
else bad "options distmm-tui.1 names and the parser does not take: $(tr '\n' ' ' <"$T/extra")"; fi
# distmm-mpi: its own options, in its page and in its --help
if [ -x "$MPI_BIN" ]; then
	for opt in --step --calibrate; do
		grep -q -- "\\\\-\\\\-${opt#--}" "$ROOT/docs/man/distmm-mpi.1" && ok || bad "distmm-mpi.1 lacks $opt"
		"$MPI_BIN" --help 2>&1 | grep -q -- "$opt" && ok || bad "distmm-mpi --help lacks $opt"
	done
fi

# --- make install --------------------------------------------------------------
P="$T/prefix"
if make -s -C "$ROOT" install PREFIX="$P" BIN="$(basename "$BIN")" >"$T/install" 2>&1; then ok
else bad "make install: $(tail -3 "$T/install")"; fi
for f in bin/distmm-tui share/man/man1/distmm-tui.1 share/man/man1/distmm-mpi.1 \
	share/distmm-tui/lessons/the-exercise.lesson share/distmm-tui/solutions/correct.py; do
	[ -f "$P/$f" ] && ok || bad "make install left no $f"
done
# the installed program, from another directory, finds its lesson by name
mkdir "$T/elsewhere"
if (cd "$T/elsewhere" && "$P/bin/distmm-tui" --lesson the-exercise --export x.svg </dev/null \
	>"$T/out" 2>&1) && [ -f "$T/elsewhere/x.svg" ]; then ok
else bad "the installed distmm-tui --lesson the-exercise: $(head -2 "$T/out")"; fi
(cd "$T/elsewhere" && "$P/bin/distmm-tui" --lesson no-such-lesson --export y.svg </dev/null \
	>"$T/out" 2>&1); st=$?
[ "$st" = 2 ] && grep -q 'nor a lesson of that name (deadlock, hiding-communication, memory, spot-the-bug, tensor-parallel, the-exercise, training, why-a-ring)' "$T/out" &&
	ok || bad "an unknown lesson's name: exit $st, $(head -2 "$T/out")"
groff -man -Tutf8 "$P/share/man/man1/distmm-tui.1" 2>/dev/null | grep -q 'distmm-tui' && ok ||
	bad "the installed page does not render"

echo "man_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
