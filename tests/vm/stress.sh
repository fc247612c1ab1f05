#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Stress the hist file under a debug kernel (KASAN, lockdep): an event load,
# concurrent readers of the hist files (whole, in 7-byte reads, re-read on
# one fd), and a controller that pauses, continues, clears, removes and
# re-adds the triggers, for SECS seconds (default 60).  Where the kernel has
# hist_interval files, interval readers too (each its own interval hist:
# whole reads, reads stopped part-way, pause/cont, reopened), one of them
# on a kprobe event, while the controller also truncates the trigger file
# (which removes interval hists) and deletes and re-adds the kprobe event.  vm/run fails the run
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
	echo $n >/tmp/stress.reads."$1"
}
reader 1 $RD whole &
reader 2 $KM pieces &
reader 3 $KM reuse &
reader 4 $RD reuse &

# interval readers: one interval hist per open file
KP=kprobes/ivstress
ireader() {	# N EVENT TRIGGER
	n=0
	while [ ! -e $stop ]; do
		if exec 7<>"$EV/$2/hist_interval"; then
			echo "$3" >&7
			i=0
			while [ $i -lt 20 ] && [ ! -e $stop ]; do
				cat <&7 >/dev/null
				dd bs=7 count=3 <&7 >/dev/null 2>&1	# stops part-way
				cat <&7 >/dev/null	# the rest, then the next interval
				echo pause >&7
				cat <&7 >/dev/null
				echo cont >&7
				i=$((i + 1))
				n=$((n + 1))
			done
			exec 7>&-
		else
			sleep 0.1	# the kprobe event is gone for now
		fi
	done 2>/dev/null
	echo $n >/tmp/stress.ireads."$1"
}
interval=
if [ -e "$EV/$RD/hist_interval" ]; then
	interval=1
	echo 'p:ivstress vfs_read' >>"$TRACING/kprobe_events"
	ireader 1 $RD 'hist:keys=common_pid.execname,count:vals=count,count.max' &
	ireader 2 $KM 'hist:keys=call_site.sym:vals=bytes_req:size=128' &
	ireader 3 $KP 'hist:keys=common_pid:vals=hitcount' &
fi

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
	if [ -n "$interval" ]; then
		: >"$EV/$KM/trigger"	# every trigger of the event, interval hists too
		add_all 2>/dev/null
		# fails (busy) while an interval hist is on it
		echo '-:ivstress' >>"$TRACING/kprobe_events" 2>/dev/null &&
			echo 'p:ivstress vfs_read' >>"$TRACING/kprobe_events"
		ops=$((ops + 3))
	fi
done
touch $stop
wait
reads=$(cat /tmp/stress.reads.* | awk '{s += $1} END {print s}')
diag "$ops trigger operations, $reads reads in $secs s"
[ "$ops" -gt 10 ] && [ "$reads" -gt 10 ]
ok $? "stress ran: $ops trigger operations and $reads hist reads in ${secs}s"
if [ -n "$interval" ]; then
	ireads=$(cat /tmp/stress.ireads.* | awk '{s += $1} END {print s}')
	diag "interval readers: $(cat /tmp/stress.ireads.* | tr '\n' ' ')"
	[ "$ireads" -gt 10 ]
	ok $? "interval readers ran: $ireads rounds"
	echo '-:ivstress' >>"$TRACING/kprobe_events"
	# shellcheck disable=SC2320
	ok $? "the kprobe event goes once its interval readers closed their files"
fi
del_all
reset_triggers
grep -q '^hist' "$EV/$RD/trigger"
ok $((! $?)) "every trigger removed at the end"
done_testing
