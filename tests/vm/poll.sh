#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# histtop asks the hist file's poll() (6.14, backported to 6.12.y) before
# reading: an idle table is read once, a change shows within one interval;
# on a kernel without it every refresh reads.  poll() matters to the
# cumulative table only (an interval read is new text each time):
# --cumulative, a no-op where the kernel has no hist_interval.  TAP.
. "$(dirname "$0")/tap.sh"
tmp=/tmp/histtop-poll
rm -rf $tmp
mkdir -p $tmp

# what the kernel should do (histtop itself detects it at run time)
case $(uname -r) in
6.1.* | 6.[2-9].* | 6.1[01].*) polls=0 ;;
*) polls=1 ;;
esac
diag "$(uname -r): hist file poll expected: $polls"
unchanged() { sed -n 's/.*refreshes (\([0-9]*\) unchanged, not read).*/\1/p' "$1"; }

reset_triggers

# an idle table: nothing matches the filter
histtop --cumulative -e syscalls:sys_enter_read -k common_pid --filter 'comm == "ht_none"' -b -d 0.2 -n 10 \
	--profile >$tmp/idle.txt 2>$tmp/idle.err
is "$?" 0 "idle table: exit 0"
is "$(grep -c '^frame ' $tmp/idle.txt)" 10 "idle table: ten frames all the same"
if [ $polls = 1 ]; then
	is "$(unchanged $tmp/idle.err)" 9 "idle table: read once, the nine later refreshes not read"
else
	is "$(unchanged $tmp/idle.err)" 0 "no hist poll on this kernel: every refresh reads"
fi
HISTTOP_POLL=0 histtop --cumulative -e syscalls:sys_enter_read -k common_pid --filter 'comm == "ht_none"' -b \
	-d 0.2 -n 5 --profile >/dev/null 2>$tmp/nopoll.err
is "$(unchanged $tmp/nopoll.err)" 0 "HISTTOP_POLL=0: every refresh reads"

# a change shows in the next frame
histtop --cumulative -e syscalls:sys_enter_read -k common_pid.execname --filter 'comm == "ht_p"' --json \
	-d 0.5 -n 14 --profile >$tmp/p.json 2>$tmp/p.err &
hpid=$!
wait_lines $tmp/p.json 3
workload -c ht_p read 3 10
n=$(wc -l <$tmp/p.json)
wait_lines $tmp/p.json $((n + 1))
is "$(sed -n "$((n + 1))p" $tmp/p.json | jq .hits)" 3 "the first frame after three reads shows them"
wait_lines $tmp/p.json $((n + 3))
workload -c ht_p read 2 10
n=$(wc -l <$tmp/p.json)
wait_lines $tmp/p.json $((n + 1))
is "$(sed -n "$((n + 1))p" $tmp/p.json | jq .hits)" 5 "and again after two more"
wait $hpid
is "$?" 0 "exit 0"
is "$(tail -n 1 $tmp/p.json | jq .hits)" 5 "the last frame has all five"
u=$(unchanged $tmp/p.err)
if [ $polls = 1 ]; then
	[ "${u:-0}" -ge 8 ]
	ok $? "of 13 later refreshes, the unchanged ones ($u) were not read"
else
	is "$u" 0 "no hist poll on this kernel: every refresh reads"
fi

reset_triggers
done_testing
