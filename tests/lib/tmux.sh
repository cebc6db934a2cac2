# tmux.sh: what the interface tests share, sourced by ui_test.sh and
# storm_test.sh.  The real program runs in a private, detached tmux of a fixed
# size; keys go in with send-keys, the screen comes out with capture-pane.
# Every wait is "until the screen shows X", with a deadline only to fail
# instead of hang: no step depends on how fast the machine is.
#
# The caller sets BIN (the program) and NAME (for the sockets), and counts
# with pass/bad; test_name labels the failures.

RUNS=0
SOCK="distmm-$NAME-$$-0"
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null' EXIT
fails=0 passes=0 test_name=""

bad() { echo "FAIL [$test_name]: $*"; fails=$((fails + 1)); }
pass() { passes=$((passes + 1)); }
screen() { T capture-pane -p -t 0 2>/dev/null; }
keys() { T send-keys -t 0 "$@"; }
pid_of() { pgrep -n -f "$BIN"; }

# start COLSxROWS ARGS...: the program in a fresh tmux server (a server being
# killed can still take a new session down with it).  When the program ends,
# the pane prints "EXIT:<status> TTY:RESTORED|BROKEN", the second comparing
# `stty -g` before and after, so a test sees the shell get its terminal back.
# The shell traps INT so that it outlives a Ctrl-C.  START_ENV=VAR=value
# adds one variable to the program's environment.
start() {
	local size=$1; shift
	T kill-server 2>/dev/null
	RUNS=$((RUNS + 1))
	SOCK="distmm-$NAME-$$-$RUNS"
	T new-session -d -x "${size%x*}" -y "${size#*x}" -e TERM=tmux-256color \
		-e LANG="${UI_LANG:-C.UTF-8}" ${START_ENV:+-e "$START_ENV"} \
		"trap : INT; before=\$(stty -g); cd $(printf %q "$PWD") && $(printf '%q ' "$BIN" "$@"); st=\$?; \
if [ \"\$(stty -g)\" = \"\$before\" ]; then t=RESTORED; else t=BROKEN; fi; \
printf '\\n\\nEXIT:%s TTY:%s\\n' \$st \$t; sleep 600"
	T set-option -g status off >/dev/null
}

# wait_for PATTERN [SECONDS]: until the screen matches (grep -E).
wait_for() {
	local pat=$1 limit=${2:-15} i=0
	while [ "$i" -lt $((limit * 20)) ]; do
		screen | grep -Eq -- "$pat" && return 0
		sleep 0.05; i=$((i + 1))
	done
	bad "screen never showed /$pat/"; screen | sed 's/^/    | /'; return 1
}

# wait_gone PATTERN: until the screen no longer matches.
wait_gone() {
	local pat=$1 i=0
	while [ "$i" -lt 300 ]; do
		screen | grep -Eq -- "$pat" || return 0
		sleep 0.05; i=$((i + 1))
	done
	bad "screen still shows /$pat/"; screen | sed 's/^/    | /'; return 1
}

# wait_still: until two captures a moment apart are the same (no motion).
wait_still() {
	local a b i=0
	a=$(screen)
	while [ "$i" -lt 100 ]; do
		sleep 0.2
		b=$(screen)
		[ "$a" = "$b" ] && return 0
		a=$b; i=$((i + 1))
	done
	bad "the screen never stopped moving"; return 1
}
