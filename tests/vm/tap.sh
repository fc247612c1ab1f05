# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the guest tests (busybox sh).  Source it.
#
#   ok COND_EXIT DESC          report one test from an exit status
#   is GOT WANT DESC           string equality, shows both on failure
#   done_testing               print the plan, exit non-zero on any failure
#   wait_lines FILE N          wait until FILE has N lines (up to 30 s)
TRACING=${TRACING:-/sys/kernel/tracing}
EV=$TRACING/events
_n=0
_failed=0

ok() {
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_n - $2"
	else
		echo "not ok $_n - $2"
		_failed=$((_failed + 1))
	fi
}

is() {
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		echo "#   got:  '$1'"
		echo "#   want: '$2'"
	fi
}

# check DESC CMD...: pass when CMD succeeds
check() {
	_d=$1
	shift
	"$@"
	ok $? "$_d"
}

diag() { echo "# $*"; }

done_testing() {
	echo "1..$_n"
	[ "$_failed" -eq 0 ]
}

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
