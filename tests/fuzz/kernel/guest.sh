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
#   sh /tests/fuzz/kernel/guest.sh SEED WORKERS OPS SECS [HISTFUZZ_ARG...]
. /tests/vm/tap.sh
command -v histfuzz >/dev/null ||
	{ echo "Bail out! no histfuzz in the guest: make, then vm/initramfs"; exit 1; }
seed=${1:?seed} workers=${2:-4} ops=${3:-2000} secs=${4:-0}
shift 4
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

dmesg -c >/dev/null 2>&1
reset_all
echo "# histfuzz-log-begin seed=$seed workers=$workers ops=$ops secs=$secs"
# the log goes out as it is made (a panic reboots the guest before any
# end) and into a file for the counts below
rm -f /tmp/histfuzz.out
histfuzz -s "$seed" -w "$workers" -n "$ops" -t "$secs" -l /tmp/histfuzz.out "$@"
fzrc=$?
echo "# histfuzz-log-end"
ok $fzrc "histfuzz -s $seed -w $workers -n $ops ran ($(grep '^# histfuzz seed=.*operations' /tmp/histfuzz.out | sed 's/^# histfuzz //'))"
n=$(grep -c '^w' /tmp/histfuzz.out)
[ "$n" -gt 0 ]
ok $? "the operation log has $n operations"
diag "trigger writes the kernel took: $(awk '$3 == "trig" {t[$1" "$2] = 1} /^r/ {if (("w" substr($1, 2) " " $2) in t) { n++; if ($3 > 0) g++ }} END {printf "%d of %d", g, n}' /tmp/histfuzz.out)"

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
