#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/bench/run --keys: what reading a table costs for each
# kind of key, as the sort's cost grows with the key's size.  For N entries
# (default 16384 and 131072) of each key form, paused, prints
# "FORM N KEYBYTES MODE ..." lines from histread: the whole read as cat
# does it (fresh) and the read of one byte from offset 0 (first: on a
# streaming kernel the sort alone, on a kernel without the series the whole
# output, made before the first byte).
#
#   number    keys=count on sys_enter_write                      8 bytes
#   compound  keys=common_pid,count                             16 bytes
#   stack     keys=stacktrace,count (one stack, N counts)       136 bytes
#   string    keys=path on a kprobe of do_sys_openat2 fetching the path
#             (N open(2)s of distinct missing paths: 40 bytes, the first
#             8 differ)                                         256 bytes
#   rstring   the same, every byte of the 40 differs            256 bytes
. /tests/vm/tap.sh
sizes=${*:-16384 131072}
forms=${KEYSORT_FORMS:-number compound stack string rstring}	# a subset: KEYSORT_FORMS
reset_triggers
echo 1 >"$TRACING/tracing_on"
# a string key: the path of each open(2), fetched by a kprobe (x86_64:
# do_sys_openat2's second argument is in %si)
echo 'p:ks_open do_sys_openat2 path=+0(%si):ustring' >>"$TRACING/kprobe_events"
form() {	# FORM KEYBYTES EVENT KEYS N WORKLOAD...
	f=$1 kb=$2 ev=$3 keys=$4 n=$5
	shift 5
	case " $forms " in *" $f "*) ;; *) return ;; esac
	t="hist:keys=$keys:vals=hitcount:size=131072 if comm == \"bench\""
	trig "$ev" "$t" || { echo "$f $n $kb unsupported"; return; }
	"$@"
	trig "$ev" "${t%% if*}:pause${t#"${t%% if*}"}"
	h=$EV/$ev/hist
	case $n in
	131072) reps=1 ;;
	*) reps=3 ;;
	esac
	echo "$f $n $kb entries=$(total "$ev" Entries)"
	echo "$f $n $kb $(histread fresh $reps "$h")"
	echo "$f $n $kb $(histread first $reps "$h")"
	trig "$ev" "!$t"
}
for n in $sizes; do
	form number 8 syscalls/sys_enter_write count "$n" workload -c bench wsizes "$n"
	form compound 16 syscalls/sys_enter_write common_pid,count "$n" workload -c bench wsizes "$n"
	form stack 136 syscalls/sys_enter_write stacktrace,count "$n" workload -c bench wsizes "$n"
	form string 256 kprobes/ks_open path "$n" workload -c bench opens "$n" 40
	form rstring 256 kprobes/ks_open path "$n" workload -c bench ropens "$n" 40
done
echo "-:ks_open" >>"$TRACING/kprobe_events"
