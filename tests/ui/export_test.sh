#!/usr/bin/env bash
# export_test: --export and --record.  The cast is checked against the
# asciicast v2 format (tests/ui/export_cast.py) with one labelled marker per
# phase; its output, played into a real terminal (a private tmux of the same
# size), must end on the very screen, colours included, that the interface
# itself ends on when driven to its end in tmux with the same options.  The
# SVG stills parse as XML and hold the panels' text (tests/ui/export_svg.py),
# and the timeline's when it is on screen (--timeline).
# --record is driven in tmux, through a resize, q and Ctrl-C; bad paths exit
# 2 with one line and leave nothing behind.  Every wait is for something on
# screen (tmux.sh), never for a time.
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
NAME=export
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/tmux.sh"
PY=/usr/bin/python3 # Debian's, with numpy: not needed here, but the same one the tests use
W=$(mktemp -d)
trap 'T kill-server 2>/dev/null; rm -rf "$W"' EXIT

# cast FILE: validates FILE (exit status 0) and leaves its facts in $W/facts
# and the output to play in FILE.out.
cast() {
	"$PY" "$HERE/export_cast.py" "$1" "$1.out" > "$W/facts" || { bad "$(cat "$W/facts")"; return 1; }
}
markers() { grep -c '^marker ' "$W/facts"; }
fact() { sed -n "s/^$1 //p" "$W/facts"; }

# export ARGS...: the program headless, stdin and stdout not a terminal;
# fails the test unless it exits 0 silently.
export_ok() {
	local st
	"$BIN" "$@" < /dev/null > "$W/stdout" 2> "$W/stderr"; st=$?
	[ "$st" = 0 ] && [ ! -s "$W/stdout" ] && [ ! -s "$W/stderr" ] && return 0
	bad "export $*: exit $st, '$(cat "$W/stdout" "$W/stderr")'"; return 1
}

# screen_e: the pane with its colours and attributes (SGR) kept.
screen_e() { T capture-pane -e -p -t 0 2>/dev/null; }

# play_cast OUT COLSxROWS: OUT (a cast's output) played into a fresh tmux of
# that size by cat; the pane's title is set after it, so once the title
# shows, tmux has read everything before it.  The status line is off from
# the start, so the pane never has another size.
play_cast() {
	local out=$1 size=$2 i=0
	T kill-server 2>/dev/null
	RUNS=$((RUNS + 1))
	SOCK="distmm-$NAME-$$-$RUNS"
	T start-server \; set-option -g status off \; new-session -d -x "${size%x*}" -y "${size#*x}" \
		-e TERM=tmux-256color -e LANG=C.UTF-8 \
		"cat $(printf %q "$out"); printf '\\033]2;CAST-PLAYED\\033\\\\'; exec sleep 600"
	while [ "$i" -lt 300 ]; do
		[ "$(T display -p -t 0 '#{pane_title}' 2>/dev/null)" = CAST-PLAYED ] && return 0
		sleep 0.05; i=$((i + 1))
	done
	bad "the cast's output was never all played"; return 1
}

# at_end: waits until the interface shows the end of its run (the
# verification, a deadlock, a failure) and has stopped moving.
at_end() {
	wait_for ' (verify|deadlock|failed)  paused ' 60 && wait_still
}

# same_end LABEL CAST SIZE: the cast played ends on the screen in $W/ui.
same_end() {
	cast "$2" || return 1
	[ "$(fact size)" = "$3" ] || { bad "$1: the cast ends at $(fact size), not $3"; return 1; }
	play_cast "$2.out" "$3" || return 1
	screen_e > "$W/played"
	if "$PY" "$HERE/export_screen.py" "$W/played" "$W/ui" > "$W/why"; then
		pass
	else
		bad "$1: the cast's last screen is not the interface's: $(cat "$W/why") (< cast > interface):"
		diff <(sed 's/\x1b\[[0-9;]*m//g' "$W/played") <(sed 's/\x1b\[[0-9;]*m//g' "$W/ui") |
			head -20 | sed 's/^/    | /'
	fi
}

# compare SIZE ARGS...: the interface played to its end (--play --speed 16)
# against the export of the same run at that size.
compare() {
	local size=$1; shift
	test_name="cast ends as the interface: $size $*"
	start "$size" "$@" --play --speed 16
	at_end || return
	screen_e > "$W/ui"
	keys q
	wait_for '^EXIT:0 TTY:RESTORED$' || return
	export_ok "$@" --speed 16 --size "$size" --export "$W/c.cast" || return
	same_end "$size $*" "$W/c.cast" "$size"
}

test_name="cast format, a marker a phase"
for spec in "1|-d 1" "3|-d 3" "4|" "5|-d 5 -M 7 -N 3" "16|-d 16"; do
	d=${spec%%|*} args=${spec#*|}
	export_ok $args --export "$W/f.cast" && cast "$W/f.cast" || continue
	# ready, n computes, n - 1 transfers, the gather, the verification
	[ "$(markers)" = $((2 * d + 2)) ] && pass || bad "FSDP $d devices: $(markers) markers, not $((2 * d + 2))"
	[ "$(fact size)" = 120x40 ] && pass || bad "default size $(fact size)"
	fact marker | head -1 | grep -q '^Ready: ' && fact marker | tail -2 | head -1 | grep -q '^gather: ' &&
		fact marker | tail -1 | grep -q '^verify: ' && pass ||
		bad "FSDP $d: the markers do not start at the ready screen and end with the gather and the verification"
	for s in $(seq 0 $((d - 1))); do
		# one device: s=0 is plain A @ B, and its caption says so
		[ "$d" = 1 ] && want="^marker step s=0: .*B\[0\], all of B" || want="^marker step s=$s: .*B\[(r - $s) mod $d\]"
		grep -q "$want" "$W/facts" ||
			bad "FSDP $d: no marker labelled 'step s=$s: ...'"
		[ "$s" -lt $((d - 1)) ] && ! grep -q "^marker transfer after s=$s: " "$W/facts" &&
			bad "FSDP $d: no marker labelled 'transfer after s=$s: ...'"
	done
done
export_ok -m dp --export "$W/f.cast" && cast "$W/f.cast" &&
	{ [ "$(markers)" = 4 ] && pass || bad "DP: $(markers) markers, not 4 (ready, compute, gather, verify)"; }
export_ok --naive --capacity 0 --export "$W/f.cast" && cast "$W/f.cast" &&
	{ [ "$(markers)" = 3 ] && fact marker | tail -1 | grep -q '^deadlock: 0 -> 1 -> 2 -> 3 -> 0' && pass ||
		bad "deadlock: $(markers) markers, the last '$(fact marker | tail -1)'"; }
export_ok --bug c-mod --export "$W/f.cast" && cast "$W/f.cast" &&
	{ fact marker | tail -1 | grep -q 'negative index' && pass || bad "c-mod: the run's stop has no marker"; }
export_ok --size 80x24 -d 3 --export "$W/f.cast" && cast "$W/f.cast" &&
	{ [ "$(fact size)" = 80x24 ] && head -1 "$W/f.cast" | grep -q '"width": 80, "height": 24' && pass ||
		bad "--size 80x24 gave $(fact size)"; }
# the program by the name a user types, not the folder this machine keeps it in
head -1 "$W/f.cast" | grep -q '"command": "distmm-tui --size 80x24 -d 3 --export ' && pass ||
	bad "the header's command is not the command line: $(head -c 300 "$W/f.cast")"

test_name="time follows the speed, not the clock"
export_ok -d 4 --export "$W/s1.cast" && cast "$W/s1.cast" && d1=$(fact duration)
export_ok -d 4 --speed 16 --export "$W/s16.cast" && cast "$W/s16.cast" && d16=$(fact duration)
export_ok -d 4 --speed 1/4 --export "$W/s4.cast" && cast "$W/s4.cast" && d4=$(fact duration)
"$PY" -c "import sys; a, b, c = map(float, sys.argv[1:]); sys.exit(not (8 < a / b < 32 and 2 < c / a < 8))" \
	"${d1:-0}" "${d16:-1}" "${d4:-0}" && pass || bad "durations 1x $d1 s, 16x $d16 s, 1/4x $d4 s"
# the same run twice is the same file, the header's timestamp aside: no wall time in it
export_ok -d 4 --export "$W/s1b.cast" &&
	cmp -s <(tail -n +2 "$W/s1.cast") <(tail -n +2 "$W/s1b.cast") && pass || bad "two exports of a run differ"
# no terminal at all: the export's terminal type is its own
( unset TERM; "$BIN" -d 2 --export "$W/t.cast" < /dev/null > /dev/null 2>&1 ) && cast "$W/t.cast" && pass ||
	bad "export without TERM"
TERM=dumb "$BIN" -d 2 --export "$W/t.cast" < /dev/null 2>&1 | cat > "$W/stdout" && cast "$W/t.cast" &&
	[ ! -s "$W/stdout" ] && pass || bad "export with TERM=dumb and stdout a pipe"

# the recording played in a terminal ends on the interface's own last screen
compare 120x40
compare 120x40 -m dp
compare 100x30 -d 3 --naive --capacity 0
compare 120x40 --bug r-plus-s
compare 80x24 -d 5 --no-color --ascii
compare 200x60 -d 16
"$BIN" -b -q -d 3 --trace "$W/t.jsonl" > /dev/null
compare 120x40 --replay "$W/t.jsonl"

# --judge: the candidate's run exported as recorded, its first wrong event's
# explanation the marker of its phase; a hang's stop is the last marker
SOL="$HERE/../../assets/solutions"
test_name="a judged run"
export_ok --judge "$SOL/r_plus_s.py" -d 3 -M 9 -K 5 -N 6 --export "$W/j.cast" && cast "$W/j.cast" &&
	{ [ "$(markers)" = 8 ] && pass || bad "judged: $(markers) markers, not 8: $(fact marker | tr '\n' '|')"; }
grep -q '^marker ! wrong result: step 1, rank 0 wrote C\[0:3, 2:4\] (shard 1) but holds shard 2' "$W/facts" &&
	pass || bad "judged: no marker with the mark's explanation: $(fact marker | tr '\n' '|')"
head -1 "$W/j.cast" | grep -q '"title": "distmm-tui judged: FSDP, 3 devices, A 9x5, B 5x6"' && pass ||
	bad "judged: the title $(head -c 200 "$W/j.cast")"
export_ok --judge "$SOL/send_first.py" -d 3 -M 9 -K 5 -N 6 --capacity 0 --export "$W/j0.cast" && cast "$W/j0.cast" &&
	{ fact marker | tail -1 | grep -q '^deadlock: rank 0 waits to send shard 0' && pass ||
		bad "judged deadlock: the last marker '$(fact marker | tail -1)'"; }
compare 100x30 --judge "$SOL/r_plus_s.py" -d 3 -M 9 -K 5 -N 6
compare 80x24 --judge "$SOL/send_first.py" -d 3 -M 9 -K 5 -N 6 --capacity 0 --no-color

cat > "$W/two.lesson" <<'EOF'
title: Two parts
part: Two devices
set: fsdp devices=2 quiz=1
ready: LESSON-READY-ONE
done: LESSON-DONE-ONE
part: DP on three
set: dp devices=3
ready: LESSON-READY-TWO
EOF
test_name="lessons: every part"
export_ok --lesson "$W/two.lesson" --export "$W/l.cast" && cast "$W/l.cast" &&
	{ [ "$(markers)" = 10 ] && grep -q '^marker LESSON-READY-ONE' "$W/facts" &&
		grep -q '^marker LESSON-DONE-ONE Next: DP on three' "$W/facts" &&
		grep -q '^marker LESSON-READY-TWO' "$W/facts" && pass ||
		bad "lesson: $(markers) markers, not 6 + 4: $(fact marker | tr '\n' '|')"; }
head -1 "$W/l.cast" | grep -q '"title": "distmm-tui: Two parts"' && pass || bad "the lesson's title"
sed '/quiz=1/s/ quiz=1//' "$W/two.lesson" > "$W/two-noquiz.lesson" # the interface would ask
start 120x40 --lesson "$W/two-noquiz.lesson" --speed 16
wait_for 'ready  paused'
keys p
wait_for 'LESSON-DONE-ONE' 60 && at_end
keys n
wait_for 'LESSON-READY-TWO'
keys p
at_end && screen | grep -q 'DP' && screen_e > "$W/ui"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
export_ok --lesson "$W/two-noquiz.lesson" --speed 16 --export "$W/l16.cast" && same_end "lesson" "$W/l16.cast" 120x40

test_name="svg stills"
mkdir "$W/svg"
export_ok -d 3 --export "$W/svg/run.svg" &&
	"$PY" "$HERE/export_svg.py" "$W/svg/run" 8 "+rank 0" "=verify: allclose ok" "=<path" \
		"=#ff5f5f" > "$W/out" && pass || bad "$(cat "$W/out")"
[ "$(ls -A "$W/svg" | wc -l)" = 9 ] && pass || bad "the svg folder holds $(ls -A "$W/svg" | tr '\n' ' ')"
grep -q '<title>Ready: rank r holds' "$W/svg/run-000.svg" && grep -q '<title>step s=0: ' "$W/svg/run-001.svg" &&
	pass || bad "a still's title is not its phase's caption"
# the timeline on screen (--timeline) is in every still and in the cast
export_ok -d 4 --timeline --export "$W/svg/tl.svg" &&
	"$PY" "$HERE/export_svg.py" "$W/svg/tl" 10 "+timeline: the modelled clock" "+h100-nvlink" \
		"+r3" "+crit" "+exposed communication" > "$W/out" && pass || bad "timeline: $(cat "$W/out")"
# (the cast moves the cursor over a run of spaces: words one by one)
export_ok -d 4 --timeline --export "$W/tl.cast" && grep -q 'timeline: the modelled clock' "$W/tl.cast" &&
	grep -q 'crit' "$W/tl.cast" && grep -q 'exposed' "$W/tl.cast" && pass || bad "the cast has no timeline"
rm -f "$W"/svg/tl*.svg "$W/tl.cast"
export_ok -d 3 --no-color --ascii --export "$W/svg/mono.svg" &&
	"$PY" "$HERE/export_svg.py" "$W/svg/mono" 8 "+rank 0" "+|" "=+-" '!#ff0000' '!<path' \
		> "$W/out" && pass || bad "--no-color --ascii: $(cat "$W/out")"
export_ok --judge "$SOL/r_plus_s.py" -d 3 -M 9 -K 5 -N 6 --export-chrome full --export "$W/svg/judged.svg" &&
	"$PY" "$HERE/export_svg.py" "$W/svg/judged" 8 "+rank 0" "+judged" > "$W/out" &&
	grep -q '<title>! wrong result: step 1, rank 0 wrote' "$W/svg/judged-003.svg" && pass ||
	bad "judged: $(cat "$W/out"), $(grep -o '<title>[^<]*' "$W/svg/judged-003.svg")"
export_ok --lesson "$HERE/../../assets/lessons/the-exercise.lesson" --export "$W/svg/lesson.svg" &&
	n=$(ls "$W/svg" | grep -c '^lesson-[0-9]*\.svg$') && [ "$n" -gt 8 ] &&
	"$PY" "$HERE/export_svg.py" "$W/svg/lesson" "$n" "+rank 0" > "$W/out" && pass || bad "lesson: $(cat "$W/out")"

# each theme's own background, whole, in the stills and the cast's header
# (the contrast of every pair is check_theme's, from the tables)
test_name="themes: the export paints the theme's background"
for spec in "default|#1c1c1c|#d0d0d0" "projector|#000000|#ffffff" "light|#ffffff|#000000"; do
	IFS='|' read -r th tbg tfg <<< "$spec"
	export_ok -d 3 --theme "$th" --export "$W/svg/th-$th.svg" &&
		grep -q "^<rect width=\"1220\" height=\"820\" fill=\"$tbg\"/>" "$W/svg/th-$th-002.svg" &&
		grep -q "^<g fill=\"$tfg\">" "$W/svg/th-$th-002.svg" && pass ||
		bad "--theme $th: the still is not $tfg on $tbg"
	export_ok -d 3 --theme "$th" --export "$W/th.cast" &&
		head -1 "$W/th.cast" | grep -q "\"theme\": {\"fg\": \"$tfg\", \"bg\": \"$tbg\"" && pass ||
		bad "--theme $th: the cast's header: $(head -1 "$W/th.cast" | grep -o '"theme.*')"
done
# a cell the light theme draws never shows the terminal's own background:
# no <rect> of the dark default anywhere
grep -q '#1c1c1c' "$W"/svg/th-light-*.svg && bad "the light theme shows the dark background" || pass

# a clean still: by default an SVG has neither the status bar nor the key
# bar, at the size asked; --export-chrome full has both, and still neither
# "playing" nor "paused"; no export's caption tells anyone to press a key
test_name="clean stills: no bars, no playing, no keys to press"
words() { "$PY" -c 'import sys, xml.dom.minidom as m
for t in m.parse(sys.argv[1]).getElementsByTagName("text"): print("".join(n.data for n in t.childNodes))' "$1"; }
mkdir "$W/clean"
export_ok -d 4 --export "$W/clean/c.svg" &&
	grep -q '^<svg [^>]*width="1220" height="820"' "$W/clean/c-003.svg" && words "$W/clean/c-003.svg" > "$W/w" &&
	grep -q '^rank 0' "$W/w" && ! grep -Eq 'distmm-tui|FSDP  A 8x6|q quit|playing|paused|n next' "$W/w" &&
	pass || bad "a default still has a bar or is not 120x40: $(grep -E 'distmm|quit|playing' "$W/w")"
export_ok -d 4 --export-chrome full --export "$W/clean/f.svg" && words "$W/clean/f-003.svg" > "$W/w" &&
	grep -q 'step s=1 (2 of 4)  compute' "$W/w" && grep -q 'quit' "$W/w" &&
	! grep -Eq 'playing|paused' "$W/w" && pass ||
	bad "--export-chrome full: $(grep -E 'step s=1|quit|playing|paused' "$W/w")"
export_ok -d 4 --export-chrome none --export "$W/clean/n.cast" && cast "$W/clean/n.cast" &&
	[ "$(fact size)" = 120x40 ] && ! grep -Eq 'q quit|playing|paused' "$W/clean/n.cast.out" && pass ||
	bad "--export-chrome none in a cast: $(fact size)"
LESSONS="$HERE/../../assets/lessons"
for l in the-exercise deadlock memory training; do
	export_ok --lesson "$LESSONS/$l.lesson" --export "$W/clean/$l.cast" && cast "$W/clean/$l.cast" &&
		export_ok --lesson "$LESSONS/$l.lesson" --export "$W/clean/$l.svg" || continue
	grep -qi 'press' "$LESSONS/$l.lesson" || bad "$l: the lesson no longer says press: a weaker test"
	! fact marker | grep -Eqi '\bpress\b|\(n\)' &&
		! cat "$W"/clean/"$l"*.svg | grep -Eqi '\bpress [a-z]\b|\(n\):' && pass ||
		bad "$l: a caption says to press a key: $(fact marker | grep -Ei 'press|\(n\)' | head -2)"
done

# exporting x.svg again with fewer stops: the stills the last export wrote
# and this one did not are removed, the ones anyone else made or changed
# since are not (the manifest in x.svg lists each still by its bytes)
test_name="again with fewer stops: no stale stills, nothing else removed"
mkdir "$W/again"
stills() { ls "$W/again" | tr '\n' ' '; }
export_ok -d 4 --export "$W/again/x.svg" && [ "$(ls "$W/again" | grep -c '^x-0..\.svg$')" = 10 ] && pass ||
	bad "4 devices: $(stills)"
echo "a slide of my own" > "$W/again/x-011.svg"  # never written by an export
echo "<!-- my note -->" >> "$W/again/x-008.svg"  # written, then changed
cp "$W/again/x-009.svg" "$W/again/keep.svg"
export_ok -d 2 --export "$W/again/x.svg" &&
	[ "$(stills)" = "keep.svg x-000.svg x-001.svg x-002.svg x-003.svg x-004.svg x-005.svg x-008.svg x-011.svg x.svg " ] &&
	pass || bad "2 devices after 4: $(stills)"
grep -q 'my note' "$W/again/x-008.svg" && grep -q 'of my own' "$W/again/x-011.svg" && pass ||
	bad "a file the export did not write was changed"
export_ok -d 1 --export "$W/again/x.svg" &&
	[ "$(stills)" = "keep.svg x-000.svg x-001.svg x-002.svg x-003.svg x-008.svg x-011.svg x.svg " ] &&
	pass || bad "1 device after 2: $(stills)"
# another name's manifest removes nothing: y.svg a copy of x.svg
cp "$W/again/x.svg" "$W/again/y.svg"; cp "$W/again/x-002.svg" "$W/again/y-002.svg"
export_ok -d 1 --export-chrome full --export "$W/again/y.svg" && [ -e "$W/again/x-002.svg" ] && pass ||
	bad "exporting y.svg touched x's stills: $(stills)"
# a failed export leaves the last one's series as it was
before=$(cd "$W/again" && md5sum x*.svg)
"$BIN" -d 4 --export "$W/again/x.svg" --size 20x5 < /dev/null > /dev/null 2>&1
[ "$before" = "$(cd "$W/again" && md5sum x*.svg)" ] && pass || bad "a refused export changed the series"

test_name="--record"
start 120x40 --record "$W/rec.cast"
wait_for 'ready  paused'
keys n
wait_for 'step s=0 \(1 of 4\)  compute'
keys n
wait_for 'transfer'
T resize-window -t 0 -x 100 -y 30
wait_for 'rank 3 ' && wait_still
keys n
wait_for 's=1 2/4 compute' && wait_still # 100 columns: the short form
screen_e > "$W/ui"
ls -A "$W" | grep -q '^\.rec\.cast\.' && pass || bad "no temporary file while recording"
[ ! -e "$W/rec.cast" ] && pass || bad "the recording is in place before the end"
keys q
wait_for '^EXIT:0 TTY:RESTORED$'
if cast "$W/rec.cast"; then
	[ "$(markers)" = 4 ] && pass || bad "--record: $(markers) markers for 4 phases shown"
	grep -q '^resize 100x30$' "$W/facts" && pass || bad "--record: no resize event to 100x30"
	head -1 "$W/rec.cast" | grep -q '"command": ".*distmm-tui --record ' && pass || bad "--record: the command"
	same_end "--record" "$W/rec.cast" 100x30
fi
ls -A "$W" | grep -q '^\.rec' && bad "a temporary file is left: $(ls -A "$W")"

test_name="--record through Ctrl-C keeps what it has"
start 100x30 --record "$W/int.cast" -d 2
wait_for 'ready  paused'
keys n
wait_for 's=0 1/2 compute'
keys C-c
wait_for '^EXIT:130 TTY:RESTORED$' && cast "$W/int.cast" && [ "$(markers)" = 2 ] && pass ||
	bad "after Ctrl-C: $(cat "$W/facts" 2>/dev/null)"
ls -A "$W" | grep -q '^\.int' && bad "a temporary file is left after Ctrl-C"

test_name="--record and a crash leave nothing"
start 100x30 --record "$W/crash.cast"
wait_for 'ready  paused'
kill -SEGV "$(pid_of)"
wait_for '^EXIT:139 TTY:RESTORED$' && pass
[ -z "$(ls -A "$W" | grep 'crash')" ] && pass || bad "a crash left $(ls -A "$W" | grep crash)"

# refused MESSAGE ARGS...: exit 2, one line on stderr saying MESSAGE, nothing
# on stdout, and nothing left in $W/bad (which holds a folder d.cast, and
# full.cast and s-004.svg, links to /dev/full: a write there fails at the end).
test_name="bad paths and options"
refused() {
	local want=$1 st; shift
	rm -rf "$W/bad"; mkdir -p "$W/bad/d.cast"; ln -s /dev/full "$W/bad/full.cast"; ln -s /dev/full "$W/bad/s-004.svg"
	"$BIN" "$@" < /dev/null > "$W/stdout" 2> "$W/stderr"; st=$?
	rmdir "$W/bad/d.cast"; rm -f "$W/bad/full.cast" "$W/bad/s-004.svg"
	if [ "$st" = 2 ] && [ "$(wc -l < "$W/stderr")" = 1 ] && grep -q -- "$want" "$W/stderr" &&
		[ ! -s "$W/stdout" ] && [ -z "$(ls -A "$W/bad")" ]; then pass
	else bad "$*: exit $st, '$(cat "$W/stderr")', left: $(ls -A "$W/bad" | tr '\n' ' ')"; fi
}
refused 'unknown export type (use .cast or .svg)' --export "$W/bad/x.gif"
refused 'unknown export type' --export "$W/bad/x"
refused 'No such file or directory' --export "$W/bad/no/such/x.cast"
refused 'Not a directory' --export /etc/passwd/x.cast
refused 'it is a directory' --export "$W/bad/d.cast"
refused 'No space left on device' --export "$W/bad/full.cast"
refused 'No space left on device' --export "$W/bad/s.svg" # the 5th still fails: none is left
refused 'too small for 16 devices: the interface needs' -d 16 --size 40x12 --export "$W/bad/x.cast"
refused '--size must be COLSxROWS' --size 120 --export "$W/bad/x.cast"
refused '--size must be COLSxROWS' --size 0x40 --export "$W/bad/x.cast"
refused '--speed must be' --speed 3 --export "$W/bad/x.cast"
refused '--size has no effect without --export' --size 80x24
refused '--export has no effect with -b' -b --export "$W/bad/x.cast"
refused '--record has no effect with -b' -b --record "$W/bad/x.cast"
refused '--speed has no effect with -b' -b --speed 2
refused '--quiz has no effect with --export' --quiz --export "$W/bad/x.cast"
refused '--play has no effect with --export' --play --export "$W/bad/x.cast"
refused '--record has no effect with --export' --record "$W/bad/r.cast" --export "$W/bad/x.cast"
refused '--record writes an asciicast' --record "$W/bad/x.svg"
refused 'No such file or directory' --record "$W/bad/no/x.cast"
refused 'cannot read' --replay "$W/bad/none.jsonl" --export "$W/bad/x.cast"

echo "export_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
