#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# .max/.min value modifiers and the value limit, in the guest: exact
# extremes from the workload on the kernel's hist file and through
# histtop; on a kernel without them, histtop's explanation.  TAP on stdout.
. "$(dirname "$0")/tap.sh"
tmp=/tmp/minmax-test
rm -rf $tmp
mkdir -p $tmp
RD=syscalls/sys_enter_read
XR=syscalls/sys_exit_read
reset_triggers

if ! grep -q 'keep the largest value' "$TRACING"/README; then
	# --- a kernel without .max/.min: histtop says why --------------------
	histtop -e syscalls:sys_enter_read -k common_pid -v count.max -n 1 >/dev/null 2>$tmp/e
	is "$?" 1 "no .max/.min in this kernel: exit 1"
	grep -q "this kernel cannot keep 'count.max': its tracefs README lists no .max/.min" $tmp/e
	ok $? "no .max/.min in this kernel: histtop explains"
	histtop -e kmem:kmalloc -k call_site -v bytes_req,bytes_alloc,ptr -n 1 >/dev/null 2>$tmp/e
	grep -q 'at most 3 keys and 2 values besides hitcount (the trigger has 1 key and 3 values)' $tmp/e
	ok $? "three values: histtop states the 6.1 limit"
	done_testing
	exit
fi

# --- the kernel: sum, max and min of the same field -----------------------
t='hist:keys=common_pid.execname:vals=count,count.max,count.min:sort=count.max.descending if comm ~ "mm_*"'
trig $RD "$t"
workload -c mm_a sizes 20
workload -c mm_b read 4 100
is "$(val_of $RD mm_a count).$(val_of $RD mm_a count.max).$(val_of $RD mm_a count.min)" 210.20.1 \
	"reads of 1..20 bytes: sum 210, max 20, min 1"
is "$(val_of $RD mm_b count).$(val_of $RD mm_b count.max).$(val_of $RD mm_b count.min)" 400.100.100 \
	"4 reads of 100 bytes: sum 400, max 100, min 100"
hist $RD | grep '^{ ' | head -n 1 | grep -q 'mm_b'
ok $? "sort=count.max.descending puts mm_b (100) first"
trig $RD "${t%% if*}:clear if${t#* if}"
workload -c mm_a sizes 3
is "$(val_of $RD mm_a count.max).$(val_of $RD mm_a count.min)" 3.1 "after clear, max and min start again (3, 1)"
trig $RD "!$t"

# --- signed fields: read()'s ret --------------------------------------------
t='hist:keys=common_pid.execname:vals=ret.max,ret.min if comm == "mm_r"'
trig $XR "$t"
workload -c mm_r rets 50
is "$(val_of $XR mm_r hitcount).$(val_of $XR mm_r ret.max).$(val_of $XR mm_r ret.min)" 52.50.-21 \
	"ret of 1..50, -EBADF, -EISDIR: 52 hits, max 50, min -21 (signed)"
trig $XR "!$t"

# --- six values besides hitcount --------------------------------------------
t='hist:keys=common_pid:vals=count,count.max,count.min,fd,fd.max,fd.min if comm == "mm_6"'
trig $RD "$t"
grep -q 'vals=hitcount,count,count.max,count.min,fd,fd.max,fd.min' "$EV"/$RD/trigger
ok $? "a trigger with six values is accepted"
trig $RD "!$t"
echo 'hist:keys=common_pid:vals=count,count.max,count.min,fd,fd.max,fd.min,ret' >>"$EV"/$RD/trigger 2>/dev/null
grep -q 'Too many values (max 6, plus hitcount)' "$TRACING"/error_log
ok $? "a seventh value: 'Too many values (max 6, plus hitcount)' in error_log"

# --- never a sentinel: reads racing clears and new entries -------------------
# A clear empties the table, then resets the elements one after the other,
# while an unnamed trigger keeps hitting: an entry added in between is reset
# with its element, and an entry can be read before its first update.
# Neither may print a .min or .max at its starting value
# (18446744073709551615 for an unsigned min, 9223372036854775807 and
# -9223372036854775808 signed).  The largest table makes the clear slow
# and 3000 sizes keep an entry from being hit again soon.
t1='hist:keys=count:vals=count.min,fd.min:size=131072 if comm == "mm_c"'
t2='hist:keys=ret:vals=ret.min,ret.max:size=131072 if comm == "mm_c"'
trig $RD "$t1"
trig $XR "$t2"
: >$tmp/race
: >$tmp/zeros
end=$(($(date +%s) + 10))
(while [ "$(date +%s)" -lt $end ]; do workload -c mm_c sizes 3000; done) &
lpid=$!
n=0
while [ "$(date +%s)" -lt $end ]; do
	trig $RD "${t1%% if*}:clear if${t1#* if}"
	trig $XR "${t2%% if*}:clear if${t2#* if}"
	{ hist $RD; hist $XR; } >$tmp/one
	grep -E '18446744073709551615|9223372036854775807' $tmp/one >>$tmp/race
	grep -c ' hitcount: *0 ' $tmp/one >>$tmp/zeros
	n=$((n + 1))
done
wait $lpid
diag "$n reads, $(awk '{ z += $1 } END { print z + 0 }' $tmp/zeros) entry lines a clear had reset (hitcount 0)"
is "$(head -n 3 $tmp/race)" "" "no .min/.max sentinel in $n reads racing clears and new entries"
trig $RD "!$t1"
trig $XR "!$t2"

# --- histtop: cumulative gauge columns, signed, sorted ------------------------
histtop -e syscalls:sys_exit_read -k common_pid.execname -v ret,ret.max,ret.min -s ret.min \
	--filter 'comm ~ "mm_h*"' --json -d 0.5 -n 6 >$tmp/live.json 2>$tmp/live.err &
hpid=$!
sleep 1
workload -c mm_h1 rets 30
workload -c mm_h2 sizes 7
wait $hpid
is "$?" 0 "histtop -v ret,ret.max,ret.min exits 0"
last=$(tail -n 1 $tmp/live.json)
is "$(echo "$last" | jq -c '[.rows[] | select(.keys."common_pid.execname" | startswith("mm_h1")) | .total] | .[0]')" \
	'{"hitcount":32,"ret":435,"ret.max":30,"ret.min":-21}' "histtop: mm_h1's sum, max 30 and min -21 (sum 435, negative min in JSON)"
is "$(echo "$last" | jq -c '[.rows[] | .delta | keys] | .[0]')" '["hitcount","ret"]' \
	"histtop: max and min have no delta"
is "$(echo "$last" | jq -r '.rows[0].keys."common_pid.execname"')" mm_h1 \
	"histtop -s ret.min: the row with -21 first"
is "$(cat $tmp/live.err)" "" "nothing on stderr"
histtop -e syscalls:sys_exit_read -k common_pid.execname -v ret.max --filter 'comm == "mm_t"' -b -n 3 -d 1 >$tmp/b.txt &
hpid=$!
sleep 0.5
workload -c mm_t rets 9
wait $hpid
sed 's/^/# /' $tmp/b.txt
grep -q 'ret.max *(no delta)' $tmp/b.txt
ok $? "batch text marks the max column '(no delta)'"
grep 'mm_t' $tmp/b.txt | tail -n 1 | grep -q ' 9 *-'
ok $? "batch text shows the max (9) and '-' for its delta"
done_testing
