#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# histtop against the real kernel, in the guest: live batch/NDJSON totals
# and deltas against a known workload, what it leaves behind on every exit
# path, attach, errors.  TAP on stdout.
. "$(dirname "$0")/tap.sh"
INST=$TRACING/instances
tmp=/tmp/histtop-test
rm -rf $tmp
mkdir -p $tmp

# shellcheck disable=SC2010
histtop_instances() { ls "$INST" 2>/dev/null | grep '^histtop-' | tr '\n' ' '; }
# the private instance of the histtop with pid PID: histtop-NS-PID
# shellcheck disable=SC2010
inst_of() { ls "$INST" 2>/dev/null | grep -E "^histtop-[0-9]+-$1\$"; }
# wait until the private instance of PID holds FILE (its trigger is in), up to 20 s
wait_inst() {	# PID FILE
	i=0
	while [ $i -lt 200 ]; do
		_i=$(inst_of "$1")
		[ -n "$_i" ] && [ -e "$INST/$_i/$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

reset_triggers

# --- live NDJSON: totals equal the workload, deltas sum to the totals ------
histtop -e syscalls:sys_enter_read -k common_pid.execname -v count \
	--filter 'comm ~ "ht_*"' --json -d 0.5 -n 8 >$tmp/live.json 2>$tmp/live.err &
hpid=$!
wait_lines $tmp/live.json 1
ok $? "histtop writes its first frame"
# (the init namespace's inode; a kernel without namespaces has no ns/)
ns=$(stat -L -c %i /proc/self/ns/pid 2>/dev/null || echo 4026531836)
is "$(inst_of $hpid)" "histtop-$ns-$hpid" "the private instance is histtop-NS-PID"
trig=$(cat "$INST/histtop-$ns-$hpid/events/syscalls/sys_enter_read/trigger" 2>/dev/null)
# where the kernel reads hists in intervals, histtop's is one (interval.sh)
iv=
[ -e "$EV"/syscalls/sys_enter_read/hist_interval ] && iv=:interval
case $trig in
"hist:keys=common_pid.execname:vals=hitcount,count:sort=hitcount:size=2048$iv if (comm ~ \"ht_*\") && common_pid != $hpid [active]") ok 0 "the trigger is in the private instance, histtop's own pid filtered out" ;;
*) ok 1 "the trigger is in the private instance, histtop's own pid filtered out"; diag "trigger: $trig" ;;
esac
is "$(grep -c '^hist' "$EV"/syscalls/sys_enter_read/trigger)" 0 "nothing is added at the top level"
workload -c ht_a read 10 100
wait_lines $tmp/live.json 3
workload -c ht_b read 4 1000
workload -c ht_a read 5 100
wait $hpid
is "$?" 0 "histtop -n 8 exits 0"
is "$(wc -l <$tmp/live.json)" 8 "eight frames"
last=$(tail -n 1 $tmp/live.json)
is "$(echo "$last" | jq -c '[.rows[] | select(.keys."common_pid.execname" | startswith("ht_a")) | .total.count] | add')" 1500 \
	"ht_a's runs read 1500 bytes (10x100 + 5x100), as the kernel counted"
is "$(echo "$last" | jq -c '[.rows[] | select(.keys."common_pid.execname" | startswith("ht_b")) | .total] | .[0]')" \
	'{"hitcount":4,"count":4000}' "ht_b: 4 reads, 4000 bytes"
is "$(jq -s '[.[].rows[].delta.count] | add' $tmp/live.json)" \
	"$(echo "$last" | jq '[.rows[].total.count] | add')" "per-interval deltas sum to the totals"
is "$(jq -s '[.[].hits] | max' $tmp/live.json)" 19 "Hits reaches 19 reads"
is "$(histtop_instances)" "" "no histtop instance is left"
is "$(cat $tmp/live.err)" "" "nothing on stderr"

# --- the kernel's own hist file agrees with histtop (attach) -------------
trig syscalls/sys_enter_read 'hist:keys=common_pid.execname:vals=count if comm == "ht_k"'
workload -c ht_k read 7 33
trig syscalls/sys_enter_read 'hist:keys=common_pid.execname:vals=count:pause if comm == "ht_k"'
before=$(cat "$EV"/syscalls/sys_enter_read/trigger)
histtop -e syscalls:sys_enter_read --attach --json -n 2 -d 0.2 >$tmp/att.json
is "$(tail -n 1 $tmp/att.json | jq -c '.rows[0].total')" "{\"hitcount\":7,\"count\":$(val_of syscalls/sys_enter_read ht_k count)}" \
	"attach: histtop's totals equal the kernel's hist file"
is "$(cat "$EV"/syscalls/sys_enter_read/trigger)" "$before" "attach leaves the trigger as it was"

# --- a user's trigger on the same event is never touched -----------------
histtop -e syscalls:sys_enter_read -k common_pid -n 2 -d 0.2 >/dev/null
is "$(cat "$EV"/syscalls/sys_enter_read/trigger)" "$before" "live histtop on the same event leaves the user's trigger"
trig syscalls/sys_enter_read '!hist:keys=common_pid.execname:vals=count if comm == "ht_k"'

# --- every exit path removes the trigger and the instance ----------------
for sig in INT TERM HUP QUIT; do
	histtop -e kmem:kmalloc -k call_site.sym -d 0.2 >/dev/null 2>&1 &
	hpid=$!
	wait_inst $hpid events/kmem/kmalloc/hist
	sleep 0.5
	kill -$sig $hpid
	wait $hpid
	rc=$?
	is "$(histtop_instances)" "" "SIG$sig: no histtop instance left (exit $rc)"
done
histtop -e kmem:kmalloc -k call_site.sym -d 0.1 2>$tmp/pipe.err | head -n 3 >/dev/null
sleep 0.5
is "$(histtop_instances)" "" "SIGPIPE (histtop | head): no histtop instance left"

# SIGKILL cannot be caught: the next histtop removes the leftover
histtop -e kmem:kmalloc -k call_site -d 0.2 >/dev/null 2>&1 &
hpid=$!
wait_inst $hpid events/kmem/kmalloc/hist
kill -KILL $hpid
wait $hpid
is "$(histtop_instances)" "histtop-$ns-$hpid " "SIGKILL leaves histtop-$ns-$hpid behind"
histtop -e kmem:kmalloc -k call_site -n 1 >/dev/null 2>$tmp/reap.err
grep -q "removed tracefs instances left by histtop processes that no longer run: histtop-$ns-$hpid" $tmp/reap.err
ok $? "the next histtop removes it and says so"
is "$(histtop_instances)" "" "no histtop instance left after that"

# --- a stacktrace key, as a new user would try it ------------------------
# (histtop leaves its own pid out: something else must free memory meanwhile)
( while :; do /bin/true; done ) &
lpid=$!
histtop -e kmem:kfree -k stacktrace --json -d 0.3 -n 3 >$tmp/st.json 2>$tmp/st.err
rc=$?
kill $lpid
wait $lpid 2>/dev/null
is "$rc" 0 "-k stacktrace: histtop -n 3 exits 0"
is "$(cat $tmp/st.err)" "" "-k stacktrace: nothing on stderr"
is "$(tail -n 1 $tmp/st.json | jq '[.rows[].key | test("[a-z_]+\\+0x[0-9a-f]+/0x[0-9a-f]+")] | any')" true \
	"-k stacktrace: the rows' keys are stacks of symbol+off/size frames"
is "$(histtop_instances)" "" "-k stacktrace: no histtop instance left"

# --- errors --------------------------------------------------------------
histtop -e kmem:kmalloc -k call_site,bytes_req,ptr,gfp_flags -n 1 >/dev/null 2>$tmp/e1
is "$?" 1 "four keys: exit 1"
if grep -q 'up to six can be named' "$TRACING"/README; then
	# the kernel says it itself
	grep -q 'Too many keys (max 3)' $tmp/e1 && grep -q '^ *\^$' $tmp/e1
	ok $? "four keys: the kernel's 'Too many keys (max 3)' with its caret"
else
	grep -q "at most 3 keys and 2 values besides hitcount" $tmp/e1
	ok $? "four keys: the 6.1 limit is stated"
fi
if grep -q 'up to six can be named' "$TRACING"/README; then
	histtop -e kmem:kmalloc -k call_site -v bytes_req,bytes_alloc,ptr,gfp_flags,call_site,bytes_req.max,bytes_req.min -n 1 >/dev/null 2>$tmp/e4
	grep -q 'Too many values (max 6, plus hitcount)' $tmp/e4
	ok $? "seven values: the kernel's 'Too many values (max 6, plus hitcount)'"
else
	# stock 6.1 and 6.12: EINVAL and nothing in error_log
	histtop -e kmem:kmalloc -k call_site -v bytes_req,bytes_alloc,ptr -n 1 >/dev/null 2>$tmp/e4
	grep -q 'at most 3 keys and 2 values besides hitcount (the trigger has 1 key and 3 values)' $tmp/e4
	ok $? "three values: the limit is stated"
fi
histtop -e kmem:kmalloc -k call_site --size 100000000 -n 1 >/dev/null 2>$tmp/e5
is "$?" 2 "--size 100000000: a usage error, before anything is installed"
grep -q '100000000 is out of range: the kernel.s hist tables hold 128 to 131072 entries' $tmp/e5
ok $? "--size 100000000: the kernel's range is stated"
histtop -e kmem:kmalloc -k call_sitex -n 1 >/dev/null 2>$tmp/e2
grep -q "Couldn't find field" $tmp/e2 && grep -q '^ *\^$' $tmp/e2 &&
	grep -q 'fields of this event: .*bytes_req' $tmp/e2
ok $? "unknown field: the kernel's error_log entry, caret, and the event's fields"
histtop -e kmem:nope -k x -n 1 >/dev/null 2>$tmp/e3
grep -q "unknown event 'kmem:nope'" $tmp/e3
ok $? "unknown event"
is "$(histtop_instances)" "" "failed starts leave no instance"

reset_triggers
done_testing
