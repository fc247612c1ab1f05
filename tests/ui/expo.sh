#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The Prometheus exposition (--openmetrics, --textfile) of every key form the
# fixtures hold: promtool accepts each, the numbers are the fixture's, no
# kernel address leaves, node_exporter's textfile collector serves it.
. "${top_srcdir:-.}/tests/ui/lib.sh"
if ! command -v promtool >/dev/null 2>&1; then
	echo "1..0 # SKIP promtool missing (Debian package prometheus)"
	exit 0
fi
tmp=$(mktemp -d)
nepid=
trap '[ -z "$nepid" ] || kill $nepid 2>/dev/null; rm -rf "$tmp"' EXIT

# the exposition of one fixture: FIXTURE [ARGS...] (text format on stdout)
expose() {
	f=$1
	shift
	rm -rf "$tmp/r"
	mkdir "$tmp/r"
	cp "$FIXTURES/$f" "$tmp/r/"
	"$HISTTOP" --replay "$tmp/r" -n 1 "$@"
}

for f in kmalloc-sym.hist kmalloc-symoffset.hist read-execname.hist raw-syscall.hist \
	read-log2.hist read-buckets.hist kmalloc-stacktrace.hist 612-kmalloc-stacktrace.hist \
	raw-compound.hist hostile-keys.hist read-minmax.hist kmalloc-hex.hist \
	kmalloc-percent-graph.hist 612-kfree-common-stacktrace.hist 612-read-nohitcount.hist \
	hand-616-common-comm.hist two-hists.hist 612-kmalloc-callsite.hist; do
	om=$(expose "$f" --openmetrics)
	is "$?" 0 "$f: --openmetrics exits 0"
	printf '%s\n' "$om" >"$tmp/om"
	# (promtool check metrics parses the text format 0.0.4 only: OpenMetrics
	# gets the checks below and the real Prometheus of tests/ui/prometheus.sh)
	n=$(grep -c '^# TYPE [a-z_]*_total ' "$tmp/om")
	is "$n" 0 "$f: OpenMetrics counter families are named without _total"
	is "$(tail -n 1 "$tmp/om")" "# EOF" "$f: OpenMetrics ends with # EOF"
	rm -f "$tmp/prom"
	"$HISTTOP" --replay "$tmp/r" -e x:y --textfile "$tmp/prom" -n 1 -d 0.01 >/dev/null 2>&1 ||
		"$HISTTOP" --replay "$tmp/r" --textfile "$tmp/prom" -n 1 -d 0.01
	out=$(promtool check metrics <"$tmp/prom" 2>&1)
	is "$?" 0 "$f: promtool check metrics accepts the --textfile exposition${out:+ ($out)}"
	# no kernel address: 16 hex digits or a 0xffff... anywhere
	addr=$(grep -vE '^#' "$tmp/prom" | grep -oE '(0x)?ffff[0-9a-f]{12}' | head -n 1)
	is "$addr" "" "$f: no kernel address in the exposition"
	# nor one printed in decimal (a plain key on an address field)
	addr=$(grep -vE '^#' "$tmp/prom" | grep -oE '[0-9]{20}' |
		awk '$0 >= "18446462598732840960"' | head -n 1)
	is "$addr" "" "$f: no kernel address in decimal in the exposition"
done

# --- exact values, from the fixtures' own numbers ---------------------------
# the text format of FIXTURE [ARGS...], as --textfile writes it
prom() {
	expose "$@" --textfile "$tmp/p.prom" -d 0.01 >/dev/null && cat "$tmp/p.prom"
}
out=$(prom 612-kmalloc-sym.hist)
like "$out" '^histtop_replay_hits_total\{call_site="tomoyo_find_next_domain"\} 4$' \
	".sym: two call sites of one function (2 + 2 hits) are one series"
like "$out" '^histtop_replay_bytes_alloc_total\{call_site="proc_pid_readlink"\} 8192$' \
	".sym: a summed value as a _total counter"
out=$(prom 612-kmalloc-callsite.hist)
like "$out" '^histtop_replay_hits_total\{call_site="\[kernel address\]"\} 45$' \
	"keys=call_site (no .sym): every address one series, all 45 hits kept"
out=$(prom 612-kmalloc-symoffset.hist)
like "$out" '^histtop_replay_bytes_req_total\{call_site="event_hist_trigger_parse\+0x28a/0x2740"\} 2024$' \
	".sym-offset: sym+off/size"
out=$(prom 612-read-execname.hist)
like "$out" '^histtop_replay_count_total\{comm="fx_b",pid="183"\} 10000$' ".execname: comm and pid"
like "$out" '^histtop_replay_hits_total\{comm="fx c,d",pid="184"\} 3$' ".execname: a comm with a blank and a comma"
out=$(prom 612-raw-syscall.hist)
like "$out" '^histtop_replay_hits_total\{id="sys_getrandom"\} 2$' ".syscall: the name"
out=$(prom 612-read-log2.hist)
like "$out" '^histtop_replay_count_bucket\{le="4"\} 0$' ".log2: nothing at or below 4"
like "$out" '^histtop_replay_count_bucket\{le="8"\} 2$' ".log2 2^3: 2 hits up to le 8"
like "$out" '^histtop_replay_count_bucket\{le="1024"\} 5$' ".log2 2^10: cumulative 5"
like "$out" '^histtop_replay_count_bucket\{le="\+Inf"\} 5$' ".log2: +Inf is the Hits"
like "$out" '^histtop_replay_count_count 5$' ".log2: _count is the Hits"
out=$(prom 612-read-buckets.hist)
like "$out" '^histtop_replay_count_bucket\{le="199"\} 4$' ".buckets=100: le the bucket's last value"
like "$out" '^histtop_replay_count_bucket\{le="499"\} 5$' ".buckets: cumulative"
like "$out" '^histtop_replay_count_sum 1020$' ".buckets with vals=count: _sum exact (600 + 420)"
out=$(prom 612-raw-compound.hist)
like "$out" '^histtop_replay_hits_total\{comm="fx_b",pid="193",id="sys_getpid"\} 9$' "compound: several labels"
out=$(prom read-minmax.hist)
like "$out" '^histtop_replay_ret_min\{comm="fx_mm",pid="685"\} -21$' ".min: a signed gauge"
like "$out" '^# TYPE histtop_replay_ret_max gauge$' ".max: a gauge"
out=$(prom kmalloc-percent-graph.hist)
case $out in *percent*|*graph*) ok 1 ".percent and .graph are not exported" ;;
*) ok 0 ".percent and .graph are not exported" ;; esac
out=$(prom hostile-keys.hist)
like "$out" "comm=\"e$(printf '\033')\\[2Jx\",pid=\"101\"} 7$" "a hostile comm: its bytes kept (ESC included) in the label"
like "$out" 'comm="inv'"$(printf '\357\277\275')"'",pid="105"' "invalid UTF-8: replaced by U+FFFD"
case $out in *"$(printf '\033')"*) ok 0 "the control bytes survive (Prometheus stores them)" ;;
*) ok 1 "the control bytes survive (Prometheus stores them)" ;; esac
out=$(prom 612-kmalloc-sym.hist --max-series 2)
n=$(printf '%s\n' "$out" | grep -c '^histtop_replay_hits_total{')
is "$n" 3 "--max-series 2: two series and the overflow one"
like "$out" '^histtop_trigger_series_folded\{trigger="replay"\} [1-9]' "the folded series counted"
sum=$(printf '%s\n' "$out" | awk '/^histtop_replay_hits_total\{/ { s += $2 } END { print s }')
tot=$(grep -A1 '^Totals' "$FIXTURES/612-kmalloc-sym.hist" | awk '/Hits/ { print $2 }')
is "$sum" "$tot" "--max-series: the series still add up to the Totals' Hits"

# --- several triggers on one hist file, each named ---------------------------
out=$(prom two-hists.hist -e x:y -k count --name plain -e x:y -k common_pid.execname --name named)
like "$out" '^histtop_plain_hits_total\{count="64"\} 3$' "two triggers: the first by its keys"
like "$out" '^histtop_named_count_total\{comm="fx_two",pid="676"\} 192$' "two triggers: the second by its keys"

# --- --attach --tracefs FIXTURE with two triggers on two events ---------------
cp -r "$FIXTURES/tracefs" "$tmp/fs"
cp "$FIXTURES/612-kmalloc-sym.hist" "$tmp/fs/events/kmem/kmalloc/hist"
cp "$FIXTURES/612-read-log2.hist" "$tmp/fs/events/syscalls/sys_enter_read/hist"
: >"$tmp/fs/events/kmem/kmalloc/trigger"
: >"$tmp/fs/events/syscalls/sys_enter_read/trigger"
out=$("$HISTTOP" --tracefs "$tmp/fs" --attach -e kmem:kmalloc --name km \
	-e syscalls:sys_enter_read -n 1 --openmetrics)
is "$?" 0 "--attach --tracefs FIXTURE, two triggers, --openmetrics: exit 0"
like "$out" '^histtop_km_hits_total\{call_site="tomoyo_find_next_domain"\} 4$' "the first trigger's numbers"
like "$out" '^histtop_sys_enter_read_count_bucket\{le="8.0"\} 2$' "the second's, OpenMetrics le"
is "$(cat "$tmp/fs/events/kmem/kmalloc/trigger" "$tmp/fs/events/syscalls/sys_enter_read/trigger")" "" \
	"--attach wrote no trigger file"

# --- --textfile: whole files, no temporary left --------------------------------
rm -rf "$tmp/r"; mkdir "$tmp/r" "$tmp/tf"
cp "$FIXTURES/612-read-execname.hist" "$tmp/r/"
"$HISTTOP" --replay "$tmp/r" --textfile "$tmp/tf/histtop.prom" -n 3 -d 0.05
is "$?" 0 "--textfile -n 3: exit 0"
is "$(ls "$tmp/tf")" "histtop.prom" "--textfile: the file, and no temporary file left"
"$HISTTOP" --replay "$tmp/r" --textfile "$tmp/none/x.prom" -n 1 -d 0.05 2>"$tmp/err"
like "$(cat "$tmp/err")" 'textfile: .*No such file or directory' "--textfile in a missing directory: said"

# the exporter runs until a signal; SIGTERM: exit 128+15, the file whole, no temporary
"$HISTTOP" --replay "$tmp/r" --textfile "$tmp/tf/histtop.prom" -d 0.02 &
pid=$!
sleep 0.5
kill -TERM $pid
wait $pid
is "$?" 143 "--textfile until SIGTERM: exit 143"
is "$(ls "$tmp/tf")" "histtop.prom" "after SIGTERM: the file, no temporary file"
like "$(tail -n 1 "$tmp/tf/histtop.prom")" '^histtop_build_info\{version="[^"]+"\} 1$' \
	"after SIGTERM: the file is whole"

# --- a --textfile that cannot be written ends histtop with exit 1 ----------
mkdir -p "$tmp/tfr"
cp "$FIXTURES/612-read-log2.hist" "$tmp/tfr/1.hist"
"$HISTTOP" --replay "$tmp/tfr" --textfile "$tmp/no/such/dir/x.prom" -n 1 2>/dev/null
is "$?" 1 "--textfile in a missing directory: exit 1"
"$HISTTOP" --replay "$tmp/tfr" --textfile "$tmp/tfr" -n 3 -d 0.01 2>/dev/null
is "$?" 1 "--textfile naming a directory: exit 1, at the first write"
is "$(ls "$tmp/tfr")" "1.hist" "and no temporary file is left"

# --- names and options that would mix with histtop's own or be ignored ------
for n in trigger build; do
	out=$("$HISTTOP" --replay "$tmp/tfr" --name $n -n 1 --openmetrics 2>&1)
	is "$?" 2 "--name $n is refused (exit 2): histtop_${n}_* is histtop's own"
done
"$HISTTOP" --replay "$tmp/tfr" -T 2 -n 1 --openmetrics >/dev/null 2>&1
is "$?" 2 "-T with --openmetrics is refused, not ignored"
"$HISTTOP" --replay "$tmp/tfr" --export "$tmp/x" --textfile "$tmp/x.prom" -n 1 >/dev/null 2>&1
is "$?" 2 "--export with --textfile is refused, not ignored"

# --- a --config that is no list of triggers ends at once ---------------------
timeout 20 "$HISTTOP" --config /dev/zero --openmetrics -n 1 >/dev/null 2>"$tmp/cz.err"
is "$?" 2 "--config /dev/zero: exit 2, at once"
like "$(cat "$tmp/cz.err")" 'larger than 1024 KiB' "and it says why"

# --- a value that sums an address field is never exported ------------------
mkdir -p "$tmp/av"
cat >"$tmp/av/1.hist" <<'HIST'
# event histogram
#
# trigger info: hist:keys=common_pid.execname:vals=hitcount,call_site,bytes_req:sort=hitcount:size=2048 [active]
#

{ common_pid: sh              [       642] } hitcount:          1  call_site: 18446744071579718093  bytes_req:         64
{ common_pid: cat             [       643] } hitcount:          3  call_site:    18446744065029738983  bytes_req:        192

Totals:
    Hits: 4
    Entries: 2
    Dropped: 0
HIST
out=$("$HISTTOP" --replay "$tmp/av" -n 1 -d 0.01 --textfile "$tmp/av.prom" 2>"$tmp/av.err")
is "$(grep -v '^#' "$tmp/av.prom" | grep -c 'call_site')" 0 \
	"vals=call_site (an address field summed): no call_site series"
like "$(grep -v '^#' "$tmp/av.prom")" '^histtop_replay_bytes_req_total\{comm="cat",pid="643"\} 192$' \
	"the other values of that trigger are exported"
addr=$(grep -v '^#' "$tmp/av.prom" | grep -oE '[0-9]{20}' | awk '$0 >= "18446462598732840960"' | head -n 1)
is "$addr" "" "no kernel address among the values"
like "$(cat "$tmp/av.err")" 'call_site hold kernel addresses: not exported' "histtop says why, once"

# --- node_exporter's textfile collector serves it --------------------------------
ne=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -z "$ne" ] || ! command -v curl >/dev/null 2>&1; then
	skip "node_exporter's textfile collector serves the numbers" \
		"prometheus-node-exporter or curl missing"
else
	port=$((20000 + $$ % 20000))
	"$ne" --web.listen-address=127.0.0.1:$port --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$tmp/tf" >"$tmp/ne.log" 2>&1 &
	nepid=$!
	scraped=
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		scraped=$(curl -sf "http://127.0.0.1:$port/metrics") && break
		sleep 0.25
	done
	kill $nepid
	wait $nepid 2>/dev/null
	nepid=
	like "$scraped" '^histtop_replay_count_total\{comm="fx_b",pid="183"\} 10000$' \
		"node_exporter's textfile collector serves the numbers"
	case $scraped in *textfile_scrape_error\ 0*) ok 0 "node_exporter: no textfile scrape error" ;;
	*) ok 1 "node_exporter: no textfile scrape error"; grep textfile "$tmp/ne.log" | head -3 ;; esac
fi
done_testing
