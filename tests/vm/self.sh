#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# histtop does not measure itself: its own pid is filtered out of the
# trigger by default (and the title says so), and counted with
# --include-self.  TAP on stdout.
. "$(dirname "$0")/tap.sh"
T="tmux -L histtop-self"
export TERM=screen LANG=C.UTF-8
tmp=/tmp/histtop-self
rm -rf $tmp
mkdir -p $tmp
lpid=
trap '$T kill-server 2>/dev/null; [ -z "$lpid" ] || kill $lpid 2>/dev/null' EXIT

# the pids that are keys in an NDJSON file of -k common_pid frames
key_pids() { jq -r '.rows[].keys.common_pid' "$1" | tr -dc '0-9\n' | sort -un; }
has_pid() { key_pids "$1" | grep -qx "$2"; }	# FILE PID

reset_triggers
# other processes allocate and make syscalls meanwhile
( while :; do cat /proc/self/status >/dev/null; sleep 0.05; done ) &
lpid=$!

for ev in raw_syscalls:sys_enter kmem:kmalloc; do
	# where the kernel reads hists in intervals, histtop's is one (interval.sh)
	iv=
	[ -e "$EV/${ev%%:*}/${ev#*:}/hist_interval" ] && iv=:interval
	histtop -e $ev -k common_pid --json -d 0.2 -n 6 >$tmp/ex.json 2>$tmp/ex.err &
	hpid=$!
	wait $hpid
	is "$?" 0 "$ev: histtop exits 0"
	like=$(tail -n 1 $tmp/ex.json | jq -r .trigger)
	is "$like" "hist:keys=common_pid:vals=hitcount:sort=hitcount:size=2048$iv if common_pid != $hpid" \
		"$ev: the trigger filters histtop's own pid ($hpid) out"
	[ -n "$(key_pids $tmp/ex.json)" ]
	ok $? "$ev: other processes are counted"
	! has_pid $tmp/ex.json $hpid
	ok $? "$ev: histtop's own pid is not among the keys"

	histtop -e $ev -k common_pid --include-self --json -d 0.2 -n 6 >$tmp/in.json 2>$tmp/in.err &
	hpid=$!
	wait $hpid
	is "$(tail -n 1 $tmp/in.json | jq -r .trigger)" \
		"hist:keys=common_pid:vals=hitcount:sort=hitcount:size=2048$iv" \
		"$ev --include-self: no filter"
	has_pid $tmp/in.json $hpid
	ok $? "$ev --include-self: histtop's own pid ($hpid) is among the keys"
done

$T new-session -d -s t -x 100 -y 20 "histtop -e raw_syscalls:sys_enter -k common_pid -d 0.3"
i=0
while [ $i -lt 200 ] && ! $T capture-pane -p -t t | head -n 1 | grep -q 'excl\. self'; do
	sleep 0.1
	i=$((i + 1))
done
$T capture-pane -p -t t | head -n 1 | grep -q 'histtop  raw_syscalls:sys_enter excl\. self'
ok $? "the title says excl. self"
$T send-keys -t t q
sleep 0.5

kill $lpid
lpid=
reset_triggers
done_testing
