#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/bench/run --events: the per-event cost of a hist
# trigger on syscalls:sys_enter_write, measured by evcost with no trigger,
# with a sum-only trigger, with the same trigger plus .max and .min, and
# with the sum-only trigger made an interval hist (a hist_interval file
# held open, where the kernel has one: the same trigger, its map loaded
# once per event through a pointer a read may swap).
# The three setups take turns, ROUNDS times, so drift hits them alike.
# Prints "SETUP median_ns=M" lines (the median over the turns).
. /tests/vm/tap.sh
writes=${1:-20000}
turns=${2:-3}
ev=syscalls/sys_enter_write
sum='hist:keys=common_pid:vals=count'
ext='hist:keys=common_pid:vals=count,count.max,count.min'
reset_triggers
run() {	# SETUP
	evcost "$writes" 3 | sed -n "s/.*median_ns=\([0-9.]*\).*/$1 \1/p"
}
i=0
: >/tmp/evcost
while [ "$i" -lt "$turns" ]; do
	run none >>/tmp/evcost
	trig $ev "$sum"
	run sum >>/tmp/evcost
	trig $ev "!$sum"
	if grep -q 'keep the largest value' "$TRACING/README"; then
		trig $ev "$ext"
		run sum+max+min >>/tmp/evcost
		trig $ev "!$ext"
	fi
	if [ -e "$EV/$ev/hist_interval" ]; then
		exec 3<>"$EV/$ev/hist_interval"
		echo "$sum" >&3
		run sum-interval >>/tmp/evcost
		exec 3>&-
	fi
	i=$((i + 1))
done
for s in none sum sum+max+min sum-interval; do
	grep "^$s " /tmp/evcost | sort -n -k2 | awk -v s="$s" '
		{ v[NR] = $2 } END { if (NR) printf "%s median_ns=%s turns=%d\n", s, v[int((NR + 1) / 2)], NR }'
done
