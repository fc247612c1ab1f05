#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Stress the hist file under a debug kernel (KASAN, lockdep): an event load,
# concurrent readers of the hist files (whole, in 7-byte reads, re-read on
# one fd), and a controller that pauses, continues, clears, removes and
# re-adds the triggers, for SECS seconds (default 60).  vm/run fails the run
# when the console shows WARNING:, BUG:, Call Trace: or a KASAN report.
. "$(dirname "$0")/tap.sh"
secs=${1:-60}
RD=syscalls/sys_enter_read KM=kmem/kmalloc
T1='hist:keys=common_pid.execname,count:vals=hitcount,count:size=4096'
T2='hist:keys=call_site.sym:vals=bytes_req,bytes_alloc:sort=bytes_req.descending'
T3='hist:name=stressnamed:keys=count.log2:vals=count'
T4='hist:keys=stacktrace:vals=bytes_req'
stop=/tmp/stress.stop
rm -f $stop /tmp/stress.*
reset_triggers

add_all() {
	trig $RD "$T1"
	trig $KM "$T2"
	trig $RD "$T3"
	trig syscalls/sys_enter_write "$T3"
	trig $KM "$T4"
}
del_all() {
	trig $KM "!$T4"
	trig syscalls/sys_enter_write "!$T3"
	trig $RD "!$T3"
	trig $KM "!$T2"
	trig $RD "!$T1"
}
add_all

# load
( while [ ! -e $stop ]; do workload -c stress read 50 100; workload -c stress sizes 200
	workload -c stress pipes 20; ls -lR /bin >/dev/null; done ) &
# readers
reader() {	# N EVENT MODE
	n=0
	while [ ! -e $stop ]; do
		case $3 in
		whole) cat "$EV/$2/hist" >/dev/null 2>&1 ;;
		pieces) dd if="$EV/$2/hist" bs=7 count=3000 2>/dev/null >/dev/null ;;
		reuse) histread reuse 2 "$EV/$2/hist" >/dev/null 2>&1 ;;
		esac
		n=$((n + 1))
	done
	echo $n >/tmp/stress.reads.$1
}
reader 1 $RD whole &
reader 2 $KM pieces &
reader 3 $KM reuse &
reader 4 $RD reuse &

# controller
end=$(($(date +%s) + secs))
ops=0
while [ "$(date +%s)" -lt "$end" ]; do
	for p in pause cont clear; do
		trig $RD "$T1:$p"
		trig $KM "$T2:$p"
		trig $RD "$T3:$p"
		ops=$((ops + 3))
	done
	del_all
	add_all
	ops=$((ops + 10))
done
touch $stop
wait
reads=$(cat /tmp/stress.reads.* | awk '{s += $1} END {print s}')
diag "$ops trigger operations, $reads reads in $secs s"
[ "$ops" -gt 10 ] && [ "$reads" -gt 10 ]
ok $? "stress ran: $ops trigger operations and $reads hist reads in ${secs}s"
del_all
reset_triggers
grep -q '^hist' "$EV/$RD/trigger"
ok $((! $?)) "every trigger removed at the end"
done_testing
