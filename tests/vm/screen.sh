#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# histtop's screen against the real kernel, in the guest, through tmux:
# pause shows [paused] and the counts stop, continue resumes, clear zeroes,
# quit leaves no instance behind.  TAP on stdout.
. "$(dirname "$0")/tap.sh"
# shellcheck disable=SC2034 # tmux.sh reads it
TMUX_NAME=histtop-vm
. "$(dirname "$0")/tmux.sh"
# the total hitcount of the ht_s row on screen
hits() { screen | grep -E '^ *ht_s ' | awk '{print $3}'; }
# shellcheck disable=SC2010
histtop_instances() { ls "$TRACING/instances" | grep -c '^histtop-'; }
# PID runs (a zombie whose parent, the pane's shell, is gone has ended)
alive() { kill -0 "$1" 2>/dev/null && ! grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null; }

reset_triggers
# a background load: one task named ht_s, a read every 20 ms
workload -c ht_s pace 100000 20 &
lpid=$!
$T new-session -d -s t -x 110 -y 24 \
	"histtop -e syscalls:sys_enter_read -k common_pid.execname -v count --filter 'comm == \"ht_s\"' -d 0.3; echo EXITED \$?; sleep 60"
wait_for '^ *ht_s '
ok $? "live rows appear"
# shellcheck disable=SC2010
inst=$(ls "$TRACING/instances" | grep '^histtop-')
tf=$TRACING/instances/$inst/events/syscalls/sys_enter_read/trigger
wait_for '\[active\]'
ok $? "the header shows [active]"

$T send-keys -t t p
wait_for '\[paused\]'
ok $? "p: the header shows [paused]"
grep -q '\[paused\]$' "$tf"
ok $? "p: the kernel's trigger is paused"
sleep 0.7
h1=$(hits)
sleep 1.2
h2=$(hits)
is "$h2" "$h1" "paused: the counts stop moving while the load runs ($h1)"
wait_for 'aggregation is paused'
ok $? "p: the message line confirms"

$T send-keys -t t c
wait_for '\[active\]'
ok $? "c: the header shows [active] again"
grep -q '\[active\]$' "$tf"
ok $? "c: the kernel's trigger is active"
sleep 1.5
h3=$(hits)
[ "${h3:-0}" -gt "${h2:-0}" ]
ok $? "continued: the counts move again ($h2 -> $h3)"

$T send-keys -t t p
wait_for '\[paused\]'
$T send-keys -t t z
wait_for "Clear the kernel's table\? y/N"
ok $? "z: asks before it clears"
$T send-keys -t t y
wait_for 'aggregation is cleared'
ok $? "z: the message line confirms"
wait_for 'Hits 0 '
ok $? "z: the screen shows Hits 0"
is "$(grep -c '^{ ' "$TRACING/instances/$inst/events/syscalls/sys_enter_read/hist")" 0 \
	"z: the kernel's table is empty"
$T send-keys -t t c
sleep 1.5
h4=$(hits)
[ "${h4:-0}" -gt 0 ] && [ "${h4:-0}" -lt "${h3:-0}" ]
ok $? "after clear the counts restart from zero ($h4 < $h3)"
! screen | grep -qE '^ *ht_s +[0-9]+ +-'
ok $? "no negative delta after the clear"

$T send-keys -t t f
wait_for 'FROZEN'
ok $? "f: the display freezes"
h5=$(hits)
sleep 1
is "$(hits)" "$h5" "frozen: the screen does not change"
grep -q '\[active\]$' "$tf"
ok $? "frozen: the kernel keeps counting ([active])"
$T send-keys -t t f

$T send-keys -t t q
wait_for 'EXITED 0'
ok $? "q: histtop exits 0"
is "$(histtop_instances)" 0 "q: no histtop instance left"

# a quit signal, or the terminal going away, under the / prompt: histtop
# ends at once and the kernel is left as it was found
for how in TERM HUP terminal; do
	$T kill-session -t t 2>/dev/null
	rm -f /tmp/histtop.pid
	$T new-session -d -s t -x 110 -y 24 \
		"sh -c 'echo \$\$ >/tmp/histtop.pid; exec histtop -e syscalls:sys_enter_read -k common_pid.execname -d 0.3'; echo EXITED \$?; sleep 60"
	wait_for '^ *ht_s '
	hpid=$(cat /tmp/histtop.pid)
	$T send-keys -t t / h t
	wait_for 'filter: ht'
	if [ $how = terminal ]; then
		$T kill-server
	else
		kill -$how "$hpid"
	fi
	i=0
	while alive "$hpid" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	! alive "$hpid"
	ok $? "$how under the / prompt: histtop exits"
	is "$(histtop_instances)" 0 "$how under the / prompt: no histtop instance left"
	alive "$hpid" && kill -KILL "$hpid"	# a hang: the next start reaps its instance
done
kill $lpid

# the distribution view on the real engine: a compound key with a .log2
# part; reads of 1, 100, 5000 and 40000 bytes fall in the kernel's buckets
# 2^0, 2^7, 2^13 and 2^16, from four processes (each workload is one)
$T kill-server 2>/dev/null
$T new-session -d -s t -x 100 -y 30 \
	"histtop -e syscalls:sys_enter_read -k common_pid.execname,count.log2 --filter 'comm ~ \"fx_d*\"' -d 0.3; echo EXITED \$?; sleep 60"
wait_for 'Hits'
workload -c fx_da read 5 1
workload -c fx_da read 3 100
workload -c fx_db read 4 5000
workload -c fx_db read 1 40000
# the rows, not the kernel's Entries: under interval reads those are the
# last interval's, and the four workloads can span two intervals
wait_for '^ *fx_db \[[0-9]+\], ~ 2\^16 '
is "$(screen | grep -cE '^ *fx_d[ab] \[[0-9]+\], ~ 2\^[0-9]+ ')" 4 "dist: four buckets in the table"
$T send-keys -t t v t
wait_for 'hitcount, total'
# the buckets on screen, "label weight", and what they must be
buckets() { screen | sed '1,6d;$d' | grep -E '^ *[[(]' | sed -E 's/^ *([[(][^])]*[])]) +([0-9]+).*/\1 \2/' | tr '\n' ';'; }
e="(128, 256] 0;(256, 512] 0;(512, 1K] 0;(1K, 2K] 0;(2K, 4K] 0;"
is "$(buckets)" "[0, 1] 5;(1, 2] 0;(2, 4] 0;(4, 8] 0;(8, 16] 0;(16, 32] 0;(32, 64] 0;(64, 128] 3;${e}(4K, 8K] 4;(8K, 16K] 0;(16K, 32K] 0;(32K, 64K] 1;" \
	"dist: every process's buckets in order, the empty ones between"
like "$(screen | sed -n 6p)" 'p50 (≤|<=)128 +p90 (≤|<=)8K +p99 (≤|<=)64K' \
	"dist: p50, p90, p99 from the buckets (ranks 7, 12, 13 of 13)"
like "$(screen | sed -n 5p)" 'count.log2 of every common_pid \(1/5\)' \
	"dist: the title says every process, 1 of 5"
$T send-keys -t t n
wait_for 'fx_da .*\(2/5\)'
is "$(buckets)" "[0, 1] 5;" "dist: n: the heaviest process first (fx_da, 5 reads of 1)"
$T send-keys -t t n
wait_for 'fx_db .*\(3/5\)'
is "$(buckets)" "(4K, 8K] 4;" "dist: n: then fx_db's 4 reads of 5000"
$T send-keys -t t q
wait_for 'EXITED 0'
ok $? "dist: q: histtop exits 0"
is "$(histtop_instances)" 0 "dist: no histtop instance left"

# the call tree on the real engine: seven reads by one process, each from
# the syscall entry; caller first, the entry is the one root with all 7
# (stacktrace is common_stacktrace on 6.12: histtop asks for either)
$T kill-server 2>/dev/null
$T new-session -d -s t -x 100 -y 30 \
	"histtop -e syscalls:sys_enter_read -k stacktrace --filter 'comm == \"fx_tr\"' -d 0.3; echo EXITED \$?; sleep 60"
wait_for 'Hits'
workload -c fx_tr read 7 1
wait_for 'Hits 7 '
ok $? "tree: seven reads counted"
$T send-keys -t t g
wait_for 'callee first'
ok $? "tree: g shows the call tree, callee first"
$T send-keys -t t o
wait_for 'caller first'
like "$(screen | sed -n 6p)" '^ *100\.0% +7 .*\+ entry_SYSCALL_64' \
	"tree: caller first, the syscall entry holds all 7 (100.0%)"
$T send-keys -t t Right
wait_for '^ *100\.0% +7 .*- entry_SYSCALL_64'
like "$(screen | sed -n 7p)" '^ *100\.0% +7 .*do_syscall_64' "tree: Right opens it: do_syscall_64 below"
$T send-keys -t t q
wait_for 'EXITED 0'
ok $? "tree: q: histtop exits 0"
is "$(histtop_instances)" 0 "tree: no histtop instance left"
reset_triggers
done_testing
