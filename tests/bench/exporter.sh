#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Benchmark, not a test (not in make check nor tests/all): what histtop's
# Prometheus exporter costs on the host, against fixture trees only
# (--attach --tracefs DIR, --replay DIR; never the machine's tracefs).
#
# For N entries of kernel-format hist text (keys=common_pid.execname,
# vals=hitcount,count, the format of tests/fixtures/612-read-execname.hist)
# it prints, per N and --max-series cap:
#   insns     instructions (callgrind) of one refresh plus one exposition,
#             what the exporter does every interval for one scraper: a run
#             with -n 2 minus one with -n 1 (--openmetrics batch).
#             "paused": --attach to a table that does not change between
#             the reads; "moving": --replay of two frames in which every
#             entry's hitcount and count moved on.
#   expo      of those, the exposition's part: main.c's update_expo()
#             (expo_update(), every refresh) and expo_render() (one
#             format, at the first scrape of it after a refresh),
#             inclusive; the rest is the read, the parse and the table.
#             Later scrapes of that refresh send the same buffer.
#   hwm_kib   peak RSS (VmHWM) of histtop --attach --listen after
#             $SCRAPES scrapes in each format (curl), a refresh between them
#   prom_b    bytes of the exposition, text format 0.0.4
#   om_b      bytes of the exposition, OpenMetrics 1.0
# Instruction counts repeat from run to run on a loaded machine; wall times
# do not, so none are taken.  The kernel's read of the same table needs a
# guest (tests/bench/run) and is not measured here.
#
# Usage: tests/bench/exporter.sh [N...]   (default: 1000 10000 131072)
#   HISTTOP   the binary (default: histtop/histtop of this tree)
#   CAPS      --max-series values (default: 10000 131072; a cap at or above
#             N gives the same numbers as no cap, so it is run once)
#   SCRAPES   scrapes per format before VmHWM is read (default: 5)
#   KEEP      a directory to keep the trees in (KEEP/N/fs, KEEP/N/replay),
#             for massif or perf afterwards
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
histtop=${HISTTOP:-$top/histtop/histtop}
caps=${CAPS:-10000 131072}
scrapes=${SCRAPES:-5}
sizes=${*:-1000 10000 131072}
ev=syscalls:sys_enter_read

for tool in valgrind callgrind_annotate curl; do
	command -v $tool >/dev/null || { echo "exporter.sh: $tool is needed" >&2; exit 1; }
done
[ -x "$histtop" ] || { echo "exporter.sh: no histtop at $histtop (make first)" >&2; exit 1; }
tmp=$(mktemp -d)
hpid=
trap '[ -z "$hpid" ] || { kill "$hpid" 2>/dev/null; wait "$hpid" 2>/dev/null; }; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# Hist text as the kernel prints it for N entries, sorted by count
# descending; BUMP moves every entry's hitcount and count on (a later frame).
gen() {	# N BUMP
	awk -v n="$1" -v bump="$2" 'BEGIN {
		printf "# event histogram\n#\n# trigger info: hist:keys=common_pid.execname:"
		printf "vals=hitcount,count:sort=count.descending:size=131072 [paused]\n#\n\n"
		hits = 0
		for (i = 0; i < n; i++) {
			h = (i * 7919) % 997 + 1 + bump
			c = (n - i) * 3 + h % 3 + bump * 3 * n
			printf "{ common_pid: %-16s[%10d] } hitcount: %10d  count: %10d\n",
				sprintf("task%d", i % 5000), 1000 + i, h, c
			hits += h
		}
		printf "\nTotals:\n    Hits: %d\n    Entries: %d\n    Dropped: 0\n", hits, n
	}'
}

# Instructions callgrind counts for histtop ARGS... (every thread), and
# those of update_expo() and expo_render() with what they call: "ALL EXPO"
insns() {	# ARGS...
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --log-file="$tmp/vg.log" \
		"$histtop" "$@" >/dev/null 2>"$tmp/err" ||
		{ echo "exporter.sh: histtop $*: failed" >&2; cat "$tmp/err" "$tmp/vg.log" >&2; exit 1; }
	all=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/vg.log")
	expo=$(callgrind_annotate --inclusive=yes "$tmp/cg.out" 2>/dev/null |
		awk '/:(update_expo|expo_render) \[/ { gsub(",", "", $1); n += $1 } END { print n + 0 }')
	echo "$all ${expo:-0}"
}

# One refresh plus the rendering, -n 2 minus -n 1: sets $all and $expo
refresh_insns() {	# ARGS...
	one=$(insns "$@" -n 1 -d 0.01 --openmetrics) || exit 1
	two=$(insns "$@" -n 2 -d 0.01 --openmetrics) || exit 1
	# shellcheck disable=SC2086 # two numbers each
	set -- $one $two
	all=$(($3 - $1))
	expo=$(($4 - $2))
}

# histtop --listen on the fixture: VmHWM after the scrapes, and the bytes of
# each format: sets $rss ("HWM PROM OM").  (Not in a subshell: the EXIT
# trap stops the server whatever fails.)
listen_rss() {	# CAP
	"$histtop" --attach --tracefs "$tmp/fs" -e $ev --max-series "$1" -d 0.2 \
		--listen 127.0.0.1:0 >/dev/null 2>"$tmp/listen.err" &
	hpid=$!
	i=0
	addr=
	while [ -z "$addr" ] && [ $i -lt 600 ] && kill -0 $hpid 2>/dev/null; do
		sleep 0.05
		addr=$(sed -n 's|^histtop: serving http://\(.*\)/metrics$|\1|p' "$tmp/listen.err")
		i=$((i + 1))
	done
	[ -n "$addr" ] || { echo "exporter.sh: --listen did not start" >&2; cat "$tmp/listen.err" >&2; exit 1; }
	# (503 until the first refresh is done)
	i=0
	while ! curl -sf -m 10 -o /dev/null "http://$addr/metrics" && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	i=0
	while [ $i -lt "$scrapes" ]; do
		curl -sf -m 30 -o "$tmp/prom" "http://$addr/metrics" || exit 1
		curl -sf -m 30 -H 'Accept: application/openmetrics-text' -o "$tmp/om" \
			"http://$addr/metrics" || exit 1
		sleep 0.25
		i=$((i + 1))
	done
	hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB$/\1/p' "/proc/$hpid/status")
	kill $hpid
	wait $hpid 2>/dev/null
	hpid=
	rss="$hwm $(wc -c <"$tmp/prom") $(wc -c <"$tmp/om")"
}

echo "entries cap paused_insns paused_expo moving_insns moving_expo hwm_kib prom_b om_b"
for n in $sizes; do
	rm -rf "$tmp/fs" "$tmp/replay"
	mkdir -p "$tmp/fs/events/${ev%%:*}/${ev#*:}" "$tmp/replay"
	gen "$n" 0 >"$tmp/fs/events/${ev%%:*}/${ev#*:}/hist"
	cp "$tmp/fs/events/${ev%%:*}/${ev#*:}/hist" "$tmp/replay/000001.hist"
	gen "$n" 1 >"$tmp/replay/000002.hist"
	[ -z "${KEEP:-}" ] || { mkdir -p "$KEEP/$n" && cp -R "$tmp/fs" "$tmp/replay" "$KEEP/$n/"; } || exit 1
	for cap in $caps; do
		refresh_insns --attach --tracefs "$tmp/fs" -e $ev --max-series "$cap"
		paused="$all $expo"
		refresh_insns --replay "$tmp/replay" --max-series "$cap"
		listen_rss "$cap"
		echo "$n $cap $paused $all $expo $rss"
		[ "$cap" -lt "$n" ] || break
	done
done
