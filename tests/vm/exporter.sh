#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# histtop --listen live in the guest, scraped on loopback with busybox wget:
# the exported counters equal a known workload and the kernel's own hist
# text (the cumulative table, read after the counts); a .log2 key as a
# histogram; no kernel address; interval reads exact over more keys than
# size= (kernels with hist_interval); SIGTERM and SIGHUP leave nothing.
. "$(dirname "$0")/tap.sh"
INST=$TRACING/instances
tmp=/tmp/exporter-test
rm -rf $tmp
mkdir -p $tmp
port=19100

# shellcheck disable=SC2010
histtop_instances() { ls "$INST" 2>/dev/null | grep '^histtop-' | tr '\n' ' '; }
scrape() { wget -q -O - "http://127.0.0.1:$port/metrics" 2>/dev/null; }
# wait until the endpoint answers with a frame (not 503), up to 20 s
wait_endpoint() {
	i=0
	while [ $i -lt 200 ]; do
		scrape | grep -q '^histtop_build_info' && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# the value of the sample whose name and labels start with PREFIX
sample() {	# TEXT PREFIX
	printf '%s\n' "$1" | grep -F "$2" | head -n 1 | sed 's/.* //'
}
stop() {	# PID SIGNAL
	kill "-$2" "$1"
	wait "$1"
}

reset_triggers

# --- counters equal the workload and the kernel's table --------------------
histtop --listen 127.0.0.1:$port --cumulative -e syscalls:sys_enter_read \
	-k common_pid.execname -v count --filter 'comm ~ "ex_*"' --name reads -d 0.2 \
	2>$tmp/a.err &
hpid=$!
wait_endpoint
ok $? "the endpoint serves a first frame"
workload -c ex_a read 7 100
workload -c ex_b read 3 5000
sleep 1
m=$(scrape)
printf '%s\n' "$m" >$tmp/a.prom
is "$(sample "$m" 'histtop_reads_hits_total{comm="ex_a",')" 7 "ex_a: 7 reads"
is "$(sample "$m" 'histtop_reads_count_total{comm="ex_a",')" 700 "ex_a: 700 bytes"
is "$(sample "$m" 'histtop_reads_hits_total{comm="ex_b",')" 3 "ex_b: 3 reads"
is "$(sample "$m" 'histtop_reads_count_total{comm="ex_b",')" 15000 "ex_b: 15000 bytes"
inst=$(histtop_instances)
h=$(cat "$INST/${inst% }/events/syscalls/sys_enter_read/hist" 2>/dev/null)
kb=$(printf '%s\n' "$h" | grep 'ex_b' | sed -n 's/.* count: *\([0-9]*\).*/\1/p')
is "$kb" 15000 "the kernel's own table says the same for ex_b"
kh=$(printf '%s\n' "$h" | sed -n 's/^ *Hits: *//p')
is "$((7 + 3))" "$kh" "Totals Hits equals the exported hits"
addr=$(grep -v '^#' $tmp/a.prom | grep -oE '(0x)?ffff[0-9a-f]{12}|18446[0-9]{15}' | head -n 1)
is "$addr" "" "no kernel address on the endpoint"
stop $hpid TERM
is "$?" 143 "SIGTERM ends it (128+15)"
is "$(histtop_instances)" "" "SIGTERM leaves no instance"
grep -q '^histtop: serving http://127.0.0.1:19100/metrics$' $tmp/a.err
ok $? "it said where it serves"

# --- histtop's HTTP thread is histtop: its serving is not counted ---------
# (libmicrohttpd serves from a thread of its own, with a pid of its own in
# common_pid; every scrape accepts a connection there)
histtop --listen 127.0.0.1:$port -e syscalls:sys_enter_accept4 -k common_pid.execname \
	--name accepts -d 0.2 2>$tmp/s.err &
hpid=$!
wait_endpoint
ok $? "the endpoint serves a first frame"
i=0
while [ $i -lt 5 ]; do
	scrape >/dev/null
	sleep 0.3
	i=$((i + 1))
done
m=$(scrape)
# shellcheck disable=SC2012 # task names are numbers
tids=$(ls /proc/$hpid/task | tr '\n' ' ')
[ "$(echo "$tids" | wc -w)" -ge 2 ]
ok $? "histtop --listen runs more than one thread ($tids)"
mine=
for t in $tids; do
	printf '%s\n' "$m" | grep -q "^histtop_accepts_hits_total{.*pid=\"$t\"" && mine="$mine $t"
done
is "$mine" "" "no accept4 of histtop's own threads is counted (6 scrapes)"
stop $hpid TERM
is "$(histtop_instances)" "" "SIGTERM leaves no instance"

# --- a .log2 key is a histogram ---------------------------------------------
histtop --listen 127.0.0.1:$port --cumulative -e syscalls:sys_enter_read -k count.log2 \
	--filter 'comm == "ex_h"' --name rsize -d 0.2 2>$tmp/h.err &
hpid=$!
wait_endpoint
workload -c ex_h read 5 1000
workload -c ex_h read 2 5
sleep 1
m=$(scrape)
is "$(sample "$m" 'histtop_rsize_count_bucket{le="8"}')" 2 "le=8 holds the 2 reads of 5 bytes"
is "$(sample "$m" 'histtop_rsize_count_bucket{le="512"}')" 2 "le=512: still 2 (cumulative)"
is "$(sample "$m" 'histtop_rsize_count_bucket{le="1024"}')" 7 "le=1024 adds the 5 reads of 1000 bytes"
is "$(sample "$m" 'histtop_rsize_count_bucket{le="+Inf"}')" 7 "+Inf is every read"
is "$(sample "$m" 'histtop_rsize_count_count')" 7 "_count is every read"
stop $hpid HUP
is "$?" 129 "SIGHUP ends it (128+1)"
is "$(histtop_instances)" "" "SIGHUP leaves no instance"

# --- interval reads: more keys over the run than size= ----------------------
if [ -e "$EV/syscalls/sys_enter_read/hist_interval" ]; then
	histtop --listen 127.0.0.1:$port -e syscalls:sys_enter_read -k count --size 256 \
		--filter 'comm == "ex_k"' --name keys -d 0.1 2>$tmp/k.err &
	hpid=$!
	wait_endpoint
	r=0
	while [ $r -lt 10 ]; do
		workload -c ex_k sizes 100 $((r * 100 + 1))
		sleep 0.3
		r=$((r + 1))
	done
	sleep 0.5
	m=$(scrape)
	printf '%s\n' "$m" >$tmp/k.prom
	is "$(grep -c '^histtop_keys_hits_total{count="[0-9]*"} 1$' $tmp/k.prom)" 1000 \
		"interval reads, size=256: 1000 keys, each counted once"
	is "$(sample "$m" 'histtop_trigger_dropped_total{trigger="keys"}')" 0 "nothing dropped"
	stop $hpid INT
	is "$?" 0 "SIGINT ends it (0)"
	is "$(histtop_instances)" "" "SIGINT leaves no instance"
else
	skip "interval reads over more keys than size=" "no hist_interval on this kernel"
fi
is "$(cat $tmp/a.err $tmp/s.err $tmp/h.err $tmp/k.err 2>/dev/null | grep -v '^histtop: serving ')" "" \
	"nothing else on stderr"

reset_triggers
done_testing
