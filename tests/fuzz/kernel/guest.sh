#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest half of the hist-trigger fuzzer (tests/fuzz/kernel/run starts
# it through vm/run on the debug kernel).  Runs histfuzz with SEED,
# WORKERS, OPS per worker and a limit of SECS seconds, with its operation
# log on stdout between "# histfuzz-log-begin" and "# histfuzz-log-end",
# then checks the kernel log and that everything the fuzzer made can still
# be removed: triggers, instances, kprobe, eprobe and synthetic events.
# TAP, after the log.
#
#   sh /tests/fuzz/kernel/guest.sh SEED WORKERS OPS SECS [--watch STALL] [HISTFUZZ_ARG...]
#
# --watch STALL (tests/fuzz/kernel/run --long, on a -long kernel): when no
# worker has logged a line for STALL seconds, ask the kernel through
# /proc/sysrq-trigger for its blocked tasks (w), the locks held (d) and
# every CPU's backtrace (l), the first time every task (t) too; at most
# three times.  On a kernel without the hung-task detector (no
# /proc/sys/kernel/hung_task_timeout_secs) it also does the detector's
# check from /proc: a task in D state whose context switch count has not
# moved for 120 s is named on the console with sysrq w and d, at most
# three times.  After the fuzzing, before the clean-up, say how many
# triggers are left and how many entries their tables hold.
. /tests/vm/tap.sh
command -v histfuzz >/dev/null ||
	{ echo "Bail out! no histfuzz in the guest: make, then vm/initramfs"; exit 1; }
seed=${1:?seed} workers=${2:-4} ops=${3:-2000} secs=${4:-0}
shift 4
stall=
if [ "${1:-}" = --watch ]; then
	stall=$2
	shift 2
fi
# what the kernel reports as a problem (vm/run fails on the same and more)
REPORT='BUG:|WARNING:|Call Trace:|KASAN|Oops|general protection|circular locking|Kernel panic'

# Remove the triggers of every event, in the top instance and in each
# instance: three passes, since a trigger whose variables another uses
# (onmatch) goes only after that one.
reset_all() {
	for _pass in 1 2 3; do
		for _d in "$TRACING" "$TRACING"/instances/*; do
			[ -d "$_d/events" ] && EV=$_d/events reset_triggers
		done
	done
	EV=$TRACING/events
}

# khungtaskd's check, from /proc: each task in D state with its context
# switches, and since when (seconds of uptime) it has had that count, in
# /tmp/blocked; a task over 120 s is reported, once for that count.
watch_blocked() {
	_now=$(cut -d. -f1 /proc/uptime)
	# shellcheck disable=SC2016 # awk's own variables
	cat /proc/[0-9]*/status 2>/dev/null | awk -v now="$_now" '
	function pr(   k, t) {
		if (st != "D") { st = ""; return }
		k = pid " " sw; t = (k in since) ? since[k] : now
		if (now - t >= 120 && !said[k]) {
			print "histfuzz: task " name ":" pid " blocked for more than 120 s" > "/dev/kmsg"
			close("/dev/kmsg")
			print "report" > "/tmp/blocked.report"
			said[k] = 1
		}
		print pid, name, sw, t, said[k] + 0 > "/tmp/blocked.new"
		st = ""
	}
	FILENAME == "/tmp/blocked" { since[$1 " " $3] = $4; said[$1 " " $3] = $5; next }
	/^Name:/ { pr(); name = $2 } /^Pid:/ { pid = $2 } /^State:/ { st = $2 }
	/^voluntary_ctxt_switches:/ { sw = $2 } /^nonvoluntary_ctxt_switches:/ { sw += $2 }
	END { pr() }' /tmp/blocked -
	mv -f /tmp/blocked.new /tmp/blocked 2>/dev/null || : >/tmp/blocked
	if [ -f /tmp/blocked.report ] && [ "$_blocked" -lt 3 ]; then
		for _k in w d; do echo $_k >/proc/sysrq-trigger; done
		_blocked=$((_blocked + 1))
	fi
	rm -f /tmp/blocked.report
}

# The --watch loop: the log's size every 10 s; STALL seconds without a
# new line make a dump on the console.
watch_log() {	# STALL
	_last=-1 _quiet=0 _dumps=0 _blocked=0
	: >/tmp/blocked
	while [ $_dumps -lt 3 ]; do
		sleep 10
		[ -f /proc/sys/kernel/hung_task_timeout_secs ] || watch_blocked
		_size=$(wc -c </tmp/histfuzz.out 2>/dev/null || echo 0)
		if [ "$_size" != "$_last" ]; then
			_last=$_size _quiet=0
			continue
		fi
		_quiet=$((_quiet + 10))
		[ $_quiet -ge "$1" ] || continue
		echo "histfuzz: no operation logged for ${_quiet} s: sysrq w, d, l" >/dev/kmsg
		for _k in w d l; do echo $_k >/proc/sysrq-trigger; done
		[ $_dumps -gt 0 ] || echo t >/proc/sysrq-trigger
		_dumps=$((_dumps + 1)) _quiet=0
	done 2>/dev/null
}

dmesg -c >/dev/null 2>&1
reset_all
echo "# histfuzz-log-begin seed=$seed workers=$workers ops=$ops secs=$secs"
# the log goes out as it is made (a panic reboots the guest before any
# end) and into a file for the counts below
rm -f /tmp/histfuzz.out
watcher=
if [ -n "$stall" ]; then
	[ -w /proc/sysrq-trigger ] ||
		echo "# histfuzz: --watch: no /proc/sysrq-trigger (a -long kernel has it)"
	watch_log "$stall" &
	watcher=$!
fi
histfuzz -s "$seed" -w "$workers" -n "$ops" -t "$secs" -l /tmp/histfuzz.out "$@"
fzrc=$?
[ -z "$watcher" ] || kill "$watcher"
echo "# histfuzz-log-end"
ok $fzrc "histfuzz -s $seed -w $workers -n $ops ran ($(grep '^# histfuzz seed=.*operations' /tmp/histfuzz.out | sed 's/^# histfuzz //'))"
n=$(grep -c '^w' /tmp/histfuzz.out)
[ "$n" -gt 0 ]
ok $? "the operation log has $n operations"
diag "trigger writes the kernel took: $(awk '$3 == "trig" {t[$1" "$2] = 1} /^r/ {if (("w" substr($1, 2) " " $2) in t) { n++; if ($3 > 0) g++ }} END {printf "%d of %d", g, n}' /tmp/histfuzz.out)"
if [ -n "$stall" ]; then
	# what the run left behind: the triggers and their tables' entries
	# shellcheck disable=SC2046 # tracefs paths hold no spaces
	set -- $(grep -l -v '^#' "$TRACING"/events/*/*/trigger "$TRACING"/instances/*/events/*/*/trigger 2>/dev/null)
	nt=0 nh=0 ne=0
	for f in "$@"; do
		nt=$((nt + $(grep -cv '^#' "$f")))
		h=${f%trigger}hist
		grep -q '^hist' "$f" || continue
		e=$(awk '/^    Entries:/ { n++; s += $2 } END { printf "%d %d", n, s }' "$h" 2>/dev/null)
		nh=$((nh + ${e% *})) ne=$((ne + ${e#* }))
	done
	diag "left after the fuzzing: $nt triggers on $# events, $nh hist tables with $ne entries"
fi

reset_all
# 6.1 keeps the generic "cpu" field of a key written as keys=cpu and prints
# it as common_cpu, which then matches no trigger: '!' of the printed text
# succeeds and removes nothing.  Such triggers go with the spelling they
# were added with, and are counted.
ncpu=0
# shellcheck disable=SC2013
for f in $(grep -l 'common_cpu' "$TRACING"/events/*/*/trigger "$TRACING"/instances/*/events/*/*/trigger 2>/dev/null); do
	grep '^hist.*common_cpu' "$f" | while read -r t; do
		echo "!$(echo "${t%% \[*}" | sed 's/common_cpu/cpu/g')" >>"$f" 2>/dev/null
	done
	ncpu=$((ncpu + 1))
done
[ $ncpu -eq 0 ] || diag "$ncpu trigger files held a hist that only its keys=cpu spelling removes"
for i in 0 1; do
	[ -d "$TRACING/instances/fz$i" ] && rmdir "$TRACING/instances/fz$i"
done
ls -d "$TRACING"/instances/fz* >/dev/null 2>&1
ok $((! $?)) "every instance the fuzzer made can be removed"
# synthetic events go after the kprobes whose hists may have named them
for e in -:fz_kp0 -:kprobes/fz_kr0; do echo "$e" >>"$TRACING/kprobe_events"; done 2>/dev/null
echo '-:eprobes/fz_ep0' >>"$TRACING/dynamic_events" 2>/dev/null
for e in fz_syn0 fz_syn1; do echo "!$e" >>"$TRACING/synthetic_events"; done 2>/dev/null
# a synthetic event named by a trigger the steps above removed late (an
# instance's, a keys=cpu one's) can still have been busy: once more after
# a second reset, and say so; one that stays is a reference the kernel kept
left=$(grep -c 'synthetic/fz_' "$TRACING/dynamic_events")
if [ "$left" -gt 0 ]; then
	grep 'synthetic/fz_' "$TRACING/dynamic_events" | while read -r l; do diag "busy at the first removal: $l"; done
	reset_all
	for e in fz_syn0 fz_syn1; do
		grep -q "synthetic/$e" "$TRACING/dynamic_events" || continue
		err=$( (echo "!$e" >>"$TRACING/synthetic_events") 2>&1)
		diag "removing $e again after a second reset: ${err:-removed}"
	done
fi
left=$(grep -c 'fz_' "$TRACING/dynamic_events")
is "$left" 0 "every dynamic event the fuzzer made can be removed"
[ "$left" -eq 0 ] || grep 'fz_' "$TRACING/dynamic_events" | while read -r l; do diag "left: $l"; done
[ "$left" -eq 0 ] || diag "error_log: $(tail -n 3 "$TRACING/error_log" | tr '\n' ' ')"
[ "$left" -eq 0 ] || grep -l -v '^#' "$TRACING"/events/*/*/trigger "$TRACING"/events/*/*/hist 2>/dev/null |
	while read -r f; do diag "with a trigger: $f"; done
left=$(grep -l -v '^#' "$EV"/*/*/trigger 2>/dev/null | wc -l)
is "$left" 0 "no trigger is left on any event"
# shellcheck disable=SC2046
[ "$left" -eq 0 ] || grep -v '^#' $(grep -l -v '^#' "$EV"/*/*/trigger) | head -n 5 | sed 's/^/#   /'

dmesg >/tmp/histfuzz.dmesg 2>&1
grep -aqE "$REPORT" /tmp/histfuzz.dmesg
rc=$?
ok $((! rc)) "the kernel log has no BUG, WARNING, Call Trace, KASAN or lockdep report"
if [ $rc -eq 0 ]; then
	grep -aE -B2 -A30 "$REPORT" /tmp/histfuzz.dmesg | head -n 80 | sed 's/^/#   /'
fi
done_testing
