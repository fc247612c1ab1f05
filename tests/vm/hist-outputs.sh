#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Deterministic hist tables in every output form, printed between
# "=== NAME ===" lines.  tests/all runs it on the pristine and the patched
# kernel and compares the two outputs byte for byte (tests/vm/compare-outputs).
# Before printing, each table is read whole and in 7-byte reads, which must
# agree: a "MISMATCH NAME" line says they did not.  Address keys are sorted
# on a value with no ties: their tie order follows the hash of the address,
# which differs between two builds.
. "$(dirname "$0")/tap.sh"
RD=syscalls/sys_enter_read RAW=raw_syscalls/sys_enter KM=kmem/kmalloc

show() {	# NAME EVENT
	cat "$EV/$2/hist" >/tmp/whole
	dd if="$EV/$2/hist" bs=7 2>/dev/null >/tmp/pieces
	cmp -s /tmp/whole /tmp/pieces || echo "MISMATCH $1"
	echo "=== $1 ==="
	cat /tmp/whole
}
one() {	# NAME EVENT TRIGGER(with " if ...") WORKLOAD...
	_n=$1 _e=$2 _t=$3
	shift 3
	trig "$_e" "$_t"
	"$@" >/dev/null
	trig "$_e" "${_t%% if *}:pause if ${_t#* if }"
	show "$_n" "$_e"
	trig "$_e" "!$_t"
}
w() { workload "$@"; }

reset_triggers
one plain $RD 'hist:keys=count:vals=hitcount,count if comm == "id_a"' \
	sh -c 'w() { workload "$@"; }; w -c id_a read 3 10; w -c id_a read 5 20; w -c id_a read 1 4096'
one hex $RD 'hist:keys=count.hex:vals=count.hex if comm == "id_a"' \
	sh -c 'workload -c id_a read 3 255; workload -c id_a read 2 4096'
one execname $RD 'hist:keys=common_pid.execname:vals=count:sort=count.descending if comm ~ "id_*"' \
	sh -c 'workload -c id_a read 7 100; workload -c id_b read 2 5000'
one syscall $RAW 'hist:keys=id.syscall:vals=hitcount if comm == "id_s"' \
	workload -c id_s getpid 9
one compound $RAW 'hist:keys=common_pid.execname,id.syscall:vals=hitcount:sort=hitcount.descending if comm ~ "id_*"' \
	sh -c 'workload -c id_c getpid 5; workload -c id_d getpid 11'
one log2 $RD 'hist:keys=count.log2:vals=hitcount,count if comm == "id_l"' \
	sh -c 'workload -c id_l read 3 1000; workload -c id_l read 2 5; workload -c id_l sizes 40'
one buckets $RD 'hist:keys=count.buckets=100:vals=hitcount,count.percent,count.graph if comm == "id_b"' \
	sh -c 'workload -c id_b read 4 150; workload -c id_b read 1 420; workload -c id_b sizes 300'
one stacktrace syscalls/sys_enter_getpid 'hist:keys=stacktrace:vals=hitcount if comm == "id_t"' \
	workload -c id_t getpid 6
# the same through trace_marker, whose triggers run from tracing_mark_write()
one marker-stacktrace ftrace/print 'hist:keys=stacktrace:vals=hitcount if comm == "id_p"' \
	workload -c id_p marks 4
one sym $KM 'hist:keys=call_site.sym:vals=bytes_req,bytes_alloc:sort=bytes_req.descending if comm == "id_m"' \
	workload -c id_m pipes 3
one sym-offset $KM 'hist:keys=call_site.sym-offset:vals=bytes_req:sort=bytes_req.descending if comm == "id_m"' \
	workload -c id_m pipes 2
one string sched/sched_process_fork 'hist:keys=child_comm:vals=hitcount if parent_comm == "id_f"' \
	workload -c id_f fork 3
one many $RD 'hist:keys=count:vals=hitcount:size=4096 if comm == "id_n"' \
	workload -c id_n sizes 3000
one many-compound $RD 'hist:keys=count.log2,count:vals=hitcount:size=4096 if comm == "id_n"' \
	workload -c id_n sizes 700

# onmax with save(): the largest read per task, an extra line per entry
t='hist:keys=common_pid.execname:c=count:onmax($c).save(count) if comm ~ "id_o*"'
trig $RD "$t"
workload -c id_o1 sizes 30
workload -c id_o2 sizes 70
show onmax $RD
trig $RD "!$t"

# two triggers on one event, one of them named
trig $RD 'hist:keys=count:vals=hitcount if comm == "id_2"'
trig $RD 'hist:name=idnamed:keys=count.log2:vals=count if comm == "id_2"'
workload -c id_2 read 3 64
trig $RD 'hist:keys=count:vals=hitcount:pause if comm == "id_2"'
trig $RD 'hist:name=idnamed:keys=count.log2:vals=count:pause if comm == "id_2"'
show two $RD
trig $RD '!hist:keys=count:vals=hitcount if comm == "id_2"'
trig $RD '!hist:name=idnamed:keys=count.log2:vals=count if comm == "id_2"'
reset_triggers
