#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hist stack traces on the events whose triggers are called from each
# kind of caller, printed between "=== NAME ===" lines for
# tests/vm/stacktrace-variants, which boots it on kernels built with gcc
# and clang and with the ORC and frame-pointer unwinders and compares the
# tables (not part of tests/all):
#   getpid        a stacktrace key on a syscall event (ftrace_syscall_enter())
#   getpid-common the same as common_stacktrace
#   exit          a common_stacktrace key on sys_exit_getpid
#   marker        trace_marker's event, triggered from tracing_mark_write()
#   kprobe        a kprobe event's, from the kprobe handler
#   sleep         sched_switch (TRACE_EVENT(), more than one probe on its
#                 tracepoint while events are recording comms)
#   variable      a stacktrace variable saved on sys_enter_getpid, passed
#                 to a synthetic event at sys_exit_getpid and keyed there
#   fieldvar      sys_exit_getpid's common_stacktrace passed to the same
#                 synthetic event by onmatch() (a field variable)
# variable's frames are getpid's and fieldvar's exit's, when the hist code
# leaves out its own frames alike on every path.
# A line "ERROR NAME: ..." says a trigger could not be set.
. "$(dirname "$0")/tap.sh"
GP=syscalls/sys_enter_getpid

show() {	# NAME EVENT
	echo "=== $1 ==="
	cat "$EV/$2/hist"
}
# NAME EVENT TRIGGER WORKLOAD...: the table of TRIGGER after WORKLOAD
one() {
	_n=$1 _e=$2 _t=$3
	shift 3
	if ! trig "$_e" "$_t" 2>/dev/null; then
		echo "ERROR $_n: $_t"
		return
	fi
	"$@" >/dev/null
	case $_t in
	*" if "*) trig "$_e" "${_t%% if *}:pause if ${_t#* if }" ;;
	*) trig "$_e" "$_t:pause" ;;
	esac
	show "$_n" "$_e"
	trig "$_e" "!$_t"
}
sleeps() { for _i in 1 2 3; do workload -c id_w sleep 20; done; }

reset_triggers
one getpid $GP 'hist:keys=stacktrace:vals=hitcount if comm == "id_t"' \
	workload -c id_t getpid 6
one getpid-common $GP 'hist:keys=common_stacktrace:vals=hitcount if comm == "id_t"' \
	workload -c id_t getpid 4
one exit syscalls/sys_exit_getpid 'hist:keys=common_stacktrace:vals=hitcount if comm == "id_x"' \
	workload -c id_x getpid 3
one marker ftrace/print 'hist:keys=stacktrace:vals=hitcount if comm == "id_p"' \
	workload -c id_p marks 4
if echo 'p:kstk/getpid __x64_sys_getpid' >>"$TRACING/kprobe_events" 2>/dev/null; then
	one kprobe kstk/getpid 'hist:keys=common_stacktrace:vals=hitcount if comm == "id_k"' \
		workload -c id_k getpid 5
	echo '-:kstk/getpid' >>"$TRACING/kprobe_events"
else
	echo "ERROR kprobe: no kprobe on __x64_sys_getpid"
fi
# the sleeps of nanosleep(2) only: one stack, three hits
one sleep sched/sched_switch 'hist:keys=common_stacktrace:vals=hitcount if prev_comm == "id_w" && prev_state == 1' \
	sleeps

# NAME COMM ENTER EXIT: the stack in synthetic event kstk_st, which EXIT
# (a trigger on sys_exit_getpid) generates by onmatch() of ENTER's hist
# (on sys_enter_getpid), both filtered on COMM
synth() {
	_e1="$3 if comm == \"$2\"" _e2="$4 if comm == \"$2\""
	trig $GP "$_e1"
	trig syscalls/sys_exit_getpid "$_e2"
	one "$1" synthetic/kstk_st 'hist:keys=stack:vals=hitcount' \
		workload -c "$2" getpid 3
	trig syscalls/sys_exit_getpid "!$_e2"
	trig $GP "!$_e1"
}
if echo 's:kstk_st unsigned long[] stack;' >>"$TRACING/dynamic_events" 2>/dev/null; then
	# a stacktrace variable saved on sys_enter_getpid
	synth variable id_v 'hist:keys=common_pid:st=common_stacktrace' \
		'hist:keys=common_pid:s=$st:onmatch(syscalls.sys_enter_getpid).trace(kstk_st,$s)'
	# sys_exit_getpid's common_stacktrace as a parameter of trace(): a
	# field variable, saved by the hist code's __update_field_vars()
	synth fieldvar id_f 'hist:keys=common_pid:ts=common_timestamp' \
		'hist:keys=common_pid:onmatch(syscalls.sys_enter_getpid).trace(kstk_st,common_stacktrace)'
	echo '-:kstk_st' >>"$TRACING/dynamic_events"
else
	echo "ERROR variable: no synthetic event with a stack"
fi
reset_triggers
