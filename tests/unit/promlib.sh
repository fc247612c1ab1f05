# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# A real Prometheus for the host tests (sourced): started on a free
# loopback port with a temporary storage directory, stopped by its pid.

# prom_start CONFIG DIR: Prometheus with CONFIG, its data and log in DIR;
# sets $prom (its pid, and adds it to $pids) and $pport, or returns 1.
# A port taken between the pick and the bind is picked again (5 tries).
prom_start() {
	prom=
	_tries=0
	while [ -z "$prom" ] && [ $_tries -lt 5 ]; do
		_tries=$((_tries + 1))
		pport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		rm -rf "$2"
		mkdir -p "$2"
		prometheus --config.file="$1" --storage.tsdb.path="$2/data" \
			--web.listen-address="127.0.0.1:$pport" >"$2/log" 2>&1 &
		_p=$!
		_i=0
		while kill -0 $_p 2>/dev/null && [ $_i -lt 300 ] &&
			! curl -sf -m 1 "http://127.0.0.1:$pport/-/ready" >/dev/null 2>&1; do
			sleep 0.1
			_i=$((_i + 1))
		done
		if curl -sf -m 1 "http://127.0.0.1:$pport/-/ready" >/dev/null 2>&1; then
			prom=$_p
			pids="$prom $pids"
		else
			kill $_p 2>/dev/null
			wait $_p 2>/dev/null
		fi
	done
	[ -n "$prom" ]
}

# q QUERY: promtool query instant against it
q() { promtool query instant "http://127.0.0.1:$pport" "$1" 2>&1; }

# prom_wait_up JOB: until up{job=JOB} is 1 (30 s at most)
prom_wait_up() {
	_i=0
	while [ $_i -lt 150 ] && ! q "up{job=\"$1\"} == 1" | grep -q '=> 1'; do
		sleep 0.2
		_i=$((_i + 1))
	done
}

# prom_stop: stop it by its pid; its exit status
prom_stop() {
	kill "$prom"
	wait "$prom"
}

# prom_config TARGET FILE: a config scraping TARGET (ADDR:PORT) every
# second as job "histtop"
prom_config() {
	cat >"$2" <<EOC
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: histtop
    static_configs:
      - targets: ['$1']
EOC
}
