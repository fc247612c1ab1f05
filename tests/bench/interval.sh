#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/bench/run --interval: the cost of one refresh of a
# table of N keys (keys=count on sys_enter_write, size=131072) of which 1%,
# 10% or 100% had a hit since the last refresh.  cumulative: the hist file
# read whole (what histtop reads today); interval: one read of the hist's
# hist_interval file (where the kernel has it), which prints only the keys
# of the interval.  Each mode: three refreshes, each after a workload that
# hits PCT% of the keys, timed by histread fd; then histtop's own work per
# refresh on those same frames (--replay --profile, -T 50: a screenful).
# Prints "PCT MODE read bytes=B ms=M cpu_ms=C" (one a refresh) and
# "PCT MODE own ms=M" lines.
. /tests/vm/tap.sh
n=${1:-131072}
ev=syscalls/sys_enter_write
t='hist:keys=count:vals=hitcount:size=131072 if comm == "bench"'
reset_triggers
# PCT% of the keys, a different slice each round R
hit() {	# PCT R
	k=$((n * $1 / 100))
	workload -c bench wsizes $k $(((($2 - 1) * k) % n + 1))
}
own() {	# PCT MODE DIR
	histtop --replay "$3" -n 4 -d 0.1 -T 50 --profile 2>&1 >/dev/null |
		sed -n "s/.*later: read [0-9.]* ms, histtop \([0-9.]*\) ms.*/$1 $2 own ms=\1/p"
}
for pct in 1 10 100; do
	rm -rf /tmp/bf
	mkdir /tmp/bf
	trig $ev "$t"
	workload -c bench wsizes "$n"
	exec 4<"$EV/$ev/hist"
	histread fd 4 /tmp/bf/0.hist >/dev/null
	for r in 1 2 3; do
		hit $pct $r
		echo "$pct cumulative read $(histread fd 4 /tmp/bf/$r.hist | sed 's/^fd //')"
	done
	exec 4<&-
	trig $ev "!$t"
	own $pct cumulative /tmp/bf
	[ -e "$EV/$ev/hist_interval" ] || continue

	rm -rf /tmp/bf
	mkdir /tmp/bf
	exec 3<>"$EV/$ev/hist_interval"
	echo "$t" >&3
	workload -c bench wsizes "$n"
	histread fd 3 /tmp/bf/0.hist >/dev/null	# the first interval: every key
	for r in 1 2 3; do
		hit $pct $r
		echo "$pct interval read $(histread fd 3 /tmp/bf/$r.hist | sed 's/^fd //')"
	done
	exec 3>&-
	own $pct interval /tmp/bf
done
