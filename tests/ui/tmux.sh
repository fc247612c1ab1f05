# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tmux helpers for the screen tests (after lib.sh): histtop runs in pane "t"
# of a private tmux server; every wait polls the pane's text, with a timeout.
command -v tmux >/dev/null || { echo "1..0 # SKIP no tmux"; exit 0; }
tmp=$(mktemp -d)
T="tmux -S $tmp/tmux-0"
trap '$T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# run W H ENV ARGS...: histtop in a fresh W x H pane, ENV as "VAR=x VAR2=y".
# Each run gets its own server: a new session on a server whose last one was
# just killed can reach it while it exits ("server exited unexpectedly").
_runs=0
run() {
	_w=$1 _h=$2 _env=$3
	shift 3
	$T kill-server 2>/dev/null
	_runs=$((_runs + 1))
	T="tmux -S $tmp/tmux-$_runs"
	$T new-session -d -s t -x "$_w" -y "$_h" \
		"TERM=screen $_env $HISTTOP $*; echo EXITED \$?; sleep 60"
}
screen() { $T capture-pane -p -t t; }
screen_e() { $T capture-pane -p -e -t t; }

# wait_for PATTERN [CMD]: until CMD's output (default: the screen) matches
# PATTERN (grep -E), up to 10 s; wait_gone: until it no longer does.
wait_for() {
	_i=0
	while [ $_i -lt 100 ]; do
		${2:-screen} | grep -qE -- "$1" && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
wait_gone() {
	_i=0
	while [ $_i -lt 100 ]; do
		${2:-screen} | grep -qE -- "$1" || return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
# wait_change TEXT [CMD]: until CMD's output (default: the screen) is no
# longer TEXT, up to 5 s.
wait_change() {
	_i=0
	while [ "$(${2:-screen})" = "$1" ]; do
		[ $_i -lt 50 ] || return 1
		sleep 0.1
		_i=$((_i + 1))
	done
}

# The screen's lines, each prefixed with the attributes it starts in
# ("rev dim " or "- "): tmux's -e output carries SGR state across lines.
attr_lines() {
	screen_e | awk '
	function sgr(seq,   n, c, i) {
		n = split(substr(seq, 3, length(seq) - 3), c, ";")
		if (n == 0) { rev = 0; dim = 0 }
		for (i = 1; i <= n; i++) {
			if (c[i] == "" || c[i] == 0) { rev = 0; dim = 0 }
			else if (c[i] == 7) rev = 1
			else if (c[i] == 27) rev = 0
			else if (c[i] == 2) dim = 1
			else if (c[i] == 22) dim = 0
		}
	}
	{
		line = $0
		while (match(line, /^\033\[[0-9;]*m/)) {
			sgr(substr(line, 1, RLENGTH))
			line = substr(line, RLENGTH + 1)
		}
		a = (rev ? "rev " : "") (dim ? "dim " : "")
		rest = line
		while (match(rest, /\033\[[0-9;]*m/)) {
			sgr(substr(rest, RSTART, RLENGTH))
			rest = substr(rest, RSTART + RLENGTH)
		}
		gsub(/\033\[[0-9;]*m/, "", line)
		printf "%s| %s\n", a == "" ? "- " : a, line
	}'
}
# The selected row's text (reverse video among the table's rows).
selected() { attr_lines | sed -n '6,$p' | sed '$d' | grep '^rev ' | head -n 1 | sed 's/^[a-z ]*| //'; }
# The column header line.
colhdr() { screen | sed -n 5p; }
# preload_shim NAME: build tests/ui/NAME.c into $tmp/NAME.so (the path in
# $shim) for LD_PRELOAD, or skip the whole test where that cannot work
# (an ASan build, no C compiler).
preload_shim() {
	shim=$tmp/$1.so
	if ldd "$HISTTOP" | grep -q libasan; then
		echo "1..0 # SKIP $1 is an LD_PRELOAD shim: none under ASan"
		exit 0
	fi
	if ! ${CC:-cc} -shared -fPIC -o "$shim" "${top_srcdir:-.}/tests/ui/$1.c" -ldl; then
		echo "1..0 # SKIP no C compiler for $1.c"
		exit 0
	fi
}
