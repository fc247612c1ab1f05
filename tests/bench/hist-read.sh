#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/bench/run: a table of N entries (keys=count on
# sys_enter_write, one write of each size 1..N by one task), paused, then
# read (histread) as cat does and as histtop does, the memory an open
# reader holds, and histtop's own work per refresh (--profile).  Prints
# "N MODE ..." lines.
. /tests/vm/tap.sh
sizes=${*:-1024 2048 16384 131072}
reset_triggers
for n in $sizes; do
	case $n in
	1024 | 2048) reps=5 ;;
	16384) reps=3 ;;
	*) reps=1 ;;
	esac
	t='hist:keys=count:vals=hitcount:size=131072 if comm == "bench"'
	trig syscalls/sys_enter_write "$t"
	workload -c bench wsizes "$n"
	trig syscalls/sys_enter_write 'hist:keys=count:vals=hitcount:size=131072:pause if comm == "bench"'
	h=$EV/syscalls/sys_enter_write/hist
	echo "$n entries=$(total syscalls/sys_enter_write Entries)"
	echo "$n $(histread fresh $reps "$h")"
	echo "$n $(histread reuse $reps "$h")"
	echo "$n $(histread first $reps "$h")"
	echo "$n $(histread held "$h")"
	# histtop's own work per refresh on the same table: parse, model, sort
	# and a screenful (-T 50) of text, as the screen would draw; the table
	# is paused, so after the first refresh no entry changes (HISTTOP_POLL=0:
	# read it anyway where the hist file's poll() would say so)
	echo "$n $(HISTTOP_POLL=0 histtop -e syscalls:sys_enter_write --attach -k count -n 4 -d 0.1 -T 50 \
		--profile 2>&1 >/dev/null | grep 'profile:')"
	# the same table with every entry's hitcount moved on between refreshes,
	# replayed from saved frames (its read is of tmpfs, not of the kernel)
	rm -rf /tmp/frames
	mkdir /tmp/frames
	cat "$h" >/tmp/frames/0.hist
	for k in 1 2 3; do
		awk -v k=$k '/^\{ / { n = $NF + k; sub(/ *[0-9]+$/, sprintf("%11d", n)) } { print }' \
			/tmp/frames/0.hist >/tmp/frames/$k.hist
	done
	echo "$n changed $(histtop --replay /tmp/frames -n 4 -d 0.1 -T 50 --profile 2>&1 >/dev/null |
		grep 'profile:')"
	rm -rf /tmp/frames
	trig syscalls/sys_enter_write "!$t"
done
