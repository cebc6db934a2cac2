#!/usr/bin/env bash
# storm_test: the terminal survives.  Thousands of random keys and resizes
# (down to 1x1 and back, mid-animation) must leave the program running and
# answering; signals during an animation and crashes must give the shell back
# its terminal modes (the pane compares `stty -g` before and after; see
# tmux.sh).
set -u
BIN=${1:-./distmm-tui}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
KEYS_TOTAL=${STORM_KEYS:-3000}
SEED=${STORM_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
NAME=storm
. "$(dirname "$0")/../lib/tmux.sh"

echo "storm_test: $KEYS_TOTAL keys from seed $SEED (STORM_SEED=$SEED repeats them)"
RANDOM=$SEED
POOL=(n Space p m r + - '[' ']' '?' h x b c Right Left Up Down C-l F1 Enter a z 0 9 Tab BTab BSpace
	g w t v s T f Home End Escape 1 2 3)
SIZES=(1x1 2x2 5x3 20x6 39x11 40x12 60x20 80x24 120x40 200x60 300x100)

test_name="key storm"
start 120x40 -d 5 --play
wait_for 'rank 4 '
sent=0
while [ "$sent" -lt "$KEYS_TOTAL" ]; do
	batch=()
	for _ in $(seq 1 40); do batch+=("${POOL[RANDOM % ${#POOL[@]}]}"); done
	keys "${batch[@]}"
	sent=$((sent + ${#batch[@]}))
	if [ $((RANDOM % 3)) = 0 ]; then
		sz=${SIZES[RANDOM % ${#SIZES[@]}]}
		T resize-window -t 0 -x "${sz%x*}" -y "${sz#*x}" 2>/dev/null
	fi
done
T resize-window -t 0 -x 120 -y 40
# The keys may still be draining, and a key that arrives while the program
# still believes the screen too small is ignored by design: ask for the help
# until it shows (each try only when it is not showing, so no try undoes one).
# (the header's count: the storm's [ may have left one device, "1 device")
wait_for 'distmm-tui .* [0-9]+ devices?( |$)' && pass
shown=0
for _ in $(seq 1 20); do
	if screen | grep -q 'any key closes this'; then shown=1; break; fi
	keys '?'
	for _ in $(seq 1 20); do
		screen | grep -q 'any key closes this' && break
		sleep 0.05
	done
done
[ "$shown" = 1 ] && pass || { bad "the help never opened after the storm"; screen | sed 's/^/    | /'; }
keys x
keys q
wait_for 'EXIT:0 TTY:RESTORED' && pass

# The practice's answer line takes every printable key: a storm into it
# (and out of it, with Esc, Tab and a) must leave the program answering.
test_name="key storm, practising"
start 100x30 -d 3 --quiz=derive
wait_for 'derive 0/0'
sent=0
while [ "$sent" -lt $((KEYS_TOTAL / 3)) ]; do
	batch=()
	for _ in $(seq 1 40); do batch+=("${POOL[RANDOM % ${#POOL[@]}]}"); done
	keys "${batch[@]}"
	sent=$((sent + ${#batch[@]}))
done
# Esc closes the answer line (or backs out, or closes an overlay), then q
# quits: repeated until it does, since the storm's keys may still be draining
for _ in $(seq 1 20); do
	screen | grep -q '^EXIT:' && break
	keys Escape
	sleep 0.1
	keys q
	sleep 0.2
done
wait_for 'EXIT:0 TTY:RESTORED' && pass

for sig in INT TERM HUP; do
	test_name="SIG$sig during an animation"
	start 100x30 -d 4 --play
	wait_for 'playing'
	wait_for 'transfer' 20   # a transfer's motion is on screen about now
	kill -"$sig" "$(pid_of)"
	case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
	wait_for "EXIT:$want TTY:RESTORED" 5 && pass
done

for sig in SEGV ABRT; do
	test_name="SIG$sig (a crash)"
	start 100x30 -d 4 --play
	wait_for 'playing'
	kill -"$sig" "$(pid_of)"
	case $sig in SEGV) want=139 ;; ABRT) want=134 ;; esac
	wait_for "EXIT:$want TTY:RESTORED" 5 && pass
done

echo "storm_test: $passes passed, $fails failed"
[ "$fails" = 0 ]
