#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The endpoint (histtop/http.c) alone, through tests/unit/httpd: what
# GET /metrics serves and in which format, the answers to everything else,
# and clients that try to push it over (idle, half-sent, slow, never
# reading, oversized, garbage): scrapes stay fast and memory stays bounded.
. "${top_srcdir:-.}/tests/ui/lib.sh"
HTTPD=${top_builddir:-.}/tests/unit/httpd
CLIENTS="python3 ${top_srcdir:-.}/tests/unit/httpclients.py"
# shellcheck disable=SC2015
command -v curl >/dev/null && command -v python3 >/dev/null ||
	{ echo "1..0 # SKIP curl and python3 are needed"; exit 0; }
tmp=$(mktemp -d)
pids=
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$tmp"' EXIT

# Start httpd ARGS... in the background; sets $pid and $port.
start() {
	rm -f "$tmp/out"
	"$HTTPD" "$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	pids="$pids $pid"
	port=$(listening "$tmp/out")
	port=${port##*:}
	[ -n "$port" ] || diag "httpd $* did not say where it listens: $(cat "$tmp/err")"
}
stop() {
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}
# curl against the last started server: code, content type, body to $tmp/body
get() {	# PATH [CURL ARGS...]
	p=$1
	shift
	curl -s -m 5 --path-as-is -o "$tmp/body" -w '%{http_code} %{content_type}' "$@" \
		"http://127.0.0.1:$port$p"
}
ms() { date +%s%3N; }

prom_accept='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
printf '# HELP t_total A test.\n# TYPE t_total counter\nt_total{k="a\\\\b\\"c"} 42\n' >"$tmp/prom"
printf '# HELP t A test.\n# TYPE t counter\nt_total{k="a\\\\b\\"c"} 42\n# EOF\n' >"$tmp/om"

# --- Accept negotiation ----------------------------------------------------
acc() { "$HTTPD" --accept "$1"; }
is "$(acc "$prom_accept")" openmetrics "Accept: Prometheus 2.42's header gets OpenMetrics"
is "$(acc 'text/plain;version=0.0.4')" text "Accept: text/plain gets the text format"
is "$(acc '*/*')" text "Accept: */* gets the text format"
is "$(acc 'application/openmetrics-text')" openmetrics "Accept: openmetrics without parameters"
is "$(acc 'application/openmetrics-text; q=0')" text "q=0 refuses OpenMetrics"
is "$(acc 'text/plain;q=0.9, application/openmetrics-text;q=0.8')" text \
	"the higher q wins (text/plain 0.9 over openmetrics 0.8)"
is "$(acc 'text/plain, application/openmetrics-text')" text "equal q: the first written wins"
is "$(acc 'Application/OpenMetrics-Text ; Version="1.0.0" ; Q=0.5 , text/plain;q=0.4')" openmetrics \
	"types and parameters are case-insensitive, quoted, spaced"
is "$(acc 'application/openmetrics-text;version=2.0.0,text/plain;q=0.1')" text \
	"an OpenMetrics version histtop does not write is not taken"
is "$(acc ';;;,,,;q=;version=,=,application/openmetrics-text;q=nan')" text \
	"a garbage header: the text format"

# --- before the first publish ---------------------------------------------
start 127.0.0.1:0
like "$(cat "$tmp/out")" '^listening on 127\.0\.0\.1:[1-9][0-9]*$' "127.0.0.1:0 binds a free port and says which"
is "$(get /metrics)" "503 text/plain; charset=utf-8" "before the first publish: 503"
stop

# --- what /metrics serves ----------------------------------------------------
start -r 5 127.0.0.1:0 "$tmp/prom" "$tmp/om"
is "$(get /metrics)" "200 text/plain; version=0.0.4; charset=utf-8" \
	"GET /metrics: 200, the text format's content type"
cmp -s "$tmp/body" "$tmp/prom"
ok $? "the body is the published exposition, byte for byte"
is "$(get /metrics -H "Accept: $prom_accept")" \
	"200 application/openmetrics-text; version=1.0.0; charset=utf-8" \
	"Prometheus' Accept: OpenMetrics' content type"
cmp -s "$tmp/body" "$tmp/om"
ok $? "and the OpenMetrics exposition"
is "$(get '/metrics?x=1')" "200 text/plain; version=0.0.4; charset=utf-8" "a query string is ignored"
head=$(curl -s -m 5 -I "http://127.0.0.1:$port/metrics" | tr -d '\r')
like "$head" '^HTTP/1\.1 200' "HEAD /metrics: 200"
like "$head" "^Content-Length: $(wc -c <"$tmp/prom")\$" "HEAD: the GET's length"
n=$(curl -s -m 5 -I "http://127.0.0.1:$port/metrics" -o /dev/null -w '%{size_download}')
is "$n" 0 "HEAD: no body"
kept=$(curl -sv -m 5 "http://127.0.0.1:$port/metrics" "http://127.0.0.1:$port/metrics" 2>&1 >/dev/null |
	grep -c 'Re-using existing connection')
is "$kept" 1 "a second scrape reuses the connection (keep-alive)"

# --- everything else ---------------------------------------------------------
for p in / /metricsx /metrics/ /favicon.ico /../metrics '/%00'; do
	is "$(get "$p" | cut -d' ' -f1)" 404 "GET $p: 404"
done
for m in POST PUT DELETE OPTIONS PATCH TRACE BREW; do
	is "$(get /metrics -X "$m" -d x | cut -d' ' -f1)" 405 "$m /metrics: 405"
done
allow=$(curl -s -m 5 -i -X POST -d x "http://127.0.0.1:$port/metrics" | tr -d '\r' | grep -i '^Allow:')
is "$allow" "Allow: GET, HEAD" "405 names the allowed methods"
big=$(head -c 40000 /dev/zero | tr '\0' a)
code=$(get /metrics -H "X-Big: $big" | cut -d' ' -f1)
case $code in 4??) ok 0 "a 40 KB header: $code" ;; *) ok 1 "a 40 KB header: 4xx, got $code" ;; esac
code=$(get "/metrics?$big" | cut -d' ' -f1)
case $code in 4??) ok 0 "a 40 KB URL: $code" ;; *) ok 1 "a 40 KB URL: 4xx, got $code" ;; esac
hdrs=
i=0
while [ $i -lt 300 ]; do hdrs="$hdrs -H X-$i:$i"; i=$((i + 1)); done
# shellcheck disable=SC2086
code=$(get /metrics $hdrs | cut -d' ' -f1)
case $code in 4??) ok 0 "300 headers: $code" ;; *) ok 1 "300 headers: 4xx, got $code" ;; esac
# raw bytes: never a crash, a 4xx or a closed connection
for req in 'GARBAGE\r\n\r\n' 'GET /metrics HTTP/9.9\r\n\r\n' 'GET\r\n\r\n' \
	'GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n' \
	'GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n' \
	'GET /metrics HTTP/1.1\r\nHost: \000\377\r\n\r\n' '\000\000\000\000\r\n\r\n' \
	'GET /metrics HTTP/1.1\r\n: \r\n\r\n'; do
	# shellcheck disable=SC2059
	st=$(printf "$req" | $CLIENTS raw "$port")
	desc=$(printf '%s' "$req" | sed 's/\\r\\n.*//' | tr -c -d 'A-Za-z0-9/. ')
	case $st in "HTTP/1.1 "[2345]*|closed) ok 0 "raw '$desc...': $st" ;;
	*) ok 1 "raw '$desc...': a status or a close, got '$st'" ;; esac
done
kill -0 "$pid" 2>/dev/null
ok $? "the server is still running after every malformed request"
is "$(get /metrics | cut -d' ' -f1)" 200 "and still serves /metrics"
stop

# --- a format is rendered when asked for, once a publish -------------------
# the first publish follows the "listening" line: scrape until it is there
published() {
	i=0
	until [ "$(get /metrics | cut -d' ' -f1)" = 200 ] || [ $i -ge 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}
start 127.0.0.1:0 "$tmp/prom" "$tmp/om"
published
for i in 1 2; do get /metrics >/dev/null; done
stop
is "$(tail -n 1 "$tmp/out")" "renders: text 1 openmetrics 0" \
	"three text scrapes of one publish: the text format rendered once, OpenMetrics never"
start 127.0.0.1:0 "$tmp/prom" "$tmp/om"
published
for i in 1 2; do get /metrics >/dev/null; get /metrics -H "Accept: $prom_accept" >/dev/null; done
cmp -s "$tmp/body" "$tmp/om"
ok $? "the OpenMetrics body after a text scrape of the same publish"
stop
is "$(tail -n 1 "$tmp/out")" "renders: text 1 openmetrics 1" "two scrapes of each format: each rendered once"

# --- clients that try to push it over ---------------------------------------
# a large exposition (2 MiB), republished every 50 ms while scrapes go on
i=0
: >"$tmp/bigprom"
awk 'BEGIN { printf "# TYPE big_total counter\n";
	for (i = 0; i < 60000; i++) printf "big_total{key=\"k%07d\"} %d\n", i, i }' >"$tmp/bigprom"
# (an ASan build keeps freed memory in quarantine: not for this measure)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0 start -r 50 127.0.0.1:0 "$tmp/bigprom"
get /metrics >/dev/null
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"; }
rss0=$(rss)
$CLIENTS hold "$port" 25 25 25 25 30 >"$tmp/hold" 2>&1 &
holder=$!
pids="$pids $holder"
i=0
while ! grep -q '^ready' "$tmp/hold" && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
is "$(head -n 1 "$tmp/hold")" "ready 100" \
	"100 clients connected: 25 idle, 25 half-sent, 25 sending a byte every 0.5 s, 25 never reading"
sleep 1
worst=0 bad=0
i=0
while [ $i -lt 10 ]; do
	t0=$(ms)
	st=$(get /metrics)
	t=$(($(ms) - t0))
	[ "$st" = "200 text/plain; version=0.0.4; charset=utf-8" ] && cmp -s "$tmp/body" "$tmp/bigprom" ||
		bad=$((bad + 1))
	[ $t -gt $worst ] && worst=$t
	i=$((i + 1))
done
is "$bad" 0 "10 scrapes beside them: each a 200 with the whole 2 MiB exposition"
[ "$worst" -lt 1000 ]
ok $? "each scrape took under a second (the slowest: $worst ms)"
rss1=$(rss)
grow=$((rss1 - rss0))
# each connection holds at most HTTP_CONN_MEMORY (16 KiB) of its own; the
# exposition is shared, not copied per client (100 copies: 200 MiB)
[ "$grow" -lt 16384 ]
ok $? "memory with 100 clients and 10 scrapes: +$grow KiB over $rss0 KiB (bound: 16 MiB)"
kill -0 "$pid" 2>/dev/null
ok $? "the server is still running"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null

# an idle connection is closed after the timeout (10 s)
t=$($CLIENTS closed "$port" 15)
case $t in open) ok 1 "an idle connection is closed within 15 s: still open" ;;
*) ok 0 "an idle connection is closed after $t s (the timeout is 10 s)" ;; esac

# SIGTERM with clients connected: a prompt, clean exit
$CLIENTS hold "$port" 5 5 0 5 30 >"$tmp/hold" 2>&1 &
holder=$!
pids="$pids $holder"
i=0
while ! grep -q '^ready' "$tmp/hold" && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
t0=$(ms)
kill -TERM "$pid"
wait "$pid"
rc=$?
t=$(($(ms) - t0))
is "$rc" 0 "SIGTERM with 15 clients connected: exit 0"
[ $t -lt 2000 ]
ok $? "within 2 s ($t ms)"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null

# --- addresses ---------------------------------------------------------------
start 127.0.0.1:0 "$tmp/prom"
"$HTTPD" "127.0.0.1:$port" "$tmp/prom" >"$tmp/out2" 2>"$tmp/err2"
is "$?" 1 "a port in use: exit 1"
like "$(cat "$tmp/err2")" "^httpd: --listen 127\.0\.0\.1:$port: Address already in use" \
	"and the message says so"
stop
for bad in 999.1.1.1:9100 127.0.0.1:99999 127.0.0.1:http 127.0.0.1 :: ::1:9100 '[::1]9100' \
	'[::1' nosuchhost.invalid:9100 '' ':' '127.0.0.1:' 192.0.2.1:9100; do
	"$HTTPD" "$bad" >/dev/null 2>"$tmp/err2"
	rc=$?
	e=$(cat "$tmp/err2")
	[ $rc -eq 1 ] && case $e in "httpd: --listen $bad: "?*) true ;; *) false ;; esac
	ok $? "--listen '$bad': exit 1 with a message ($e)"
done
start :0 "$tmp/prom"
like "$(cat "$tmp/out")" '^listening on (\[::\]|0\.0\.0\.0):[0-9]+$' ":0 binds every address"
is "$(get /metrics | cut -d' ' -f1)" 200 "and answers on 127.0.0.1"
stop
if python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null; then
	start '[::1]:0' "$tmp/prom"
	like "$(cat "$tmp/out")" '^listening on \[::1\]:[0-9]+$' "[::1]:0 binds IPv6 loopback"
	code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://[::1]:$port/metrics")
	is "$code" 200 "and answers there"
	stop
else
	ok 0 "# SKIP no IPv6 loopback"
fi
start localhost:0 "$tmp/prom"
like "$(cat "$tmp/out")" '^listening on 127\.0\.0\.1:[0-9]+$' "localhost is 127.0.0.1"
stop
done_testing
