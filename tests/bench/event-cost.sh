#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/bench/run --events: the per-event cost of tracing
# syscalls:sys_enter_write, measured by evcost (write(2)s to /dev/null)
# with each of these in place:
#   none            no tracing
#   sum             hist:keys=common_pid:vals=count
#   sum+max+min     the same plus count.max,count.min (where the README
#                   has them)
#   sym             hist:keys=buf.sym:vals=count (.sym works at print time)
#   pid,fd          hist:keys=common_pid,fd:vals=count, a compound key
#   stacktrace      hist:keys=common_stacktrace:vals=count (stacktrace where
#                   the README names no common_stacktrace)
#   sum-interval    the sum-only trigger made an interval hist (a
#                   hist_interval file held open, where the kernel has one)
#   bpftrace-count  bpftrace 'tracepoint:syscalls:sys_enter_write
#                   { @[pid] = count() }', and likewise bpftrace-sum
#                   (sum(args->count)), bpftrace-max (max(args->count)) and
#                   bpftrace-kstack (@[kstack] = count()), and bpftrace-empty,
#                   a program that does nothing (what attaching costs):
#                   where the guest has bpftrace (tests/bench/bpftrace-part,
#                   vm/run -p).
#                   bpftrace starts and compiles before the measured writes
#                   and gets SIGINT after them.  They begin when it prints
#                   __BPFTRACE_NOTIFY_PROBES_ATTACHED (asked for by that
#                   variable, the hook of bpftrace's own tests), which comes
#                   after attaching; its "Attaching N probes..." comes before.
# The setups take turns, TURNS times, so drift hits them alike.  Prints
# "SETUP median_ns=M turns=N" lines (the median over the turns) and, as
# "# " lines, what each setup counted, so that a trigger or a program that
# saw nothing shows.
. /tests/vm/tap.sh
writes=${1:-20000}
turns=${2:-3}
ev=syscalls/sys_enter_write
stack=stacktrace
grep -q "'common_stacktrace'" "$TRACING/README" && stack=common_stacktrace
bt=
if command -v bpftrace >/dev/null; then
	bt=1
	diag "bpftrace: $(bpftrace --version);" \
		"bpf_jit_enable=$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null || echo none)" \
		"bpf_jit_kallsyms=$(cat /proc/sys/net/core/bpf_jit_kallsyms 2>/dev/null || echo none)"
fi
reset_triggers
uptime_cs() { tr -d . </proc/uptime | cut -d' ' -f1; }	# guest time, 10 ms
run() {	# SETUP
	evcost "$writes" 3 | sed -n "s/.*median_ns=\([0-9.]*\).*/$1 \1/p" >>/tmp/evcost
}
hist() {	# SETUP TRIGGER: evcost with TRIGGER on the event
	trig $ev "$2"
	run "$1"
	diag "$1: $(grep -E '^ *(Hits|Entries|Dropped):' "$EV/$ev/hist" | tr -s ' \n' ' ')"
	trig $ev "!$2"
}
# SETUP ACTION: evcost while bpftrace runs ACTION on every sys_enter_write.
# A bpftrace that does not attach in 10 minutes (guest time) or exits is
# reported, and that setup is not tried again.
btfailed=
bpf() {
	[ -n "$bt" ] || return 0
	case " $btfailed " in *" $1 "*) return 0 ;; esac
	: >/tmp/bt.out
	t0=$(uptime_cs)
	__BPFTRACE_NOTIFY_PROBES_ATTACHED=1 bpftrace \
		-e "tracepoint:syscalls:sys_enter_write { $2 }" >/tmp/bt.out 2>&1 &
	p=$!
	n=0
	until grep -q '^__BPFTRACE_NOTIFY_PROBES_ATTACHED' /tmp/bt.out; do
		n=$((n + 1))
		if ! kill -0 $p 2>/dev/null || [ $n -gt 6000 ]; then
			kill $p 2>/dev/null
			wait $p
			diag "$1: bpftrace did not attach (exit $?); skipped from now on:"
			sed 's/^/#   /' /tmp/bt.out
			btfailed="$btfailed $1"
			return 0
		fi
		sleep 0.1
	done
	# a JIT-compiled program shows in kallsyms as "bpf_prog_TAG_NAME\t[bpf]"
	jit=$(grep -c 'bpf_prog_.*\[bpf\]$' /proc/kallsyms)
	t1=$(uptime_cs)
	run "$1"
	t2=$(uptime_cs)
	kill -INT $p
	wait $p
	# the map, a stack's lines run together, and bpftrace's own time
	# before and after the measured writes on the guest's clock (under
	# -icount: millions of instructions, idle time added)
	diag "$1: $(grep -v -e '^Attaching' -e '^__BPFTRACE' /tmp/bt.out | tr -s ' \n' ' ')"
	diag "$1: start-up $(((t1 - t0) * 10)) ms, exit $((($(uptime_cs) - t2) * 10)) ms, JIT-compiled programs $jit"
}
i=0
: >/tmp/evcost
while [ "$i" -lt "$turns" ]; do
	run none
	hist sum 'hist:keys=common_pid:vals=count'
	if grep -q 'keep the largest value' "$TRACING/README"; then
		hist sum+max+min 'hist:keys=common_pid:vals=count,count.max,count.min'
	fi
	hist sym 'hist:keys=buf.sym:vals=count'
	hist pid,fd 'hist:keys=common_pid,fd:vals=count'
	hist stacktrace "hist:keys=$stack:vals=count"
	if [ -e "$EV/$ev/hist_interval" ]; then
		exec 3<>"$EV/$ev/hist_interval"
		echo 'hist:keys=common_pid:vals=count' >&3
		run sum-interval
		exec 3>&-
	fi
	bpf bpftrace-empty ''
	bpf bpftrace-count '@[pid] = count();'
	bpf bpftrace-sum '@[pid] = sum(args->count);'
	bpf bpftrace-max '@[pid] = max(args->count);'
	bpf bpftrace-kstack '@[kstack] = count();'
	i=$((i + 1))
done
for s in none sum sum+max+min sym pid,fd stacktrace sum-interval \
	bpftrace-empty bpftrace-count bpftrace-sum bpftrace-max bpftrace-kstack; do
	grep "^$s " /tmp/evcost | sort -n -k2 | awk -v s="$s" '
		{ v[NR] = $2 } END { if (NR) printf "%s median_ns=%s turns=%d\n", s, v[int((NR + 1) / 2)], NR }'
done
