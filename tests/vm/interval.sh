#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Interval reads (the kernel's hist_interval file, linux/ series): histtop
# adds up the intervals itself.  Exact totals of a known workload read as
# fast as histtop can, while the events fire; more distinct keys over a run
# than size=, where the cumulative table drops; --attach next to it; what
# is left behind.  On a kernel without hist_interval: one SKIP.  TAP.
. "$(dirname "$0")/tap.sh"
INST=$TRACING/instances
tmp=/tmp/interval-test
rm -rf $tmp
mkdir -p $tmp

if [ ! -e "$EV/syscalls/sys_enter_read/hist_interval" ]; then
	echo "1..0 # SKIP this kernel has no hist_interval file"
	exit 0
fi
reset_triggers
# shellcheck disable=SC2010
histtop_instances() { ls "$INST" 2>/dev/null | grep '^histtop-' | tr '\n' ' '; }
# the last JSON frame's total of NAME over the rows whose key has KEY
sum_of() {	# FILE KEY NAME
	tail -n 1 "$1" | jq "[.rows[] | select(.key | contains(\"$2\")) | .total.$3] | add"
}

# --- exact totals while the events fire during the reads -----------------
histtop -e syscalls:sys_enter_read -k common_pid.execname -v count,count.max \
	--filter 'comm ~ "iv_*"' --json -d 0.05 -n 100000 >$tmp/fast.json 2>$tmp/fast.err &
hpid=$!
wait_lines $tmp/fast.json 1
ok $? "histtop writes its first frame"
case $(head -n 1 $tmp/fast.json | jq -r .trigger) in
*":interval if "*) ok 0 "histtop made an interval hist" ;;
*) ok 1 "histtop made an interval hist"; diag "$(head -n 1 $tmp/fast.json | jq -r .trigger)" ;;
esac
workload -c iv_a read 40000 10 &
w1=$!
workload -c iv_b read 30000 7 &
w2=$!
workload -c iv_a read 20000 30 &
w3=$!
wait $w1 $w2 $w3
sleep 1	# several more intervals after the last event
kill -INT $hpid
wait $hpid
is "$?" 0 "SIGINT: histtop exits 0"
frames=$(wc -l <$tmp/fast.json)
moving=$(jq -s '[.[] | select(.hits_delta > 0)] | length' $tmp/fast.json 2>/dev/null)
diag "$frames frames, $moving of them with new hits"
[ "$moving" -ge 3 ]
ok $? "the workload spanned several intervals"
is "$(sum_of $tmp/fast.json iv_a hitcount)" 60000 "iv_a: 60000 reads, not one lost or counted twice"
is "$(sum_of $tmp/fast.json iv_a count)" 1000000 "iv_a: 40000x10 + 20000x30 = 1000000 bytes"
is "$(sum_of $tmp/fast.json iv_b hitcount)" 30000 "iv_b: 30000 reads"
is "$(sum_of $tmp/fast.json iv_b count)" 210000 "iv_b: 210000 bytes"
is "$(tail -n 1 $tmp/fast.json | jq '[.rows[].total."count.max"] | max')" 30 \
	"count.max keeps the run's largest read, 30, across intervals"
is "$(jq -s '[.[].rows[] | select(.key | contains("iv_b")) | .delta.hitcount] | add' $tmp/fast.json)" 30000 \
	"iv_b: the deltas of the frames add up to its total"
is "$(tail -n 1 $tmp/fast.json | jq .hits)" 90000 "Hits adds up to the 90000 reads"
is "$(tail -n 1 $tmp/fast.json | jq .dropped)" 0 "nothing dropped"
is "$(cat $tmp/fast.err)" "" "nothing on stderr"
is "$(histtop_instances)" "" "no histtop instance is left"

# --- more keys over the run than size=: ten rounds of 100 new keys --------
rounds() {	# 10 rounds of 100 new read sizes, each round a few intervals long
	r=0
	while [ $r -lt 10 ]; do
		workload -c iv_k sizes 100 $((r * 100 + 1))
		sleep 0.3
		r=$((r + 1))
	done
	sleep 0.5
}
for mode in interval cumulative; do
	opt=
	[ $mode = cumulative ] && opt=--cumulative
	histtop -e syscalls:sys_enter_read -k count --filter 'comm == "iv_k"' --size 256 \
		$opt --json -d 0.1 -n 100000 >$tmp/$mode.json 2>$tmp/$mode.err &
	hpid=$!
	wait_lines $tmp/$mode.json 1
	rounds
	kill -INT $hpid
	wait $hpid
done
last=$(tail -n 1 $tmp/interval.json)
is "$(echo "$last" | jq '.rows | length')" 1000 "interval reads, size=256: all 1000 keys of the run"
is "$(echo "$last" | jq '[.rows[] | select(.total.hitcount == 1)] | length')" 1000 \
	"interval reads: every key counted exactly once"
is "$(echo "$last" | jq '[.rows[].keys.count | tonumber] | [min, max]' | tr -d ' \n')" "[1,1000]" \
	"interval reads: the keys are 1..1000"
is "$(echo "$last" | jq .dropped)" 0 "interval reads: nothing dropped"
last=$(tail -n 1 $tmp/cumulative.json)
is "$(echo "$last" | jq '.rows | length')" 256 "--cumulative, size=256: the table holds 256 keys"
is "$(echo "$last" | jq .dropped)" 744 \
	"--cumulative: the kernel dropped the other 744 reads (read though poll() saw no change)"
is "$(cat $tmp/interval.err $tmp/cumulative.err)" "" "nothing on stderr"

# --- the kernel's file: one pread() from offset 0 that takes it all -------
# ends the interval, with no read returning 0 after it
F=$EV/syscalls/sys_enter_read/hist_interval
exec 3<>"$F"
echo 'hist:keys=common_pid.execname:vals=count if comm ~ "iv_o*"' >&3
workload -c iv_o1 read 10 3
histread once 3 $tmp/once1 >/dev/null
workload -c iv_o2 read 20 3
histread once 3 $tmp/once2 >/dev/null
histread once 3 $tmp/once3 >/dev/null
exec 3>&-
grep -q 'iv_o1.*count: *30$' $tmp/once1 && ! grep -q iv_o2 $tmp/once1
ok $? "one pread() at 0: the first interval, iv_o1's 10 reads"
grep -q 'iv_o2.*count: *60$' $tmp/once2 && ! grep -q iv_o1 $tmp/once2
ok $? "the next pread() at 0: the next interval only, iv_o2's 20"
grep -q 'Hits: 0' $tmp/once3
ok $? "and the one after: an empty interval"

# --- a comm that spells the end of a key loses no interval ----------------
histtop -e syscalls:sys_enter_read -k common_pid.execname \
	--filter 'comm == "iv_s" || comm ~ "*hitcount*"' --json -d 0.1 -n 100000 \
	>$tmp/spoof.json 2>$tmp/spoof.err &
hpid=$!
wait_lines $tmp/spoof.json 1
workload -c 'x } hitcount: 1' read 7 1 &
workload -c iv_s read 500 1
wait $!
sleep 0.5
kill -INT $hpid
wait $hpid
is "$(sum_of $tmp/spoof.json iv_s hitcount)" 500 "beside a comm 'x } hitcount: 1': iv_s's 500 reads"
is "$(sum_of $tmp/spoof.json 'x } hitcount: 1' hitcount)" 7 "and that comm's own 7, under its name"
is "$(cat $tmp/spoof.err)" "" "nothing on stderr"

# --- --attach next to an interval hist: the user's own table --------------
mkdir "$INST"/iv_share
echo 'hist:keys=common_pid.execname:vals=count if comm == "iv_u"' \
	>>"$INST"/iv_share/events/syscalls/sys_enter_read/trigger
histtop -e syscalls:sys_enter_read -k common_pid.execname -v count --instance iv_share \
	--filter 'comm == "iv_u"' --json -d 0.1 -n 100000 >$tmp/own.json 2>$tmp/own.err &
hpid=$!
wait_lines $tmp/own.json 1
workload -c iv_u read 50 4
histtop -e syscalls:sys_enter_read --attach --instance iv_share --json -n 2 -d 0.2 \
	>$tmp/att.json 2>$tmp/att.err
is "$?" 0 "--attach beside an interval hist exits 0"
case $(tail -n 1 $tmp/att.json | jq -r .trigger) in
*":interval"*) ok 1 "--attach passes over the interval hist"; diag "$(tail -n 1 $tmp/att.json | jq -r .trigger)" ;;
*) ok 0 "--attach passes over the interval hist" ;;
esac
is "$(sum_of $tmp/att.json iv_u count)" 200 "--attach: the user's table, 50x4 bytes"
workload -c iv_u read 10 4
sleep 0.5
kill -INT $hpid
wait $hpid
is "$(sum_of $tmp/own.json iv_u count)" 240 "the interval histtop still counts all 60 reads"
is "$(grep -c '^hist' "$INST"/iv_share/events/syscalls/sys_enter_read/trigger)" 1 \
	"the user's trigger is still there, histtop's is gone"
rmdir "$INST"/iv_share 2>/dev/null || { echo '!hist:keys=common_pid.execname:vals=count if comm == "iv_u"' \
	>>"$INST"/iv_share/events/syscalls/sys_enter_read/trigger; rmdir "$INST"/iv_share; }

# --- SIGKILL: the kernel removes the hist with the file --------------------
histtop -e kmem:kmalloc -k call_site -d 0.2 >/dev/null 2>&1 &
hpid=$!
i=0
while [ $i -lt 200 ] && ! grep -qs ':interval' "$INST"/histtop-*-$hpid/events/kmem/kmalloc/trigger; do
	sleep 0.1
	i=$((i + 1))
done
# shellcheck disable=SC2046
ok $(grep -qs ':interval' "$INST"/histtop-*-$hpid/events/kmem/kmalloc/trigger; echo $?) \
	"the interval hist is in histtop's instance"
kill -KILL $hpid
wait $hpid
is "$(grep -c '^hist' "$INST"/histtop-*-$hpid/events/kmem/kmalloc/trigger)" 0 \
	"SIGKILL: the kernel removed histtop's hist with its file"
histtop -e kmem:kmalloc -k call_site -n 1 >/dev/null 2>$tmp/reap.err
is "$(histtop_instances)" "" "the next histtop removes the instance"

reset_triggers
done_testing
