# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Guest helpers for the tests run inside the VM (busybox sh).  Source it:
# it brings the TAP producer (tests/lib/tap.sh: ok, is, like, check, diag,
# skip, done_testing) and the tracefs helpers below.
#
#   wait_lines FILE N          wait until FILE has N lines (up to 30 s)
#   reset_triggers             remove every trigger on every event
#   trig EVENT TRIGGER         append a trigger (never O_TRUNC)
# vm/initramfs puts tests/lib beside tests/vm in the guest.
. /tests/lib/tap.sh
TRACING=${TRACING:-/sys/kernel/tracing}
EV=$TRACING/events

# Wait until FILE has at least N lines, up to 30 s.
wait_lines() {	# FILE N: up to 30 s
	i=0
	while [ $i -lt 300 ]; do
		[ "$( (wc -l <"$1") 2>/dev/null || echo 0)" -ge "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# Remove every trigger on every event (the ftracetest reset_trigger idea):
# '!' the hist triggers last, since others may refer to them.
# One grep lists the files that hold a trigger (a line not starting with
# '#'): a process per event would take minutes on a debug kernel.
reset_triggers() {
	# shellcheck disable=SC2013 # tracefs paths hold no spaces
	for f in $(grep -l -v '^#' "$EV"/*/*/trigger 2>/dev/null); do
		grep -v '^#' "$f" | grep -v '^hist' | while read -r t; do
			echo "!${t%% *}" >>"$f"
		done
		grep '^hist' "$f" | while read -r t; do
			echo "!${t%% \[*}" >>"$f" 2>/dev/null
		done
	done 2>/dev/null
	echo 0 >"$TRACING/tracing_on"
	echo >"$TRACING/trace"
	echo 1 >"$TRACING/tracing_on"
}

# Write a trigger by appending (O_TRUNC would remove the event's triggers).
trig() {	# EVENT_PATH TRIGGER
	echo "$2" >>"$EV/$1/trigger"
}

hist() { cat "$EV/$1/hist"; }

# The value of NAME on the entry line whose key contains KEY.
val_of() {	# EVENT KEY NAME
	hist "$1" | grep '^{ ' | grep -F "$2" | head -n 1 |
		sed -n "s/.* $3: *\(-\{0,1\}[0-9a-fx]*\).*/\1/p"
}

total() {	# EVENT Hits|Entries|Dropped  (first histogram)
	hist "$1" | sed -n "s/^ *$2: *//p" | head -n 1
}
