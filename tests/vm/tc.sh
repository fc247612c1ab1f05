#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run a directory of test cases the way ftracetest runs test.d: one
# behaviour per NN-name.tc file, each headed by
#   # description: what it checks
#   # requires: FILE... "TEXT":README    (tracefs files, README features)
# Before each case every trigger is removed (reset_triggers); a case whose
# requirements the kernel lacks is a skip.  A case runs in a subshell with
# tap.sh, DIR/functions (if present) and its own log; its assertions come out
# as "CASE: description" TAP lines.  The log is kept (in LOGDIR, default
# /tmp/tc-logs) and shown only when the case fails.  TAP on stdout.
#
#   sh tests/vm/tc.sh DIR
. /tests/vm/tap.sh
dir=${1:?usage: tc.sh DIR}
logdir=${LOGDIR:-/tmp/tc-logs}
mkdir -p "$logdir"

# The first unmet requirement of CASE, or nothing.
unmet() {	# CASE
	sed -n 's/^# requires: *//p' "$1" | head -n 1 | tr ' ' '\n' | while read -r r; do
		[ -n "$r" ] || continue
		case $r in
		*:README)
			t=${r%:README}
			t=${t#\"}
			t=${t%\"}
			grep -qF -- "$t" "$TRACING/README" || { echo "README: $t"; break; }
			;;
		*) [ -e "$TRACING/$r" ] || { echo "$r"; break; } ;;
		esac
	done
}

for c in "$dir"/*.tc; do
	name=$(basename "$c" .tc)
	desc=$(sed -n 's/^# description: *//p' "$c" | head -n 1)
	miss=$(unmet "$c")
	if [ -n "$miss" ]; then
		skip "$name: $desc" "requires $miss"
		continue
	fi
	reset_triggers
	log=$logdir/$name.log
	(
		[ -f "$dir/functions" ] && . "$dir/functions"
		# shellcheck disable=SC1090
		. "$c"
	) >"$log" 2>&1
	rc=$?
	# shellcheck disable=SC2154
	before=$_tap_failed
	asserts=0
	# the case's own assertions, renumbered into this stream
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			asserts=$((asserts + 1))
			d=$(printf '%s' "$line" | sed -E 's/^(not )?ok [0-9]+ - //')
			case $line in
			"not ok "*) ok 1 "$name: $d" ;;
			*) ok 0 "$name: $d" ;;
			esac
			;;
		esac
	done <"$log"
	[ "$rc" -eq 0 ] || ok 1 "$name: the case exits 0 (it exited $rc)"
	[ "$asserts" -gt 0 ] || ok 1 "$name: the case made an assertion"
	if [ "$_tap_failed" -gt "$before" ]; then
		diag "$name failed ($desc); its log, $log:"
		sed 's/^/#   | /' "$log"
	else
		rm -f "$log"
	fi
done
reset_triggers
done_testing
