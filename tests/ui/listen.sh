#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# histtop --listen on fixture trees (--tracefs DIR, never the machine's
# tracefs): a bad address or a port in use exits non-zero before anything is
# written under DIR; --attach serves the fixture's numbers with no kernel
# address; a real Prometheus scrapes it and promtool query instant gives
# the fixture's exact numbers back; SIGTERM, SIGINT and SIGHUP end it.
. "${top_srcdir:-.}/tests/ui/lib.sh"
. "${top_srcdir:-.}/tests/unit/promlib.sh"
# (a whole-file skip is the plan "1..0 # SKIP": tap-driver.sh takes exit 77 as an error)
"$HISTTOP" --help 2>&1 | grep -q -- '--listen' ||
	{ echo "1..0 # SKIP this histtop has no --listen"; exit 0; }
# shellcheck disable=SC2015
command -v curl >/dev/null && command -v python3 >/dev/null ||
	{ echo "1..0 # SKIP curl and python3 are needed"; exit 0; }
tmp=$(mktemp -d)
pids=
trap 'for p in $pids; do kill $p 2>/dev/null; wait $p 2>/dev/null; done; rm -rf "$tmp"' EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# every file and directory under DIR, with the files' contents
tree() { (cd "$1" && find . -printf '%y %p\n' | sort && find . -type f -exec md5sum {} + | sort -k2); }
# A fixture root with a user's instance NAME holding kmem:kmalloc.
userfs() {	# DIR NAME
	mkdir -p "$1/instances/$2/events/kmem/kmalloc"
	cp "$FIXTURES/kmalloc-sym.hist" "$1/instances/$2/events/kmem/kmalloc/hist"
	: >"$1/instances/$2/events/kmem/kmalloc/trigger"
}
ev="-e kmem:kmalloc -k call_site.sym -v bytes_req --name km"

# --- the address is checked before any trigger is installed ----------------
userfs "$tmp/fs" mine
before=$(tree "$tmp/fs")
for bad in 999.1.1.1:9100 127.0.0.1:99999 nosuchhost.invalid:1 192.0.2.1:9100; do
	# shellcheck disable=SC2086
	out=$("$HISTTOP" $ev --tracefs "$tmp/fs" --instance mine --listen "$bad" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && case $out in *"--listen $bad"*) true ;; *) false ;; esac
	ok $? "--listen $bad: exit $rc with a message naming it"
	is "$(tree "$tmp/fs")" "$before" "--listen $bad: nothing written under the tracefs tree"
done
# shellcheck disable=SC2154
"$top_builddir/tests/unit/httpd" 127.0.0.1:0 >"$tmp/httpd" 2>&1 &
holder=$!
pids="$pids $holder"
taken=$(listening "$tmp/httpd")
# shellcheck disable=SC2086
out=$("$HISTTOP" $ev --tracefs "$tmp/fs" --instance mine --listen "$taken" 2>&1)
rc=$?
[ $rc -ne 0 ]
ok $? "--listen on a port in use: exit $rc"
like "$out" 'Address already in use' "and the message says the port is taken"
is "$(tree "$tmp/fs")" "$before" "a port in use: nothing written under the tracefs tree"
kill $holder
wait $holder 2>/dev/null

# --- --attach: the fixture's numbers, no kernel address ---------------------
fakefs "$tmp/afs" kmem kmalloc kmalloc-sym.hist
start_histtop() {	# ARGS...: histtop --listen on a free port; sets $hpid, $hport
	tries=0
	hpid=
	while [ -z "$hpid" ] && [ $tries -lt 5 ]; do
		tries=$((tries + 1))
		hport=$(free_port)
		"$HISTTOP" "$@" --listen "127.0.0.1:$hport" >"$tmp/histtop.out" 2>&1 &
		p=$!
		i=0
		while kill -0 $p 2>/dev/null && [ $i -lt 200 ] &&
			! curl -sf -m 1 -o /dev/null "http://127.0.0.1:$hport/metrics"; do
			sleep 0.05
			i=$((i + 1))
		done
		if kill -0 $p 2>/dev/null; then
			hpid=$p
			pids="$hpid $pids"
		fi
	done
	[ -n "$hpid" ]
}
# shellcheck disable=SC2086
start_histtop -e kmem:kmalloc --name km --attach \
	--tracefs "$tmp/afs" -d 0.2
ok $? "histtop --attach --tracefs FIXTURE --listen 127.0.0.1:$hport serves /metrics"
curl -s -m 5 "http://127.0.0.1:$hport/metrics" >"$tmp/metrics"
like "$(cat "$tmp/metrics")" '^histtop_km_hits_total\{call_site="proc_pid_readlink"\} 2$' \
	"proc_pid_readlink's hits: 2, as in the fixture"
like "$(cat "$tmp/metrics")" '^histtop_km_bytes_req_total\{call_site="proc_pid_readlink"\} 8192$' \
	"its bytes_req: 8192"
addr=$(grep -ciE 'ffffffff|0x[0-9a-f]{8,}|\[[0-9a-f]{8,}\]' "$tmp/metrics")
is "$addr" 0 "no kernel address anywhere on the endpoint"
if command -v promtool >/dev/null; then
	promtool check metrics <"$tmp/metrics" >"$tmp/log" 2>&1
	ok $? "promtool check metrics accepts it"
	# shellcheck disable=SC2181
	[ $? -eq 0 ] || sed 's/^/#   /' "$tmp/log" | head -n 20
fi

# --- a real Prometheus scrapes it ---------------------------------------------
if command -v prometheus >/dev/null && command -v promtool >/dev/null; then
	prom_config "127.0.0.1:$hport" "$tmp/prometheus.yml"
	prom_start "$tmp/prometheus.yml" "$tmp/prometheus"
	# shellcheck disable=SC2154 # pport is promlib.sh's
	ok $? "Prometheus started on 127.0.0.1:$pport"
	prom_wait_up histtop
	like "$(q 'histtop_km_hits_total{call_site="proc_pid_readlink"}')" '=> 2 @' \
		"promtool query instant: proc_pid_readlink's hits are 2"
	like "$(q 'histtop_km_bytes_req_total{call_site="proc_pid_readlink"}')" '=> 8192 @' \
		"and its bytes_req 8192"
	like "$(q 'sum(histtop_km_hits_total)')" '=> 32 @' "the hits sum to the fixture's Totals: 32"
	prom_stop
	ok $? "Prometheus stopped by its pid"
else
	ok 0 "# SKIP prometheus and promtool are not installed"
fi

# --- SIGTERM, SIGINT, SIGHUP end it ---------------------------------------------
for sig in TERM INT HUP; do
	[ -n "$hpid" ] || start_histtop -e kmem:kmalloc --attach --tracefs "$tmp/afs" -d 0.2
	t0=$(date +%s%3N)
	kill -"$sig" "$hpid"
	wait "$hpid"
	rc=$?
	t=$(($(date +%s%3N) - t0))
	pids=
	hpid=
	[ $t -lt 3000 ]
	ok $? "SIG$sig: histtop ended in $t ms (exit $rc)"
	curl -s -m 2 -o /dev/null "http://127.0.0.1:$hport/metrics"
	# shellcheck disable=SC2181
	[ $? -ne 0 ]
	ok $? "SIG$sig: the port is closed"
done
done_testing
