#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Seed conformance suite: every example of the hist-trigger documentation
# (shared/seeds 002) and the compound-key example of the cover letter (001),
# turned into assertions on the running kernel's engine.  TAP on stdout.
# Runs in the guest as root; the workload helper makes exact counts.
. "$(dirname "$0")/tap.sh"

KM=kmem/kmalloc
RD=syscalls/sys_enter_read
RAW=raw_syscalls/sys_enter
FORK=sched/sched_process_fork
EXEC=sched/sched_process_exec
EXIT=sched/sched_process_exit

# Entry lines of the first histogram
entries() { hist "$1" | grep '^{ ' ; }
nentries() { hist "$1" | grep -c '^{ '; }
sum_col() {	# EVENT COL: sum of COL over every entry
	hist "$1" | sed -n "s/.* $2: *\([0-9]*\).*/\1/p" | {
		s=0
		while read -r v; do s=$((s + v)); done
		echo $s
	}
}
# Pause, then check the Totals invariants of a still table.
totals_consistent() {	# EVENT DESC
	is "$(total "$1" Entries)" "$(nentries "$1")" "$2: Totals Entries equals the entry lines"
	is "$(total "$1" Hits)" "$(sum_col "$1" hitcount)" "$2: Totals Hits equals the sum of hitcounts"
	is "$(total "$1" Dropped)" 0 "$2: nothing dropped"
}
activity() { ls -lR /bin /lib >/dev/null; cat /proc/self/status >/dev/null; }

reset_triggers

# --- keys and vals: hist:key=call_site:val=bytes_req ----------------------
trig $KM 'hist:key=call_site:val=bytes_req'
activity
trig $KM 'hist:key=call_site:val=bytes_req:pause'
is "$(cat $EV/$KM/trigger)" \
	'hist:keys=call_site:vals=hitcount,bytes_req:sort=hitcount:size=2048 [paused]' \
	"trigger file shows the normalised trigger, its size and state"
hist $KM | grep -q '^# trigger info: hist:keys=call_site:vals=hitcount,bytes_req:sort=hitcount:size=2048 \[paused\]$'
ok $? "hist file starts with the same trigger info"
n=$(nentries $KM)
[ "$n" -gt 3 ]
ok $? "kmalloc by call_site has entries ($n)"
bad=$(entries $KM | grep -cvE '^\{ call_site: +[0-9]+ \} hitcount: +[0-9]+  bytes_req: +[0-9]+$')
is "$bad" 0 "every entry is '{ call_site: N } hitcount: N  bytes_req: N'"
# sorted by hitcount, ascending (the default)
sorted=$(entries $KM | sed 's/.*hitcount: *\([0-9]*\).*/\1/' | sort -n -c 2>&1 && echo yes)
is "$sorted" yes "default sort is hitcount ascending"
totals_consistent $KM "key=call_site"
trig $KM '!hist:key=call_site:val=bytes_req'
is "$(grep -c '^hist' $EV/$KM/trigger)" 0 "!hist removes the trigger"
is "$(hist $KM | wc -c)" 0 "hist file is empty once the trigger is gone"

# --- .hex: the same keys as plain decimal, printed in hex -----------------
trig $RD 'hist:keys=count:vals=hitcount if comm == "wl_hex"'
trig $RD 'hist:keys=count.hex:vals=hitcount if comm == "wl_hex"'
workload -c wl_hex read 5 4096
workload -c wl_hex read 3 255
h=$(hist $RD)
echo "$h" | grep -qE '^\{ count:       4096 \} hitcount:          5$'
ok $? "plain key: 5 reads of 4096 bytes"
echo "$h" | grep -qE '^\{ count: 1000 \} hitcount:          5$'
ok $? ".hex key prints 4096 as '1000'"
echo "$h" | grep -qE '^\{ count: ff \} hitcount:          3$'
ok $? ".hex key prints 255 as 'ff'"
is "$(echo "$h" | grep -c '^# event histogram')" 2 "two hist triggers on one event: two histograms in one file"
trig $RD '!hist:keys=count:vals=hitcount if comm == "wl_hex"'
trig $RD '!hist:keys=count.hex:vals=hitcount if comm == "wl_hex"'

# --- .sym and .sym-offset -------------------------------------------------
trig $KM 'hist:key=call_site.sym:val=bytes_req'
activity
trig $KM 'hist:key=call_site.sym:val=bytes_req:pause'
bad=$(entries $KM | grep -cvE '^\{ call_site: \[[0-9a-f]{16}\] [A-Za-z_][A-Za-z0-9_.]* +\} hitcount: +[0-9]+  bytes_req: +[0-9]+$')
is "$bad" 0 ".sym keys are '[address] symbol'"
entries $KM | grep -q 'call_site: \[ffffffff[0-9a-f]*\] kmalloc_trace\|call_site: \[ffffffff[0-9a-f]*\] [a-z]'
ok $? ".sym resolves kernel text addresses"
totals_consistent $KM "key=call_site.sym"
trig $KM '!hist:key=call_site.sym:val=bytes_req'
trig $KM 'hist:key=call_site.sym-offset:val=bytes_req'
activity
trig $KM 'hist:key=call_site.sym-offset:val=bytes_req:pause'
bad=$(entries $KM | grep -cvE '^\{ call_site: \[[0-9a-f]{16}\] [A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+ +\} hitcount')
is "$bad" 0 ".sym-offset keys are '[address] symbol+off/size'"
trig $KM '!hist:key=call_site.sym-offset:val=bytes_req'

# --- multiple values, sort=bytes_alloc.descending -------------------------
trig $KM 'hist:keys=call_site.sym:values=bytes_req,bytes_alloc:sort=bytes_alloc.descending'
activity
trig $KM 'hist:keys=call_site.sym:values=bytes_req,bytes_alloc:sort=bytes_alloc.descending:pause'
grep -q '^hist:keys=call_site.sym:vals=hitcount,bytes_req,bytes_alloc:sort=bytes_alloc.descending:size=2048 \[paused\]' $EV/$KM/trigger
ok $? "two values and a descending sort in the trigger info"
bad=$(entries $KM | sed 's/.*bytes_req: *\([0-9]*\)  bytes_alloc: *\([0-9]*\)$/\1 \2/' |
	while read -r r a; do [ "$a" -ge "$r" ] || echo bad; done | wc -l)
is "$bad" 0 "bytes_alloc >= bytes_req on every entry"
sorted=$(entries $KM | sed 's/.*bytes_alloc: *//' | sort -n -r -c 2>&1 && echo yes)
is "$sorted" yes "sorted by bytes_alloc descending"
trig $KM '!hist:keys=call_site.sym:values=bytes_req,bytes_alloc:sort=bytes_alloc.descending'

# --- stacktrace key -------------------------------------------------------
# 6.1 prints the key as it is written; 6.5 and later (6.12) take
# 'stacktrace' as another spelling of 'common_stacktrace' and print that
# (their README names only common_stacktrace)
st=stacktrace
grep -q common_stacktrace $TRACING/README && st=common_stacktrace
trig $KM 'hist:keys=stacktrace:values=bytes_req,bytes_alloc:sort=bytes_alloc'
activity
trig $KM 'hist:keys=stacktrace:values=bytes_req,bytes_alloc:sort=bytes_alloc:pause'
is "$(cat $EV/$KM/trigger)" \
	"hist:keys=$st:vals=hitcount,bytes_req,bytes_alloc:sort=bytes_alloc:size=2048 [paused]" \
	"keys=stacktrace reads back as keys=$st"
h=$(hist $KM)
n=$(echo "$h" | grep -c "^{ $st:\$")
[ "$n" -gt 0 ]
ok $? "stacktrace keys print as '{ $st:' blocks ($n)"
echo "$h" | grep -qE '^         [A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+$'
ok $? "stack frames are indented symbol+off/size lines"
is "$(echo "$h" | grep -c '^} hitcount: ')" "$n" "each stacktrace block closes with '} hitcount:'"
is "$(total $KM Entries)" "$n" "Totals Entries counts stacktrace entries"
trig $KM '!hist:keys=stacktrace:values=bytes_req,bytes_alloc:sort=bytes_alloc'

# --- .execname, val=count, sort=count.descending -------------------------
trig $RD 'hist:key=common_pid.execname:val=count:sort=count.descending if comm ~ "wl_e*"'
workload -c wl_e1 read 7 100
workload -c wl_e2 read 2 5000
workload -c wl_e3 read 4 10
e=$(entries $RD)
echo "$e" | grep -qE '^\{ common_pid: wl_e1 +\[ *[0-9]+\] \} hitcount:          7  count:        700$'
ok $? ".execname: 'comm [pid]' with 7 reads and 700 bytes"
is "$(echo "$e" | sed 's/.*common_pid: \(wl_e[0-9]\).*/\1/' | tr '\n' ' ')" "wl_e2 wl_e1 wl_e3 " \
	"sort=count.descending orders 10000, 700, 40 bytes"
trig $RD '!hist:key=common_pid.execname:val=count:sort=count.descending if comm ~ "wl_e*"'

# --- .syscall: hist:key=id.syscall:val=hitcount ---------------------------
trig $RAW 'hist:key=id.syscall:val=hitcount if comm == "wl_sys"'
workload -c wl_sys getpid 13
entries $RAW | grep -qE '^\{ id: sys_getpid +\[ 39\] \} hitcount:         13$'
ok $? ".syscall: 'sys_getpid [ 39]' counted 13 times"
trig $RAW '!hist:key=id.syscall:val=hitcount if comm == "wl_sys"'

# --- compound key (cover letter): common_pid.execname,id.syscall ----------
trig $RAW 'hist:keys=common_pid.execname,id.syscall:vals=hitcount if comm ~ "wl_c*"'
workload -c wl_c1 getpid 5
workload -c wl_c2 getpid 9
e=$(entries $RAW)
echo "$e" | grep -qE '^\{ common_pid: wl_c1 +\[ *[0-9]+\], id: sys_getpid +\[ 39\] \} hitcount:          5$'
ok $? "compound key: wl_c1 x sys_getpid = 5"
echo "$e" | grep -qE '^\{ common_pid: wl_c2 +\[ *[0-9]+\], id: sys_getpid +\[ 39\] \} hitcount:          9$'
ok $? "compound key: wl_c2 x sys_getpid = 9"
trig $RAW '!hist:keys=common_pid.execname,id.syscall:vals=hitcount if comm ~ "wl_c*"'

# --- two sort keys --------------------------------------------------------
trig $RD 'hist:keys=common_pid.execname,count:vals=hitcount:sort=count,hitcount.descending if comm ~ "wl_t*"'
workload -c wl_t1 read 2 10; workload -c wl_t2 read 6 10; workload -c wl_t3 read 4 10
workload -c wl_t1 read 1 20; workload -c wl_t2 read 3 20
grep -q ':sort=count,hitcount.descending:' $EV/$RD/trigger
ok $? "two sort keys in the trigger info"
is "$(entries $RD | sed 's/.*count: *\([0-9]*\) } hitcount: *\([0-9]*\)$/\1:\2/' | tr '\n' ' ')" \
	"10:6 10:4 10:2 20:3 20:1 " "first key count ascending, then hitcount descending"
trig $RD '!hist:keys=common_pid.execname,count:vals=hitcount:sort=count,hitcount.descending if comm ~ "wl_t*"'

# --- .log2 and .buckets ---------------------------------------------------
trig $RD 'hist:keys=count.log2:vals=hitcount if comm == "wl_log"'
workload -c wl_log read 3 1000
workload -c wl_log read 2 5
e=$(entries $RD)
echo "$e" | grep -qE '^\{ count: ~ 2\^10 \} hitcount:          3$'
ok $? ".log2: 1000 bytes is ~ 2^10"
echo "$e" | grep -qE '^\{ count: ~ 2\^3  \} hitcount:          2$'
ok $? ".log2: 5 bytes is ~ 2^3"
trig $RD '!hist:keys=count.log2:vals=hitcount if comm == "wl_log"'
trig $RD 'hist:keys=count.buckets=100:vals=hitcount if comm == "wl_bkt"'
workload -c wl_bkt read 4 150
entries $RD | grep -qE '^\{ count: ~ 100-199 \} hitcount:          4$'
ok $? ".buckets=100: 150 bytes is ~ 100-199"
trig $RD '!hist:keys=count.buckets=100:vals=hitcount if comm == "wl_bkt"'

# --- size= and Dropped ----------------------------------------------------
trig $RD 'hist:keys=count:vals=hitcount:size=128 if comm == "wl_size"'
grep -q ':size=128 if comm == "wl_size" \[active\]$' $EV/$RD/trigger
ok $? "size=128 shows in the trigger info"
workload -c wl_size sizes 300
is "$(total $RD Entries)" 128 "300 distinct keys fill a 128-entry table"
is "$(total $RD Dropped)" 172 "the 172 keys that did not fit are Dropped"
is "$(total $RD Hits)" 128 "Hits counts the events that found an entry"
is "$(($(total $RD Hits) + $(total $RD Dropped)))" 300 "Hits plus Dropped is every event"
trig $RD '!hist:keys=count:vals=hitcount:size=128 if comm == "wl_size"'

# --- pause / cont / clear (child_comm, size=256) --------------------------
trig $FORK 'hist:key=child_comm:val=hitcount:size=256'
workload -c wl_fork fork 4
fork_hits() { val_of $FORK "child_comm: wl_fork " hitcount; }
is "$(fork_hits)" 4 "string key: 4 forks by child_comm"
trig $FORK 'hist:key=child_comm:val=hitcount:size=256:pause'
grep -q 'size=256 \[paused\]' $EV/$FORK/trigger
ok $? ":pause shows [paused] in the trigger file"
hist $FORK | grep -q '^# trigger info: .*\[paused\]$'
ok $? ":pause shows [paused] in the hist file"
workload -c wl_fork fork 3
is "$(fork_hits)" 4 "a paused trigger does not count"
trig $FORK 'hist:key=child_comm:val=hitcount:size=256:cont'
grep -q 'size=256 \[active\]' $EV/$FORK/trigger
ok $? ":cont shows [active] again"
workload -c wl_fork fork 2
is "$(fork_hits)" 6 "a continued trigger counts again"
trig $FORK 'hist:key=child_comm:val=hitcount:size=256:pause'
trig $FORK 'hist:key=child_comm:val=hitcount:size=256:clear'
is "$(fork_hits)" "" ":clear removes the entries"
is "$(total $FORK Hits)/$(total $FORK Entries)" "0/0" ":clear zeroes Hits and Entries"
grep -q 'size=256 \[paused\]' $EV/$FORK/trigger
ok $? ":clear keeps the trigger's state"
trig $FORK 'hist:key=child_comm:val=hitcount:size=256:cont'
workload -c wl_fork fork 1
is "$(fork_hits)" 1 "a cleared table counts from zero"
trig $FORK '!hist:key=child_comm:val=hitcount:size=256'

# --- enable_hist / disable_hist: count syscalls only while a program runs -
trig $RAW 'hist:keys=common_pid.execname,id.syscall:vals=hitcount:pause'
trig $EXEC 'enable_hist:raw_syscalls:sys_enter if filename == "/usr/local/bin/workload"'
trig $EXIT 'disable_hist:raw_syscalls:sys_enter if comm == "wl_win"'
grep -q '^enable_hist:raw_syscalls:sys_enter:unlimited if filename == "/usr/local/bin/workload"' $EV/$EXEC/trigger
ok $? "enable_hist trigger reads back from the trigger file"
grep -q '^disable_hist:raw_syscalls:sys_enter:unlimited if comm == "wl_win"' $EV/$EXIT/trigger
ok $? "disable_hist trigger reads back from the trigger file"
getpid_of() { entries $RAW | grep "$1" | grep sys_getpid | sed 's/.*hitcount: *//'; }
busybox true; ls / >/dev/null
is "$(nentries $RAW)" 0 "a paused trigger counts nothing before the program runs"
workload -c wl_win getpid 20
is "$(getpid_of wl_win)" 20 "enable_hist at exec, disable_hist at exit: the program's 20 getpids"
grep -q '\[paused\]' $EV/$RAW/trigger
ok $? "disable_hist paused the trigger again at exit"
workload -c wl_out getpid 7 2>/dev/null
# wl_out was enabled by its exec but never disabled; pause by hand
trig $RAW 'hist:keys=common_pid.execname,id.syscall:vals=hitcount:pause'
is "$(getpid_of wl_out)" 7 "an exec of the program enables counting again"
trig $EXEC '!enable_hist:raw_syscalls:sys_enter if filename == "/usr/local/bin/workload"'
trig $EXIT '!disable_hist:raw_syscalls:sys_enter if comm == "wl_win"'
trig $RAW 'hist:keys=common_pid.execname,id.syscall:vals=hitcount:clear'
# :N counts: only the first matching exec enables
trig $EXEC 'enable_hist:raw_syscalls:sys_enter:1 if filename == "/usr/local/bin/workload"'
trig $EXIT 'disable_hist:raw_syscalls:sys_enter if comm ~ "wl_n*"'
workload -c wl_n1 getpid 3
workload -c wl_n2 getpid 4
is "$(getpid_of wl_n1)" 3 "enable_hist:...:1 enables for the first run"
is "$(getpid_of wl_n2)" "" "and not for the second"
grep -q '^enable_hist:raw_syscalls:sys_enter:count=0 ' $EV/$EXEC/trigger
ok $? "the enable_hist count reads back as count=0 once used"
trig $EXEC '!enable_hist:raw_syscalls:sys_enter:1 if filename == "/usr/local/bin/workload"'
trig $EXIT '!disable_hist:raw_syscalls:sys_enter if comm ~ "wl_n*"'
trig $RAW '!hist:keys=common_pid.execname,id.syscall:vals=hitcount'

# --- O_TRUNC: why every write here appends ------------------------------
trig $RAW 'hist:keys=id:vals=hitcount'
trig $RAW 'hist:keys=common_pid:vals=hitcount'
is "$(grep -c '^hist' $EV/$RAW/trigger)" 2 "appending adds a second hist trigger"
echo 'hist:keys=common_pid.execname:vals=hitcount' >"$EV/$RAW/trigger"
is "$(grep '^hist' $EV/$RAW/trigger | cut -d' ' -f1 | tr '\n' ' ')" \
	"hist:keys=common_pid.execname:vals=hitcount:sort=hitcount:size=2048 " \
	"opening with O_TRUNC removed the other triggers on the event"
trig $RAW '!hist:keys=common_pid.execname:vals=hitcount'

reset_triggers
done_testing
