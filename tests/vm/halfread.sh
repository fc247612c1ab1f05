#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A reader part-way through a hist file while its trigger is removed and
# its event deleted, for the debug kernel (KASAN): a kprobe event on
# vfs_write keyed on count (about 600 entries), a reader that reads 200
# bytes and keeps its fd open while '!hist' and '-:p1' are written, then
# reads on, which fails with ESTALE (the read was cut).  vm/run fails the
# run on a KASAN report in the console.  Also:
# a named hist re-added while a reader holds the removed one half-read
# starts from zero, and the same for a synthetic event's hist.  TAP.
. "$(dirname "$0")/tap.sh"
tmp=/tmp/halfread
rm -rf $tmp
mkdir -p $tmp
KE=$TRACING/kprobe_events
reset_triggers
# cut: the last command's status and its stderr file say the read was
# cut (ESTALE, on both series)
cut() {	# STATUS ERRFILE
	[ "$1" -ne 0 ] && grep -qi 'stale' "$2"
}

if [ ! -w "$KE" ]; then
	echo "1..0 # SKIP no kprobe_events"
	exit 0
fi

# --- item: event deleted under a half-read fd ------------------------------
T='hist:keys=count:vals=hitcount:size=2048'
echo 'p:p1 vfs_write count=%dx:u64' >>"$KE"
# shellcheck disable=SC2320
ok $? "kprobe event p1 on vfs_write added"
trig kprobes/p1 "$T"
workload wsizes 600
trig kprobes/p1 "$T:pause"
n=$(hist kprobes/p1 | grep -c '^{ ')
[ "$n" -ge 600 ]
ok $? "p1's hist has at least 600 entries ($n)"

exec 3<"$EV/kprobes/p1/hist"
dd bs=200 count=1 <&3 >$tmp/part1 2>/dev/null
is "$(($(wc -c <$tmp/part1)))" 200 "the reader read 200 bytes"
trig kprobes/p1 "!$T"
ok $? "the trigger is removed while the reader holds its fd"
echo '-:p1' >>"$KE"
# shellcheck disable=SC2320
ok $? "the event is deleted while the reader holds its fd"
grep -q '^p:kprobes/p1 ' "$KE"
ok $((! $?)) "p1 is gone from kprobe_events"
cat <&3 >$tmp/part2 2>$tmp/err
cut $? $tmp/err
ok $? "reading on after the deletion fails with ESTALE: the read was cut ($(cat $tmp/err))"
cat <&3 >/dev/null 2>$tmp/err
cut $? $tmp/err
ok $? "and so does the read after it"
exec 3<&-
# What it gets is what was formatted before the removal, then ESTALE.
m=$(grep -c '^{ ' $tmp/part2)
[ "$m" -lt 50 ]
ok $? "reading on stops at the removal ($m more entry lines, of $n)"

# --- item: a named hist re-added under a half-read fd ----------------------
RD=syscalls/sys_enter_read
N='hist:name=halfread:keys=count:vals=hitcount'
trig $RD "$N"
workload read 100 30
trig $RD "$N:pause"
exec 3<"$EV/$RD/hist"
dd bs=100 count=1 <&3 >/dev/null 2>&1
trig $RD "!$N"
trig $RD "$N:pause"
ok $? "the named hist is re-added while a reader holds the old one"
is "$(total $RD Hits)" 0 "the re-added named hist starts from zero hits"
trig $RD "!$N"
N2='hist:name=halfread:keys=common_pid:vals=hitcount'
trig $RD "$N2"
ok $? "a named hist of the same name with other keys can be added"
exec 3<&-
trig $RD "!$N2"

# --- item: a synthetic event deleted under a half-read fd ------------------
SE=$TRACING/synthetic_events
if [ -w "$SE" ]; then
	echo 'halfread_lat u64 lat' >>"$SE"
	S='hist:keys=lat:vals=hitcount'
	trig synthetic/halfread_lat "$S"
	exec 3<"$EV/synthetic/halfread_lat/hist"
	dd bs=50 count=1 <&3 >/dev/null 2>&1
	trig synthetic/halfread_lat "!$S"
	echo '!halfread_lat' >>"$SE"
	# shellcheck disable=SC2320
	ok $? "a synthetic event is deleted while a reader holds its hist"
	cat <&3 >/dev/null 2>$tmp/err
	cut $? $tmp/err
	ok $? "reading on after the synthetic event's deletion fails with ESTALE ($(cat $tmp/err))"
	exec 3<&-
fi

reset_triggers
done_testing
