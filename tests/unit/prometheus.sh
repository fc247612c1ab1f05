#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A real Prometheus (Debian's) scrapes the endpoint: it negotiates
# OpenMetrics, stores the exposition's exact values and escaped labels, and
# promtool query instant gives them back.  Prometheus runs on loopback with
# a temporary storage directory and is stopped by its pid.  The rule file of
# docs/prometheus.md passes promtool check rules, its scrape config
# promtool check config.
. "${top_srcdir:-.}/tests/ui/lib.sh"
. "${top_srcdir:-.}/tests/unit/promlib.sh"
HTTPD=${top_builddir:-.}/tests/unit/httpd
# shellcheck disable=SC2015
command -v prometheus >/dev/null && command -v promtool >/dev/null &&
	command -v curl >/dev/null && command -v python3 >/dev/null ||
	{ echo "1..0 # SKIP prometheus, promtool, curl and python3 are needed"; exit 0; }
tmp=$(mktemp -d)
pids=
# shellcheck disable=SC2154
trap 'for p in $pids; do kill $p 2>/dev/null; wait $p 2>/dev/null; done; rm -rf "$tmp"' EXIT

# --- README.md and docs/prometheus.md: their scrape configs and rule files -
# the fenced block after the line naming FILE in DOC
block() { awk -v f="$1" 'index($0, f) { want = 1 } want && /^```/ { if (in_) exit; in_ = 1; next }
	in_ { print }' "$2"; }
for doc in README.md docs/prometheus.md; do
	block prometheus.yml "${top_srcdir:-.}/$doc" >"$tmp/doc-prometheus.yml"
	block histtop.rules.yml "${top_srcdir:-.}/$doc" >"$tmp/histtop.rules.yml"
	[ -s "$tmp/doc-prometheus.yml" ] && [ -s "$tmp/histtop.rules.yml" ]
	ok $? "$doc has a scrape config and a rule file"
	if (cd "$tmp" && promtool check config doc-prometheus.yml) >"$tmp/log" 2>&1; then
		ok 0 "$doc: promtool check config accepts the scrape config"
	else
		ok 1 "$doc: promtool check config accepts the scrape config"
		sed 's/^/#   /' "$tmp/log"
	fi
	if promtool check rules "$tmp/histtop.rules.yml" >"$tmp/log" 2>&1; then
		ok 0 "$doc: promtool check rules accepts the alert rule"
	else
		ok 1 "$doc: promtool check rules accepts the alert rule"
		sed 's/^/#   /' "$tmp/log"
	fi
done

# --- an exposition, in both formats ---------------------------------------
# a label value with every character the format escapes, a histogram, and a
# series that tells which format Prometheus got
cat >"$tmp/prom" <<'EOF'
# HELP t_hits_total Hits.
# TYPE t_hits_total counter
t_hits_total{comm="a\\b\"c\nd",pid="7"} 123456789
# HELP t_bytes Bytes.
# TYPE t_bytes histogram
t_bytes_bucket{le="8"} 3
t_bytes_bucket{le="16"} 5
t_bytes_bucket{le="+Inf"} 5
t_bytes_sum 52
t_bytes_count 5
# HELP t_format The format served.
# TYPE t_format gauge
t_format{format="text"} 1
EOF
sed -e 's/^# HELP t_hits_total/# HELP t_hits/' -e 's/^# TYPE t_hits_total/# TYPE t_hits/' \
	-e 's/format="text"/format="openmetrics"/' "$tmp/prom" >"$tmp/om"
echo '# EOF' >>"$tmp/om"
promtool check metrics <"$tmp/prom" >"$tmp/log" 2>&1
ok $? "promtool check metrics accepts the text exposition"

"$HTTPD" 127.0.0.1:0 "$tmp/prom" "$tmp/om" >"$tmp/out" 2>&1 &
httpd=$!
pids="$pids $httpd"
target=$(listening "$tmp/out")

# --- Prometheus on a free loopback port ---------------------------------------
prom_config "$target" "$tmp/prometheus.yml"
prom_start "$tmp/prometheus.yml" "$tmp/prometheus"
# shellcheck disable=SC2154 # pport is promlib.sh's
ok $? "Prometheus started on 127.0.0.1:$pport"
[ -n "$prom" ] || { tail -n 20 "$tmp/prometheus/log" | sed 's/^/#   /'; done_testing; }
prom_wait_up histtop
like "$(q 'up{job="histtop"}')" '=> 1 @' "it scraped the endpoint: up is 1"
like "$(q 't_format')" 'format="openmetrics".*=> 1 @' "it asked for and got OpenMetrics"
like "$(q 't_hits_total')" '^t_hits_total\{comm="a\\\\b\\"c\\nd", instance=".*", job="histtop", pid="7"\} => 123456789 @' \
	"the counter's exact value, its label escaped and back (backslash, quote, newline)"
like "$(q 't_bytes_bucket{le="16"}')" '=> 5 @' "a histogram bucket's count"
like "$(q 't_bytes_sum / t_bytes_count')" '=> 10.4 @' "the histogram's sum over count"
like "$(q 'histogram_quantile(0.5, t_bytes_bucket)')" '=> [0-9.]+ @' "histogram_quantile works on it"

prom_stop
is "$?" 0 "Prometheus stopped by its pid: exit 0"
pids=$httpd
done_testing
